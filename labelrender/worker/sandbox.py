"""The render sandbox: a supervised pool of processes that run the engine under
hard limits enforced from outside it (ARCHITECTURE.md "Limits around every render").

- **Deadline.** A call that has not answered within ``deadline_s`` has its
  process killed (SIGKILL) and replaced; the caller gets ``OverLimit("time")``.
  The engine's own time budget is set a little under it (``engine_budget_s``),
  so the common case ends cleanly inside the engine and the kill is the backstop.
- **Memory.** Each process runs under ``RLIMIT_DATA`` (``memory_mb``): an
  allocation past it fails in that process (MemoryError), which answers
  ``OverLimit("memory")`` and is replaced. ``RLIMIT_DATA`` rather than
  ``RLIMIT_AS``: both stop the allocations that matter (a 32000x32000 canvas,
  a huge numpy array), but ``RLIMIT_AS`` also charges every thread's reserved
  address space (glibc keeps 64 MB per thread arena, plus its stack), so the
  ceiling would depend on how many threads a library starts rather than on
  memory used: 8 idle threads add 590 MB of address space and 75 MB of data.
- **No orphans.** The processes are forked by multiprocessing's forkserver,
  which exits as soon as this process does; each process asks the kernel for
  SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), or where that is not
  available, watches its parent from a thread. An idle process also exits on
  end of file on its pipe. The forkserver reaps them, so none is left a zombie.
- **Fair share.** Callers name a tenant. A free process goes to the waiting
  tenant with the fewest calls running, then to the one served longest ago
  (round robin), and no tenant holds more than ``processes - 1`` of them (at
  least 1), so one tenant never occupies the whole pool and another's call
  starts at once. ``max_waiting`` bounds the queue (``SandboxBusy``).

Functions sent to the sandbox must be importable by name and take and return
values that pickle (``labelrender.worker.engine_calls``).
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import logging
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, NoReturn, ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")
MB = 1024 * 1024
# Imported once, in the forkserver: the engine, the image conversion, and one
# label rendered (warm_up).
PRELOAD = ["labelrender.worker.engine_calls", "labelrender.graphics",
           "labelrender.worker.warm_up"]
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_PARENT_POLL_S = 0.5
_STOP_WAIT_S = 5.0
_START_TIMEOUT_S = 60.0  # the forkserver's first start imports the engine


@dataclass(frozen=True)
class SandboxLimits:
    """Per call: the wall-clock deadline; per process: the memory ceiling."""

    deadline_s: float = 4.0
    memory_mb: int = 1024

    @property
    def engine_budget_s(self) -> float:
        """The engine's own time budget: a little under the deadline, so it
        answers ``LimitExceeded`` before the process is killed."""
        return max(self.deadline_s / 2, self.deadline_s - 0.5)


class SandboxError(Exception):
    """Base of what ``Sandbox.call`` raises besides the function's result."""


class OverLimit(SandboxError):
    """The call went over a limit: final, the same input would again."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit  # "time", "memory" or "crash"
        self.message = message


class ProcessLost(SandboxError):
    """The process was killed from outside (the OOM killer, an operator): the
    input is not to blame, so the call may be retried."""


class CallFailed(SandboxError):
    """The function raised; ``kind`` is the exception's class name."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class SandboxBusy(SandboxError):
    """``max_waiting`` calls are already waiting for a process."""


class SandboxClosed(SandboxError):
    """The sandbox is shutting down."""


@dataclass
class _Slot:
    """One process and the parent's end of its pipe."""

    process: BaseProcess
    conn: Connection


@dataclass
class _Waiter:
    tenant: str
    seq: int
    slot: _Slot | None = None


@dataclass
class _Gate:
    """Who gets the next free process (the fair-share rule in the docstring):
    fewest running first, then the tenant served longest ago, then the oldest
    call."""

    cap: int
    idle: list[_Slot] = field(default_factory=list)
    waiting: list[_Waiter] = field(default_factory=list)
    running: dict[str, int] = field(default_factory=dict)
    served: dict[str, int] = field(default_factory=dict)  # tenant -> grant number
    grants: int = 0

    def grant(self) -> bool:
        """Hand idle processes to eligible waiters; True if any was granted."""
        granted = False
        while self.idle:
            eligible = [w for w in self.waiting if self.running.get(w.tenant, 0) < self.cap]
            if not eligible:
                break
            chosen = min(eligible, key=lambda w: (self.running.get(w.tenant, 0),
                                                  self.served.get(w.tenant, -1), w.seq))
            self.waiting.remove(chosen)
            chosen.slot = self.idle.pop()
            self.running[chosen.tenant] = self.running.get(chosen.tenant, 0) + 1
            self.grants += 1
            self.served[chosen.tenant] = self.grants
            granted = True
        return granted

    def give_back(self, tenant: str, slot: _Slot) -> None:
        left = self.running[tenant] - 1
        if left:
            self.running[tenant] = left
        else:
            del self.running[tenant]
            if not any(w.tenant == tenant for w in self.waiting):
                self.served.pop(tenant, None)  # nothing left of it to order
        self.idle.append(slot)


