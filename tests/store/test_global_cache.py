"""store.global_cache: plans and global templates at most STALENESS_S old."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import redis

from labelrender.store import BUILTIN_PLANS, delete_plan, put_plan, templates
from labelrender.store.global_cache import STALENESS_S, PlanCache, TemplateCache
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner
from tests.store.conftest import NOW, MakeTenant


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_staleness_is_two_seconds() -> None:
    assert STALENESS_S == 2.0  # docs/operators/operator.md and supervision.md say so


@pytest.mark.parametrize(("waited_s", "seen_rate"), [(0.0, 100), (1.9, 100), (2.0, 7)])
def test_a_plan_change_shows_once_the_copy_is_stale(
        redis_db: redis.Redis, waited_s: float, seen_rate: int) -> None:
    clock = Clock()
    cache = PlanCache(clock=clock)
    assert cache.plans(redis_db)["pro"] == BUILTIN_PLANS["pro"]
    put_plan(redis_db, dataclasses.replace(BUILTIN_PLANS["pro"], requests_per_minute=7))
    clock.now += waited_s
    assert cache.plans(redis_db)["pro"].requests_per_minute == seen_rate


def test_added_and_deleted_plans(redis_db: redis.Redis) -> None:
    clock = Clock()
    cache = PlanCache(clock=clock)
    put_plan(redis_db, dataclasses.replace(BUILTIN_PLANS["pro"], name="gold"))
    assert set(cache.plans(redis_db)) == {*BUILTIN_PLANS, "gold"}
    delete_plan(redis_db, "gold")
    clock.now += STALENESS_S
    assert set(cache.plans(redis_db)) == set(BUILTIN_PLANS)


def test_a_global_template_applied_or_deleted_shows_once_stale(
        redis_db: redis.Redis, tmp_path: Path, make_tenant: MakeTenant) -> None:
    objects = FilesystemStore(tmp_path, UrlSigner(b"s" * 32))
    tenant = make_tenant("pro").tenant_id
    clock = Clock()
    cache = TemplateCache(clock=clock)
    assert templates.resolve(redis_db, tenant, "box", None, cache) is None
    draft = templates.Draft(body="^XA^FO1,1^FN1^FS^XZ", field_map={"ref": 1})
    templates.commit(redis_db, objects, None, "box", draft, "b" * 64, now=NOW)
    assert templates.resolve(redis_db, tenant, "box", None, cache) is None  # a miss is kept
    clock.now += STALENESS_S
    found = templates.resolve(redis_db, tenant, "box", None, cache)
    assert found is not None and found.version == 1
    templates.delete(redis_db, objects, None, "box")
    assert templates.resolve(redis_db, tenant, "box", None, cache) == found
    clock.now += STALENESS_S
    assert templates.resolve(redis_db, tenant, "box", None, cache) is None


def test_a_tenants_own_template_is_never_cached(
        redis_db: redis.Redis, tmp_path: Path, make_tenant: MakeTenant) -> None:
    objects = FilesystemStore(tmp_path, UrlSigner(b"s" * 32))
    tenant = make_tenant("pro").tenant_id
    cache = TemplateCache(clock=Clock())
    draft = templates.Draft(body="^XA^FO1,1^FN1^FS^XZ", field_map={"ref": 1})
    templates.commit(redis_db, objects, None, "box", draft, "b" * 64, now=NOW)
    assert templates.resolve(redis_db, tenant, "box", None, cache) is not None
    templates.commit(redis_db, objects, tenant, "box", draft, "b" * 64, now=NOW)
    found = templates.resolve(redis_db, tenant, "box", None, cache)
    assert found is not None and found.tenant_id == tenant
