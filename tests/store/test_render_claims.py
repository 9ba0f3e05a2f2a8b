"""Single-flight render claims: one holder per (tenant, hash), outcomes, expiry."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis
import redis.asyncio

from labelrender.store.redis_conn import async_twin
from labelrender.store.render_claims import (
    RenderState,
    claim_render,
    claim_render_async,
    finish_render,
    finish_render_async,
    render_state,
)

TENANT, OTHER = "tnt_" + "a" * 26, "tnt_" + "b" * 26
HASH = "f" * 64


def _on_loop(r: redis.Redis, call: Callable[[redis.asyncio.Redis], Awaitable[Any]]) -> Any:
    """``call`` on an asyncio client of the same server, as the API makes it."""
    async def run() -> Any:
        client = async_twin(r)
        try:
            return await call(client)
        finally:
            await client.aclose()
    return asyncio.run(run())


# The store steps as the worker and tests call them, and as the API's event loop does.
CLAIM: dict[str, Callable[..., str]] = {
    "sync": claim_render,
    "async": lambda r, *args, **kwargs: _on_loop(
        r, lambda client: claim_render_async(client, *args, **kwargs)),
}
FINISH: dict[str, Callable[..., None]] = {
    "sync": finish_render,
    "async": lambda r, *args: _on_loop(r, lambda client: finish_render_async(client, *args)),
}


@pytest.mark.parametrize("way", ["sync", "async"])
def test_first_claim_holds_and_later_claims_see_the_holder(redis_db: redis.Redis,
                                                           way: str) -> None:
    claim = CLAIM[way]
    assert claim(redis_db, TENANT, HASH, "job_1", ttl_s=30) == "job_1"
    assert claim(redis_db, TENANT, HASH, "job_2", ttl_s=30) == "job_1"
    assert claim(redis_db, OTHER, HASH, "job_3", ttl_s=30) == "job_3"  # per tenant
    assert render_state(redis_db, TENANT, HASH, "job_1") == RenderState(None, held=True)


@pytest.mark.parametrize("way", ["sync", "async"])
@pytest.mark.parametrize(("outcome", "seen"), [
    ("rendered", RenderState("rendered", held=False)),
    ('{"class": "InvalidZpl"}', RenderState('{"class": "InvalidZpl"}', held=False)),
    (None, RenderState(None, held=False)),  # let go without an answer: waiters claim
])
def test_finish_publishes_the_outcome_and_frees_the_hash(
    redis_db: redis.Redis, outcome: str | None, seen: RenderState, way: str,
) -> None:
    claim_render(redis_db, TENANT, HASH, "job_1", ttl_s=30)
    FINISH[way](redis_db, TENANT, HASH, "job_1", outcome)
    assert render_state(redis_db, TENANT, HASH, "job_1") == seen
    assert claim_render(redis_db, TENANT, HASH, "job_2", ttl_s=30) == "job_2"


def test_a_late_finish_leaves_the_next_holder_alone(redis_db: redis.Redis) -> None:
    claim_render(redis_db, TENANT, HASH, "job_1", ttl_s=0.05)
    time.sleep(0.1)  # job_1's holder died; its claim expired
    assert claim_render(redis_db, TENANT, HASH, "job_2", ttl_s=30) == "job_2"
    finish_render(redis_db, TENANT, HASH, "job_1", None)
    assert render_state(redis_db, TENANT, HASH, "job_2").held


def test_empty_outcome_is_refused(redis_db: redis.Redis) -> None:
    with pytest.raises(ValueError):
        finish_render(redis_db, TENANT, HASH, "job_1", "")
