"""``labelrender admin dlq``: inspect and replay webhook dead letters.

``list [--tenant T]`` prints the dead letters, oldest first. ``replay``
(``--event-id ID``, ``--tenant T`` or ``--all``) schedules the chosen ones
again from their first attempt, due now, under their own event ids, and
removes them from the dead-letter stream (DECISIONS.md "Webhooks").
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import redis

from labelrender.store import deliveries
from labelrender.store.errors import NotFound


def add_dlq_parser(objects: argparse._SubParsersAction[argparse.ArgumentParser],
                   run: Callable[[argparse.Namespace], int]) -> None:
    dlq = objects.add_parser("dlq", help="webhook dead letters: list and replay")
    actions = dlq.add_subparsers(dest="action", required=True)
    p = actions.add_parser("list", help="dead letters, oldest first")
    p.add_argument("--tenant", default=None, help="only this tenant's")
    p.set_defaults(run=run, admin=dlq_list)
    p = actions.add_parser("replay", help="deliver dead letters again (same event ids)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--event-id", default=None, help="the dead letters of this event")
    which.add_argument("--tenant", default=None, help="every dead letter of this tenant")
    which.add_argument("--all", action="store_true", help="every dead letter")
    p.set_defaults(run=run, admin=dlq_replay)


def dlq_list(r: redis.Redis, args: argparse.Namespace) -> object:
    letters = deliveries.dead_letters(r, args.tenant)
    return {"dead_letters": [letter.to_dict() for letter in letters]}


def dlq_replay(r: redis.Redis, args: argparse.Namespace) -> object:
    letters = deliveries.dead_letters(r, args.tenant)
    if args.event_id is not None:
        letters = [d for d in letters if d.delivery.event.event_id == args.event_id]
        if not letters:
            raise NotFound("dead letter of event", args.event_id)
    replayed = deliveries.replay(r, letters, time.time())
    return {"replayed": replayed,
            "event_ids": sorted({d.delivery.event.event_id for d in letters})}
