"""The render job stream: admission, enqueue, read, reply, claim from a dead
consumer, backlog."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
import redis

from labelrender.store import (
    BUILTIN_PLANS,
    Lease,
    QuotaExceeded,
    acquire_slot,
    consume,
    in_flight,
    jobs,
    keys,
    read_usage,
)
from labelrender.store.redis_conn import async_twin

JOB = jobs.RenderJob(tenant="tnt_" + "a" * 26, content_hash="f" * 64,
                     object_key="tenants/x/labels/f.png", zpl="^XA^XZ")


def test_enqueue_read_reply_ack(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    jobs.ensure_group(redis_db)  # idempotent
    sent = jobs.enqueue(redis_db, JOB)
    assert sent.job_id.startswith("job_")
    assert jobs.backlog(redis_db) == 1
    [(entry, job)] = jobs.read(redis_db, "w1", count=10, block_ms=100)
    assert job == sent
    jobs.send_reply(redis_db, job, jobs.RenderReply(ok=True, size_bytes=10))
    jobs.ack(redis_db, entry, job)
    assert jobs.backlog(redis_db) == 0
    reply = jobs.wait_reply(redis_db, sent, timeout_s=1)
    assert reply == jobs.RenderReply(ok=True, size_bytes=10)


def test_wait_reply_blocks_until_a_worker_answers(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    sent = jobs.enqueue(redis_db, JOB)

    def worker() -> None:
        [(entry, job)] = jobs.read(redis_db, "w1", count=1, block_ms=2000)
        jobs.send_reply(redis_db, job, jobs.RenderReply(ok=False, error_kind="X"))
        jobs.ack(redis_db, entry, job)

    thread = threading.Thread(target=worker)
    thread.start()
    assert jobs.wait_reply(redis_db, sent, timeout_s=5) == jobs.RenderReply(
        ok=False, error_kind="X")
    thread.join()
    assert jobs.wait_reply(redis_db, replace(JOB, job_id="job_missing"), timeout_s=0.1) is None


def test_a_dead_consumers_entries_are_claimed(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    sent = jobs.enqueue(redis_db, JOB)
    jobs.read(redis_db, "dead", count=1, block_ms=100)  # delivered, never acked
    assert jobs.read(redis_db, "alive", count=1, block_ms=50) == []
    assert jobs.backlog(redis_db) == 1
    claimed = jobs.claim_stale(redis_db, "alive", min_idle_ms=0, count=10)
    assert [job for _, job in claimed] == [sent]
    jobs.ack(redis_db, *claimed[0])
    assert jobs.backlog(redis_db) == 0


def test_idle_consumer_names_with_nothing_pending_are_pruned(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    jobs.enqueue(redis_db, JOB)
    jobs.enqueue(redis_db, JOB)
    [(done, done_job)] = jobs.read(redis_db, "stopped", count=1, block_ms=10)
    jobs.ack(redis_db, done, done_job)
    jobs.read(redis_db, "busy", count=1, block_ms=10)  # still holds its job
    jobs.read(redis_db, "me", count=1, block_ms=10)  # nothing left to read
    assert jobs.prune_consumers(redis_db, idle_ms=0, keep="me") == ["stopped"]
    assert set(jobs.pending_by_consumer(redis_db)) == {"busy"}
    assert jobs.prune_consumers(redis_db, idle_ms=3_600_000, keep="me") == []


# --- admission: quota, slot, queue depth and the job, all or nothing ----------------

NOW = 1_800_000_000.0
SANDBOX_PLAN = BUILTIN_PLANS["sandbox"]  # 50 labels, 1 render at a time, no overages


def admit(r: redis.Redis, max_depth: int = 10) -> tuple[jobs.RenderJob, Lease]:
    return jobs.admit(r, JOB, plan=SANDBOX_PLAN, overages=False, lease_seconds=60,
                      max_depth=max_depth, now=NOW)


def state(r: redis.Redis) -> tuple[int, int, int]:
    """(labels counted, slots held, jobs queued)."""
    used = read_usage(r, JOB.tenant, SANDBOX_PLAN, now=NOW)["labels"].used
    return used, in_flight(r, JOB.tenant, now=NOW), jobs.backlog(r)


def test_admission_counts_takes_and_queues_together(redis_db: redis.Redis) -> None:
    job, lease = admit(redis_db)
    assert state(redis_db) == (1, 1, 1)
    assert job.billed_at == NOW and job.job_id.startswith("job_")
    assert lease.tenant_id == JOB.tenant and lease.expires_at == NOW + 60
    jobs.ensure_group(redis_db)
    [(_, queued)] = jobs.read(redis_db, "w1", count=1, block_ms=100)
    assert queued == job  # the unit travels with the job


@pytest.mark.parametrize("rendered", [True, False])
def test_settling_gives_the_slot_back_and_replies_in_one_step(redis_db: redis.Redis,
                                                             rendered: bool) -> None:
    """The API call waiting on the job finds its slot free the moment it has the
    reply: a tenant on one render at a time can send the next one at once."""
    job, _ = admit(redis_db)
    jobs.ensure_group(redis_db)
    [(entry, _)] = jobs.read(redis_db, "w1", count=1, block_ms=100)
    reply = (jobs.RenderReply(ok=True, size_bytes=10) if rendered
             else jobs.RenderReply(ok=False, error_kind="InvalidZpl"))
    settled = jobs.finish(redis_db, entry, job, stored_at=NOW if rendered else None,
                          reply=reply)
    assert settled == ("first_store" if rendered else "refused")
    assert state(redis_db) == ((1, 0, 0) if rendered else (0, 0, 0))
    assert jobs.wait_reply(redis_db, job, timeout_s=0.1) == reply
    job2, _ = admit(redis_db)  # the sandbox plan's one slot is free again
    assert job2.job_id != job.job_id


@pytest.mark.parametrize(("setup", "error"), [
    ("quota", QuotaExceeded),
    ("slot", jobs.SlotsTaken),
    ("depth", jobs.QueueFull),
])
def test_a_refused_admission_takes_nothing(redis_db: redis.Redis, setup: str,
                                           error: type[Exception]) -> None:
    if setup == "quota":
        consume(redis_db, JOB.tenant, "labels", SANDBOX_PLAN, overages=False, now=NOW, count=50)
    elif setup == "slot":
        assert acquire_slot(redis_db, JOB.tenant, 1, now=NOW) is not None
    else:
        for _ in range(3):
            jobs.enqueue(redis_db, JOB)
    before = state(redis_db)
    with pytest.raises(error):
        admit(redis_db, max_depth=2)
    assert state(redis_db) == before


def test_the_backlog_limit_is_per_tenant_group(redis_db: redis.Redis) -> None:
    """A full group refuses its own tenants only; the backlog and the lag count
    every group's jobs."""
    neighbour = next(f"tnt_{n:026d}" for n in range(1000)
                     if keys.group(f"tnt_{n:026d}") != keys.group(JOB.tenant))
    jobs.ensure_group(redis_db)
    for _ in range(3):
        jobs.enqueue(redis_db, JOB)
    with pytest.raises(jobs.QueueFull):
        admit(redis_db, max_depth=2)
    other, _ = jobs.admit(redis_db, replace(JOB, tenant=neighbour), plan=SANDBOX_PLAN,
                          overages=False, lease_seconds=60, max_depth=2, now=NOW)
    assert (jobs.backlog(redis_db), jobs.lag(redis_db)) == (4, 4)
    assert redis_db.xlen(keys.render_stream(keys.group(neighbour))) == 1
    taken = []
    for _ in range(5):  # a hint each: the first finds all three of JOB's
        taken += jobs.read(redis_db, "w1", count=10, block_ms=100)
    assert sorted(job.tenant for _, job in taken) == sorted([JOB.tenant] * 3 + [neighbour])
    assert (jobs.backlog(redis_db), jobs.lag(redis_db)) == (4, 0)


