"""One tenant's keys, counters and records are never visible to another."""

from __future__ import annotations

import redis

from labelrender.store import (
    BUILTIN_PLANS,
    acquire_slot,
    check_rate,
    claim,
    complete,
    consume,
    create_key,
    in_flight,
    list_keys,
    peek_rate,
    read_usage,
)
from labelrender.store import keys as store_keys
from tests.store.conftest import NOW, MakeTenant


def test_a_busy_tenant_leaves_no_trace_for_another(redis_db: redis.Redis,
                                                   make_tenant: MakeTenant) -> None:
    busy, quiet = make_tenant("sandbox", name="Busy"), make_tenant("sandbox", name="Quiet")
    sandbox = BUILTIN_PLANS["sandbox"]
    create_key(redis_db, busy.tenant_id, now=NOW)
    for _ in range(10):
        check_rate(redis_db, busy.tenant_id, 10, now=NOW)
    acquire_slot(redis_db, busy.tenant_id, 1, now=NOW)
    consume(redis_db, busy.tenant_id, "labels", sandbox, overages=False, now=NOW, count=50)
    token = claim(redis_db, busy.tenant_id, "k1", "h" * 64, now=NOW).token
    assert token is not None
    complete(redis_db, busy.tenant_id, "k1", token, "{}", now=NOW)

    assert list_keys(redis_db, quiet.tenant_id) == []
    assert peek_rate(redis_db, quiet.tenant_id, 10, now=NOW).remaining == 10
    assert in_flight(redis_db, quiet.tenant_id, now=NOW) == 0
    assert read_usage(redis_db, quiet.tenant_id, sandbox, now=NOW)["labels"].used == 0
    assert claim(redis_db, quiet.tenant_id, "k1", "h" * 64, now=NOW).outcome == "new"


def test_every_key_names_its_tenant(redis_db: redis.Redis, make_tenant: MakeTenant) -> None:
    tenant = make_tenant("pro")
    create_key(redis_db, tenant.tenant_id, now=NOW)
    check_rate(redis_db, tenant.tenant_id, 100, now=NOW)
    acquire_slot(redis_db, tenant.tenant_id, 4, now=NOW)
    consume(redis_db, tenant.tenant_id, "syntheses", BUILTIN_PLANS["pro"], overages=True,
            now=NOW)
    claim(redis_db, tenant.tenant_id, "k1", "h" * 64, now=NOW)
    names = [str(name) for name in redis_db.scan_iter()]
    assert len(names) == 8
    # The one exception is the key lookup, which is how a request finds its tenant.
    assert [n for n in names if tenant.tenant_id not in n] == [
        n for n in names if n.startswith("lr:apikey:")]
    tag = store_keys.tenant_tag(tenant.tenant_id)
    assert all(n.startswith(f"lr:{tag}:tenant:{tenant.tenant_id}") or n.startswith("lr:apikey:")
               for n in names)
