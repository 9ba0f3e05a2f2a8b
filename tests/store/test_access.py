"""store.access: key, tenant, plan and rate in one round trip, on the asyncio client."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest
import redis

from labelrender.store import (
    BUILTIN_PLANS,
    create_key,
    put_plan,
    revoke_key,
    set_plan,
)
from labelrender.store import keys as store_keys
from labelrender.store.access import Access, Authorizer
from labelrender.store.redis_conn import async_twin
from tests.store.conftest import NOW, MakeTenant


@pytest.fixture
async def authorizer(redis_db: redis.Redis) -> AsyncIterator[Authorizer]:
    client = async_twin(redis_db)
    yield Authorizer(client)
    await client.aclose()


async def test_active_key_gives_tenant_plan_and_takes_one_request(
        redis_db: redis.Redis, make_tenant: MakeTenant, authorizer: Authorizer) -> None:
    tenant = make_tenant("pro")
    created = create_key(redis_db, tenant.tenant_id, now=NOW, label="ci")
    access = await authorizer.authorize(created.secret, now=NOW, cost=1)
    assert isinstance(access, Access)
    assert access.key.key_prefix == created.key.key_prefix
    assert access.tenant == tenant
    assert access.plan == BUILTIN_PLANS["pro"]
    assert (access.rate.allowed, access.rate.limit, access.rate.remaining) == (True, 100, 99)


async def test_cost_zero_only_looks(redis_db: redis.Redis, make_tenant: MakeTenant,
                                    authorizer: Authorizer) -> None:
    secret = create_key(redis_db, make_tenant("sandbox").tenant_id, now=NOW).secret
    for _ in range(3):
        access = await authorizer.authorize(secret, now=NOW, cost=0)
        assert access is not None and access.rate.remaining == 10


async def test_rate_denies_past_the_plan_limit_and_takes_nothing(
        redis_db: redis.Redis, make_tenant: MakeTenant, authorizer: Authorizer) -> None:
    secret = create_key(redis_db, make_tenant("sandbox").tenant_id, now=NOW).secret
    answers = [await authorizer.authorize(secret, now=NOW, cost=1) for _ in range(11)]
    assert [a.rate.allowed for a in answers if a] == [True] * 10 + [False]
    denied = answers[-1]
    assert denied is not None and denied.rate.retry_after == pytest.approx(6.0)
    later = await authorizer.authorize(secret, now=NOW + 6.0, cost=1)
    assert later is not None and later.rate.allowed


async def test_plan_override_limit_is_used(redis_db: redis.Redis, make_tenant: MakeTenant,
                                           authorizer: Authorizer) -> None:
    put_plan(redis_db, dataclasses.replace(BUILTIN_PLANS["pro"], requests_per_minute=2))
    secret = create_key(redis_db, make_tenant("pro").tenant_id, now=NOW).secret
    answers = [await authorizer.authorize(secret, now=NOW, cost=1) for _ in range(3)]
    assert [a.rate.allowed for a in answers if a] == [True, True, False]
    assert answers[0] is not None and answers[0].plan.requests_per_minute == 2


async def test_a_changed_plan_applies_on_the_next_request(
        redis_db: redis.Redis, make_tenant: MakeTenant, authorizer: Authorizer) -> None:
    tenant = make_tenant("pro")
    secret = create_key(redis_db, tenant.tenant_id, now=NOW).secret
    set_plan(redis_db, tenant.tenant_id, "scale")
    access = await authorizer.authorize(secret, now=NOW, cost=0)
    assert access is not None and access.plan.name == "scale"


@pytest.mark.parametrize("case", ["malformed", "unknown", "revoked", "tenant gone",
                                  "plan gone"])
async def test_refused_callers_get_none(case: str, redis_db: redis.Redis,
                                        make_tenant: MakeTenant,
                                        authorizer: Authorizer) -> None:
    tenant = make_tenant("pro")
    first = create_key(redis_db, tenant.tenant_id, now=NOW)
    second = create_key(redis_db, tenant.tenant_id, now=NOW)
    secret = second.secret
    if case == "malformed":
        secret = "svc_live_nothex"
    elif case == "unknown":
        secret = "svc_live_" + "0" * 64
    elif case == "revoked":
        revoke_key(redis_db, tenant.tenant_id, second.key.key_prefix, now=NOW)
    elif case == "tenant gone":
        redis_db.delete(store_keys.tenant(tenant.tenant_id))
    else:
        redis_db.hset(store_keys.tenant(tenant.tenant_id), "plan", "no-such-plan")
    assert await authorizer.authorize(secret, now=NOW, cost=1) is None
    assert first.secret != secret


@pytest.mark.parametrize("case", ["revoked", "tenant gone", "plan gone"])
async def test_a_key_seen_before_is_refused_on_its_next_request(
        case: str, redis_db: redis.Redis, make_tenant: MakeTenant,
        authorizer: Authorizer) -> None:
    """The process keeps what a key record says that never changes, never
    whether the key is active: revocation applies on the next request."""
    tenant = make_tenant("pro")
    create_key(redis_db, tenant.tenant_id, now=NOW)
    second = create_key(redis_db, tenant.tenant_id, now=NOW)
    assert await authorizer.authorize(second.secret, now=NOW, cost=1) is not None
    if case == "revoked":
        revoke_key(redis_db, tenant.tenant_id, second.key.key_prefix, now=NOW)
    elif case == "tenant gone":
        redis_db.delete(store_keys.tenant(tenant.tenant_id))
    else:
        redis_db.hset(store_keys.tenant(tenant.tenant_id), "plan", "no-such-plan")
    assert await authorizer.authorize(second.secret, now=NOW, cost=1) is None
