"""Idempotency records for ``Idempotency-Key`` (spec, ``POST /v1/labels``).

A request claims its key before any work. Exactly one of several concurrent
claims gets ``new`` and renders; the others see ``in_progress`` until the
winner completes, then ``replay`` with the stored response. The same key with
a different body is a ``conflict`` (409).

A claim in progress holds for ``lock_seconds`` only, so a replica that dies
mid-request does not block the key for a day; a completed record is kept
24 hours from completion. Expiry is decided from ``now``, not from Redis TTLs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal

import redis

from labelrender.store import keys
from labelrender.store.clock import Now, unix
from labelrender.store.redis_conn import text

RECORD_SECONDS = 24 * 3600.0
DEFAULT_LOCK_SECONDS = 300.0

# KEYS[1] record; ARGV: now, body_hash, lock_seconds, token
_CLAIM = """
local now = tonumber(ARGV[1])
local rec = redis.call('HMGET', KEYS[1], 'body_hash', 'state', 'response', 'expires_at')
if rec[1] and tonumber(rec[4]) > now then
  if rec[1] ~= ARGV[2] then return {'conflict'} end
  if rec[2] == 'done' then return {'replay', rec[3]} end
  return {'in_progress'}
end
local lock = tonumber(ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'body_hash', ARGV[2], 'state', 'in_progress',
           'token', ARGV[4], 'expires_at', string.format('%.6f', now + lock))
redis.call('PEXPIRE', KEYS[1], math.ceil(lock * 1000))
return {'new'}
"""

# KEYS[1] record; ARGV: now, token, response, record_seconds
_COMPLETE = """
local now = tonumber(ARGV[1])
local rec = redis.call('HMGET', KEYS[1], 'token', 'state', 'expires_at')
if rec[1] ~= ARGV[2] or rec[2] ~= 'in_progress' or tonumber(rec[3]) <= now then
  return 0
end
local keep = tonumber(ARGV[4])
redis.call('HDEL', KEYS[1], 'token')
redis.call('HSET', KEYS[1], 'state', 'done', 'response', ARGV[3],
           'expires_at', string.format('%.6f', now + keep))
redis.call('PEXPIRE', KEYS[1], math.ceil(keep * 1000))
return 1
"""

# KEYS[1] record; ARGV: token
_ABANDON = """
local rec = redis.call('HMGET', KEYS[1], 'token', 'state')
if rec[1] ~= ARGV[1] or rec[2] ~= 'in_progress' then return 0 end
return redis.call('DEL', KEYS[1])
"""

Outcome = Literal["new", "in_progress", "replay", "conflict"]


@dataclass(frozen=True)
class Claim:
    """What to do with a request: render (``new``), retry later
    (``in_progress``, 409 or wait), answer ``response`` (``replay``), or 409.

    A ``new`` claim carries ``token``, which ``complete`` and ``abandon`` need:
    only the request that holds the claim can finish it.
    """

    outcome: Outcome
    response: str | None = None
    token: str | None = None


def claim(
    r: redis.Redis, tenant_id: str, idempotency_key: str, body_hash: str, *, now: Now,
    lock_seconds: float = DEFAULT_LOCK_SECONDS,
) -> Claim:
    """Claim ``idempotency_key`` for a request whose body hashes to ``body_hash``."""
    token = secrets.token_hex(16)
    script = r.register_script(_CLAIM)
    reply = script(keys=[keys.idempotency(tenant_id, idempotency_key)],
                   args=[repr(unix(now)), body_hash, repr(float(lock_seconds)), token])
    outcome = text(reply[0])
    if outcome == "new":
        return Claim("new", token=token)
    if outcome == "replay":
        return Claim("replay", text(reply[1]))
    if outcome in ("in_progress", "conflict"):
        return Claim(outcome)  # type: ignore[arg-type]  # narrowed by the test above
    raise AssertionError(f"unexpected idempotency outcome {outcome!r}")


def complete(
    r: redis.Redis, tenant_id: str, idempotency_key: str, token: str, response: str,
    *, now: Now, keep_seconds: float = RECORD_SECONDS,
) -> bool:
    """Store the response of the ``new`` claim holding ``token`` for replay.

    False when that claim was lost (its lock ran out, and maybe another request
    claimed the key since); nothing is stored then.
    """
    script = r.register_script(_COMPLETE)
    return bool(script(keys=[keys.idempotency(tenant_id, idempotency_key)],
                       args=[repr(unix(now)), token, response, repr(float(keep_seconds))]))


def abandon(r: redis.Redis, tenant_id: str, idempotency_key: str, token: str) -> bool:
    """Drop the unfinished claim holding ``token`` (e.g. after a retriable
    5xx) so a retry runs again instead of waiting out the lock."""
    script = r.register_script(_ABANDON)
    return bool(script(keys=[keys.idempotency(tenant_id, idempotency_key)], args=[token]))
