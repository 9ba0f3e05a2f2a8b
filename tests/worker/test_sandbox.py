"""The render sandbox: deadline, memory ceiling, crashes, fair share, the bounded
queue, and no orphans or zombies when its owner is killed.

The helpers below run inside sandbox processes, which import them by name.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from labelrender.store.jobs import RenderJob
from labelrender.worker.engine_calls import Rejected, Rendered, render_label
from labelrender.worker.sandbox import (
    CallFailed,
    OverLimit,
    ProcessLost,
    Sandbox,
    SandboxBusy,
    SandboxClosed,
    SandboxLimits,
)
from tests.worker.conftest import MakeSandbox, label_zpl

MB = 1024 * 1024
REPO = Path(__file__).resolve().parents[2]


def sleep_then_stamp(seconds: float) -> float:
    """Sleeps, then says when it started (monotonic clocks are system-wide)."""
    started = time.monotonic()
    time.sleep(seconds)
    return started


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * MB))


def abort() -> None:
    os.abort()


def refuse(text: str) -> None:
    raise ValueError(text)


def own_pid() -> int:
    return os.getpid()


def job(zpl: str) -> RenderJob:
    return RenderJob(tenant="tnt_a", content_hash="0" * 64, object_key="k.png", zpl=zpl)


@pytest.mark.parametrize(("call", "args", "error", "limit", "message"), [
    (sleep_then_stamp, (30,), OverLimit, "time", "ran past its 5 s limit"),
    (allocate, (2048,), OverLimit, "memory", "over its 1024 MB memory limit"),
    (abort, (), OverLimit, "crash", "died (signal SIGABRT)"),
    (refuse, ("no",), CallFailed, None, "ValueError: no"),
])
def test_a_call_over_a_limit_fails_and_its_process_is_replaced(
        make_sandbox: MakeSandbox, call: Callable[..., object], args: tuple[object, ...],
        error: type[Exception], limit: str | None, message: str) -> None:
    # 5 s: a fresh process imports this module for the call (seconds under load).
    sandbox = make_sandbox(processes=1, deadline_s=5.0, memory_mb=1024)
    before = sandbox.call("tnt_a", os.getpid)
    with pytest.raises(error) as raised:
        sandbox.call("tnt_a", call, *args)
    assert message in str(raised.value)
    if limit is not None:
        assert isinstance(raised.value, OverLimit) and raised.value.limit == limit
        assert sandbox.call("tnt_a", os.getpid) != before  # a fresh process took its place
        assert not Path(f"/proc/{before}").exists()  # the old one is reaped, not a zombie
    else:
        assert sandbox.call("tnt_a", os.getpid) == before  # a plain exception keeps it
    assert sandbox.call("tnt_a", allocate, 100) == 100 * MB  # and it still works


def test_a_process_killed_from_outside_is_lost_not_blamed_on_the_input(
        make_sandbox: MakeSandbox) -> None:
    """SIGKILL from elsewhere (the OOM killer, an operator): retriable."""
    sandbox = make_sandbox(processes=1, deadline_s=30.0)
    [pid] = sandbox.pids()
    threading.Timer(0.5, os.kill, (pid, signal.SIGKILL)).start()
    with pytest.raises(ProcessLost):
        sandbox.call("tnt_a", sleep_then_stamp, 10)
    assert sandbox.pids() != [pid] and sandbox.call("tnt_a", own_pid) in sandbox.pids()


def test_renders_under_the_real_limits(engine_sandbox: Sandbox) -> None:
    """The production ceiling: a normal label renders; a call that needs more
    than the ceiling fails in its own process; the issue's 36-byte label that
    once needed a gigabyte is refused by the engine before it allocates."""
    rendered = engine_sandbox.call("tnt_a", render_label, job(label_zpl("Hi")), 5.0)
    assert isinstance(rendered, Rendered) and rendered.png.startswith(b"\x89PNG")
    with pytest.raises(OverLimit) as raised:
        engine_sandbox.call("tnt_a", allocate, 2048)
    assert raised.value.limit == "memory"
    refused = engine_sandbox.call("tnt_a", render_label,
                                  job("^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ"), 5.0)
    assert isinstance(refused, Rejected) and refused.limit == "text_block"
    refused = engine_sandbox.call("tnt_a", render_label, job("no label"), 5.0)
    assert isinstance(refused, Rejected) and refused.kind == "InvalidZpl"


def test_call_each_reaches_every_process_and_gives_them_back(
        make_sandbox: MakeSandbox) -> None:
    """A worker's warm-up: one call in each process, whatever the fair share
    (one tenant may hold only one of two), then both free for callers."""
    sandbox = make_sandbox(processes=2, deadline_s=30.0)
    assert sorted(sandbox.call_each(own_pid)) == sorted(sandbox.pids())
    assert sandbox.idle() == 2
    assert sandbox.call("tnt_a", own_pid) in sandbox.pids()


def test_no_tenant_holds_every_process(make_sandbox: MakeSandbox) -> None:
    """Two processes: tenant A's second call waits for its first, while B's
    call, sent later, starts at once on the process A may not take."""
    sandbox = make_sandbox(processes=2, deadline_s=30.0)
    starts: dict[str, float] = {}

    def run(name: str, tenant: str, seconds: float) -> None:
        starts[name] = sandbox.call(tenant, sleep_then_stamp, seconds)

    threads = [threading.Thread(target=run, args=("a1", "tnt_a", 1.0))]
    threads[0].start()
    time.sleep(0.3)  # a1 holds one process
    for name, tenant in (("a2", "tnt_a"), ("b1", "tnt_b")):
        threads.append(threading.Thread(target=run, args=(name, tenant, 0.1)))
        threads[-1].start()
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    assert starts["a1"] < starts["b1"] < starts["a1"] + 1.0 <= starts["a2"]


def test_the_fewest_running_tenant_goes_first(make_sandbox: MakeSandbox) -> None:
    """One process: waiting calls are served round robin by tenant, not in
    arrival order."""
    sandbox = make_sandbox(processes=1, deadline_s=30.0)
    order: list[str] = []
    lock = threading.Lock()

    def run(name: str, tenant: str) -> None:
        sandbox.call(tenant, sleep_then_stamp, 0.05)
        with lock:
            order.append(name)

    blocker = threading.Thread(target=sandbox.call, args=("tnt_x", sleep_then_stamp, 0.8))
    blocker.start()
    time.sleep(0.2)
    threads = []
    for name, tenant in (("a1", "tnt_a"), ("a2", "tnt_a"), ("b1", "tnt_b")):
        threads.append(threading.Thread(target=run, args=(name, tenant)))
        threads[-1].start()
        time.sleep(0.05)
    for thread in [blocker, *threads]:
        thread.join()
    assert order == ["a1", "b1", "a2"]


def test_past_the_queue_bound_a_call_is_refused_at_once() -> None:
    sandbox = Sandbox(1, SandboxLimits(deadline_s=5.0), max_waiting=1)
    try:
        running = threading.Thread(target=sandbox.call, args=("a", sleep_then_stamp, 0.6))
        waiting = threading.Thread(target=sandbox.call, args=("b", sleep_then_stamp, 0.01))
        running.start()
        time.sleep(0.2)
        waiting.start()
        time.sleep(0.2)
        with pytest.raises(SandboxBusy):
            sandbox.call("c", own_pid)
        running.join()
        waiting.join()
    finally:
        sandbox.close()
    with pytest.raises(SandboxClosed):
        sandbox.call("c", own_pid)


# A worker stand-in: a sandbox, one render running, one process idle.
OWNER = """
import sys, threading, time
from labelrender.worker.sandbox import Sandbox, SandboxLimits
from tests.worker.test_sandbox import sleep_then_stamp
if __name__ == "__main__":
    sandbox = Sandbox(2, SandboxLimits(deadline_s=600))
    threading.Thread(target=sandbox.call, args=("t", sleep_then_stamp, 600), daemon=True).start()
    time.sleep(0.5)
    print(" ".join(map(str, sandbox.pids())), flush=True)
    time.sleep(600)
"""


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def running(pid: int) -> bool:
    """A live process (not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_the_owner_leaves_no_process_behind(tmp_path: Path) -> None:
    """The busy render process, the idle one and the forkserver stop within
    seconds of their owner's SIGKILL, and are reaped (by init, which adopts
    them), so none is left running or a zombie."""
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    owner = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env,
                             cwd=REPO)
    try:
        assert owner.stdout is not None
        renders = [int(pid) for pid in owner.stdout.readline().split()]
        forkserver = parent_of(renders[0])
        assert len(renders) == 2 and parent_of(renders[1]) == forkserver
    finally:
        owner.kill()
        owner.wait()
    ours = [*renders, forkserver]
    wait_until(lambda: not any(running(pid) for pid in ours), 5, "a process outlived its owner")
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in ours), 30,
               "a process was left a zombie")
