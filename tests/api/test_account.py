"""GET /v1/whoami and GET /v1/usage shapes (DECISIONS.md "Keys and account")."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
import redis

from labelrender.store import acquire_slot, consume, get_plan, period
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@pytest.mark.parametrize(("plan", "overages", "expected"), [
    ("sandbox", None, False), ("pro", None, True), ("pro", False, False), ("scale", True, True),
])
async def test_whoami(
    api: Api, make_caller: Callable[..., Caller], plan: str, overages: bool | None,
    expected: bool,
) -> None:
    caller = make_caller(plan, overages=overages)
    async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
        assert resp.status == 200
        payload = await resp.json()
    assert payload == {
        "tenant_id": caller.tenant_id,
        "key_prefix": caller.key_prefix,
        "plan": payload["plan"],
        "overages_enabled": expected,
    }
    assert set(payload["plan"]) == {"name", "requests_per_minute", "concurrent_renders",
                                    "syntheses_per_month", "labels_per_month", "max_dpi",
                                    "retention_days", "active_keys"}
    assert payload["plan"]["name"] == plan


async def test_whoami_sandbox_figures(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller("sandbox")
    async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
        plan = (await resp.json())["plan"]
    assert plan == {"name": "sandbox", "requests_per_minute": 10, "concurrent_renders": 1,
                    "syntheses_per_month": 5, "labels_per_month": 50, "max_dpi": 203,
                    "retention_days": 14, "active_keys": 5}


async def test_usage_shape_and_live_counters(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    consume(redis_db, caller.tenant_id, "labels", get_plan(redis_db, "pro"), overages=True,
            now=time.time(), count=10_004)
    acquire_slot(redis_db, caller.tenant_id, 4, now=time.time())
    async with api.session.get(api.url("/v1/usage"), headers=caller.headers) as resp:
        assert resp.status == 200
        first = await resp.json()
        assert resp.headers["X-RateLimit-Remaining"] == "100"
    assert set(first) == {"period", "resets_at", "rate", "concurrency", "syntheses", "labels"}
    assert first["period"] == period(time.time())
    assert ISO.match(first["resets_at"]) and first["resets_at"].endswith("-01T00:00:00Z")
    assert first["rate"]["limit"] == 100 and first["rate"]["remaining"] == 100
    assert ISO.match(first["rate"]["reset_at"])
    assert first["concurrency"] == {"in_flight": 1, "cap": 4}
    assert first["syntheses"] == {"used": 0, "included": 50, "overage": 0}
    assert first["labels"] == {"used": 10_004, "included": 10_000, "overage": 4}
    # A render uses a request and a label; looking at usage uses neither.
    async with api.session.post(api.url("/v1/labels"), json={"zpl": SIMPLE_ZPL},
                                headers=caller.headers) as resp:
        assert resp.status == 200
    async with api.session.get(api.url("/v1/usage"), headers=caller.headers) as resp:
        second = await resp.json()
    assert second["rate"]["remaining"] == 99
    assert second["labels"]["used"] == 10_005
