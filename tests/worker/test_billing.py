"""A label is billed exactly when its PNG is first stored (store/jobs.py,
"Billing"), across the fault cases: refusals, a job rendered twice, two jobs for
one label, a worker that died before or after storing, an abandoned job, and a
label rendered again after retention purged it.

Jobs are admitted as the API admits them (``jobs.admit`` counts the unit), and
handled by the real ``JobHandler`` on the session's engine processes.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
import redis

from labelrender.store import BUILTIN_PLANS, labels, read_usage
from labelrender.store import jobs as render_jobs
from labelrender.store.jobs import RenderJob
from labelrender.store.objects import ObjectStore
from labelrender.worker.engine_calls import Rendered, render_label
from labelrender.worker.render import JobHandler
from labelrender.worker.sandbox import Sandbox
from tests.worker.conftest import TENANT, label_zpl, make_job

PLAN = BUILTIN_PLANS["pro"]
HOSTILE = "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ"  # a gigabyte canvas at 203 dpi


def admit(r: redis.Redis, zpl: str, job_id: str) -> RenderJob:
    render_jobs.ensure_group(r)
    same_label = replace(make_job(zpl), job_id=job_id)  # one content hash per zpl
    job, _lease = render_jobs.admit(r, same_label, plan=PLAN, overages=True, lease_seconds=60,
                                    max_depth=100, now=time.time())
    return job


def deliver(r: redis.Redis, consumer: str) -> str:
    """The next entry, handed to ``consumer`` (which may then die)."""
    [(entry_id, _)] = render_jobs.read(r, consumer, count=1, block_ms=1000)
    return entry_id


def claim(r: redis.Redis, entry_id: str, consumer: str) -> None:
    """``consumer`` takes the entry over, as XAUTOCLAIM does from a dead one."""
    r.xclaim(render_jobs.QUEUE.of(TENANT), render_jobs.GROUP, consumer, 0, [entry_id])


def billed(r: redis.Redis) -> int:
    return read_usage(r, TENANT, PLAN, now=time.time())["labels"].used


def reply_of(r: redis.Redis, job: RenderJob) -> render_jobs.RenderReply:
    reply = render_jobs.wait_reply(r, job, timeout_s=1)
    assert reply is not None
    return reply


@pytest.mark.parametrize(("zpl", "kind", "bills"), [
    (label_zpl("Billed"), "", 1),
    ("no label in here", "InvalidZpl", 0),
    (HOSTILE, "RenderTooComplex", 0),
])
def test_stored_labels_are_billed_and_refused_ones_never(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox,
        zpl: str, kind: str, bills: int) -> None:
    job = admit(redis_db, zpl, "job_1")
    assert billed(redis_db) == 1  # counted at admission, carried by the job
    assert JobHandler(redis_db, object_store, engine_sandbox).handle(deliver(redis_db, "w1"), job)
    reply = reply_of(redis_db, job)
    assert (reply.ok, reply.error_kind) == (not kind, kind)
    assert billed(redis_db) == bills
    assert (object_store.head(job.object_key) is not None) == bool(bills)
    assert render_jobs.backlog(redis_db) == 0  # final either way: never delivered again


def test_the_same_job_rendered_twice_is_billed_once(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    """A worker that was only slow, and another that claimed its job meanwhile."""
    job = admit(redis_db, label_zpl("Twice"), "job_1")
    entry_id = deliver(redis_db, "slow")
    claim(redis_db, entry_id, "fast")
    handler = JobHandler(redis_db, object_store, engine_sandbox)
    assert handler.handle(entry_id, job) and handler.handle(entry_id, job)
    assert billed(redis_db) == 1
    assert labels.objects_older_than(redis_db, TENANT, time.time() + 60, 10) != []


def test_a_second_job_for_a_stored_label_gives_its_unit_back(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    """The API timed out, the client retried before the first job was stored:
    two jobs, one label, one unit."""
    handler = JobHandler(redis_db, object_store, engine_sandbox)
    first = admit(redis_db, label_zpl("Retried"), "job_1")
    second = admit(redis_db, label_zpl("Retried"), "job_2")
    assert billed(redis_db) == 2
    [(e1, _), (e2, _)] = render_jobs.read(redis_db, "w1", count=2, block_ms=1000)
    assert handler.handle(e1, first) and handler.handle(e2, second)
    assert reply_of(redis_db, first).ok and reply_of(redis_db, second).ok
    assert billed(redis_db) == 1


@pytest.mark.parametrize("stored_before_dying", [False, True])
def test_a_job_whose_worker_died_is_billed_once_by_the_next(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox,
        stored_before_dying: bool) -> None:
    job = admit(redis_db, label_zpl("Orphaned"), "job_1")
    deliver(redis_db, "died")
    if stored_before_dying:  # it stored the PNG, then died before settling
        rendered = engine_sandbox.call(TENANT, render_label, job, 5.0)
        assert isinstance(rendered, Rendered)
        object_store.put(job.object_key, rendered.png, "image/png")
    assert billed(redis_db) == 1  # still counted while the entry is pending
    [(claimed, claimed_job)] = render_jobs.claim_stale(redis_db, "survivor", 0, count=10)
    assert JobHandler(redis_db, object_store, engine_sandbox).handle(claimed, claimed_job)
    assert reply_of(redis_db, job).ok
    assert billed(redis_db) == 1


@pytest.mark.parametrize("stored", [False, True])
def test_an_abandoned_job_is_billed_only_when_its_label_was_stored(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox,
        stored: bool) -> None:
    job = admit(redis_db, label_zpl("Abandoned"), "job_1")
    entry_id = deliver(redis_db, "died-3-times")
    if stored:
        rendered = engine_sandbox.call(TENANT, render_label, job, 5.0)
        assert isinstance(rendered, Rendered)
        object_store.put(job.object_key, rendered.png, "image/png")
    JobHandler(redis_db, object_store, engine_sandbox).abandon(entry_id, job, "gave up")
    reply = reply_of(redis_db, job)
    assert reply.ok is stored and reply.error_kind == ("" if stored else render_jobs.GAVE_UP)
    assert billed(redis_db) == int(stored)
    assert render_jobs.backlog(redis_db) == 0


def test_a_label_stored_after_its_job_was_abandoned_is_billed_then(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    """Given up (unit back) while a slow worker still rendered it; that worker
    stores it afterwards: the unit is taken again, so the label is billed."""
    handler = JobHandler(redis_db, object_store, engine_sandbox)
    job = admit(redis_db, label_zpl("Late"), "job_1")
    entry_id = deliver(redis_db, "slow")
    handler.abandon(entry_id, job, "gave up")
    assert billed(redis_db) == 0
    assert handler.handle(entry_id, job)  # the slow worker finishes
    assert billed(redis_db) == 1
    assert object_store.head(job.object_key) is not None


def test_a_label_purged_by_retention_is_billed_again_when_rendered_again(
        redis_db: redis.Redis, object_store: ObjectStore, engine_sandbox: Sandbox) -> None:
    handler = JobHandler(redis_db, object_store, engine_sandbox)
    first = admit(redis_db, label_zpl("Purged"), "job_1")
    assert handler.handle(deliver(redis_db, "w1"), first)
    info = object_store.head(first.object_key)
    assert info is not None
    object_store.delete(first.object_key)  # what the retention sweeper does
    labels.forget_object(redis_db, TENANT, first.object_key, info.created_at)
    time.sleep(0.01)  # the new object's creation time is later
    again = admit(redis_db, label_zpl("Purged"), "job_2")
    assert handler.handle(deliver(redis_db, "w1"), again)
    assert billed(redis_db) == 2