class Turn:
    """A process held for one caller (``Sandbox.turn``)."""

    def __init__(self, sandbox: Sandbox, slot: _Slot) -> None:
        self._sandbox = sandbox
        self._slot = slot

    def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        result: T = self._sandbox._run(self._slot, fn, args, kwargs)
        return result


class Sandbox:
    """``processes`` engine processes under ``limits``; thread-safe."""

    def __init__(self, processes: int, limits: SandboxLimits | None = None, *,
                 fair_share: bool = True, max_waiting: int | None = None) -> None:
        if processes < 1:
            raise ValueError("a sandbox needs at least one process")
        self.processes = processes
        self.limits = limits or SandboxLimits()
        self._max_waiting = max_waiting
        self._context = _forkserver()
        self._cond = threading.Condition()
        self._gate = _Gate(cap=max(1, processes - 1) if fair_share else processes)
        self._seq = itertools.count()
        self._closed = False
        self._slots = [_Slot(*self._spawn()) for _ in range(processes)]
        self._gate.idle.extend(self._slots)

    # --- calls -------------------------------------------------------------------

    def call(self, tenant: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in a sandbox process, counted against
        ``tenant``'s share. Raises OverLimit, ProcessLost, CallFailed,
        SandboxBusy or SandboxClosed."""
        with self.turn(tenant) as turn:
            return turn.call(fn, *args, **kwargs)

    @contextlib.contextmanager
    def turn(self, tenant: str) -> Iterator[Turn]:
        """Wait for ``tenant``'s turn at a process and hold it: the caller may
        still decide not to use it (a worker that is stopping)."""
        slot = self._acquire(tenant)
        try:
            yield Turn(self, slot)
        finally:
            self._release(tenant, slot)

    def call_each(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> list[T]:
        """``fn(*args, **kwargs)`` once in every process that is free now, one
        after another, outside the fair share (a worker's warm-up, before it
        takes a job). Raises as ``call`` does."""
        with self._cond:
            if self._closed:
                raise SandboxClosed("the sandbox is shutting down")
            slots, self._gate.idle[:] = list(self._gate.idle), []
        try:
            return [self._run(slot, fn, args, kwargs) for slot in slots]
        finally:
            with self._cond:
                self._gate.idle.extend(slots)
                self._gate.grant()
                self._cond.notify_all()

    def idle(self) -> int:
        """Processes free now."""
        with self._cond:
            return len(self._gate.idle)

    def wait_idle(self, timeout_s: float) -> bool:
        """Block until a process is free (True) or ``timeout_s`` passes."""
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._gate.idle) or self._closed,
                                       timeout_s)

    def pids(self) -> list[int]:
        """The process ids of the pool (for tests and diagnostics)."""
        with self._cond:
            return [pid for slot in self._slots if (pid := slot.process.pid) is not None]

    def close(self) -> None:
        """Stop granting, wake waiters (SandboxClosed) and stop every process.
        Calls already running finish first (bounded by the deadline)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            self._cond.wait_for(lambda: not self._gate.running, self.limits.deadline_s + 1)
            slots, self._slots = list(self._slots), []
        for slot in slots:
            slot.conn.close()  # an idle process exits on end of file
        for slot in slots:
            slot.process.join(_STOP_WAIT_S)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()

    # --- inside ------------------------------------------------------------------

    def _acquire(self, tenant: str) -> _Slot:
        with self._cond:
            if self._closed:
                raise SandboxClosed("the sandbox is shutting down")
            gate = self._gate
            if self._max_waiting is not None and len(gate.waiting) >= self._max_waiting:
                raise SandboxBusy(f"{len(gate.waiting)} engine calls are already waiting")
            waiter = _Waiter(tenant, next(self._seq))
            gate.waiting.append(waiter)
            if gate.grant():
                self._cond.notify_all()
            while waiter.slot is None:
                if self._closed:
                    gate.waiting.remove(waiter)
                    raise SandboxClosed("the sandbox is shutting down")
                self._cond.wait()
            return waiter.slot

    def _release(self, tenant: str, slot: _Slot) -> None:
        with self._cond:
            self._gate.give_back(tenant, slot)
            self._gate.grant()
            self._cond.notify_all()

    def _run(self, slot: _Slot, fn: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> Any:
        """Send the call and wait for its answer up to the deadline. A process
        that has to go is replaced in ``slot`` before this raises."""
        deadline = self.limits.deadline_s
        call = (fn, args, kwargs)
        try:
            slot.conn.send(call)
        except OSError:  # it died while idle (killed from outside): use a fresh one
            self._replace(slot, kill=True)
            slot.conn.send(call)
        try:
            answer = slot.conn.recv() if slot.conn.poll(deadline) else None
        except (EOFError, OSError):
            self._lost(slot)
        if answer is None:
            self._replace(slot, kill=True)
            raise OverLimit("time", f"the render ran past its {deadline:g} s limit")
        if answer[0] == "ok":
            return answer[1]
        if answer[0] == "memory":
            self._replace(slot, kill=False)  # it exits after a MemoryError
            raise OverLimit("memory", f"the render went over its {self.limits.memory_mb} MB "
                                      "memory limit")
        raise CallFailed(str(answer[1]), str(answer[2]))

    def _lost(self, slot: _Slot) -> NoReturn:
        """The process died under the call. SIGKILL came from outside (the input
        is not to blame); any other death (a crash, an abort on a failed
        allocation) was the input's doing and is final."""
        slot.process.join(_STOP_WAIT_S)
        code = slot.process.exitcode
        self._replace(slot, kill=True)
        if code == -signal.SIGKILL:
            raise ProcessLost("the render process was killed from outside")
        how = (f"signal {signal.Signals(-code).name}" if code is not None and code < 0
               else f"exit status {code}")
        raise OverLimit("crash", f"the render process died ({how}) on this input")

    def _spawn(self) -> tuple[BaseProcess, Connection]:
        """A new process, once it has said it is ready (limits set)."""
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(
            target=_serve, args=(child_end, self.limits.memory_mb * MB),
            name="labelrender-render", daemon=True)
        process.start()
        child_end.close()
        try:
            ready = parent_end.poll(_START_TIMEOUT_S) and parent_end.recv() == ("ready",)
        except (EOFError, OSError):
            ready = False
        if not ready:  # a broken install, not an input: the caller may retry
            process.kill()
            process.join()
            parent_end.close()
            raise ProcessLost(f"a render process did not start (exit code {process.exitcode})")
        return process, parent_end

    def _replace(self, slot: _Slot, *, kill: bool) -> None:
        """Stop ``slot``'s process (reaped: never a zombie) and start another in
        the same slot. The caller holds the slot, so no lock is needed."""
        if kill and slot.process.is_alive():
            slot.process.kill()
        slot.process.join(_STOP_WAIT_S)
        slot.conn.close()
        if self._closed:  # shutting down: nothing to replace it for
            raise SandboxClosed("the sandbox is shutting down")
        slot.process, slot.conn = self._spawn()


def _forkserver() -> multiprocessing.context.ForkServerContext:
    """The forkserver context with the engine preloaded, so a replacement
    process starts in milliseconds with fonts and libraries already imported."""
    # The engine uses no BLAS, and OpenBLAS reserves a buffer per thread (one
    # per core) that would count against every process's memory ceiling. It
    # reads this when numpy is first imported, which in the forkserver is later.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


# --- the sandbox process ----------------------------------------------------------

def _serve(conn: Connection, memory_bytes: int) -> None:
    """Run calls from ``conn`` until end of file. Exits after a MemoryError:
    a fresh process is cheaper than trusting a heap that hit its ceiling."""
    _die_with_parent()
    for stop in (signal.SIGINT, signal.SIGTERM):  # the worker owns shutdown
        signal.signal(stop, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))
    _warm()
    conn.send(("ready",))
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        answer = _answer(fn, args, kwargs)
        try:
            conn.send(answer)
        except MemoryError:
            conn.send(("memory",))
            return
        if answer[0] == "memory":
            return


def _answer(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
            ) -> tuple[Any, ...]:
    try:
        return ("ok", fn(*args, **kwargs))
    except MemoryError:
        return ("memory",)
    except Exception as exc:  # the caller decides; the process lives on
        return ("raised", type(exc).__name__, str(exc)[:2000])


def _warm() -> None:
    """The first render's one-time costs, paid before the process says it is ready."""
    with contextlib.suppress(ImportError):  # preloaded; absent only in a broken install
        from labelrender.worker.warm_up import warm

        warm()


def _die_with_parent() -> None:
    """Linux: the kernel sends SIGKILL when the parent (the forkserver) dies.
    Elsewhere: a thread that watches for it.

    The forkserver exits when every holder of its liveness pipe has gone, and
    it hands each child a copy as the child's parent sentinel: a render that
    runs on would keep the forkserver, and so itself, alive after the worker
    died. The copy is closed here, so the worker's own end is the only one."""
    from multiprocessing import forkserver

    alive = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)  # CPython 3.8+
    if alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        forkserver._forkserver._forkserver_alive_fd = None  # type: ignore[attr-defined]
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_S)
    os._exit(1)
