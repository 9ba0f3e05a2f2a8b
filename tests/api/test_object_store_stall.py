"""An object store that stops answering (moto's S3 server frozen with SIGSTOP)
while one tenant renders: renders that need the store are answered 503 before
the store comes back, another tenant's keys, usage and templates are answered
all along, and once the store answers again everything works and each label
stored is billed once.

The S3 timeouts are the product's settings, lowered to 1 s so that a freeze of
6 s (the probe froze it 20 s with the 60 s default) outlasts several of them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from labelrender.store.settings import Settings, build_object_store
from labelrender.worker import Sandbox
from tests.api.conftest import Api, Caller, StartApi, start_worker
from tests.fixtures.polling import wait_for

FREEZE_S = 6.0
S3_TIMEOUT_S = 1.0
ROUTE = "/v1/printers/8dpmm/labels/2x1/0/"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def moto_process() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """moto's S3 server as a process of its own, so it can be frozen."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                                str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return False
        return True

    try:
        wait_for(listening, timeout=60, what="moto's server")
        yield process, endpoint
    finally:
        process.send_signal(signal.SIGCONT)
        process.terminate()
        process.wait(timeout=30)


def zpl(tag: str) -> str:
    return f"^XA^FO20,20^A0N,40,40^FD{tag}^FS^XZ"


async def render(api: Api, caller: Caller, tag: str) -> tuple[int, str, float]:
    """Status, error kind and when the answer came (monotonic)."""
    headers = {**caller.headers, "Content-Type": "application/x-www-form-urlencoded"}
    async with api.session.post(api.url(ROUTE), data=zpl(tag), headers=headers) as resp:
        body = await resp.read()
        kind = (await resp.json())["error"]["kind"] if resp.status >= 400 else ""
        assert body
        return resp.status, kind, time.monotonic()


async def bystander(api: Api, caller: Caller, until: asyncio.Event) -> list[tuple[int, float]]:
    """The other tenant's keys, usage and templates, one after another."""
    answers: list[tuple[int, float]] = []
    paths = ("/v1/keys", "/v1/usage", "/v1/templates")
    while not until.is_set():
        for path in paths:
            async with api.session.get(api.url(path), headers=caller.headers) as resp:
                await resp.read()
                answers.append((resp.status, time.monotonic()))
        await asyncio.sleep(0.02)
    return answers


def stored_labels(s3: Any, bucket: str, tenant_id: str) -> int:
    listed = s3.list_objects_v2(Bucket=bucket, Prefix=f"tenants/{tenant_id}/labels/")
    return int(listed.get("KeyCount", 0))


async def test_a_frozen_object_store_fails_fast_and_slows_no_one_else(
        start_api: StartApi, redis_db: redis.Redis, make_caller: Any, engine_sandbox: Sandbox,
        moto_process: tuple[subprocess.Popen[bytes], str], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    moto, endpoint = moto_process
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    settings = Settings(s3_bucket="labels", s3_endpoint_url=endpoint, s3_region="us-east-1",
                        s3_addressing_style="path", s3_connect_timeout_s=S3_TIMEOUT_S,
                        s3_read_timeout_s=S3_TIMEOUT_S, s3_max_attempts=1)
    objects = build_object_store(settings)
    s3 = objects._client  # type: ignore[attr-defined]  # the bucket is ours to create
    s3.create_bucket(Bucket="labels")
    worker = start_worker(redis_db, objects, engine_sandbox, claim_idle_ms=1000,
                          claim_interval_s=0.5)
    api = await start_api(objects=objects, objects_circuit_failures=3,
                          objects_circuit_open_s=1.0)
    renderer, other = make_caller("scale"), make_caller("scale")
    try:
        assert (await render(api, renderer, "before"))[0] == 200

        moto.send_signal(signal.SIGSTOP)
        frozen_at = time.monotonic()
        until = asyncio.Event()
        watching = asyncio.create_task(bystander(api, other, until))
        with caplog.at_level(logging.WARNING, logger="labelrender.api"):
            # Cache hits of the stored label and new labels, 30 at once, then more.
            stalled = [await asyncio.gather(*(render(api, renderer, tag) for tag in (
                ["before"] * 15 + [f"new-{wave}-{n}" for n in range(15)]))) for wave in range(2)]
        await asyncio.sleep(max(0.0, frozen_at + FREEZE_S - time.monotonic()))
        until.set()
        seen = await watching
        moto.send_signal(signal.SIGCONT)
        thawed_at = time.monotonic()

        answers = [answer for wave in stalled for answer in wave]
        assert {(status, kind) for status, kind, _ in answers} == {
            (503, "ObjectStoreUnavailable")}
        assert max(done for _, _, done in answers) < thawed_at  # before the store came back
        assert {status for status, _ in seen} == {200}
        assert len(seen) >= 30  # answered all along, not once the store came back
        assert all(done < thawed_at for _, done in seen)
        assert any("503 ObjectStoreUnavailable" in record.getMessage()
                   and "req_" in record.getMessage() for record in caplog.records)

        async def renders_again() -> bool:
            return (await render(api, renderer, "after"))[0] == 200

        deadline = time.monotonic() + 60
        while not await renders_again():
            assert time.monotonic() < deadline, "renders did not come back"
            await asyncio.sleep(0.5)
        assert (await render(api, renderer, "before"))[0] == 200
    finally:
        moto.send_signal(signal.SIGCONT)
        worker.stop()
    async with api.session.get(api.url("/v1/usage"), headers=renderer.headers) as resp:
        billed = (await resp.json())["labels"]["used"]
    assert billed == stored_labels(s3, "labels", renderer.tenant_id) == 2
    assert os.environ.get("AWS_ACCESS_KEY_ID") == "testing"
