"""``labelrender admin migrate``: move the data of a release before tenant
groups to today's key names (``store.migrate``), in place, on the single Redis
it ran on, with the service stopped. It prints what it did as JSON; a second
run finds nothing to move and says so. Keys it could not move (their new name
already holds data) are listed, and the command exits 1 with one line."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import redis

from labelrender.store.migrate import MigrationRefused, migrate

DESCRIPTION = (
    "Move the data of a release before tenant groups (keys named lr:tenant:..., one "
    "render stream) to today's key names, in place, on the single Redis it ran on. "
    "Stop every api, worker and operator first. Prints what it did as JSON; a second "
    "run finds nothing to move. On a Redis Cluster it refuses: migrate the single Redis, "
    "then import its data into the cluster.")


def add_migrate_parser(objects: argparse._SubParsersAction[argparse.ArgumentParser],
                       run: Callable[[argparse.Namespace], int]) -> None:
    p = objects.add_parser(
        "migrate", help="move data of a release before tenant groups to today's key names",
        description=DESCRIPTION)
    p.set_defaults(run=run, admin=run_migrate)


def run_migrate(r: redis.Redis, _args: argparse.Namespace) -> object:
    report = migrate(r).to_dict()
    if report["kept"]:
        first = report["kept"][0]
        raise MigrationRefused(
            f"{len(report['kept'])} keys or entries were not moved (first: {first}): their "
            "new names already hold data, or they name no tenant; stop every api, worker "
            "and operator, look at them, delete the copy you do not want, and run the "
            "migration again")
    return report
