from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelrender.store import (
    BUILTIN_PLANS,
    QuotaExceeded,
    Unit,
    acquire_slot,
    check_rate,
    consume,
    in_flight,
    peek_rate,
    period,
    period_resets_at,
    read_usage,
    refund,
    release_slot,
    renew_slot,
)
from labelrender.store.limits import release_slot_async
from labelrender.store.redis_conn import async_twin
from tests.store.conftest import NOW

T1, T2 = "tnt_" + "a" * 26, "tnt_" + "b" * 26


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0,
        second: int = 0) -> float:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()


# --- rate limit -----------------------------------------------------------------

@pytest.mark.parametrize("limit", [1, 10, 100, 500, 1000])
def test_a_full_minute_allows_a_burst_of_the_limit(redis_db: redis.Redis, limit: int) -> None:
    decisions = [check_rate(redis_db, T1, limit, now=NOW) for _ in range(limit + 1)]
    assert all(d.allowed for d in decisions[:-1])
    assert [d.remaining for d in decisions[:-1]] == list(range(limit - 1, -1, -1))
    denied = decisions[-1]
    assert (denied.allowed, denied.remaining, denied.limit) == (False, 0, limit)
    assert denied.retry_after == pytest.approx(60 / limit, abs=1e-5)
    assert denied.reset_at == math.ceil(NOW + 60)


@pytest.mark.parametrize(
    ("wait", "allowed", "retry_after"),
    [(0.25, False, 5.75), (5.999, False, 0.001), (6.0, True, 0.0), (30.0, True, 0.0)],
)
def test_refill_and_fractional_retry_after(redis_db: redis.Redis, wait: float, allowed: bool,
                                           retry_after: float) -> None:
    for _ in range(10):  # Sandbox: 10 a minute, one every 6 s
        check_rate(redis_db, T1, 10, now=NOW)
    decision = check_rate(redis_db, T1, 10, now=NOW + wait)
    assert decision.allowed is allowed
    assert decision.retry_after == pytest.approx(retry_after, abs=1e-5)


def test_denied_requests_take_nothing(redis_db: redis.Redis) -> None:
    for _ in range(10):
        check_rate(redis_db, T1, 10, now=NOW)
    for step in range(5):
        assert not check_rate(redis_db, T1, 10, now=NOW + step).allowed
    assert check_rate(redis_db, T1, 10, now=NOW + 6).allowed


def test_idle_minute_refills_completely(redis_db: redis.Redis) -> None:
    for _ in range(100):
        check_rate(redis_db, T1, 100, now=NOW)
    assert check_rate(redis_db, T1, 100, now=NOW + 60).remaining == 99
    assert peek_rate(redis_db, T1, 100, now=NOW + 600).remaining == 100


def test_peek_reports_without_taking(redis_db: redis.Redis) -> None:
    check_rate(redis_db, T1, 10, now=NOW)
    peeks = [peek_rate(redis_db, T1, 10, now=NOW) for _ in range(20)]
    assert {(p.allowed, p.remaining, p.reset_at) for p in peeks} == {(True, 9, math.ceil(NOW + 6))}


def test_rate_is_per_tenant(redis_db: redis.Redis) -> None:
    for _ in range(11):
        check_rate(redis_db, T1, 10, now=NOW)
    assert not check_rate(redis_db, T1, 10, now=NOW).allowed
    assert check_rate(redis_db, T2, 10, now=NOW).remaining == 9


def test_concurrent_requests_never_pass_the_limit(redis_db: redis.Redis) -> None:
    with ThreadPoolExecutor(16) as pool:
        decisions = list(pool.map(lambda _: check_rate(redis_db, T1, 100, now=NOW), range(300)))
    assert sum(d.allowed for d in decisions) == 100


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 30),
       gaps=st.lists(st.floats(0, 20, allow_nan=False), min_size=1, max_size=80))
def test_never_more_than_the_burst_plus_the_refill(redis_db: redis.Redis, limit: int,
                                                   gaps: list[float]) -> None:
    redis_db.flushdb()
    times = [NOW + sum(gaps[: i + 1]) for i in range(len(gaps))]
    allowed = 0
    for t in times:
        decision = check_rate(redis_db, T1, limit, now=t)
        allowed += decision.allowed
        if not decision.allowed:  # retry_after is exactly the wait that is needed
            wait = decision.retry_after
            assert peek_rate(redis_db, T1, limit, now=t + wait).remaining == 1
            assert peek_rate(redis_db, T1, limit, now=t + wait - 0.01).remaining == 0
    assert allowed <= limit + (times[-1] - times[0]) * limit / 60 + 1e-6


