"""Plan -> plan override in Redis: the reconcile and the finalizer's delete.

The API reads a tenant's plan on every request (store/access.py), so a stored
override applies to the very next request of every tenant on that plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labelrender.operator.context import UNAVAILABLE, ObjectRef, Store, unavailable
from labelrender.operator.resources import InvalidSpec, plan_from_spec
from labelrender.operator.status import Outcome
from labelrender.store import plans
from labelrender.store.plans import BUILTIN_PLANS, Plan


def reconcile_plan(store: Store, ref: ObjectRef, spec: Mapping[str, Any]) -> Outcome:
    """Store the Plan's limits and prices when they differ from the stored override."""
    try:
        plan = plan_from_spec(ref.name, spec)
    except InvalidSpec as exc:
        return Outcome(False, "InvalidSpec", f"{exc}; the plan in force is unchanged")
    try:
        stored, owner = plans.stored_override(store.redis, plan.name)
        if owner is not None and not owner.is_for(ref.owner):
            return Outcome(False, "NameConflict",
                           f"plan {plan.name} is stored for Plan {owner.describe(ref.cluster)}; "
                           "plan names are shared by every cluster on this Redis, so only one "
                           "cluster may define a name")
        changed = (stored, owner) != (plan, ref.owner)
        if changed:
            plans.put_plan(store.redis, plan, ref.owner)
    except UNAVAILABLE as exc:
        return unavailable(exc)
    return Outcome(True, "Stored", describe(plan), changed=changed)


def remove_plan(store: Store, ref: ObjectRef) -> Outcome:
    """The finalizer: remove the override stored for this object."""
    try:
        removed = plans.release_plan(store.redis, ref.name, ref.owner, any_instance=True)
    except UNAVAILABLE as exc:
        return unavailable(exc)
    after = ("the built-in plan applies again" if ref.name in BUILTIN_PLANS
             else "tenants still on it cannot authenticate until moved to another plan")
    message = f"removed plan {ref.name}: {after}" if removed else "nothing was stored"
    return Outcome(True, "Removed", message, changed=removed)


def describe(plan: Plan) -> str:
    what = "overrides the built-in plan" if plan.name in BUILTIN_PLANS else "is a plan"
    return (f"{plan.name} {what}: {plan.requests_per_minute} requests a minute, "
            f"{plan.concurrent_renders} renders at once, {plan.labels_per_month} labels and "
            f"{plan.syntheses_per_month} syntheses a month, max {plan.max_dpi} dpi")

