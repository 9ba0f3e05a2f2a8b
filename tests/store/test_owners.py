"""What the operator stores for cluster objects: global templates and plan
overrides with their owner, compare-and-commit, and owner-checked removal."""

from __future__ import annotations

import dataclasses
import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from labelrender.store import BUILTIN_PLANS, get_plan, plans, templates
from labelrender.store.objects import FilesystemStore
from labelrender.store.owners import Owner
from labelrender.store.signing import UrlSigner
from tests.store.conftest import NOW

BODY = "^XA^FO20,20^A0N,30,30^FN1^FS^XZ"
TEAM_A = Owner("team-a/carrier", "uid-1")
TEAM_B = Owner("team-b/carrier", "uid-2")


@pytest.fixture
def objects(tmp_path: Path) -> FilesystemStore:
    return FilesystemStore(tmp_path / "objects", UrlSigner(b"k" * 32))


def stored_bodies(tmp_path: Path) -> int:
    return len(list((tmp_path / "objects").rglob("*.zpl")))


def apply(r: redis.Redis, objects: FilesystemStore, body: str = BODY, **fields: object
          ) -> tuple[templates.TemplateVersion, bool]:
    draft = templates.Draft(body=body, field_map={"name": 1}, **fields)  # type: ignore[arg-type]
    digest = hashlib.sha256(body.encode()).hexdigest()
    return templates.commit_if_changed(r, objects, None, "carrier", draft, digest, now=NOW)


def test_commit_if_changed_writes_only_a_changed_spec(
        redis_db: redis.Redis, objects: FilesystemStore, tmp_path: Path) -> None:
    first, created = apply(redis_db, objects)
    again, created_again = apply(redis_db, objects)
    described, described_new = apply(redis_db, objects, description="now described")
    assert (first.version, created) == (1, True)
    assert (again.version, created_again) == (1, False)
    assert (described.version, described_new) == (2, True)
    assert stored_bodies(tmp_path) == 2


def test_concurrent_writers_of_one_spec_mint_one_version(
        redis_db: redis.Redis, objects: FilesystemStore, tmp_path: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: apply(redis_db, objects, BODY + " "), range(16)))
    assert {version.version for version, _ in results} == {1}
    assert sum(created for _, created in results) == 1
    assert stored_bodies(tmp_path) == 1  # the losers' bodies are gone


@pytest.mark.parametrize(("first", "second", "conflict"), [
    (TEAM_A, TEAM_A, None),
    (TEAM_A, Owner("team-a/carrier", "uid-9"), None),  # the object made again takes over
    (TEAM_A, TEAM_B, TEAM_A),
], ids=["same-object", "same-name-new-uid", "other-namespace"])
def test_claims(redis_db: redis.Redis, first: Owner, second: Owner,
                conflict: Owner | None) -> None:
    assert templates.claim_global(redis_db, "carrier", first) is None
    assert templates.claim_global(redis_db, "carrier", second) == conflict
    assert templates.global_owners(redis_db) == {"carrier": conflict or second}


@pytest.mark.parametrize(("releaser", "any_instance", "released"), [
    (TEAM_A, False, True),
    (Owner("team-a/carrier", "uid-9"), False, False),  # a resync's stale view: keep it
    (Owner("team-a/carrier", "uid-9"), True, True),    # the object's own finalizer
    (TEAM_B, True, False),
], ids=["owner", "older-instance", "any-instance", "other-owner"])
def test_release_removes_only_what_the_owner_holds(
        redis_db: redis.Redis, objects: FilesystemStore, tmp_path: Path, releaser: Owner,
        any_instance: bool, released: bool) -> None:
    templates.claim_global(redis_db, "carrier", TEAM_A)
    apply(redis_db, objects)
    assert templates.release_global(redis_db, objects, "carrier", releaser,
                                    any_instance=any_instance) is released
    assert templates.is_global(redis_db, "carrier") is not released
    assert ("carrier" in templates.global_owners(redis_db)) is not released
    assert bool(stored_bodies(tmp_path)) is not released


def test_plan_override_with_its_owner(redis_db: redis.Redis) -> None:
    slower = dataclasses.replace(BUILTIN_PLANS["pro"], requests_per_minute=5)
    owner = Owner("pro", "uid-1")
    plans.put_plan(redis_db, slower, owner)
    assert plans.stored_override(redis_db, "pro") == (slower, owner)
    assert plans.plan_owners(redis_db) == {"pro": owner}
    assert plans.release_plan(redis_db, "pro", Owner("pro", "uid-0")) is False
    assert get_plan(redis_db, "pro").requests_per_minute == 5
    assert plans.release_plan(redis_db, "pro", owner) is True
    assert get_plan(redis_db, "pro") == BUILTIN_PLANS["pro"]
    assert plans.stored_override(redis_db, "pro") == (None, None)
