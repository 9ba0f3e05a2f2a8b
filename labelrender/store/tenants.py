"""Tenants: created by operators (``labelrender admin tenant create``), never
through the public API. A tenant record holds its name, plan and overage switch.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass

import redis

from labelrender.store import keys
from labelrender.store.clock import CREATED_TS, Now, creation_order, instant, iso
from labelrender.store.errors import InvalidValue, NotFound, OveragesNotAllowed, StoreError
from labelrender.store.plans import Plan, get_plan
from labelrender.store.redis_conn import text_map

TENANT_ID = re.compile(r"^tnt_[a-z2-7]{26}$")
MAX_NAME_LENGTH = 200

# Write the hash KEYS[1] only if it is absent (ARGV[1] == 'new') or only if it
# exists (any other mode); returns 1 when written. A create never overwrites a
# tenant and an update never brings back one that does not exist.
_WRITE_HASH = """
local exists = redis.call('EXISTS', KEYS[1]) == 1
if (ARGV[1] == 'new') == exists then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1
"""


@dataclass(frozen=True)
class Tenant:
    """A tenant record.

    ``overages`` is the account switch as set by the operator, or None when it
    was never set, which means the plan's default: on for paid plans.
    """

    tenant_id: str
    name: str
    plan: str
    overages: bool | None
    created_at: str

    def overages_enabled(self, plan: Plan) -> bool:
        """Effective switch: always off on a hard-cap plan (Sandbox)."""
        return plan.overages_allowed and self.overages is not False


def new_tenant_id() -> str:
    """``tnt_`` + 26 lower-case base32 characters (128 random bits)."""
    raw = base64.b32encode(secrets.token_bytes(16)).decode().rstrip("=")
    return "tnt_" + raw.lower()


def create_tenant(
    r: redis.Redis, name: str, plan: str, *, now: Now, overages: bool | None = None
) -> Tenant:
    """Create a tenant on ``plan``. ``overages=None`` takes the plan default.

    Raises NotFound for an unknown plan, OveragesNotAllowed for overages on a
    hard-cap plan, InvalidValue for an empty or over-long name.
    """
    clean_name = name.strip()
    if not clean_name or len(clean_name) > MAX_NAME_LENGTH:
        raise InvalidValue(f"tenant name must be 1 to {MAX_NAME_LENGTH} characters")
    plan_record = _checked_plan(r, plan, overages)
    tenant = Tenant(new_tenant_id(), clean_name, plan_record.name, overages, iso(now))
    if not _write(r, tenant, new=True, created=instant(now)):
        raise StoreError("tenant id collision; retry")  # 2**-128 odds
    return tenant


def get_tenant(r: redis.Redis, tenant_id: str) -> Tenant:
    """The tenant ``tenant_id``; NotFound if unknown or malformed."""
    if not TENANT_ID.match(tenant_id):
        raise NotFound("tenant", tenant_id)
    record = text_map(r.hgetall(keys.tenant(tenant_id)))
    if not record:
        raise NotFound("tenant", tenant_id)
    return tenant_from_record(tenant_id, record)


def list_tenants(r: redis.Redis) -> list[Tenant]:
    """Every tenant, oldest first. A SCAN over the keyspace (every primary's,
    on a Redis Cluster): for operators' commands, never for a request's path."""
    found = (keys.tenant_id_in(str(name))
             for name in r.scan_iter(match=keys.tenant_pattern(), count=1000))
    ids = sorted({tid for tid in found if tid is not None and TENANT_ID.match(tid)})
    tenants = []
    order: dict[str, tuple[str, float, str]] = {}
    for tenant_id in ids:
        record = text_map(r.hgetall(keys.tenant(tenant_id)))
        if record:
            tenants.append(tenant_from_record(tenant_id, record))
            order[tenant_id] = creation_order(record, tenant_id)
    return sorted(tenants, key=lambda t: order[t.tenant_id])


def tenant_from_record(tenant_id: str, record: dict[str, str]) -> Tenant:
    """A stored tenant hash as a Tenant."""
    switch = record.get("overages")
    return Tenant(
        tenant_id=tenant_id,
        name=record["name"],
        plan=record["plan"],
        overages=None if switch is None else switch == "on",
        created_at=record["created_at"],
    )


def set_plan(r: redis.Redis, tenant_id: str, plan: str) -> Tenant:
    """Move a tenant to ``plan``. An overage switch left unset follows the new
    plan's default; a hard-cap plan turns overages off whatever the switch."""
    tenant = get_tenant(r, tenant_id)
    plan_record = get_plan(r, plan)
    return _update(r, Tenant(tenant_id, tenant.name, plan_record.name, tenant.overages,
                             tenant.created_at))


def set_overages(r: redis.Redis, tenant_id: str, enabled: bool) -> Tenant:
    """Set the account's overage switch (covers both metered units).

    Raises OveragesNotAllowed when enabling on a hard-cap plan.
    """
    tenant = get_tenant(r, tenant_id)
    _checked_plan(r, tenant.plan, enabled)
    return _update(r, Tenant(tenant_id, tenant.name, tenant.plan, enabled, tenant.created_at))


def _checked_plan(r: redis.Redis, plan: str, overages: bool | None) -> Plan:
    plan_record = get_plan(r, plan)
    if overages and not plan_record.overages_allowed:
        raise OveragesNotAllowed(plan_record.name)
    return plan_record


def _update(r: redis.Redis, tenant: Tenant) -> Tenant:
    if not _write(r, tenant, new=False):
        raise NotFound("tenant", tenant.tenant_id)
    return tenant


def _write(r: redis.Redis, tenant: Tenant, *, new: bool, created: str | None = None) -> bool:
    fields = ["name", tenant.name, "plan", tenant.plan, "created_at", tenant.created_at]
    if created is not None:  # (a new record's instant: tenants made in one second list
        fields += [CREATED_TS, created]  # in the order made)
    if tenant.overages is not None:
        fields += ["overages", "on" if tenant.overages else "off"]
    script = r.register_script(_WRITE_HASH)
    return bool(script(keys=[keys.tenant(tenant.tenant_id)], args=["new" if new else "update",
                                                                   *fields]))
