"""Single flight for renders: one request per (tenant, content hash) renders.

Concurrent identical requests without an Idempotency-Key hash alike. The first
to ``claim_render`` the hash holds the claim (its job id) and renders; the
others read ``render_state`` until the holder publishes an outcome with
``finish_render``, which also drops the claim in the same step, so a waiter
that saw the holder always finds either the claim or the outcome.

The claim carries a Redis TTL a little longer than the holder's longest wait,
so a holder that dies leaves nothing behind for long: its waiters see the
claim gone without an outcome and claim the hash themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio

from labelrender.store import keys
from labelrender.store.redis_conn import text

OUTCOME_KEEP_S = 60.0  # waiters poll every few tens of ms; this is plenty

# KEYS[1] claim; ARGV: job_id, ttl_ms. Returns the holder's job id.
_CLAIM = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return ARGV[1] end
return redis.call('GET', KEYS[1])
"""

# KEYS[1] claim, KEYS[2] outcome; ARGV: job_id, outcome ('' = none), keep_ms
_FINISH = """
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


@dataclass(frozen=True)
class RenderState:
    """What a waiter sees of the holder ``job_id``: its outcome once published,
    and whether it still holds the claim."""

    outcome: str | None
    held: bool


def claim_render(r: redis.Redis, tenant_id: str, content_hash: str, job_id: str,
                 ttl_s: float) -> str:
    """Claim the render of ``content_hash`` for ``job_id``, held for ``ttl_s``.

    Returns the holder's job id: ``job_id`` itself when this call won.
    """
    names, args = _claim_call(tenant_id, content_hash, job_id, ttl_s)
    holder = r.register_script(_CLAIM)(keys=names, args=args)
    return str(text(holder))


async def claim_render_async(ar: redis.asyncio.Redis, tenant_id: str, content_hash: str,
                             job_id: str, ttl_s: float) -> str:
    """``claim_render`` on the asyncio client (the API's event loop, no thread hop)."""
    names, args = _claim_call(tenant_id, content_hash, job_id, ttl_s)
    holder = await ar.register_script(_CLAIM)(keys=names, args=args)
    return str(text(holder))


def _claim_call(tenant_id: str, content_hash: str, job_id: str, ttl_s: float
                ) -> tuple[list[str], list[Any]]:
    """``_CLAIM``'s keys and arguments."""
    return [keys.render_claim(tenant_id, content_hash)], [job_id, _millis(ttl_s)]


def render_state(r: redis.Redis, tenant_id: str, content_hash: str, job_id: str
                 ) -> RenderState:
    """The holder's outcome and claim, read together (MGET is atomic)."""
    claim, outcome = r.mget([keys.render_claim(tenant_id, content_hash),
                             keys.render_outcome(tenant_id, content_hash, job_id)])
    return RenderState(outcome=text(outcome), held=text(claim) == job_id)


def finish_render(r: redis.Redis, tenant_id: str, content_hash: str, job_id: str,
                  outcome: str | None) -> None:
    """Publish the holder's ``outcome`` (an opaque non-empty string) and drop its
    claim; ``None`` only drops the claim, so the waiters claim it themselves."""
    names, args = _finish_call(tenant_id, content_hash, job_id, outcome)
    r.register_script(_FINISH)(keys=names, args=args)


async def finish_render_async(ar: redis.asyncio.Redis, tenant_id: str, content_hash: str,
                              job_id: str, outcome: str | None) -> None:
    """``finish_render`` on the asyncio client."""
    names, args = _finish_call(tenant_id, content_hash, job_id, outcome)
    await ar.register_script(_FINISH)(keys=names, args=args)


def _finish_call(tenant_id: str, content_hash: str, job_id: str, outcome: str | None
                 ) -> tuple[list[str], list[Any]]:
    """``_FINISH``'s keys and arguments; an empty outcome is refused."""
    if outcome == "":
        raise ValueError("an outcome must not be empty")
    return ([keys.render_claim(tenant_id, content_hash),
             keys.render_outcome(tenant_id, content_hash, job_id)],
            [job_id, outcome or "", _millis(OUTCOME_KEEP_S)])


def _millis(seconds: float) -> int:
    return max(1, math.ceil(seconds * 1000))
