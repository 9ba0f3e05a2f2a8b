"""A batch survives its API process and its worker killed mid-batch.

Real ``labelrender api`` and ``labelrender worker`` processes on the test Redis
and one data directory. Once some rows are done, both are SIGKILLed (each with
its process group, render pool included); a new API process and a new worker
start, the new API claims the batch once the dead one's lease expires, and the
batch completes: every row once, in order, billed exactly as many labels as
are stored.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import pikepdf
import pytest
import redis

from labelrender.store import keys
from tests.api.conftest import SIGNING_SECRET, Caller
from tests.api.test_batches import PDFTOPPM, barcode_of, pdf_pages
from tests.api.test_crash import redis_url
from tests.api.test_labels import labels_used
from tests.fixtures.tiers import free_port

ROWS = 40
# A label that takes a moment to render (five QR codes), so the batch is still
# going when its processes are killed.
BODY = ("^XA^PW800^LL800^FO20,20^A0N,40,40^FN1^FS^FO20,80^BY2^BCN,80,N,N,N^FN2^FS"
        + "".join(f"^FO{20 + 150 * n},300^BQN,2,4^FDQA,{'x' * 150}{n}^FS" for n in range(5))
        + "^XZ")
DRAFT = {"body": BODY, "field_map": {"name": 1, "code": 2}, "width_dots": 800,
         "height_dots": 800, "source_dpi": 203}
WAIT_S = 180.0  # guards against a batch that never finishes; not a speed check


class Processes:
    """``labelrender`` commands, each leading its own process group."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self, command: str, **env: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen([sys.executable, "-m", "labelrender.cli", command],
                                   env={**self.env, **env}, start_new_session=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.running.append(process)
        return process

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture
def processes(redis_db: redis.Redis, tmp_path: Path) -> Iterator[Processes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("S3_", "LABELRENDER_"))}
    env.update({
        "REDIS_URL": redis_url(redis_db), "LABELRENDER_DATA_DIR": str(tmp_path / "data"),
        "LABELRENDER_URL_SECRET": SIGNING_SECRET.decode(), "LABELRENDER_HOST": "127.0.0.1",
        "LABELRENDER_RENDER_PROCESSES": "1", "LABELRENDER_RENDER_DEADLINE_S": "30",
        "LABELRENDER_JOB_CLAIM_IDLE_MS": "1500", "LABELRENDER_JOB_CLAIM_INTERVAL_S": "0.5",
        "LABELRENDER_JOB_READ_BLOCK_MS": "200", "LABELRENDER_RENDER_TIMEOUT_S": "20",
        "LABELRENDER_BATCH_LEASE_S": "2", "LABELRENDER_BATCH_POLL_S": "0.2",
        "LABELRENDER_BATCH_IN_FLIGHT": "2",
    })
    running = Processes(env)
    yield running
    for process in running.running:
        if process.poll() is None:
            Processes.kill(process)


async def start_api(processes: Processes, session: aiohttp.ClientSession
                    ) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = processes.start("api", LABELRENDER_PORT=str(port),
                              LABELRENDER_PUBLIC_BASE_URL=f"{base}/v1")
    for _ in range(600):
        assert process.poll() is None, "the API exited"
        try:
            async with session.get(f"{base}/readyz") as resp:
                if resp.status == 200:
                    return process, base
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("the API did not become ready")


async def results_count(r: redis.Redis, caller: Caller, batch_id: str) -> int:
    return int(r.hlen(keys.batch_results(caller.tenant_id, batch_id)))


async def test_batch_resumes_after_api_and_worker_are_killed(
    processes: Processes, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    tmp_path: Path,
) -> None:
    caller = make_caller()
    headers = {**caller.headers, "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session:
        api, base = await start_api(processes, session)
        worker = processes.start("worker")
        async with session.post(f"{base}/v1/templates/tpl_slow", data=json.dumps(DRAFT),
                                headers=headers) as resp:
            assert resp.status == 201, await resp.text()
        rows = [{"name": f"ROW{n}", "code": f"C{n:05d}"} for n in range(1, ROWS + 1)]
        async with session.post(f"{base}/v1/labels/batches", headers=headers, data=json.dumps(
                {"template_id": "tpl_slow", "rows": rows})) as resp:
            assert resp.status == 202, await resp.text()
            batch_id = (await resp.json())["batch_id"]
        for _ in range(int(WAIT_S * 20)):
            if await results_count(redis_db, caller, batch_id) >= 5:
                break
            await asyncio.sleep(0.05)
        done_before = await results_count(redis_db, caller, batch_id)
        assert 5 <= done_before < ROWS, done_before  # killed mid-batch
        Processes.kill(api)
        Processes.kill(worker)

        _, base = await start_api(processes, session)
        processes.start("worker")
        for _ in range(int(WAIT_S * 10)):
            async with session.get(f"{base}/v1/labels/batches/{batch_id}",
                                   headers=caller.headers) as resp:
                body = await resp.json()
            if body["state"] == "completed":
                break
            await asyncio.sleep(0.1)
        assert body["state"] == "completed", body
        assert body["counts"]["done"] == ROWS and body["counts"]["failed"] == 0, body
        async with session.get(body["pdf_url"]) as resp:
            pdf = await resp.read()

    assert redis_db.hlen(keys.batch_results(caller.tenant_id, batch_id)) == ROWS
    stored = list((tmp_path / "data" / "objects" / "tenants" / caller.tenant_id / "labels")
                  .glob("*.png"))
    assert len(stored) == ROWS
    assert labels_used(redis_db, caller) == ROWS  # billed = stored, every row once
    with pikepdf.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == ROWS
    if PDFTOPPM is not None:
        for page, png in zip((1, ROWS), pdf_pages(pdf, tmp_path, [1, ROWS]), strict=True):
            assert barcode_of(png) == rows[page - 1]["code"]
