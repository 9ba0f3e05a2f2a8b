"""``labelrender worker``: one render worker, against ``REDIS_URL`` and ``S3_*``."""

from __future__ import annotations

import argparse

from labelrender.cli.common import run_service, shared_redis_settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "worker", help="run one render worker (against REDIS_URL, S3_*)",
        description="Run one render worker: it takes render and synthesis jobs from "
                    "Redis (REDIS_URL), stores labels in the object storage (S3_*; unset: "
                    "files in LABELRENDER_DATA_DIR), and delivers webhooks. Its processes: "
                    "LABELRENDER_RENDER_PROCESSES; probes on LABELRENDER_HEALTH_PORT. Exit "
                    "codes: 0 stopped, 2 invalid configuration, 3 Redis unreachable.")
    p.set_defaults(run=worker_command)


def worker_command(_args: argparse.Namespace) -> int:
    from labelrender.worker.run import run_worker

    return run_service("worker", lambda: run_worker(shared_redis_settings("worker")))
