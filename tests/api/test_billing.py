"""Billing through the API: a label is billed exactly when its PNG is first
stored, whatever happens to the request that asked for it (store/jobs.py,
"Billing"; tests/worker/test_billing.py has the worker's fault cases)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import redis

from labelrender.store import jobs as render_jobs
from labelrender.store.objects import FilesystemStore
from labelrender.worker import Sandbox
from tests.api.conftest import SIMPLE_ZPL, Caller, StartApi, start_worker
from tests.api.test_labels import labels_used, post_label


async def drained(r: redis.Redis, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while render_jobs.backlog(r):
        assert time.monotonic() < deadline, "the worker did not finish the queued jobs"
        await asyncio.sleep(0.05)


def stored_labels(root: Path) -> int:
    return len(list(root.rglob("*.png")))


async def test_a_render_the_api_gave_up_on_is_billed_once_when_stored(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore, engine_sandbox: Sandbox, tmp_path: Path,
) -> None:
    """The request times out (no worker yet), and so does the client's retry of
    it; a worker then renders both jobs: one label stored, one billed, and the
    next retry is a free cache hit."""
    api = await start_api(render_timeout_s=0.3)
    caller = make_caller()
    for _ in range(2):
        status, _, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
        assert status == 504
    assert labels_used(redis_db, caller) == 2  # each queued job carries its unit
    worker = start_worker(redis_db, object_store, engine_sandbox)
    try:
        await drained(redis_db)
    finally:
        worker.stop()
    assert len(worker.rendered) == 2
    assert stored_labels(tmp_path / "objects") == 1
    assert labels_used(redis_db, caller) == 1
    status, payload, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 200 and payload["cached"] is True
    assert labels_used(redis_db, caller) == 1


async def test_a_refused_render_is_never_billed_even_after_a_timeout(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore, engine_sandbox: Sandbox, tmp_path: Path,
) -> None:
    api = await start_api(render_timeout_s=0.3)
    caller = make_caller()
    hostile = "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ"
    status, _, _ = await post_label(api, caller, {"zpl": hostile})
    assert status == 504 and labels_used(redis_db, caller) == 1
    worker = start_worker(redis_db, object_store, engine_sandbox)
    try:
        await drained(redis_db)
    finally:
        worker.stop()
    assert labels_used(redis_db, caller) == 0
    assert stored_labels(tmp_path / "objects") == 0
