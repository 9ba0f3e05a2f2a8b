"""Plans: the four built-in plans of the spec's Limits table, plus overrides.

A ``Plan`` custom resource reconciled by the operator is stored in Redis. One
with a built-in's name overrides that plan; a new name adds a plan
(DECISIONS.md "Plans"). Plan names are lower case, as Kubernetes object names
are; lookups fold case, so ``"Pro"`` finds ``pro``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from decimal import Decimal, InvalidOperation

import redis

from labelrender.store import keys, owners
from labelrender.store.errors import InvalidValue, NotFound
from labelrender.store.owners import Owner
from labelrender.store.redis_conn import text

_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
_AT_LEAST_ONE = (
    "requests_per_minute", "concurrent_renders", "max_dpi", "retention_days", "active_keys",
)
_AT_LEAST_ZERO = ("syntheses_per_month", "labels_per_month")
_PRICES = ("monthly_price", "synthesis_overage_price", "label_overage_price")
MAX_DPI_CEILING = 1200  # spec: source_dpi and target_dpi are 1 to 1200

# KEYS: owners, the plan, the plan set. ARGV: name, owner, instance (see
# store/owners.py). Removes the override when that owner holds it; 1 if so.
_RELEASE = owners.MATCH_LUA + """
if not matches then return 0 end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


@dataclass(frozen=True)
class Plan:
    """One plan's limits and prices; every limit is per tenant (spec "Limits").

    Prices are in US dollars. ``overages_allowed`` False makes the plan a hard
    cap whatever the tenant's overage switch says (Sandbox).
    """

    name: str
    requests_per_minute: int
    concurrent_renders: int
    syntheses_per_month: int
    labels_per_month: int
    max_dpi: int
    retention_days: int
    active_keys: int
    overages_allowed: bool
    monthly_price: Decimal
    synthesis_overage_price: Decimal
    label_overage_price: Decimal

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise InvalidValue(f"plan name {self.name!r} must be a lower-case DNS label")
        for field in _AT_LEAST_ONE + _AT_LEAST_ZERO:
            value = getattr(self, field)
            low = 1 if field in _AT_LEAST_ONE else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidValue(f"plan {field} must be an integer >= {low}, not {value!r}")
        if self.max_dpi > MAX_DPI_CEILING:
            raise InvalidValue(f"plan max_dpi must be <= {MAX_DPI_CEILING}")
        if not isinstance(self.overages_allowed, bool):
            raise InvalidValue("plan overages_allowed must be a boolean")
        for field in _PRICES:
            value = getattr(self, field)
            if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
                raise InvalidValue(f"plan {field} must be a non-negative Decimal")

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form; prices as decimal strings so no cent is lost."""
        data = asdict(self)
        for field in _PRICES:
            data[field] = str(data[field])
        return data


def _price(text_value: str) -> Decimal:
    return Decimal(text_value)


BUILTIN_PLANS: dict[str, Plan] = {
    plan.name: plan
    for plan in (
        Plan("sandbox", 10, 1, 5, 50, 203, 14, 5, False,
             _price("0"), _price("0"), _price("0")),
        Plan("pro", 100, 4, 50, 10_000, 300, 90, 10, True,
             _price("49"), _price("0.50"), _price("0.020")),
        Plan("warehouse", 500, 15, 200, 50_000, 600, 365, 25, True,
             _price("199"), _price("0.40"), _price("0.015")),
        Plan("scale", 1000, 30, 500, 150_000, 600, 365, 50, True,
             _price("399"), _price("0.30"), _price("0.010")),
    )
}

_FIELDS = tuple(f.name for f in fields(Plan))


def plan_from_dict(data: Mapping[str, object], base: Plan | None = None) -> Plan:
    """Build a plan from a mapping (a stored override or a Plan resource spec).

    Fields missing from ``data`` come from ``base``; with no base every field is
    required. Unknown fields are refused so a typo in a resource is not ignored.
    """
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise InvalidValue(f"unknown plan fields: {', '.join(unknown)}")
    merged: dict[str, object] = base.to_dict() if base is not None else {}
    merged.update(data)
    missing = [name for name in _FIELDS if name not in merged]
    if missing:
        raise InvalidValue(f"missing plan fields: {', '.join(missing)}")
    for field in _PRICES:
        merged[field] = _decimal(field, merged[field])
    merged["name"] = normalize_name(str(merged["name"]))
    return Plan(**merged)  # type: ignore[arg-type]  # checked in __post_init__


def _decimal(field: str, value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise InvalidValue(f"plan {field} must be a number, not {value!r}")
    try:
        return Decimal(str(value))
    except InvalidOperation as exc:
        raise InvalidValue(f"plan {field} must be a number, not {value!r}") from exc


def normalize_name(name: str) -> str:
    return name.strip().lower()


def get_plan(r: redis.Redis, name: str) -> Plan:
    """The effective plan named ``name``: the stored override, else the built-in."""
    plan_name = normalize_name(name)
    return plan_from_stored(plan_name, text(r.get(keys.plan(plan_name))))


_PARSED_KEPT = 256
_parsed: dict[str, Plan] = {}  # stored plan JSON -> the plan (a Plan never changes)


def plan_from_stored(plan_name: str, stored: str | None) -> Plan:
    """The plan from its stored override (JSON) if any, else the built-in. Every
    request's access check reads its plan: the same JSON is parsed once."""
    if stored is not None:
        plan = _parsed.get(stored)
        if plan is None:
            plan = plan_from_dict(json.loads(stored))
            if len(_parsed) >= _PARSED_KEPT:
                _parsed.clear()
            _parsed[stored] = plan
        return plan
    if plan_name in BUILTIN_PLANS:
        return BUILTIN_PLANS[plan_name]
    raise NotFound("plan", plan_name)


