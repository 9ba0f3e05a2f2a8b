from __future__ import annotations

import re

import pytest
import redis

from labelrender.store import (
    InvalidValue,
    NotFound,
    OveragesNotAllowed,
    create_tenant,
    get_plan,
    get_tenant,
    list_tenants,
    set_overages,
    set_plan,
)
from tests.store.conftest import NOW, MakeTenant


def test_tenant_id_format_and_record(redis_db: redis.Redis, make_tenant: MakeTenant) -> None:
    tenant = make_tenant("pro", name="  Acme Shipping ")
    assert re.fullmatch(r"tnt_[a-z2-7]{26}", tenant.tenant_id)
    assert tenant.name == "Acme Shipping"
    assert tenant.created_at == "2026-11-15T12:00:00Z"
    assert get_tenant(redis_db, tenant.tenant_id) == tenant


def test_tenant_ids_are_unique(make_tenant: MakeTenant) -> None:
    assert len({make_tenant().tenant_id for _ in range(50)}) == 50


def test_tenants_made_in_the_same_second_are_listed_in_the_order_made(
        redis_db: redis.Redis) -> None:
    # (as `labelrender admin tenant create` twice within a second: the ISO time is the
    # same, and the random ids must not decide the order)
    made = [create_tenant(redis_db, f"T{n}", "pro", now=NOW + n / 10).tenant_id
            for n in range(6)]
    assert [t.tenant_id for t in list_tenants(redis_db)] == made


@pytest.mark.parametrize(
    ("plan", "overages", "effective", "error"),
    [
        ("sandbox", None, False, None),
        ("sandbox", False, False, None),
        ("sandbox", True, None, OveragesNotAllowed),
        ("pro", None, True, None),
        ("pro", False, False, None),
        ("warehouse", True, True, None),
        ("Scale", None, True, None),
        ("gold", None, None, NotFound),
    ],
)
def test_overages_default_on_for_paid_plans_never_on_sandbox(
    redis_db: redis.Redis, plan: str, overages: bool | None, effective: bool | None,
    error: type[Exception] | None,
) -> None:
    if error is not None:
        with pytest.raises(error):
            create_tenant(redis_db, "Acme", plan, now=NOW, overages=overages)
        return
    tenant = create_tenant(redis_db, "Acme", plan, now=NOW, overages=overages)
    stored = get_tenant(redis_db, tenant.tenant_id)
    assert stored.plan == plan.lower()
    assert stored.overages_enabled(get_plan(redis_db, stored.plan)) is effective


@pytest.mark.parametrize(
    ("start", "switch", "new_plan", "effective"),
    [
        ("sandbox", None, "pro", True),  # an unset switch follows the paid default
        ("pro", False, "warehouse", False),  # an explicit off survives an upgrade
        ("pro", True, "sandbox", False),  # Sandbox is a hard cap whatever the switch
        ("sandbox", None, "sandbox", False),
    ],
)
def test_set_plan_keeps_the_switch_and_applies_the_plan_rule(
    redis_db: redis.Redis, make_tenant: MakeTenant, start: str, switch: bool | None,
    new_plan: str, effective: bool,
) -> None:
    tenant = make_tenant(start, overages=switch)
    moved = set_plan(redis_db, tenant.tenant_id, new_plan)
    assert get_tenant(redis_db, tenant.tenant_id) == moved
    assert moved.plan == new_plan
    assert moved.overages_enabled(get_plan(redis_db, new_plan)) is effective


@pytest.mark.parametrize(
    ("plan", "enabled", "error"),
    [("pro", False, None), ("pro", True, None), ("sandbox", False, None),
     ("sandbox", True, OveragesNotAllowed)],
)
def test_set_overages(
    redis_db: redis.Redis, make_tenant: MakeTenant, plan: str, enabled: bool,
    error: type[Exception] | None,
) -> None:
    tenant = make_tenant(plan)
    if error is not None:
        with pytest.raises(error):
            set_overages(redis_db, tenant.tenant_id, enabled)
        assert get_tenant(redis_db, tenant.tenant_id).overages is None
        return
    assert set_overages(redis_db, tenant.tenant_id, enabled).overages is enabled
    assert get_tenant(redis_db, tenant.tenant_id).overages is enabled


@pytest.mark.parametrize(
    "tenant_id",
    ["tnt_" + "a" * 26, "tnt_short", "", "tnt_" + "A" * 26, "lr:tenant:x", "tnt_" + "1" * 26],
)
def test_unknown_or_malformed_tenant_is_not_found(redis_db: redis.Redis, tenant_id: str) -> None:
    with pytest.raises(NotFound):
        get_tenant(redis_db, tenant_id)
    with pytest.raises(NotFound):
        set_plan(redis_db, tenant_id, "pro")
    with pytest.raises(NotFound):
        set_overages(redis_db, tenant_id, False)
    assert redis_db.dbsize() == 0  # nothing was created on the way


def test_set_plan_to_unknown_plan_changes_nothing(
    redis_db: redis.Redis, make_tenant: MakeTenant
) -> None:
    tenant = make_tenant("pro")
    with pytest.raises(NotFound):
        set_plan(redis_db, tenant.tenant_id, "platinum")
    assert get_tenant(redis_db, tenant.tenant_id).plan == "pro"


@pytest.mark.parametrize("name", ["", "   ", "x" * 201])
def test_tenant_name_is_required_and_bounded(redis_db: redis.Redis, name: str) -> None:
    with pytest.raises(InvalidValue):
        create_tenant(redis_db, name, "pro", now=NOW)
