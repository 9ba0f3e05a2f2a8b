"""Per-tenant limits: request rate, concurrent renders and monthly quotas.

Every script takes the time as an argument (``now``, unix seconds) instead of
calling TIME, so the caller's clock decides and tests can move it. Redis key
TTLs are set relative to ``now`` and only collect garbage; the logic never
depends on them.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import redis
import redis.asyncio

from labelrender.store import keys
from labelrender.store.clock import Now, unix, utc
from labelrender.store.errors import InvalidValue, QuotaExceeded
from labelrender.store.plans import Plan
from labelrender.store.redis_conn import text

RATE_PERIOD_SECONDS = 60.0
DEFAULT_LEASE_SECONDS = 120.0
# Usage hashes are kept about 13 months after their month ends, for billing.
USAGE_KEEP_SECONDS = 400 * 86400

# --- rate limit -------------------------------------------------------------

# GCRA: the key holds the theoretical arrival time (TAT) of the next request.
# One request costs period/limit seconds; a request is allowed when the TAT it
# would leave is at most one period ahead of now, so a full bucket allows a
# burst of `limit` and then refills one request every period/limit seconds.
# One GCRA step on the key `rate_key`, shared by `_RATE` and the access script
# (store/access.py). Returns {allowed, remaining, tat, retry_after}.
#
# `now` is the caller's clock, read before the call. Calls in flight together
# can reach Redis in another order than they read the clock, so a request may
# carry a `now` older than one already counted. The key keeps the latest `now`
# it has seen next to the TAT ("tat|seen") and an older one counts as that, so
# a full allowance sent at once is never refused a request short.
GCRA_LUA = """
local function gcra(rate_key, now, period, limit, cost)
  local interval = period / limit
  local tat = now
  local stored = redis.call('GET', rate_key)
  if stored then
    local stored_tat, seen = string.match(stored, '^([^|]+)|?(.*)$')
    seen = tonumber(seen)
    if seen and seen > now then now = seen end
    stored_tat = tonumber(stored_tat)
    if stored_tat and stored_tat > now then tat = stored_tat else tat = now end
  end
  local new_tat = tat + cost * interval
  local allowed = new_tat - now <= period + 1e-6
  local retry_after = 0
  if allowed then
    tat = new_tat
    if cost > 0 then
      local ttl = math.ceil((tat - now) * 1000) + 1000
      redis.call('SET', rate_key, string.format('%.6f|%.6f', tat, now), 'PX', ttl)
    end
  else
    retry_after = new_tat - period - now
  end
  local remaining = math.floor((period - (tat - now)) / interval + 1e-6)
  return {allowed and 1 or 0, remaining, string.format('%.6f', tat),
          string.format('%.6f', retry_after)}
end
"""

# KEYS[1] rate; ARGV: now, period, limit, cost (0 = look without taking)
_RATE = GCRA_LUA + """
return gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]),
            tonumber(ARGV[4]))
"""


@dataclass(frozen=True)
class RateDecision:
    """Outcome of one rate check, with what the X-RateLimit-* headers show.

    ``reset_at`` is the unix second by which the full limit is available again;
    ``retry_after`` is the (fractional) wait before a denied request may pass.
    """

    allowed: bool
    limit: int
    remaining: int
    reset_at: int
    retry_after: float


def check_rate(
    r: redis.Redis, tenant_id: str, limit: int, *, now: Now, cost: int = 1
) -> RateDecision:
    """Take ``cost`` requests from the tenant's per-minute allowance ``limit``.

    ``cost=0`` only looks (``GET /v1/usage``); a denied request takes nothing.
    """
    if limit < 1 or cost < 0 or cost > limit:
        raise InvalidValue("rate limit must be >= 1 and cost within 0..limit")
    script = r.register_script(_RATE)
    answer = script(keys=[keys.rate(tenant_id)],
                    args=[unix(now), RATE_PERIOD_SECONDS, limit, cost])
    return rate_decision(answer, limit)


def rate_decision(answer: list[object], limit: int) -> RateDecision:
    """A ``GCRA_LUA`` reply as a RateDecision."""
    allowed, remaining, tat, retry_after = answer
    return RateDecision(
        allowed=bool(allowed),
        limit=limit,
        remaining=max(0, int(str(remaining))),
        reset_at=math.ceil(float(str(text(tat)))),
        retry_after=float(str(text(retry_after))),
    )


def peek_rate(r: redis.Redis, tenant_id: str, limit: int, *, now: Now) -> RateDecision:
    """The tenant's rate state without taking a request."""
    return check_rate(r, tenant_id, limit, now=now, cost=0)


