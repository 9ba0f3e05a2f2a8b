"""One request's access check in one Redis round trip: key, tenant, plan, rate.

Every authenticated request needs the key record, its tenant, the tenant's
plan and (for most routes) one step of the rate limiter. Done one by one that
is four round trips; ``authorize`` does them in a single Lua script on the
asyncio client, so the API's hot path neither waits on four replies nor hops
to a thread. Nothing is cached between requests: a key revoked a moment ago
is refused on its next request (spec "Authentication").

The script reads keys it finds along the way (the tenant named by the key
record, its plan, its rate key), which Redis allows on a single server; v1
runs on one Redis (``keys``), so that holds. Their names still come from
``keys``, passed in as prefix and suffix pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis.asyncio

from labelrender.store import keys
from labelrender.store.apikeys import SECRET_FORMAT, ApiKey, hash_secret, key_from_record
from labelrender.store.clock import Now, unix
from labelrender.store.errors import InvalidValue, NotFound
from labelrender.store.limits import GCRA_LUA, RATE_PERIOD_SECONDS, RateDecision, rate_decision
from labelrender.store.plans import BUILTIN_PLANS, Plan, normalize_name, plan_from_stored
from labelrender.store.tenants import TENANT_ID, Tenant, tenant_from_record

# KEYS[1] the API key record.
# ARGV: now, period, cost, tenant key prefix, tenant key suffix, rate key suffix,
#       plan key prefix, then name/requests_per_minute pairs of the built-in plans.
# Returns {} for no key; {key} for a key that is not active; {key, tenant} for a
# tenant that is gone; {key, tenant, plan_json|false} for a plan with no rate;
# else {key, tenant, plan_json|false, allowed, remaining, tat, retry_after, limit}.
_ACCESS = GCRA_LUA + """
local function as_map(flat)
  local map = {}
  for i = 1, #flat, 2 do map[flat[i]] = flat[i + 1] end
  return map
end
local key = redis.call('HGETALL', KEYS[1])
if #key == 0 then return {} end
local key_map = as_map(key)
if key_map['status'] ~= 'active' or not key_map['tenant_id'] then return {key} end
local tenant_id = key_map['tenant_id']
local tenant = redis.call('HGETALL', ARGV[4] .. tenant_id .. ARGV[5])
if #tenant == 0 then return {key, tenant} end
local plan_name = string.lower(as_map(tenant)['plan'] or '')
local plan_json = redis.call('GET', ARGV[7] .. plan_name)
local limit = nil
if plan_json then
  local ok, plan = pcall(cjson.decode, plan_json)
  if ok and type(plan) == 'table' then limit = tonumber(plan['requests_per_minute']) end
else
  for i = 8, #ARGV, 2 do
    if ARGV[i] == plan_name then limit = tonumber(ARGV[i + 1]) end
  end
end
if not limit or limit < 1 then return {key, tenant, plan_json or false} end
local rate = gcra(ARGV[4] .. tenant_id .. ARGV[6], tonumber(ARGV[1]), tonumber(ARGV[2]),
                  limit, tonumber(ARGV[3]))
return {key, tenant, plan_json or false, rate[1], rate[2], rate[3], rate[4], limit}
"""


@dataclass(frozen=True)
class Access:
    """Who is calling (key, tenant, plan) and the rate step taken (or looked at)."""

    key: ApiKey
    tenant: Tenant
    plan: Plan
    rate: RateDecision


def _split(name: str) -> tuple[str, str]:
    """A key name built around a marker, as the (prefix, suffix) around it."""
    prefix, _marker, suffix = name.partition("\0")
    return prefix, suffix


_TENANT_PREFIX, _TENANT_SUFFIX = _split(keys.tenant("\0"))
_RATE_PREFIX, _RATE_SUFFIX = _split(keys.rate("\0"))
_PLAN_PREFIX, _PLAN_SUFFIX = _split(keys.plan("\0"))
if _RATE_PREFIX != _TENANT_PREFIX or _TENANT_SUFFIX or _PLAN_SUFFIX:
    raise ImportError("store.access assumes tenant-prefixed rate keys and suffix-free "
                      "tenant and plan keys")


class Authorizer:
    """``authorize`` bound to one asyncio Redis client (the script loads once)."""

    def __init__(self, client: redis.asyncio.Redis) -> None:
        self._script = client.register_script(_ACCESS)
        builtin = [str(item) for plan in BUILTIN_PLANS.values()
                   for item in (plan.name, plan.requests_per_minute)]
        self._args: list[Any] = [RATE_PERIOD_SECONDS, 0, _TENANT_PREFIX, _TENANT_SUFFIX,
                                 _RATE_SUFFIX, _PLAN_PREFIX, *builtin]

    async def authorize(self, secret: str, *, now: Now, cost: int) -> Access | None:
        """The caller behind ``secret`` with ``cost`` requests taken from its rate
        (0 only looks; a denied request takes nothing). None when the key is
        malformed, unknown or revoked, or its tenant or plan is gone (all 401)."""
        if not SECRET_FORMAT.match(secret):
            return None
        if cost not in (0, 1):
            raise InvalidValue("an access check costs 0 or 1 requests")
        args = [unix(now), self._args[0], cost, *self._args[2:]]
        answer: list[Any] = await self._script(keys=[keys.apikey(hash_secret(secret))],
                                               args=args)
        return _access(answer)


def _access(answer: list[Any]) -> Access | None:
    if len(answer) < 8:
        return None
    key = key_from_record(_as_map(answer[0]))
    tenant_record = _as_map(answer[1])
    if not TENANT_ID.match(key.tenant_id):
        return None
    tenant = tenant_from_record(key.tenant_id, tenant_record)
    try:
        plan = plan_from_stored(normalize_name(tenant.plan), answer[2] or None)
    except NotFound:
        return None
    limit = int(answer[7])
    return Access(key, tenant, plan, rate_decision(answer[3:7], limit))


def _as_map(flat: list[Any]) -> dict[str, str]:
    """An HGETALL reply from inside a script: a flat [field, value, ...] list."""
    return {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat) - 1, 2)}
