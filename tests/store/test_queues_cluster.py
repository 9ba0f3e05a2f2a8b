"""The queues sharded by tenant group, on a Redis 7 in cluster mode.

Every queue step (render, synthesis and event streams, the webhook schedules,
dead letters, retention and active-batch sets) runs through redis-py's cluster
client on a node holding every slot: Redis itself answers CROSSSLOT to a script
or MULTI whose keys are in more than one slot, and the cluster client refuses a
multi-key read across slots. Two tenants of different groups take part, so
every step that spans groups is seen doing so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis

from labelrender.store import (
    BUILTIN_PLANS,
    batches,
    create_tenant,
    deliveries,
    events,
    jobs,
    keys,
    labels,
    streams,
    synthesis_jobs,
    webhooks,
)
from labelrender.store.redis_conn import async_twin, close, connect, is_cluster
from tests.fixtures.cluster_node import ClusterNode
from tests.store.conftest import NOW

PLAN = BUILTIN_PLANS["pro"]


@pytest.fixture
def node(cluster: ClusterNode) -> Iterator[redis.Redis]:
    cluster.client.flushall()
    client = connect(cluster.url)
    assert is_cluster(client)
    yield client
    close(client)


def two_tenants(r: redis.Redis) -> tuple[str, str]:
    """Two tenants whose groups differ."""
    first = create_tenant(r, "First", "pro", now=NOW).tenant_id
    while True:
        second = create_tenant(r, "Second", "pro", now=NOW).tenant_id
        if keys.group(second) != keys.group(first):
            return first, second


def render_job(tenant: str, n: int) -> jobs.RenderJob:
    return jobs.RenderJob(tenant=tenant, content_hash=f"{n:064x}",
                          object_key=f"labels/{tenant}/{n}.png", zpl="^XA^XZ")


def admit(r: redis.Redis, tenant: str, n: int) -> jobs.RenderJob:
    job, _ = jobs.admit(r, render_job(tenant, n), plan=PLAN, overages=True,
                        lease_seconds=60, max_depth=100, now=NOW)
    return job


def test_render_jobs_from_admission_to_settlement(node: redis.Redis) -> None:
    first, second = two_tenants(node)
    jobs.ensure_group(node)
    sent = [admit(node, first, 1), admit(node, second, 2), admit(node, second, 3)]
    assert (jobs.backlog(node), jobs.lag(node), jobs.in_progress(node)) == (3, 3, 0)
    taken = jobs.read(node, "w1", count=10, block_ms=100)  # the hint names first's group
    assert [job for _, job in taken] == [sent[0]]
    taken += jobs.sweep(node, "w1", count=10)  # second's two, in its group's stream
    assert sorted(job.job_id for _, job in taken) == sorted(job.job_id for job in sent)
    assert (jobs.lag(node), jobs.in_progress(node)) == (0, 3)
    assert jobs.delivery_counts(node, taken) == [1, 1, 1]
    jobs.refresh(node, "w1", taken)
    jobs.hand_back(node, "w1", taken[1:], idle_ms=0)
    assert jobs.pending_by_consumer(node) == {"w1": 3}
    claimed = jobs.claim_stale(node, "w2", min_idle_ms=0, count=10)
    assert len(claimed) == 3  # every group's, ours included (idle 0)
    for entry_id, job in claimed:
        reply = jobs.RenderReply(ok=True, size_bytes=10)
        assert jobs.finish(node, entry_id, job, stored_at=NOW, reply=reply) == "first_store"
        assert jobs.wait_reply(node, job, timeout_s=1) == reply
    assert (jobs.backlog(node), jobs.lag(node), jobs.in_progress(node)) == (0, 0, 0)
    assert labels.tenants_with_objects(node) == sorted([first, second])
    assert jobs.prune_consumers(node, idle_ms=0, keep="w2") == ["w1"]
    assert jobs.release_consumer(node, "w2", 60_000) == 0


def test_admission_on_the_asyncio_cluster_client(node: redis.Redis) -> None:
    first, _ = two_tenants(node)

    async def admit_and_wait() -> jobs.RenderReply | None:
        client = async_twin(node)
        try:
            job, _ = await jobs.admit_async(client, render_job(first, 7), plan=PLAN,
                                            overages=True, lease_seconds=60,
                                            max_depth=100, now=NOW)
            [(entry_id, taken)] = jobs.read(node, "w1", count=1, block_ms=1000)
            jobs.finish(node, entry_id, taken, stored_at=None,
                        reply=jobs.RenderReply(ok=False, error_kind="InvalidZpl"))
            return await jobs.wait_reply_async(client, job, 1)
        finally:
            await client.aclose()

    jobs.ensure_group(node)
    reply = asyncio.run(admit_and_wait())
    assert reply is not None and reply.error_kind == "InvalidZpl"


def test_synthesis_jobs_in_every_group(node: redis.Redis) -> None:
    first, second = two_tenants(node)
    synthesis_jobs.ensure_group(node)
    made = [synthesis_jobs.create(node, tenant, {"input_zpl": "^XA^XZ"}, "req", now=NOW,
                                  billed_at=NOW) for tenant in (first, second)]
    taken = synthesis_jobs.read(node, "s1", count=10, block_ms=100)
    taken += synthesis_jobs.read(node, "s1", count=10, block_ms=100)
    assert sorted(job_id for _, _, job_id in taken) == sorted(job.job_id for job in made)
    for entry_id, tenant, _ in taken:
        synthesis_jobs.ack(node, entry_id, tenant)
    assert synthesis_jobs.backlog(node) == 0


def event_of(tenant: str, n: int) -> events.LabelRendered:
    return events.LabelRendered(
        event_id=f"evt_{n}_0000000{n}", tenant_id=tenant, content_hash="e" * 64,
        object_key=f"labels/{tenant}/e.png", template_id="box", template_version=1,
        external_ref=None, cached=False, created_at=NOW)


def test_events_schedules_and_dead_letters_in_every_group(node: redis.Redis) -> None:
    first, second = two_tenants(node)
    deliveries.ensure_group(node)
    for n, tenant in enumerate((first, second), start=1):
        webhooks.upsert_webhook(node, tenant, "hook", url="https://example.com/h",
                                topics=["label.rendered"], now=NOW)
        events.publish(node, event_of(tenant, n))
    read = deliveries.read_events(node, "d1", count=10, block_ms=None)  # a sweep
    assert sorted(event.tenant_id for _, event in read) == sorted([first, second])
    for entry_id, event in read:
        deliveries.schedule_event(node, entry_id, event,
                                  [deliveries.Delivery(event, "hook")], NOW)
    assert streams.lag(node, events.QUEUE) == 0 and deliveries.scheduled_count(node) == 2
    due = deliveries.claim_due(node, NOW, 30, count=10)
    assert sorted(d.tenant_id for d in due) == sorted([first, second])
    attempt = deliveries.Attempt(event_id="", attempt=1, status_code=500, ok=False,
                                 error="HTTP 500", duration_ms=1, attempted_at="",
                                 next_attempt_at=None)
    for delivery in due:  # the last retry failed: a dead letter in the tenant's group
        assert deliveries.finish(node, delivery, replace(
            attempt, event_id=delivery.event.event_id), retry_at=None,
            dead_letter={"failed_at": NOW, "last_error": "HTTP 500"})
    assert deliveries.scheduled_count(node) == 0 and deliveries.dead_letter_count(node) == 2
    assert [d.delivery.tenant_id for d in deliveries.dead_letters(node, second)] == [second]
    assert deliveries.replay(node, deliveries.dead_letters(node), NOW) == 2
    assert deliveries.dead_letter_count(node) == 0 and deliveries.scheduled_count(node) == 2


def test_active_batches_of_every_group(node: redis.Redis) -> None:
    first, second = two_tenants(node)
    for n, tenant in enumerate((first, second)):
        spec = batches.BatchSpec(batch_id=f"bat_{n}", template_id="box", template_version=1,
                                 target_dpi=203, threshold=False, row_count=1,
                                 key_prefix="abcd1234", created_at=NOW)
        batches.create_batch(node, tenant, spec, [{"name": "x"}])
    both = sorted([(first, "bat_0"), (second, "bat_1")])
    assert sorted(batches.active_batches(node)) == both
    batches.forget(node, first, "bat_0")
    assert batches.active_batches(node) == [(second, "bat_1")]
    assert node.smembers(keys.batch_groups()) == {str(keys.group(second))}  # empty: un-noted
    node.delete(keys.batch_groups())  # a note a crash lost: found by the look at every group
    assert batches.active_batches(node) == []
    assert batches.active_batches(node, every_group=True) == [(second, "bat_1")]
