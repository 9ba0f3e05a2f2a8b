"""A render worker killed mid-render: the API request still completes.

Two real ``labelrender worker`` processes on the test Redis and the same object
directory. The one that takes the job is SIGKILLed (its whole process group,
render pool included, as when a machine dies); the other claims the entry once
it has been idle ``LABELRENDER_JOB_CLAIM_IDLE_MS`` and renders it, within the
API's render timeout.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from labelrender.store import get_plan, read_usage, socket_url
from labelrender.store import jobs as render_jobs
from tests.api.conftest import SIGNING_SECRET, Caller, StartApi, slow_zpl

CLAIM_IDLE_MS = 1500
RENDER_TIMEOUT_S = 20.0  # comfortably above claim idle + one slow render


def redis_url(r: redis.Redis) -> str:
    url = socket_url(r) or os.environ.get("REDIS_URL")
    assert url, "the test Redis has no URL other processes can use"
    return url


@pytest.fixture
def start_workers(redis_db: redis.Redis, tmp_path: Path
                  ) -> Iterator[Callable[[int], list[subprocess.Popen[bytes]]]]:
    """``start_workers(n)``: n worker processes, each leading its own process group."""
    started: list[subprocess.Popen[bytes]] = []
    env = {k: v for k, v in os.environ.items() if not k.startswith(("S3_", "LABELRENDER_"))}
    env.update({
        "REDIS_URL": redis_url(redis_db), "LABELRENDER_DATA_DIR": str(tmp_path),
        "LABELRENDER_URL_SECRET": SIGNING_SECRET.decode(),
        "LABELRENDER_RENDER_PROCESSES": "1",
        "LABELRENDER_RENDER_DEADLINE_S": "30",  # the slow label must not hit the deadline
        "LABELRENDER_JOB_CLAIM_IDLE_MS": str(CLAIM_IDLE_MS),
        "LABELRENDER_JOB_CLAIM_INTERVAL_S": "0.5", "LABELRENDER_JOB_READ_BLOCK_MS": "200",
    })

    def start(count: int) -> list[subprocess.Popen[bytes]]:
        for _ in range(count):
            started.append(subprocess.Popen(
                [sys.executable, "-m", "labelrender.cli", "worker"], env=env,
                start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return started

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


async def holder_of_the_job(r: redis.Redis, workers: list[subprocess.Popen[bytes]],
                            within_s: float) -> subprocess.Popen[bytes]:
    """The worker process with the job pending (consumer names end in ``-<pid>``)."""
    by_pid = {process.pid: process for process in workers}
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        for name in render_jobs.pending_by_consumer(r):
            pid = int(name.rsplit("-", 1)[1])
            if pid in by_pid:
                return by_pid[pid]
        await asyncio.sleep(0.02)
    raise AssertionError("no worker took the job")


async def test_request_survives_the_worker_killed_mid_render(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    start_workers: Callable[[int], list[subprocess.Popen[bytes]]],
) -> None:
    api = await start_api(render_timeout_s=RENDER_TIMEOUT_S)
    caller = make_caller("pro")
    workers = start_workers(2)
    started = time.monotonic()
    request = asyncio.create_task(api.session.post(
        api.url("/v1/labels"), json={"zpl": slow_zpl("crash", fields=100)},
        headers=caller.headers))
    victim = await holder_of_the_job(redis_db, workers, within_s=15)
    await asyncio.sleep(0.3)  # the render (about 2.5 s) is under way
    os.killpg(victim.pid, signal.SIGKILL)
    assert victim.wait(timeout=10) == -signal.SIGKILL
    async with await request as resp:
        status, payload = resp.status, await resp.json()
    assert status == 200, payload
    assert payload["cached"] is False
    assert time.monotonic() - started < RENDER_TIMEOUT_S
    used = read_usage(redis_db, caller.tenant_id, get_plan(redis_db, "pro"), now=time.time())
    assert used["labels"].used == 1
    async with api.session.get(payload["url"]) as png:
        assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")