# --- concurrency ----------------------------------------------------------------

@pytest.mark.parametrize(("plan", "cap"), [("sandbox", 1), ("pro", 4), ("warehouse", 15)])
def test_slots_up_to_the_cap(redis_db: redis.Redis, plan: str, cap: int) -> None:
    assert BUILTIN_PLANS[plan].concurrent_renders == cap
    leases = [acquire_slot(redis_db, T1, cap, now=NOW) for _ in range(cap)]
    assert all(lease is not None for lease in leases)
    assert acquire_slot(redis_db, T1, cap, now=NOW) is None
    assert in_flight(redis_db, T1, now=NOW) == cap
    first = leases[0]
    assert first is not None and release_slot(redis_db, first) is True
    assert release_slot(redis_db, first) is False  # releasing twice is harmless
    assert acquire_slot(redis_db, T1, cap, now=NOW) is not None


def test_a_slot_given_back_on_the_event_loop(redis_db: redis.Redis) -> None:
    """The API gives a slot back with its asyncio client (``release_slot_async``)."""
    lease = acquire_slot(redis_db, T1, 1, now=NOW)
    assert lease is not None

    async def release_twice() -> tuple[bool, bool]:
        client = async_twin(redis_db)
        try:
            return (await release_slot_async(client, lease),
                    await release_slot_async(client, lease))
        finally:
            await client.aclose()

    assert asyncio.run(release_twice()) == (True, False)
    assert in_flight(redis_db, T1, now=NOW) == 0


@pytest.mark.parametrize(("later", "freed"), [(29.0, False), (30.0, True), (31.5, True)])
def test_a_dead_holders_lease_expires(redis_db: redis.Redis, later: float, freed: bool) -> None:
    assert acquire_slot(redis_db, T1, 1, now=NOW, lease_seconds=30) is not None
    # The holder dies: no release, no renew.
    assert in_flight(redis_db, T1, now=NOW + later) == (0 if freed else 1)
    assert (acquire_slot(redis_db, T1, 1, now=NOW + later) is not None) is freed


def test_renewing_keeps_a_lease_alive(redis_db: redis.Redis) -> None:
    lease = acquire_slot(redis_db, T1, 1, now=NOW, lease_seconds=30)
    assert lease is not None
    renewed = renew_slot(redis_db, lease, now=NOW + 20, lease_seconds=30)
    assert renewed is not None and renewed.expires_at == NOW + 50
    assert acquire_slot(redis_db, T1, 1, now=NOW + 45) is None
    assert renew_slot(redis_db, renewed, now=NOW + 51) is None  # too late: slot is gone
    assert acquire_slot(redis_db, T1, 1, now=NOW + 51) is not None


def test_concurrent_acquires_never_pass_the_cap(redis_db: redis.Redis) -> None:
    with ThreadPoolExecutor(16) as pool:
        leases = list(pool.map(lambda _: acquire_slot(redis_db, T1, 4, now=NOW), range(50)))
    assert sum(lease is not None for lease in leases) == 4


def test_slots_are_per_tenant(redis_db: redis.Redis) -> None:
    assert acquire_slot(redis_db, T1, 1, now=NOW) is not None
    assert acquire_slot(redis_db, T1, 1, now=NOW) is None
    assert in_flight(redis_db, T2, now=NOW) == 0
    assert acquire_slot(redis_db, T2, 1, now=NOW) is not None


# --- monthly quotas -------------------------------------------------------------

@pytest.mark.parametrize(
    ("plan", "unit", "overages", "extra", "outcome"),
    [
        ("sandbox", "labels", False, 1, QuotaExceeded),
        ("sandbox", "labels", True, 1, QuotaExceeded),  # Sandbox is always a hard cap
        ("sandbox", "syntheses", True, 1, QuotaExceeded),
        ("pro", "labels", False, 1, QuotaExceeded),
        ("pro", "labels", True, 3, 3),
        ("pro", "syntheses", True, 2, 2),
        ("pro", "syntheses", False, 1, QuotaExceeded),
        ("warehouse", "labels", True, 1, 1),
        ("scale", "syntheses", False, 1, QuotaExceeded),
    ],
)
def test_allowance_then_refusal_or_overage(
    redis_db: redis.Redis, plan: str, unit: Unit, overages: bool, extra: int,
    outcome: int | type[Exception],
) -> None:
    tier = BUILTIN_PLANS[plan]
    allowance = tier.labels_per_month if unit == "labels" else tier.syntheses_per_month
    usage = consume(redis_db, T1, unit, tier, overages=overages, now=NOW, count=allowance)
    assert (usage.used, usage.included, usage.overage) == (allowance, allowance, 0)
    if isinstance(outcome, int):
        for _ in range(extra):
            usage = consume(redis_db, T1, unit, tier, overages=overages, now=NOW)
        assert (usage.used, usage.overage) == (allowance + outcome, outcome)
        return
    with pytest.raises(outcome) as caught:
        consume(redis_db, T1, unit, tier, overages=overages, now=NOW)
    assert (caught.value.used, caught.value.included) == (allowance, allowance)  # type: ignore[attr-defined]
    assert read_usage(redis_db, T1, tier, now=NOW)[unit].used == allowance  # nothing counted


