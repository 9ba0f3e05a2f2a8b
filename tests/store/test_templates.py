"""Template store: immutable versions, atomic minting, tenant and global owners."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from labelrender.store import templates
from labelrender.store.errors import InvalidValue
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner
from tests.store.conftest import NOW

TENANT = "tnt_" + "a" * 26
OTHER = "tnt_" + "b" * 26
BODY = "^XA^FO20,20^A0N,30,30^FN1^FS^XZ"


@pytest.fixture
def objects(tmp_path: Path) -> FilesystemStore:
    return FilesystemStore(tmp_path / "objects", UrlSigner(b"k" * 32))


def draft(body: str = BODY, **fields: object) -> templates.Draft:
    return templates.Draft(body=body, field_map={"name": 1}, **fields)  # type: ignore[arg-type]


def commit(r: redis.Redis, objects: FilesystemStore, owner: str | None, template_id: str,
           body: str = BODY) -> templates.TemplateVersion:
    digest = hashlib.sha256(body.encode()).hexdigest()
    return templates.commit(r, objects, owner, template_id, draft(body), digest, now=NOW)


def test_commits_mint_versions_and_keep_each(redis_db: redis.Redis,
                                             objects: FilesystemStore) -> None:
    first = commit(redis_db, objects, TENANT, "tpl_a", BODY)
    second = commit(redis_db, objects, TENANT, "tpl_a", BODY.replace("30,30", "40,40"))
    assert (first.version, second.version) == (1, 2)
    latest = templates.resolve(redis_db, TENANT, "tpl_a")
    assert latest is not None and latest.version == 2
    pinned = templates.resolve(redis_db, TENANT, "tpl_a", 1)
    assert pinned is not None and templates.load_body(objects, pinned) == BODY
    assert templates.resolve(redis_db, TENANT, "tpl_a", 3) is None


def test_concurrent_commits_get_distinct_versions(redis_db: redis.Redis,
                                                  objects: FilesystemStore) -> None:
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda _: commit(redis_db, objects, TENANT, "tpl_c"), range(20)))
    assert sorted(v.version for v in made) == list(range(1, 21))
    [summary] = templates.list_templates(redis_db, TENANT)
    assert summary.latest_version == 20 and summary.versions == list(range(1, 21))


def test_tenants_never_see_each_other(redis_db: redis.Redis, objects: FilesystemStore) -> None:
    commit(redis_db, objects, TENANT, "tpl_private")
    assert templates.resolve(redis_db, OTHER, "tpl_private") is None
    assert templates.list_templates(redis_db, OTHER) == []
    assert not templates.delete(redis_db, objects, OTHER, "tpl_private")
    assert templates.resolve(redis_db, TENANT, "tpl_private") is not None


def test_global_templates_resolve_for_every_tenant(redis_db: redis.Redis,
                                                   objects: FilesystemStore) -> None:
    commit(redis_db, objects, None, "shared")
    for tenant in (TENANT, OTHER):
        found = templates.resolve(redis_db, tenant, "shared")
        assert found is not None and found.scope == "global"
    assert templates.is_global(redis_db, "shared")


def test_delete_is_permanent_and_numbers_are_not_reused(redis_db: redis.Redis,
                                                       objects: FilesystemStore) -> None:
    old = commit(redis_db, objects, TENANT, "tpl_d")
    assert templates.delete(redis_db, objects, TENANT, "tpl_d")
    assert templates.resolve(redis_db, TENANT, "tpl_d") is None
    assert objects.get(old.body_key) is None
    assert not templates.delete(redis_db, objects, TENANT, "tpl_d")
    again = commit(redis_db, objects, TENANT, "tpl_d")
    assert again.version == 2  # v1 names a deleted body's labels


@pytest.mark.parametrize("template_id", ["", ".hidden", "a/b", "x" * 129, "with space"])
def test_unsafe_ids_are_refused(redis_db: redis.Redis, objects: FilesystemStore,
                                template_id: str) -> None:
    with pytest.raises(InvalidValue):
        commit(redis_db, objects, TENANT, template_id)
    assert templates.resolve(redis_db, TENANT, template_id) is None