def list_plans(r: redis.Redis) -> list[Plan]:
    """Every effective plan: built-ins first in table order, then added ones by name.
    An added plan deleted between reading the names and reading it is left out (on a
    sharded Redis the two reads cannot share a transaction)."""
    stored = {str(text(name)) for name in r.smembers(keys.plans())}
    added = sorted(stored - set(BUILTIN_PLANS))
    listed = [get_plan(r, name) for name in BUILTIN_PLANS]
    for name in added:
        try:
            listed.append(get_plan(r, name))
        except NotFound:
            continue
    return listed


def put_plan(r: redis.Redis, plan: Plan, owner: Owner | None = None) -> None:
    """Store ``plan``, overriding a built-in of the same name or adding a plan;
    ``owner`` is the Plan object it is stored for (the operator's)."""
    pipe = r.pipeline(transaction=True)
    pipe.set(keys.plan(plan.name), json.dumps(plan.to_dict(), sort_keys=True))
    pipe.sadd(keys.plans(), plan.name)
    if owner is not None:
        pipe.hset(keys.plan_owners(), plan.name, owner.entry())
    pipe.execute()


def stored_override(r: redis.Redis, name: str) -> tuple[Plan | None, Owner | None]:
    """The override stored for ``name`` (None when the plan is only built in),
    and the object it is stored for (None when none is recorded)."""
    plan_name = normalize_name(name)
    pipe = r.pipeline(transaction=True)
    pipe.get(keys.plan(plan_name))
    pipe.hget(keys.plan_owners(), plan_name)
    stored, held = pipe.execute()
    plan = plan_from_dict(json.loads(str(text(stored)))) if stored is not None else None
    return plan, owners.parse(held) if held is not None else None


def plan_owners(r: redis.Redis) -> dict[str, Owner]:
    """Every plan override the operator stores, with the object it is stored for."""
    return owners.read_all(r.hgetall(keys.plan_owners()))


def release_plan(r: redis.Redis, name: str, owner: Owner, *, any_instance: bool = False
                 ) -> bool:
    """Remove the override of ``name`` only when ``owner`` holds it (any instance
    of that owner with ``any_instance``); a built-in plan applies again."""
    plan_name = normalize_name(name)
    script = r.register_script(_RELEASE)
    released = script(keys=[keys.plan_owners(), keys.plan(plan_name), keys.plans()],
                      args=[plan_name, owner.key, "" if any_instance else owner.instance,
                            owner.name if any_instance else ""])
    return int(str(released)) == 1


def delete_plan(r: redis.Redis, name: str) -> bool:
    """Remove a stored plan; a built-in of that name applies again.

    Tenants on a deleted added plan get ``NotFound`` from ``get_plan``; the
    operator should refuse to delete a plan in use.
    """
    plan_name = normalize_name(name)
    pipe = r.pipeline(transaction=True)
    pipe.delete(keys.plan(plan_name))
    pipe.srem(keys.plans(), plan_name)
    removed, _ = pipe.execute()
    return bool(removed)
