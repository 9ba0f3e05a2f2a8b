"""The delivery store on a real Redis: leases, attempt records, dead letters."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from labelrender.store import deliveries, keys
from labelrender.store.events import LabelRendered
from labelrender.store.webhooks import (
    MAX_WEBHOOKS,
    WebhookCapReached,
    delete_webhook,
    list_webhooks,
    upsert_webhook,
)

TENANT = "tnt_" + "b" * 26
NOW = 1_800_000_000.0


def event(n: int, tenant_id: str = TENANT) -> LabelRendered:
    return LabelRendered(event_id=f"evt_{int(NOW)}_{n:08x}", tenant_id=tenant_id,
                         content_hash="c" * 64, object_key=f"tenants/{tenant_id}/labels/x.png",
                         template_id="tpl_box", template_version=1, external_ref=None,
                         cached=False, created_at=NOW)


@pytest.fixture
def tenant(redis_db: redis.Redis) -> str:
    from labelrender.store import create_tenant

    return create_tenant(redis_db, "Acme", "pro", now=NOW).tenant_id


def attempt(n: int, ok: bool = False) -> deliveries.Attempt:
    return deliveries.Attempt(f"evt_{n}", n, 200 if ok else 500, ok, None if ok else "HTTP 500",
                              5, "2026-11-21T00:00:00Z", None)


def test_concurrent_claims_never_hand_out_a_delivery_twice(redis_db: redis.Redis) -> None:
    for n in range(200):
        deliveries.schedule(redis_db, deliveries.Delivery(event(n), "wh1"), due=NOW)

    def claim(_: int) -> list[str]:
        taken: list[str] = []
        while batch := deliveries.claim_due(redis_db, NOW, lease_s=30, count=7):
            taken += [d.event.event_id for d in batch]
        return taken

    with ThreadPoolExecutor(8) as pool:
        claimed = [eid for batch in pool.map(claim, range(8)) for eid in batch]
    assert sorted(claimed) == sorted(event(n).event_id for n in range(200))


def test_a_lease_runs_out_and_the_delivery_is_due_again(redis_db: redis.Redis) -> None:
    deliveries.schedule(redis_db, deliveries.Delivery(event(1), "wh1"), due=NOW)
    assert len(deliveries.claim_due(redis_db, NOW, lease_s=30, count=10)) == 1
    assert deliveries.claim_due(redis_db, NOW + 29, lease_s=30, count=10) == []
    [again] = deliveries.claim_due(redis_db, NOW + 30, lease_s=30, count=10)
    assert (again.event.event_id, again.attempt) == (event(1).event_id, 1)


def test_at_most_100_records_newest_first(redis_db: redis.Redis, tenant: str) -> None:
    upsert_webhook(redis_db, tenant, "wh1", url="https://x.example/h", topics=["label.rendered"],
                   now=NOW)
    for n in range(1, 106):
        delivery = deliveries.Delivery(event(n, tenant), "wh1")
        assert deliveries.finish(redis_db, delivery, attempt(n), retry_at=None,
                                 dead_letter=None)
    records = deliveries.list_attempts(redis_db, tenant, "wh1")
    assert [r.attempt for r in records] == list(range(105, 5, -1))


def test_finish_schedules_the_next_attempt_or_the_dead_letter(redis_db: redis.Redis,
                                                               tenant: str) -> None:
    upsert_webhook(redis_db, tenant, "wh1", url="https://x.example/h", topics=["label.rendered"],
                   now=NOW)
    first = deliveries.Delivery(event(1, tenant), "wh1")
    deliveries.schedule(redis_db, first, due=NOW)
    deliveries.finish(redis_db, first, attempt(1), retry_at=NOW + 5, dead_letter=None)
    assert deliveries.claim_due(redis_db, NOW + 4, 30, 10) == []
    [second] = deliveries.claim_due(redis_db, NOW + 5, 30, 10)
    assert second.attempt == 2
    deliveries.finish(redis_db, second, attempt(2), retry_at=None,
                      dead_letter={"failed_at": "2026-11-21T00:00:00Z", "last_error": "HTTP 500"})
    assert deliveries.scheduled_count(redis_db) == 0
    [letter] = deliveries.dead_letters(redis_db, tenant)
    assert (letter.delivery.attempt, letter.last_error) == (2, "HTTP 500")


def test_nothing_is_recorded_for_a_deleted_subscription(redis_db: redis.Redis,
                                                        tenant: str) -> None:
    upsert_webhook(redis_db, tenant, "wh1", url="https://x.example/h", topics=["label.rendered"],
                   now=NOW)
    delivery = deliveries.Delivery(event(1, tenant), "wh1")
    deliveries.schedule(redis_db, delivery, due=NOW)
    delete_webhook(redis_db, tenant, "wh1")
    assert not deliveries.finish(redis_db, delivery, attempt(1), retry_at=NOW + 5,
                                 dead_letter=None)
    assert deliveries.scheduled_count(redis_db) == 0
    assert deliveries.list_attempts(redis_db, tenant, "wh1") == []


def test_concurrent_creates_never_pass_the_cap(redis_db: redis.Redis, tenant: str) -> None:
    def create(n: int) -> bool:
        try:
            upsert_webhook(redis_db, tenant, f"wh{n}", url="https://x.example/h",
                           topics=["label.rendered"], now=time.time())
        except WebhookCapReached:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        created = list(pool.map(create, range(30)))
    assert created.count(True) == MAX_WEBHOOKS == len(list_webhooks(redis_db, tenant))


def test_due_deliveries_of_every_tenant_group_are_found(redis_db: redis.Redis) -> None:
    """Each group has its schedule; a dispatcher finds whichever groups have
    something due, and a group whose note a crash lost once the notes are
    repaired (dispatchers repair them now and then)."""
    others = [f"tnt_{n:026d}" for n in range(200)]
    tenants = [TENANT] + [t for t in others if keys.group(t) != keys.group(TENANT)][:2]
    for n, tenant_id in enumerate(tenants):
        deliveries.schedule(redis_db, deliveries.Delivery(event(n, tenant_id), "wh1"),
                            due=NOW + n)
    assert deliveries.claim_due(redis_db, NOW, lease_s=30, count=10) == [
        deliveries.Delivery(event(0), "wh1")]
    found = deliveries.claim_due(redis_db, NOW + 5, lease_s=30, count=10)
    assert sorted(d.tenant_id for d in found) == sorted(tenants[1:])
    late = deliveries.Delivery(event(9), "wh1")
    deliveries.schedule(redis_db, late, due=NOW + 10)
    redis_db.delete(keys.webhook_due())  # the notes a crash lost
    assert deliveries.claim_due(redis_db, NOW + 10, lease_s=30, count=10) == []
    deliveries.repair_due(redis_db)
    assert deliveries.claim_due(redis_db, NOW + 10, lease_s=30, count=10) == [late]
    assert deliveries.scheduled_count(redis_db) == 4  # each leased until it is finished
