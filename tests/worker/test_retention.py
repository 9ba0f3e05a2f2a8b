"""The retention sweeper on both object stores, with a clock the test moves."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request

import pytest
import redis

from labelrender.store import create_tenant, labels
from labelrender.store.jobs import RenderJob
from labelrender.store.objects import ObjectStore, S3Store
from labelrender.worker.render import JobHandler
from labelrender.worker.retention import DAY_S, RetentionSweeper
from labelrender.worker.sandbox import Sandbox
from labelrender.worker.services import ServiceThreads
from tests.worker.conftest import label_zpl, take


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def store_label(r: redis.Redis, objects: ObjectStore, tenant_id: str, n: int,
                template: bool = True) -> str:
    """What a worker and the API leave behind for one rendered label."""
    content_hash = f"{n:064x}"
    key = f"tenants/{tenant_id}/labels/{content_hash}.png"
    objects.put(key, b"\x89PNG label %d" % n, "image/png")
    info = objects.head(key)
    assert info is not None
    labels.record_object(r, tenant_id, key, info.created_at)
    if template:
        pipe = r.pipeline(transaction=True)
        labels.record_label(pipe, tenant_id, labels.LabelRecord(
            content_hash, key, "tpl_a", 1, info.created_at, info.size))
        pipe.execute()
    return key


def http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.parametrize(("days", "sandbox_left", "pro_left"), [
    (13, 2, 2),  # inside both windows
    (15, 0, 2),  # past Sandbox's 14 days, inside Pro's 90
    (91, 0, 0),  # past both
])
def test_purges_by_plan_window(redis_db: redis.Redis, object_store: ObjectStore, days: int,
                               sandbox_left: int, pro_left: int) -> None:
    clock = Clock()
    sandbox = create_tenant(redis_db, "Small", "sandbox", now=clock.now).tenant_id
    pro = create_tenant(redis_db, "Big", "pro", now=clock.now).tenant_id
    kept = {t: [store_label(redis_db, object_store, t, n, template=n == 1) for n in (1, 2)]
            for t in (sandbox, pro)}
    sweeper = RetentionSweeper(redis_db, object_store, clock=clock)
    clock.now += days * DAY_S
    assert sweeper.sweep_once() == 4 - sandbox_left - pro_left
    for tenant_id, left in ((sandbox, sandbox_left), (pro, pro_left)):
        present = [key for key in kept[tenant_id] if object_store.get(key) is not None]
        assert len(present) == left
        listed = labels.list_labels(redis_db, tenant_id).labels
        assert len(listed) == (1 if left else 0)
    assert sweeper.sweep_once() == 0  # nothing left to do twice


def test_purged_s3_url_is_404(redis_db: redis.Redis, s3_client: object, s3_bucket: str) -> None:
    clock = Clock()
    objects = S3Store(s3_bucket, s3_client)
    tenant_id = create_tenant(redis_db, "Small", "sandbox", now=clock.now).tenant_id
    key = store_label(redis_db, objects, tenant_id, 7)
    url = objects.signed_url(key, int(clock.now) + 3600, "unused")
    assert http_status(url) == 200
    clock.now += 15 * DAY_S
    assert RetentionSweeper(redis_db, objects, clock=clock).sweep_once() == 1
    assert http_status(url) == 404


def test_a_label_stored_again_is_not_purged(redis_db: redis.Redis,
                                            object_store: ObjectStore) -> None:
    """The sweeper saw the old object; a render stored a new one meanwhile."""
    clock = Clock()
    tenant_id = create_tenant(redis_db, "Small", "sandbox", now=clock.now).tenant_id
    key = store_label(redis_db, object_store, tenant_id, 3)
    [(_, seen)] = labels.objects_older_than(redis_db, tenant_id, clock.now + DAY_S, 10)
    labels.record_object(redis_db, tenant_id, key, seen + 20 * DAY_S)
    assert not labels.forget_object(redis_db, tenant_id, key, seen)
    assert labels.objects_older_than(redis_db, tenant_id, clock.now + 15 * DAY_S, 10) == []


def test_runs_as_a_worker_service(redis_db: redis.Redis, object_store: ObjectStore) -> None:
    clock = Clock()
    tenant_id = create_tenant(redis_db, "Small", "sandbox", now=clock.now).tenant_id
    key = store_label(redis_db, object_store, tenant_id, 5)
    clock.now += 30 * DAY_S
    services = ServiceThreads([RetentionSweeper(redis_db, object_store, interval_s=0.05,
                                                clock=clock)])
    services.start()
    try:
        deadline = time.monotonic() + 10
        while object_store.get(key) is not None and time.monotonic() < deadline:
            threading.Event().wait(0.02)
    finally:
        services.stop()
    assert object_store.get(key) is None
    assert labels.tenants_with_objects(redis_db) == [tenant_id]


def test_objects_a_worker_stores_are_swept(redis_db: redis.Redis, object_store: ObjectStore,
                                           engine_sandbox: Sandbox) -> None:
    """The real job handler indexes what it stores, raw renders included."""
    clock = Clock()
    tenant_id = create_tenant(redis_db, "Small", "sandbox", now=clock.now).tenant_id
    key = f"tenants/{tenant_id}/labels/{'e' * 64}.png"
    job = RenderJob(tenant=tenant_id, content_hash="e" * 64, object_key=key,
                    zpl=label_zpl("raw"), job_id="job_retention")
    assert JobHandler(redis_db, object_store, engine_sandbox).handle(take(redis_db, job), job)
    assert object_store.get(key) is not None
    sweeper = RetentionSweeper(redis_db, object_store, clock=clock)
    clock.now += 14 * DAY_S - 60
    assert sweeper.sweep_once() == 0
    clock.now += 120
    assert sweeper.sweep_once() == 1
    assert object_store.get(key) is None