@pytest.mark.parametrize(
    ("now", "expected_period", "resets_at"),
    [
        (utc(2026, 11, 1, 0, 0, 0), "2026-11", utc(2026, 12, 1)),
        (utc(2026, 11, 30, 23, 59, 59), "2026-11", utc(2026, 12, 1)),
        (utc(2026, 12, 31, 23, 59, 59), "2026-12", utc(2027, 1, 1)),
        (utc(2027, 2, 28, 12), "2027-02", utc(2027, 3, 1)),
    ],
)
def test_period_is_the_utc_month(now: float, expected_period: str, resets_at: float) -> None:
    assert period(now) == expected_period
    assert period_resets_at(now).timestamp() == resets_at


def test_counters_reset_on_the_first_of_the_month(redis_db: redis.Redis) -> None:
    sandbox = BUILTIN_PLANS["sandbox"]
    november_end, december = utc(2026, 11, 30, 23, 59, 59), utc(2026, 12, 1, 0, 0, 0)
    consume(redis_db, T1, "labels", sandbox, overages=False, now=november_end, count=50)
    with pytest.raises(QuotaExceeded):
        consume(redis_db, T1, "labels", sandbox, overages=False, now=november_end)
    assert consume(redis_db, T1, "labels", sandbox, overages=False, now=december).used == 1
    assert read_usage(redis_db, T1, sandbox, now=november_end)["labels"].used == 50


def test_units_are_counted_separately(redis_db: redis.Redis) -> None:
    sandbox = BUILTIN_PLANS["sandbox"]
    consume(redis_db, T1, "syntheses", sandbox, overages=False, now=NOW, count=5)
    consume(redis_db, T1, "labels", sandbox, overages=False, now=NOW, count=7)
    usage = read_usage(redis_db, T1, sandbox, now=NOW)
    assert {u: (c.used, c.included) for u, c in usage.items()} == {
        "syntheses": (5, 5), "labels": (7, 50)}


def test_refund_gives_units_back_but_never_below_zero(redis_db: redis.Redis) -> None:
    pro = BUILTIN_PLANS["pro"]
    consume(redis_db, T1, "labels", pro, overages=True, now=NOW, count=2)
    assert refund(redis_db, T1, "labels", now=NOW) == 1
    assert refund(redis_db, T1, "labels", now=NOW, count=5) == 0
    assert refund(redis_db, T1, "syntheses", now=NOW) == 0


def test_concurrent_consumers_never_pass_a_hard_cap(redis_db: redis.Redis) -> None:
    sandbox = BUILTIN_PLANS["sandbox"]

    def render(_: int) -> bool:
        try:
            consume(redis_db, T1, "labels", sandbox, overages=False, now=NOW)
        except QuotaExceeded:
            return False
        return True

    with ThreadPoolExecutor(16) as pool:
        assert list(pool.map(render, range(120))).count(True) == 50
    assert read_usage(redis_db, T1, sandbox, now=NOW)["labels"].used == 50


def test_counters_are_per_tenant(redis_db: redis.Redis) -> None:
    pro = BUILTIN_PLANS["pro"]
    consume(redis_db, T1, "labels", pro, overages=True, now=NOW, count=9)
    assert read_usage(redis_db, T2, pro, now=NOW)["labels"].used == 0
    assert consume(redis_db, T2, "labels", pro, overages=True, now=NOW).used == 1


def test_a_burst_arriving_out_of_clock_order_gets_the_whole_allowance(
        redis_db: redis.Redis) -> None:
    """Concurrent requests read the clock, then reach Redis in any order: one
    whose clock is older than one already counted still gets its share."""
    clocks = [NOW + 0.004 * n for n in range(10)][::-1]  # newest first
    decisions = [check_rate(redis_db, T1, 10, now=now) for now in clocks]
    assert all(d.allowed for d in decisions)
    assert not check_rate(redis_db, T1, 10, now=NOW).allowed
