"""What ``serve`` does for the worker processes it starts: keep ``count`` of
them running, and leave nothing behind when one dies.

- **A dead worker is replaced.** The supervisor thread waits on the workers'
  sentinels, so a death is seen at once. The worker is reaped (never a
  zombie), logged with how it ended, its stream entries are handed over
  (``on_death``: they become claimable at once instead of after the claim
  timeout), and a new worker starts: at once the first time, then after
  ``RestartPolicy.delays_s`` while the slot's workers keep dying within
  ``stable_after_s`` of starting, so a worker that cannot start does not spin.
- **Nothing of it is left.** ``serve`` is a child subreaper
  (``PR_SET_CHILD_SUBREAPER``): what a dead worker started (its forkserver,
  whose render processes are forked from it) is reparented to ``serve``
  rather than to init. A worker is the leader of its own process group
  (``worker_main``), and its forkserver and render processes stay in it, so
  the group names everything a worker left: the supervisor kills those of
  its members that are its children now, and reaps every zombie child it did
  not start itself. It kills only its own children, whose process ids cannot
  be reused before it reaps them.
- **A dead embedded Redis stops ``serve``.** The supervisor watches its
  process; if it dies, ``on_redis_death`` is called once (``serve`` stops
  everything and exits with one line), and no worker is started again.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing import forkserver, resource_tracker
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import cast

log = logging.getLogger(__name__)

_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
TICK_S = 0.5
STOP_TIMEOUT_S = 30.0  # a render has a 4 s deadline; then storage
LEFTOVERS_TIMEOUT_S = 5.0
# How often the process table is read for zombies when no ended worker left
# anything behind (each read walks all of /proc: a cost on the API's cores).
SWEEP_S = 5.0


@dataclass(frozen=True)
class RestartPolicy:
    """Delays before a slot's next worker: the first after a death, then the
    next each time the new worker also died within ``stable_after_s``."""

    delays_s: tuple[float, ...] = (0.0, 1.0, 2.0, 5.0, 10.0, 30.0)  # the last repeats
    stable_after_s: float = 10.0  # longer than a worker takes to start and fail

    def delay(self, deaths: int) -> float:
        return self.delays_s[min(deaths, len(self.delays_s)) - 1]


@dataclass(frozen=True)
class Proc:
    """One line of /proc/<pid>/stat, the fields we read."""

    pid: int
    state: str
    ppid: int
    pgrp: int


@dataclass
class _Slot:
    index: int
    process: BaseProcess | None = None
    started: float = 0.0
    deaths: int = 0
    restart_at: float | None = None


@dataclass
class Supervisor:
    """Keeps ``count`` workers from ``start_worker(index)`` running (module doc)."""

    start_worker: Callable[[int], BaseProcess]
    count: int
    on_death: Callable[[int], None] = lambda pid: None
    redis_pid: int | None = None
    on_redis_death: Callable[[], None] = lambda: None
    policy: RestartPolicy = field(default_factory=RestartPolicy)
    # What the processes are called in the log ("worker", "API process"), and the
    # other children of this process that another supervisor starts and reaps.
    kind: str = "worker"
    also_own: Callable[[], Iterable[int]] = tuple
    replaced: int = 0  # workers started in place of dead ones
    redis_died: bool = False
    _slots: list[_Slot] = field(default_factory=list)
    _left_by: set[int] = field(default_factory=set)  # process groups of ended workers
    _swept_at: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the workers and the thread that watches them."""
        self._slots = [_Slot(index) for index in range(self.count)]
        for slot in self._slots:
            self._start(slot)
        self._thread = threading.Thread(target=self._run, name="supervisor", daemon=True)
        self._thread.start()

    def pids(self) -> list[int]:
        """The running workers' process ids."""
        return [s.process.pid for s in self._slots if s.process and s.process.pid]

    def stop(self) -> None:
        """No more restarts; SIGTERM every worker (each finishes its renders), kill
        any still running after ``STOP_TIMEOUT_S``, then clear what they left."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        processes = [s.process for s in self._slots if s.process is not None]
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("%s %s did not stop in time; killing it", self.kind, process.name)
                process.kill()
                process.join()
            self._left_by.add(_pid(process))
        self._clear_leftovers(LEFTOVERS_TIMEOUT_S)

    # --- the thread -----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._tick()
            except Exception:  # the supervisor must outlive any one surprise
                log.exception("supervisor: unexpected error")
                self._stop.wait(TICK_S)

    def _tick(self) -> None:
        running = {s.process.sentinel: s for s in self._slots if s.process is not None}
        for sentinel in wait(list(running), TICK_S) if running else []:
            self._bury(running[cast(int, sentinel)])
        if not running:
            self._stop.wait(TICK_S)
        if self._left_by or time.monotonic() - self._swept_at >= SWEEP_S:
            self._clear_leftovers(0.0)
        self._check_redis()
        now = time.monotonic()
        for slot in self._slots:
            if slot.restart_at is not None and now >= slot.restart_at and not self.redis_died:
                self._start(slot)
                self.replaced += 1

    def _start(self, slot: _Slot) -> None:
        slot.process = self.start_worker(slot.index)
        slot.started, slot.restart_at = time.monotonic(), None
        log.info("%s %s started (pid %s)", self.kind, slot.process.name, slot.process.pid)

    def _bury(self, slot: _Slot) -> None:
        """Reap a worker that ended, hand over its work and plan its successor."""
        process = slot.process
        assert process is not None
        process.join()
        pid = _pid(process)
        slot.process = None
        self._left_by.add(pid)
        lived = time.monotonic() - slot.started
        slot.deaths = slot.deaths + 1 if lived < self.policy.stable_after_s else 1
        delay = self.policy.delay(slot.deaths)
        slot.restart_at = time.monotonic() + delay
        log.warning("%s %s (pid %d) %s after %.1f s; starting another in %g s",
                    self.kind, process.name, pid, _how(process.exitcode), lived, delay)
        self._clear_leftovers(0.0)
        try:
            self.on_death(pid)
        except Exception:  # Redis down: its jobs wait for the claim timeout instead
            log.exception("could not hand over the work of worker pid %d", pid)

    def _clear_leftovers(self, timeout_s: float) -> None:
        """Kill what ended workers left that is ours now, and reap every zombie
        child we did not start; for up to ``timeout_s`` while any is left."""
        deadline = time.monotonic() + timeout_s
        while True:
            self._swept_at = time.monotonic()
            table = proc_table()
            ours = {p.pid for p in table if p.ppid == os.getpid()} - self._own_children()
            for proc in table:
                if proc.pid not in ours:
                    continue
                if proc.state == "Z":
                    _reap(proc.pid)
                elif proc.pgrp in self._left_by:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(proc.pid, signal.SIGKILL)
            self._left_by &= {p.pgrp for p in table}
            if not self._left_by or time.monotonic() >= deadline:
                return
            time.sleep(0.05)

    def _own_children(self) -> set[int]:
        """Children this process started and reaps elsewhere: the workers and
        multiprocessing's helpers (the API's forkserver, the resource tracker),
        and those of ``also_own``."""
        own = set(self.pids()) | set(self.also_own())
        server = getattr(forkserver, "_forkserver", None)
        tracker = getattr(resource_tracker, "_resource_tracker", None)
        for helper in (getattr(server, "_forkserver_pid", None),
                       getattr(tracker, "_pid", None)):
            if isinstance(helper, int):
                own.add(helper)
        return own

    def _check_redis(self) -> None:
        if self.redis_pid is None or self.redis_died or process_running(self.redis_pid):
            return
        self.redis_died = True
        log.error("the embedded Redis server (pid %d) has stopped", self.redis_pid)
        self.on_redis_death()


def become_subreaper() -> bool:
    """Make orphaned descendants our children rather than init's (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def proc_table() -> list[Proc]:
    """Every process's pid, state, parent and process group (Linux /proc;
    elsewhere nothing, and nothing is cleared)."""
    table: list[Proc] = []
    if not sys.platform.startswith("linux"):
        return table
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        table.append(Proc(int(entry.name), fields[0], int(fields[1]), int(fields[2])))
    return table


def process_running(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
        log.debug("reaped process %d, left by a dead worker", pid)


def _pid(process: BaseProcess) -> int:
    assert process.pid is not None, "a started process has a pid"
    return process.pid


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"was killed by {signal.Signals(-exitcode).name}"
    return f"exited with status {exitcode}"
