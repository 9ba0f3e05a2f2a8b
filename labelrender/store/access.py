"""One request's access check: key, tenant, plan, rate, in two round trips.

Every authenticated request needs the key record, its tenant, the tenant's
plan and (for most routes) one step of the rate limiter. ``authorize`` reads
the key record by the secret's hash alone (``lr:apikey:<sha256>``, a key of
its own slot), then runs one Lua script on the tenant's keys, which share the
tenant group's hash tag and so one slot on a Redis Cluster: the key is still
the tenant's and active, the tenant record, and the rate step. The plan comes
from the process's ``PlanCache`` (operator records, at most
``global_cache.STALENESS_S`` old); the script gets every plan's rate as
arguments and picks the tenant's. Tenant and key are never cached: a key
revoked a moment ago is refused on its next request (spec "Authentication").
Every key the script touches is in its KEYS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis.asyncio

from labelrender.store import keys
from labelrender.store.apikeys import SECRET_FORMAT, ApiKey, hash_secret, key_from_record
from labelrender.store.clock import Now, unix
from labelrender.store.errors import InvalidValue
from labelrender.store.global_cache import PlanCache
from labelrender.store.limits import GCRA_LUA, RATE_PERIOD_SECONDS, RateDecision, rate_decision
from labelrender.store.plans import Plan, normalize_name
from labelrender.store.redis_conn import text_map
from labelrender.store.tenants import TENANT_ID, Tenant, tenant_from_record

# KEYS: tenant, tenant_keys, tenant_active_keys, rate.
# ARGV: key_prefix, key_hash, now, period, cost, then name/requests_per_minute
#       pairs of every plan.
# Returns {} for a key that is not the tenant's active key; {false} for a
# tenant that is gone; {tenant} for a plan with no rate; else {tenant, allowed,
# remaining, tat, retry_after, limit}.
_ACCESS = GCRA_LUA + """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return {} end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0 then return {} end
local tenant = redis.call('HGETALL', KEYS[1])
if #tenant == 0 then return {false} end
local plan_name = ''
for i = 1, #tenant, 2 do
  if tenant[i] == 'plan' then plan_name = string.lower(tenant[i + 1]) end
end
local limit = nil
for i = 6, #ARGV, 2 do
  if ARGV[i] == plan_name then limit = tonumber(ARGV[i + 1]) end
end
if not limit or limit < 1 then return {tenant} end
local rate = gcra(KEYS[4], tonumber(ARGV[3]), tonumber(ARGV[4]), limit, tonumber(ARGV[5]))
return {tenant, rate[1], rate[2], rate[3], rate[4], limit}
"""


@dataclass(frozen=True)
class Access:
    """Who is calling (key, tenant, plan) and the rate step taken (or looked at)."""

    key: ApiKey
    tenant: Tenant
    plan: Plan
    rate: RateDecision


class Authorizer:
    """``authorize`` bound to one asyncio Redis client (the script loads once)
    and one process's plan cache."""

    def __init__(self, client: redis.asyncio.Redis, plans: PlanCache | None = None) -> None:
        self._client = client
        self._script = client.register_script(_ACCESS)
        self._plans = plans if plans is not None else PlanCache()

    async def authorize(self, secret: str, *, now: Now, cost: int) -> Access | None:
        """The caller behind ``secret`` with ``cost`` requests taken from its rate
        (0 only looks; a denied request takes nothing). None when the key is
        malformed, unknown or revoked, or its tenant or plan is gone (all 401)."""
        if not SECRET_FORMAT.match(secret):
            return None
        if cost not in (0, 1):
            raise InvalidValue("an access check costs 0 or 1 requests")
        key_hash = hash_secret(secret)
        record = text_map(await self._client.hgetall(keys.apikey(key_hash)))
        if record.get("status") != "active" or not TENANT_ID.match(record.get("tenant_id", "")):
            return None
        key = key_from_record(record)
        plans = await self._plans.plans_async(self._client)
        rates = [str(item) for plan in plans.values()
                 for item in (plan.name, plan.requests_per_minute)]
        tenant_id = key.tenant_id
        answer: list[Any] = await self._script(
            keys=[keys.tenant(tenant_id), keys.tenant_keys(tenant_id),
                  keys.tenant_active_keys(tenant_id), keys.rate(tenant_id)],
            args=[key.key_prefix, key_hash, unix(now), RATE_PERIOD_SECONDS, cost, *rates])
        if len(answer) < 6:
            return None
        tenant = tenant_from_record(tenant_id, _as_map(answer[0]))
        plan = plans.get(normalize_name(tenant.plan))
        if plan is None:
            return None
        limit = int(answer[5])
        return Access(key, tenant, plan, rate_decision(answer[1:5], limit))


def _as_map(flat: list[Any]) -> dict[str, str]:
    """An HGETALL reply from inside a script: a flat [field, value, ...] list."""
    return {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat) - 1, 2)}
