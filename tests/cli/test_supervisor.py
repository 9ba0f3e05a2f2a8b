"""The supervisor on its own: a worker that dies at once every time is started
again with growing delays, never in a tight loop, and each is reaped.
(``tests/cli/test_supervision.py`` kills workers of the real ``serve``.)"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest

from labelrender.cli.supervisor import RestartPolicy, Supervisor

POLICY = RestartPolicy(delays_s=(0.0, 0.5, 1.0, 2.0), stable_after_s=30.0)


def exit_at_once() -> None:
    sys.exit(3)


def test_a_worker_that_keeps_dying_is_restarted_ever_more_slowly() -> None:
    started: list[float] = []
    processes: list[BaseProcess] = []

    def start_worker(index: int) -> BaseProcess:
        process = multiprocessing.get_context("spawn").Process(
            target=exit_at_once, name=f"worker-{index}")
        process.start()
        started.append(time.monotonic())
        processes.append(process)
        return process

    supervisor = Supervisor(start_worker, 1, policy=POLICY)
    supervisor.start()
    try:
        deadline = time.monotonic() + 60
        while len(started) < 4:
            assert time.monotonic() < deadline, f"restarted {len(started) - 1} times only"
            time.sleep(0.05)
    finally:
        supervisor.stop()
    gaps = [later - earlier for earlier, later in zip(started, started[1:], strict=False)]
    # Each worker died within stable_after_s, so each wait is the next delay.
    for gap, delay in zip(gaps, POLICY.delays_s[:3], strict=True):
        assert gap >= delay, (gaps, POLICY.delays_s)
    assert supervisor.replaced == len(started) - 1
    assert all(p.exitcode == 3 for p in processes[:-1])  # each was reaped
    assert processes[-1].exitcode in (3, -15)  # the last one maybe stopped by stop()
    if sys.platform.startswith("linux"):
        assert not any(Path(f"/proc/{p.pid}").exists() for p in processes)


@pytest.mark.parametrize(("deaths", "delay"), [(1, 0.0), (2, 0.5), (4, 2.0), (9, 2.0)])
def test_the_delay_grows_with_deaths_in_a_row_then_stays(deaths: int, delay: float) -> None:
    assert POLICY.delay(deaths) == delay


def test_stop_ends_workers_that_are_running() -> None:
    processes: list[BaseProcess] = []

    def start_worker(index: int) -> BaseProcess:
        process = multiprocessing.get_context("spawn").Process(
            target=time.sleep, args=(600,), name=f"worker-{index}")
        process.start()
        processes.append(process)
        return process

    supervisor = Supervisor(start_worker, 2, policy=POLICY)
    supervisor.start()
    assert sorted(supervisor.pids()) == sorted(p.pid for p in processes if p.pid)
    supervisor.stop()
    assert [p.exitcode for p in processes] == [-15, -15]  # SIGTERM, nothing restarted
    assert supervisor.replaced == 0
    assert not any(p.pid == os.getpid() for p in processes)
