"""GET /v1/whoami and GET /v1/usage; shapes per DECISIONS.md "Keys and account"."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from labelrender.api.context import (
    AppState,
    AuthContext,
    RoutePolicy,
    app_state,
    auth_of,
    rate_or_none,
    route_policy,
)
from labelrender.store import (
    RateDecision,
    in_flight,
    period,
    period_resets_at,
    read_usage,
)
from labelrender.store.clock import iso


async def whoami(request: web.Request) -> web.StreamResponse:
    auth = auth_of(request)
    plan = auth.plan
    return web.json_response({
        "tenant_id": auth.tenant_id,
        "key_prefix": auth.key.key_prefix,
        "plan": {
            "name": plan.name,
            "requests_per_minute": plan.requests_per_minute,
            "concurrent_renders": plan.concurrent_renders,
            "syntheses_per_month": plan.syntheses_per_month,
            "labels_per_month": plan.labels_per_month,
            "max_dpi": plan.max_dpi,
            "retention_days": plan.retention_days,
            "active_keys": plan.active_keys,
        },
        "overages_enabled": auth.tenant.overages_enabled(plan),
    })


@route_policy(RoutePolicy(rate="peek"))
async def usage(request: web.Request) -> web.StreamResponse:
    """Live counters; looking at them does not use up a request ("tokens remaining")."""
    state = app_state(request)
    rate = rate_or_none(request)
    assert rate is not None, "a peek route's rate is looked at by authenticate_key"
    return web.json_response(await state.call(usage_report, state, auth_of(request), rate))


def usage_report(state: AppState, auth: AuthContext, rate: RateDecision) -> dict[str, Any]:
    """``rate`` is the look the request's authentication took, so the body and the
    X-RateLimit-* headers agree."""
    now = state.now()
    tenant_id, plan = auth.tenant_id, auth.plan
    units = read_usage(state.redis, tenant_id, plan, now=now)
    return {
        "period": period(now),
        "resets_at": iso(period_resets_at(now)),
        "rate": {"limit": rate.limit, "remaining": rate.remaining,
                 "reset_at": iso(rate.reset_at)},
        "concurrency": {"in_flight": in_flight(state.redis, tenant_id, now=now),
                        "cap": plan.concurrent_renders},
        **{unit: {"used": figures.used, "included": figures.included,
                  "overage": figures.overage}
           for unit, figures in units.items()},
    }


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/whoami", whoami)
    app.router.add_get("/v1/usage", usage)
