from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal

import pytest
import redis

from labelrender.store import (
    BUILTIN_PLANS,
    InvalidValue,
    NotFound,
    delete_plan,
    get_plan,
    keys,
    list_plans,
    plan_from_dict,
    put_plan,
)
from labelrender.store.plans import plan_from_stored

# The spec's Limits and Overages tables.
LIMITS = [
    # name, rpm, concurrent, syntheses, labels, max_dpi, retention, keys, overages, synth $, label $
    ("sandbox", 10, 1, 5, 50, 203, 14, 5, False, None, None),
    ("pro", 100, 4, 50, 10_000, 300, 90, 10, True, "0.50", "0.020"),
    ("warehouse", 500, 15, 200, 50_000, 600, 365, 25, True, "0.40", "0.015"),
    ("scale", 1000, 30, 500, 150_000, 600, 365, 50, True, "0.30", "0.010"),
]


@pytest.mark.parametrize(
    ("name", "rpm", "concurrent", "syntheses", "labels", "dpi", "retention", "active_keys",
     "overages", "synthesis_price", "label_price"),
    LIMITS,
)
def test_builtin_plans_match_the_spec(
    redis_db: redis.Redis, name: str, rpm: int, concurrent: int, syntheses: int, labels: int,
    dpi: int, retention: int, active_keys: int, overages: bool,
    synthesis_price: str | None, label_price: str | None,
) -> None:
    plan = get_plan(redis_db, name)
    assert (plan.requests_per_minute, plan.concurrent_renders, plan.syntheses_per_month,
            plan.labels_per_month, plan.max_dpi, plan.retention_days, plan.active_keys,
            plan.overages_allowed) == (rpm, concurrent, syntheses, labels, dpi, retention,
                                       active_keys, overages)
    if overages:
        assert plan.synthesis_overage_price == Decimal(str(synthesis_price))
        assert plan.label_overage_price == Decimal(str(label_price))


@pytest.mark.parametrize(
    ("asked", "found"),
    [("pro", "pro"), ("Pro", "pro"), (" WAREHOUSE ", "warehouse"), ("enterprise", None),
     ("", None)],
)
def test_get_plan_folds_case_and_refuses_unknown(
    redis_db: redis.Redis, asked: str, found: str | None
) -> None:
    if found is None:
        with pytest.raises(NotFound):
            get_plan(redis_db, asked)
    else:
        assert get_plan(redis_db, asked).name == found


def test_override_replaces_a_builtin_until_deleted(redis_db: redis.Redis) -> None:
    faster = replace(BUILTIN_PLANS["pro"], requests_per_minute=250)
    put_plan(redis_db, faster)
    assert get_plan(redis_db, "pro") == faster
    assert [p.name for p in list_plans(redis_db)] == ["sandbox", "pro", "warehouse", "scale"]
    assert list_plans(redis_db)[1] == faster
    assert delete_plan(redis_db, "pro") is True
    assert get_plan(redis_db, "pro") == BUILTIN_PLANS["pro"]


def test_a_plan_deleted_while_the_list_is_read_is_left_out(redis_db: redis.Redis) -> None:
    # A sharded Redis reads the set of names and each plan apart: a delete between
    # the two (the operator's resync removing a Plan) leaves a name with no plan.
    put_plan(redis_db, replace(BUILTIN_PLANS["scale"], name="gold"))
    redis_db.delete(keys.plan("gold"))  # as a concurrent delete has done half of it
    assert [p.name for p in list_plans(redis_db)] == list(BUILTIN_PLANS)


def test_new_plan_name_adds_a_plan(redis_db: redis.Redis) -> None:
    enterprise = replace(BUILTIN_PLANS["scale"], name="enterprise", active_keys=200)
    put_plan(redis_db, enterprise)
    assert get_plan(redis_db, "Enterprise") == enterprise
    assert [p.name for p in list_plans(redis_db)][-1] == "enterprise"
    delete_plan(redis_db, "enterprise")
    with pytest.raises(NotFound):
        get_plan(redis_db, "enterprise")


def test_stored_plan_round_trips_exactly(redis_db: redis.Redis) -> None:
    odd = replace(BUILTIN_PLANS["warehouse"], label_overage_price=Decimal("0.0125"))
    put_plan(redis_db, odd)
    assert get_plan(redis_db, "warehouse").label_overage_price == Decimal("0.0125")


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"requests_per_minute": 0}, "requests_per_minute"),
        ({"concurrent_renders": -1}, "concurrent_renders"),
        ({"labels_per_month": "many"}, "labels_per_month"),
        ({"active_keys": True}, "active_keys"),
        ({"max_dpi": 1201}, "max_dpi"),
        ({"label_overage_price": "-0.01"}, "label_overage_price"),
        ({"label_overage_price": "cheap"}, "label_overage_price"),
        ({"name": "Big Plan"}, "name"),
        ({"colour": "blue"}, "unknown plan fields: colour"),
        ({"overages_allowed": "yes"}, "overages_allowed"),
    ],
)
def test_invalid_plan_resources_are_refused(data: dict[str, object], error: str) -> None:
    with pytest.raises(InvalidValue, match=error):
        plan_from_dict(data, base=BUILTIN_PLANS["pro"])


def test_partial_resource_merges_onto_its_base() -> None:
    plan = plan_from_dict({"name": "pro", "max_dpi": 600, "label_overage_price": 0.018},
                          base=BUILTIN_PLANS["pro"])
    assert plan == replace(BUILTIN_PLANS["pro"], max_dpi=600,
                           label_overage_price=Decimal("0.018"))


def test_resource_without_base_needs_every_field() -> None:
    with pytest.raises(InvalidValue, match="missing plan fields"):
        plan_from_dict({"name": "tiny", "requests_per_minute": 5})


def test_a_stored_plan_is_parsed_once_and_a_changed_one_again() -> None:
    """The access check of every request reads the tenant's plan as stored JSON."""
    base = BUILTIN_PLANS["pro"].to_dict()
    stored = json.dumps({**base, "name": "parsed-once"}, sort_keys=True)
    first = plan_from_stored("parsed-once", stored)
    assert plan_from_stored("parsed-once", stored) is first
    changed = json.dumps({**base, "name": "parsed-once", "requests_per_minute": 7},
                         sort_keys=True)
    assert plan_from_stored("parsed-once", changed).requests_per_minute == 7
    assert plan_from_stored("parsed-once", stored).requests_per_minute == base[
        "requests_per_minute"]