async def test_the_async_admission_is_the_same_step(redis_db: redis.Redis) -> None:
    """The API admits on its event loop (``admit_async``): the same counts, slot and
    queue, and the same refusal taking nothing."""
    client = async_twin(redis_db)
    try:
        job, lease = await jobs.admit_async(client, JOB, plan=SANDBOX_PLAN, overages=False,
                                            lease_seconds=60, max_depth=10, now=NOW)
        assert state(redis_db) == (1, 1, 1)
        assert lease.lease_id == job.job_id and job.billed_at == NOW
        with pytest.raises(jobs.SlotsTaken):  # the sandbox plan's one slot is taken
            await jobs.admit_async(client, JOB, plan=SANDBOX_PLAN, overages=False,
                                   lease_seconds=60, max_depth=10, now=NOW)
        assert state(redis_db) == (1, 1, 1)
    finally:
        await client.aclose()


def test_a_job_whose_wake_up_hint_was_lost_is_found_by_the_sweep(redis_db: redis.Redis) -> None:
    """A crash between queueing a job and pushing its hint: no hint wakes a
    reader, and the sweep every consumer makes now and then finds the job."""
    jobs.ensure_group(redis_db)
    sent = jobs.enqueue(redis_db, JOB)
    redis_db.delete(jobs.QUEUE.wake)
    assert jobs.read(redis_db, "w1", count=10, block_ms=50) == []
    assert [job for _, job in jobs.sweep(redis_db, "w1", count=10)] == [sent]
    assert jobs.sweep(redis_db, "w1", count=10) == []
