"""Monthly units (spec "Limits"). Synthesis counts one before the work and gives
it back when no draft results. Renders count theirs in the admission step, and
the worker settles it (``store.jobs``, "Billing"); they share the 402 here."""

from __future__ import annotations

import logging

from labelrender.api import errors
from labelrender.api.context import AppState, AuthContext
from labelrender.store import QuotaExceeded, Unit, consume, refund

log = logging.getLogger("labelrender.api")


async def consume_unit(state: AppState, auth: AuthContext, unit: Unit, now: float) -> None:
    """Count one ``unit``; 402 ``QuotaExceeded`` with an upgrade prompt at the
    allowance when overages are off (always on Sandbox)."""
    await state.call(take_unit, state, auth, unit, now)


def take_unit(state: AppState, auth: AuthContext, unit: Unit, now: float) -> None:
    """``consume_unit`` for code already running on the store thread."""
    try:
        consume(state.redis, auth.tenant_id, unit, auth.plan,
                overages=auth.tenant.overages_enabled(auth.plan), now=now)
    except QuotaExceeded as exc:
        raise quota_error(state, auth, exc) from exc


def quota_error(state: AppState, auth: AuthContext, exc: QuotaExceeded) -> errors.ApiError:
    """402 ``QuotaExceeded`` with an upgrade prompt (DECISIONS.md "General"), for
    the caller to raise: the refusal is counted here."""
    state.metrics.refused("QuotaExceeded")
    return errors.QuotaExceeded(
        f"the monthly allowance of {exc.included} {exc.unit} on the {auth.plan.name} plan "
        "is used up; upgrade the plan or enable overages",
        extra={"upgrade_url": state.config.effective_upgrade_url},
    )


async def refund_quietly(state: AppState, tenant_id: str, unit: Unit, billed_at: float) -> None:
    """Give back a unit counted at ``billed_at``; a failure is logged, never
    raised over the answer being sent."""
    try:
        await state.call(refund, state.redis, tenant_id, unit, now=billed_at)
    except errors.ServiceUnavailable:
        log.error("could not give back one of %s's %s", tenant_id, unit)
