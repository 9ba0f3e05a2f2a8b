"""``serve``'s API processes: several event loops behind one port.

One API process is one event loop on one core: about 240 uncached requests or
1,300 cached hits a second. With ``api_processes`` above one, ``serve`` runs
no API itself; it starts that many API processes, each listening on the port
with a socket of its own (``SO_REUSEPORT``: the kernel spreads new connections
over them), and supervises them as it does the workers (``Supervisor``): a
dead one is reaped, what it left (its engine processes) is killed, and
another starts. SIGINT or SIGTERM stops them all, each finishing the
requests it is answering.

Nothing a request needs from another request lives only in one API process:
keys, plans, quotas, rates, idempotency records, the single-flight claims of
renders in progress and their outcomes are in Redis, read on each request.
What an API process keeps in memory is keyed by what can never change under
the key (a stored object's key and creation time, a plan's stored JSON), so
another process's writes cannot make it stale.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Semaphore
from pathlib import Path
from typing import Any

from labelrender.cli.common import EXIT_UNAVAILABLE, configure_logging
from labelrender.cli.supervisor import Supervisor
from labelrender.store.settings import Settings, build_object_store, connect_redis

log = logging.getLogger(__name__)

PROCESS_NAME = "labelrender-api"  # /proc/<pid>/comm of an API process (15 bytes at most)
READY_TIMEOUT_S = 60.0  # every API process serving, before the "API at" line anyway
WAIT_S = 0.2
ONE_ENGINE_PROCESS = 1  # each API process's engine processes when several share the work
_PR_SET_NAME = 15  # linux/prctl.h


def api_settings(settings: Settings, redis_url: str, port: int, count: int) -> Settings:
    """What the API processes run with: ``serve``'s Redis at ``redis_url``, the
    port ``serve`` checked, no probe or metrics port of their own; and, unless
    set, one engine process each (their sum is the engine work one API
    process would have had two for)."""
    update: dict[str, Any] = {"redis_url": redis_url, "port": port, "health_port": None,
                              "worker_metrics_port": None}
    if count > 1 and "api_engine_processes" not in settings.model_fields_set:
        update["api_engine_processes"] = ONE_ENGINE_PROCESS
    return settings.model_copy(update=update)


@dataclass
class ApiProcesses:
    """``count`` API processes on ``settings.port``, supervised (module doc)."""

    settings: Settings
    count: int
    metrics_dir: Path  # emptied here: the processes' metrics (ApiConfig.metrics_dir)
    also_own: Callable[[], Iterable[int]] = tuple
    _ready: Semaphore = field(
        default_factory=lambda: multiprocessing.get_context("spawn").Semaphore(0))
    supervisor: Supervisor = field(init=False)

    def __post_init__(self) -> None:
        shutil.rmtree(self.metrics_dir, ignore_errors=True)
        self.metrics_dir.mkdir(parents=True)
        self.supervisor = Supervisor(
            partial(start_api_process, self.settings, str(self.metrics_dir), self._ready),
            self.count, kind="API process", on_death=self._forget_gauges,
            also_own=lambda: self.also_own())

    def pids(self) -> list[int]:
        return self.supervisor.pids()

    def _forget_gauges(self, pid: int) -> None:
        """A dead process's gauges no longer count (its counters still do)."""
        from prometheus_client.multiprocess import mark_process_dead

        mark_process_dead(pid, str(self.metrics_dir))  # type: ignore[no-untyped-call]

    def run(self, announce: Callable[[], None]) -> None:
        """Start them, ``announce()`` once they all serve, and serve until SIGINT
        or SIGTERM; then stop them."""
        with stop_signals() as stop:
            self.supervisor.start()
            try:
                self._wait_ready(stop)
                if not stop.is_set():
                    announce()
                while not stop.wait(1.0):
                    pass
            finally:
                self.supervisor.stop()

    def _wait_ready(self, stop: threading.Event) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        serving = 0
        while serving < self.count and not stop.is_set() and time.monotonic() < deadline:
            serving += self._ready.acquire(timeout=WAIT_S)
        if serving < self.count and not stop.is_set():
            log.warning("%d of %d API processes serve after %.0f s; the others keep "
                        "starting", serving, self.count, READY_TIMEOUT_S)


@contextmanager
def stop_signals() -> Iterator[threading.Event]:
    """An event set by the first SIGINT or SIGTERM; a second one meanwhile acts
    as it would without us (Ctrl-C interrupts)."""
    stop = threading.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.getsignal(signum) for signum in signals}

    def on_signal(_signum: int, _frame: object) -> None:
        stop.set()
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    for signum in signals:
        signal.signal(signum, on_signal)
    try:
        yield stop
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def start_api_process(settings: Settings, metrics_dir: str, ready: Semaphore, index: int
                      ) -> BaseProcess:
    """An API process; spawned, not forked, so it inherits no Redis connections
    or threads from ``serve``."""
    process = multiprocessing.get_context("spawn").Process(
        target=api_main, args=(settings, os.getpid(), metrics_dir, ready),
        name=f"{PROCESS_NAME}-{index}")
    process.start()
    return process


def api_main(settings: Settings, parent_pid: int, metrics_dir: str, ready: Semaphore) -> None:
    """Entry point of an API process started by ``serve``: its own socket on the
    port, its own Redis pools and engine processes, then the API."""
    # Read by prometheus_client when it is first imported, which is below.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    from labelrender.api import server
    from labelrender.cli import serve as serve_command
    from labelrender.cli.api import load_app_factory, run_api

    os.setpgrp()  # as a worker: Ctrl-C reaches only serve, which stops us once
    name_process(PROCESS_NAME)
    configure_logging(settings)
    threading.Thread(target=serve_command._exit_with_parent, args=(parent_pid,),
                     daemon=True).start()
    try:
        sock = server.listen(settings.host, settings.port, settings.http_listen_backlog,
                             reuse_port=True)
    except OSError as exc:
        log.error("API process cannot listen on %s:%d: %s", settings.host, settings.port,
                  exc.strerror or exc)
        sys.exit(EXIT_UNAVAILABLE)
    run_api(settings, load_app_factory(metrics_dir), connect_redis(settings),
            build_object_store(settings), sock, ready=ready.release)


def name_process(name: str) -> None:
    """``/proc/<pid>/comm`` (what ``ps`` and ``top`` show): Linux only."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)
    except (OSError, AttributeError):
        pass


def port_of(sock: socket.socket) -> int:
    """The port ``sock`` is bound to (``--port 0``: the one the kernel chose)."""
    return int(sock.getsockname()[1])


def reuse_port_available() -> bool:
    """Several listeners on one port need ``SO_REUSEPORT`` (Linux, the BSDs)."""
    return hasattr(socket, "SO_REUSEPORT") and sys.platform.startswith("linux")