# --- concurrency --------------------------------------------------------------

# A lease is a member of the tenant's in-flight set scored by its expiry, so a
# holder that dies without releasing stops counting when its lease runs out.
# The key's own TTL only grows, so it never drops a live lease.
_EXTEND_KEY_TTL = """
local function extend_key_ttl(key, now, expires_at)
  local want = math.ceil((expires_at - now) * 1000) + 1000
  if redis.call('PTTL', key) < want then redis.call('PEXPIRE', key, want) end
end
"""

# Slots as local functions, for scripts that check everything before they take
# anything (render admission, store/jobs.py).
SLOT_LUA = _EXTEND_KEY_TTL + """
local function slot_free(inflight_key, now, cap)
  redis.call('ZREMRANGEBYSCORE', inflight_key, '-inf', now)
  return redis.call('ZCARD', inflight_key) < cap
end
local function slot_take(inflight_key, now, lease_id, expires_at)
  redis.call('ZADD', inflight_key, expires_at, lease_id)
  extend_key_ttl(inflight_key, now, expires_at)
end
"""

# KEYS[1] inflight; ARGV: now, cap, lease_id, expires_at
_ACQUIRE = SLOT_LUA + """
local now = tonumber(ARGV[1])
if not slot_free(KEYS[1], now, tonumber(ARGV[2])) then return 0 end
slot_take(KEYS[1], now, ARGV[3], tonumber(ARGV[4]))
return 1
"""

# KEYS[1] inflight; ARGV: now, lease_id, expires_at
_RENEW = _EXTEND_KEY_TTL + """
local now = tonumber(ARGV[1])
local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not score or tonumber(score) <= now then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
extend_key_ttl(KEYS[1], now, tonumber(ARGV[3]))
return 1
"""


@dataclass(frozen=True)
class Lease:
    """A held concurrency slot; release it, or renew it before ``expires_at``."""

    tenant_id: str
    lease_id: str
    expires_at: float


def acquire_slot(
    r: redis.Redis, tenant_id: str, cap: int, *, now: Now,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
) -> Lease | None:
    """Take one of the tenant's ``cap`` render slots; None when all are held."""
    lease = Lease(tenant_id, secrets.token_hex(12), unix(now) + lease_seconds)
    script = r.register_script(_ACQUIRE)
    taken = script(keys=[keys.inflight(tenant_id)],
                   args=[unix(now), cap, lease.lease_id, repr(lease.expires_at)])
    return lease if taken else None


def renew_slot(
    r: redis.Redis, lease: Lease, *, now: Now, lease_seconds: float = DEFAULT_LEASE_SECONDS
) -> Lease | None:
    """Extend a live lease; None when it already expired (the slot is gone)."""
    renewed = Lease(lease.tenant_id, lease.lease_id, unix(now) + lease_seconds)
    script = r.register_script(_RENEW)
    kept = script(keys=[keys.inflight(lease.tenant_id)],
                  args=[unix(now), lease.lease_id, repr(renewed.expires_at)])
    return renewed if kept else None


def release_slot(r: redis.Redis, lease: Lease) -> bool:
    """Give the slot back; False when it had expired already. Safe to repeat."""
    return bool(r.zrem(keys.inflight(lease.tenant_id), lease.lease_id))


async def release_slot_async(ar: redis.asyncio.Redis, lease: Lease) -> bool:
    """``release_slot`` on the asyncio client."""
    return bool(await ar.zrem(keys.inflight(lease.tenant_id), lease.lease_id))


def in_flight(r: redis.Redis, tenant_id: str, *, now: Now) -> int:
    """Live leases of the tenant (``concurrency.in_flight`` in /v1/usage)."""
    return int(r.zcount(keys.inflight(tenant_id), f"({unix(now)!r}", "+inf"))


# --- monthly quotas -------------------------------------------------------------

Unit = Literal["labels", "syntheses"]
UNITS: tuple[Unit, ...] = ("syntheses", "labels")

