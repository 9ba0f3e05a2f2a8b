"""Limits under parallel load, through the real app, Redis and a render consumer
(the service-core issue: identical requests render once, the rate limit holds
within one request a minute, the concurrency cap is never exceeded)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from labelrender.api.render import RawRender, raw_content_hash
from labelrender.store import get_plan, in_flight, keys, read_usage
from labelrender.store.objects import FilesystemStore
from labelrender.store.render_claims import claim_render
from labelrender.worker.sandbox import Sandbox
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer, slow_zpl, start_worker


async def post_label(api: Api, caller: Caller, zpl: str) -> tuple[int, dict[str, Any]]:
    async with api.session.post(api.url("/v1/labels"), json={"zpl": zpl},
                                headers=caller.headers) as resp:
        return resp.status, await resp.json()


def labels_used(r: redis.Redis, caller: Caller, plan: str) -> int:
    return read_usage(r, caller.tenant_id, get_plan(r, plan), now=time.time())["labels"].used


@pytest.mark.parametrize("zpl", [slow_zpl("same"), SIMPLE_ZPL], ids=["slow", "simple"])
async def test_parallel_identical_requests_render_once_and_bill_once(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, zpl: str,
) -> None:
    caller = make_caller("pro")
    answers = await asyncio.gather(*(post_label(api, caller, zpl) for _ in range(8)))
    assert [status for status, _ in answers] == [200] * 8, answers
    assert len({payload["url"] for _, payload in answers}) == 1
    assert [payload["cached"] for _, payload in answers].count(False) == 1
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller, "pro") == 1


async def test_parallel_identical_invalid_requests_share_the_error(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore, engine_sandbox: Sandbox,
) -> None:
    """No worker until the job is queued and every request has arrived: a warm
    worker answers an invalid label in a few milliseconds, before the last of six
    requests sent together would otherwise have been admitted."""
    caller = make_caller("pro")
    sent = [asyncio.create_task(post_label(api, caller, "no label here")) for _ in range(6)]
    while not redis_db.xlen(keys.render_stream(keys.group(caller.tenant_id))):
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    worker = start_worker(redis_db, object_store, engine_sandbox)
    try:
        answers = await asyncio.gather(*sent)
    finally:
        worker.stop()
    assert [status for status, _ in answers] == [422] * 6
    assert len({json.dumps(payload["errors"]) for _, payload in answers}) == 1
    assert len(worker.rendered) == 1
    assert labels_used(redis_db, caller, "pro") == 0


async def test_rate_limit_holds_over_a_parallel_burst(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller("sandbox")
    limit = 10  # the Sandbox plan's requests per minute
    answers = await asyncio.gather(*(post_label(api, caller, SIMPLE_ZPL)
                                     for _ in range(3 * limit)))
    statuses = [status for status, _ in answers]
    assert set(statuses) == {200, 429}
    assert limit <= statuses.count(200) <= limit + 1  # GCRA refills one per 6 s
    refused = [payload for status, payload in answers if status == 429]
    assert all(p["errors"][0]["kind"] == "RateLimitExceeded" for p in refused)


@pytest.mark.parametrize(("plan", "cap", "requests"), [("sandbox", 1, 8), ("pro", 4, 12)])
async def test_concurrency_cap_is_never_exceeded(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, plan: str, cap: int, requests: int,
) -> None:
    caller = make_caller(plan)
    seen: list[int] = []
    burst = asyncio.gather(*(post_label(api, caller, slow_zpl(f"distinct-{n}"))
                             for n in range(requests)))
    sampler = asyncio.create_task(_sample_in_flight(redis_db, caller, seen))
    answers = await burst
    sampler.cancel()
    statuses = [status for status, _ in answers]
    assert set(statuses) == {200, 429}, answers
    assert max(seen) == cap  # reached, never passed
    assert statuses.count(200) == len(render_worker.rendered) == labels_used(
        redis_db, caller, plan)
    assert in_flight(redis_db, caller.tenant_id, now=time.time()) == 0


async def _sample_in_flight(r: redis.Redis, caller: Caller, seen: list[int]) -> None:
    while True:
        seen.append(await asyncio.to_thread(in_flight, r, caller.tenant_id, now=time.time()))
        await asyncio.sleep(0.005)


async def test_a_request_waiting_on_a_dead_holder_claims_the_render_itself(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    content_hash = raw_content_hash(caller.tenant_id, RawRender(SIMPLE_ZPL, 203, 203, False,
                                                                None))
    # A holder that died mid-request: its claim outlives it for a second.
    claim_render(redis_db, caller.tenant_id, content_hash, "job_dead", ttl_s=1.0)
    status, payload = await post_label(api, caller, SIMPLE_ZPL)
    assert status == 200 and payload["cached"] is False
    assert payload["content_hash"] == content_hash
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller, "pro") == 1
