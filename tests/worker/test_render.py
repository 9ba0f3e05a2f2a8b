"""The render job handler against a real Redis and real object stores."""

from __future__ import annotations

import pytest
import redis

from labelrender.store import jobs
from labelrender.store.objects import ObjectStore
from labelrender.worker.render import JobHandler
from labelrender.worker.sandbox import Sandbox
from tests.worker.conftest import PNG_MAGIC, BrokenStore, label_zpl, make_job, take


def test_a_job_is_rendered_stored_and_replied(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    job = make_job(label_zpl("Hello"), job_id="job_hello")
    entry_id = take(redis_db, job)
    assert JobHandler(redis_db, object_store, engine_sandbox).handle(entry_id, job)

    reply = jobs.wait_reply(redis_db, job, timeout_s=1)
    assert reply is not None and reply.ok
    png = object_store.get(job.object_key)
    assert png is not None and png.startswith(PNG_MAGIC)
    assert (reply.size_bytes, reply.width, reply.height) == (len(png), 812, 1218)
    assert jobs.backlog(redis_db) == 0


@pytest.mark.parametrize(("zpl", "options", "warning"), [
    (label_zpl("x").replace("40,40", "zz,40"), {}, "parameter 2 'zz' is not a number"),
    ("^XA^FO10,10^BY9,9.9,99^BCN,100^FD123^FS^XZ", {}, "out of range 2-3"),
])
def test_engine_warnings_reach_the_reply(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox,
        zpl: str, options: dict[str, object], warning: str) -> None:
    job = make_job(zpl, job_id="job_warn", **options)
    JobHandler(redis_db, object_store, engine_sandbox).handle(take(redis_db, job), job)
    reply = jobs.wait_reply(redis_db, job, timeout_s=1)
    assert reply is not None and reply.ok
    assert any(warning in text for text in reply.warnings)


@pytest.mark.parametrize(("zpl", "options", "kind", "message"), [
    ("no label here", {}, "InvalidZpl", "no label format found"),
    ("^XA^FO0,0^GB10,10,1^FS^XZ", {"width_dots": 100_000, "height_dots": 100},
     "RenderTooComplex", "per-side cap"),
    (label_zpl("x"), {"target_dpi": 5000}, "InvalidOptions", "dpi must be 1-1200"),
    (label_zpl("x"), {"font_profile": "comic"}, "InvalidOptions", "unknown font profile"),
])
def test_input_the_engine_refuses_is_answered_and_not_retried(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox,
        zpl: str, options: dict[str, object], kind: str, message: str) -> None:
    job = make_job(zpl, job_id="job_bad", **options)
    assert JobHandler(redis_db, object_store, engine_sandbox).handle(take(redis_db, job), job)

    reply = jobs.wait_reply(redis_db, job, timeout_s=1)
    assert reply is not None and not reply.ok
    assert reply.error_kind == kind and message in reply.error_message
    assert jobs.backlog(redis_db) == 0  # acknowledged: a bad label is not retried
    assert jobs.claim_stale(redis_db, "w2", min_idle_ms=0, count=10) == []
    assert object_store.head(job.object_key) is None


def test_a_job_whose_store_write_fails_stays_pending_and_completes_on_a_retry(
        redis_db: redis.Redis, broken_store: BrokenStore, engine_sandbox: Sandbox) -> None:
    store, repair = broken_store
    job = make_job(label_zpl("Retry me"), job_id="job_retry")
    entry_id = take(redis_db, job, consumer="w1")
    assert not JobHandler(redis_db, store, engine_sandbox).handle(entry_id, job)
    assert jobs.wait_reply(redis_db, job, timeout_s=0.2) is None
    assert jobs.backlog(redis_db) == 1  # not acknowledged

    repair()
    [(claimed_entry, claimed_job)] = jobs.claim_stale(redis_db, "w2", min_idle_ms=0, count=10)
    assert (claimed_entry, claimed_job) == (entry_id, job)
    assert JobHandler(redis_db, store, engine_sandbox).handle(claimed_entry, claimed_job)
    reply = jobs.wait_reply(redis_db, job, timeout_s=1)
    assert reply is not None and reply.ok
    assert store.head(job.object_key) is not None
    assert jobs.backlog(redis_db) == 0


def test_a_job_run_twice_stores_the_same_object_once(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    """A redelivered job (its ack was lost) gives the same bytes, the same reply
    and keeps the object's creation time, which anchors its signed URLs."""
    handler = JobHandler(redis_db, object_store, engine_sandbox)
    first = make_job(label_zpl("Twice"), job_id="job_1")
    handler.handle(take(redis_db, first), first)
    stored = object_store.head(first.object_key)
    again = make_job(label_zpl("Twice"), job_id="job_2")
    handler.handle(take(redis_db, again), again)

    replies = [jobs.wait_reply(redis_db, job, timeout_s=1) for job in (first, again)]
    assert replies[0] == replies[1] and replies[0] is not None and replies[0].ok
    assert object_store.head(first.object_key) == stored


def test_settling_waits_out_a_cluster_moving_the_jobs_slot() -> None:
    """TRYAGAIN and ASK while a slot moves are tried again (the request gets its
    answer); any other error is the caller's at once (the entry stays pending)."""
    from redis.exceptions import AskError, ResponseError, TryAgainError

    tries: list[int] = []

    def moving_twice() -> jobs.Settlement:
        tries.append(1)
        if len(tries) == 1:
            raise TryAgainError("Multiple keys request during rehashing of slot")
        if len(tries) == 2:
            raise AskError("1234 127.0.0.1:7002")
        return "first_store"

    assert JobHandler._settle(moving_twice) == "first_store" and len(tries) == 3

    def broken() -> jobs.Settlement:
        tries.append(1)
        raise ResponseError("WRONGTYPE")

    tries.clear()
    with pytest.raises(ResponseError):
        JobHandler._settle(broken)
    assert len(tries) == 1
