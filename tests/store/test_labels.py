"""Label registry (newest first, cursor, filters) and the object age index."""

from __future__ import annotations

import pytest
import redis

from labelrender.store import labels
from labelrender.store.errors import InvalidValue
from tests.store.conftest import NOW

TENANT = "tnt_" + "a" * 26
OTHER = "tnt_" + "b" * 26


def record(r: redis.Redis, tenant: str, n: int, template_id: str = "tpl_a",
           at: float | None = None) -> labels.LabelRecord:
    content_hash = f"{n:064x}"
    rec = labels.LabelRecord(content_hash, f"tenants/{tenant}/labels/{content_hash}.png",
                             template_id, 1, NOW + n if at is None else at, 100 + n)
    pipe = r.pipeline(transaction=True)
    labels.record_label(pipe, tenant, rec)
    pipe.execute()
    return rec


def walk(r: redis.Redis, tenant: str, limit: int, **filters: str) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        page = labels.list_labels(r, tenant, limit=limit, cursor=cursor, **filters)
        pages.append([rec.content_hash[-2:] for rec in page.labels])
        if page.next_cursor is None:
            return pages
        cursor = page.next_cursor


@pytest.mark.parametrize(("limit", "expected"), [
    (2, [["05", "04"], ["03", "02"], ["01"]]),
    (5, [["05", "04", "03", "02", "01"]]),
    (100, [["05", "04", "03", "02", "01"]]),
])
def test_listing_is_newest_first_in_pages(redis_db: redis.Redis, limit: int,
                                          expected: list[list[str]]) -> None:
    for n in range(1, 6):
        record(redis_db, TENANT, n)
    assert walk(redis_db, TENANT, limit) == expected
    assert walk(redis_db, OTHER, limit) == [[]]


def test_ties_on_time_are_neither_lost_nor_repeated(redis_db: redis.Redis) -> None:
    for n in range(1, 8):
        record(redis_db, TENANT, n, at=NOW)
    pages = walk(redis_db, TENANT, 3)
    assert sum(pages, []) == ["07", "06", "05", "04", "03", "02", "01"]


def test_filters(redis_db: redis.Redis) -> None:
    record(redis_db, TENANT, 1, "tpl_a")
    two = record(redis_db, TENANT, 2, "tpl_b")
    record(redis_db, TENANT, 3, "tpl_a")
    assert walk(redis_db, TENANT, 10, template_id="tpl_a") == [["03", "01"]]
    assert walk(redis_db, TENANT, 10, content_hash=two.content_hash) == [["02"]]
    assert walk(redis_db, TENANT, 10, content_hash=two.content_hash, template_id="tpl_a") == [[]]
    assert walk(redis_db, OTHER, 10, content_hash=two.content_hash) == [[]]


@pytest.mark.parametrize("cursor", ["nope", "!!!", "bm90LWEtY3Vyc29y"])
def test_bad_cursor_is_refused(redis_db: redis.Redis, cursor: str) -> None:
    with pytest.raises(InvalidValue):
        labels.list_labels(redis_db, TENANT, cursor=cursor)


def test_purge_drops_old_objects_but_not_one_stored_again(redis_db: redis.Redis) -> None:
    rec = record(redis_db, TENANT, 1, at=NOW)
    labels.record_object(redis_db, TENANT, rec.object_key, NOW)
    assert labels.objects_older_than(redis_db, TENANT, NOW, 10) == []
    [(key, created)] = labels.objects_older_than(redis_db, TENANT, NOW + 1, 10)
    labels.record_object(redis_db, TENANT, key, NOW + 5, ["a warning"])  # rendered again
    assert not labels.forget_object(redis_db, TENANT, key, created)
    assert labels.get_label(redis_db, TENANT, rec.content_hash) is not None
    assert labels.object_record(redis_db, TENANT, key).warnings == ["a warning"]
    assert labels.forget_object(redis_db, TENANT, key, NOW + 5)
    assert labels.get_label(redis_db, TENANT, rec.content_hash) is None
    assert labels.object_record(redis_db, TENANT, key).warnings == []
    assert labels.list_labels(redis_db, TENANT).labels == []
    assert labels.list_labels(redis_db, TENANT, template_id="tpl_a").labels == []
    assert labels.tenants_with_objects(redis_db) == [TENANT]