# The monthly quota as local functions, shared by ``consume``, ``refund``, render
# admission and the worker's settlement (store/jobs.py).
QUOTA_LUA = """
local function quota_room(usage_key, unit, count, included, overages)
  local used = tonumber(redis.call('HGET', usage_key, unit) or '0')
  return (used + count <= included) or overages == '1', used
end
local function quota_take(usage_key, unit, count, ttl)
  local used = redis.call('HINCRBY', usage_key, unit, count)
  redis.call('EXPIRE', usage_key, ttl)
  return used
end
local function quota_give_back(usage_key, unit, count)
  local used = tonumber(redis.call('HGET', usage_key, unit) or '0')
  local back = math.min(used, count)
  if back > 0 then used = redis.call('HINCRBY', usage_key, unit, -back) end
  return used
end
"""

# Check the allowance and count in one step, so concurrent requests cannot
# both take the last unit. KEYS[1] usage; ARGV: unit, count, included,
# overages ('1'/'0'), ttl seconds.
_CONSUME = QUOTA_LUA + """
local room, used = quota_room(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4])
if not room then return {0, used} end
return {1, quota_take(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[5])}
"""

# Give back units counted for work that then failed; never below zero.
# KEYS[1] usage; ARGV: unit, count
_REFUND = QUOTA_LUA + """
return quota_give_back(KEYS[1], ARGV[1], tonumber(ARGV[2]))
"""


@dataclass(frozen=True)
class Quota:
    """What a quota script needs for one unit of one tenant this month."""

    usage_key: str
    unit: Unit
    included: int
    overages: bool
    ttl_s: int


def quota_of(tenant_id: str, unit: Unit, plan: Plan, *, overages: bool, now: Now) -> Quota:
    """``overages`` is the tenant's effective switch; a plan without overages is
    a hard cap whatever it says."""
    ttl = math.ceil(period_resets_at(now).timestamp() - unix(now)) + USAGE_KEEP_SECONDS
    return Quota(keys.usage(tenant_id, period(now)), unit, included(plan, unit),
                 overages and plan.overages_allowed, ttl)


@dataclass(frozen=True)
class UnitUsage:
    """One metered unit this month: ``overage`` is the billable part above
    ``included``."""

    used: int
    included: int

    @property
    def overage(self) -> int:
        return max(0, self.used - self.included)


def period(now: Now) -> str:
    """The UTC month of ``now`` as ``YYYY-MM``; counters are kept per period."""
    return utc(now).strftime("%Y-%m")


def period_resets_at(now: Now) -> datetime:
    """Start of the next UTC month, when the counters start again from zero."""
    start = utc(now).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if start.month == 12:
        return start.replace(year=start.year + 1, month=1)
    return start.replace(month=start.month + 1)


def included(plan: Plan, unit: Unit) -> int:
    return plan.labels_per_month if unit == "labels" else plan.syntheses_per_month


def consume(
    r: redis.Redis, tenant_id: str, unit: Unit, plan: Plan, *, overages: bool, now: Now,
    count: int = 1,
) -> UnitUsage:
    """Count ``count`` units if the allowance or overages permit.

    ``overages`` is the tenant's effective switch; a plan without overages is a
    hard cap whatever it says. Raises QuotaExceeded, counting nothing.
    """
    if count < 1:
        raise InvalidValue("count must be >= 1")
    quota = quota_of(tenant_id, unit, plan, overages=overages, now=now)
    script = r.register_script(_CONSUME)
    counted, used = script(keys=[quota.usage_key],
                           args=[unit, count, quota.included, "1" if quota.overages else "0",
                                 quota.ttl_s])
    if not counted:
        raise QuotaExceeded(unit, int(used), quota.included)
    return UnitUsage(int(used), quota.included)


def refund(r: redis.Redis, tenant_id: str, unit: Unit, *, now: Now, count: int = 1) -> int:
    """Uncount units of the month of ``now`` (pass the time they were counted)."""
    script = r.register_script(_REFUND)
    return int(script(keys=[keys.usage(tenant_id, period(now))], args=[unit, count]))


def read_usage(r: redis.Redis, tenant_id: str, plan: Plan, *, now: Now) -> dict[Unit, UnitUsage]:
    """This month's figures for every unit (``GET /v1/usage``)."""
    counts = r.hmget(keys.usage(tenant_id, period(now)), list(UNITS))
    return {
        unit: UnitUsage(int(text(raw) or 0), included(plan, unit))
        for unit, raw in zip(UNITS, counts, strict=True)
    }
