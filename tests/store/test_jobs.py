"""The render job stream: enqueue, read, reply, claim from a dead consumer, backlog."""

from __future__ import annotations

import threading

import redis

from labelrender.store import jobs

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
    jobs.send_reply(redis_db, job.job_id, jobs.RenderReply(ok=True, size_bytes=10))
    jobs.ack(redis_db, entry)
    assert jobs.backlog(redis_db) == 0
    reply = jobs.wait_reply(redis_db, sent.job_id, timeout_s=1)
    assert reply == jobs.RenderReply(ok=True, size_bytes=10)


def test_wait_reply_blocks_until_a_worker_answers(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    sent = jobs.enqueue(redis_db, JOB)

    def worker() -> None:
        [(entry, job)] = jobs.read(redis_db, "w1", count=1, block_ms=2000)
        jobs.send_reply(redis_db, job.job_id, jobs.RenderReply(ok=False, error_kind="X"))
        jobs.ack(redis_db, entry)

    thread = threading.Thread(target=worker)
    thread.start()
    assert jobs.wait_reply(redis_db, sent.job_id, timeout_s=5) == jobs.RenderReply(
        ok=False, error_kind="X")
    thread.join()
    assert jobs.wait_reply(redis_db, "job_missing", timeout_s=0.1) is None


def test_a_dead_consumers_entries_are_claimed(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    sent = jobs.enqueue(redis_db, JOB)
    jobs.read(redis_db, "dead", count=1, block_ms=100)  # delivered, never acked
    assert jobs.read(redis_db, "alive", count=1, block_ms=50) == []
    assert jobs.backlog(redis_db) == 1
    claimed = jobs.claim_stale(redis_db, "alive", min_idle_ms=0, count=10)
    assert [job for _, job in claimed] == [sent]
    jobs.ack(redis_db, claimed[0][0])
    assert jobs.backlog(redis_db) == 0


def test_idle_consumer_names_with_nothing_pending_are_pruned(redis_db: redis.Redis) -> None:
    jobs.ensure_group(redis_db)
    jobs.enqueue(redis_db, JOB)
    jobs.enqueue(redis_db, JOB)
    [(done, _)] = jobs.read(redis_db, "stopped", count=1, block_ms=10)
    jobs.ack(redis_db, done)
    jobs.read(redis_db, "busy", count=1, block_ms=10)  # still holds its job
    jobs.read(redis_db, "me", count=1, block_ms=10)  # nothing left to read
    assert jobs.prune_consumers(redis_db, idle_ms=0, keep="me") == ["stopped"]
    assert set(jobs.pending_by_consumer(redis_db)) == {"busy"}
    assert jobs.prune_consumers(redis_db, idle_ms=3_600_000, keep="me") == []
