"""GET /v1/labels, and what retention does to labels (URL, listing, re-render)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import quote

import pytest
import redis

from labelrender.store.objects import FilesystemStore
from labelrender.worker.retention import DAY_S, RetentionSweeper
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer
from tests.api.test_from_data import VALUES, commit, from_data
from tests.api.test_labels import assert_error, labels_used, post_label
from tests.api.test_templates import DRAFT, call


def unix(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


async def render_cities(api: Api, caller: Caller, cities: list[str],
                        template_id: str = "tpl_ship") -> list[dict[str, Any]]:
    rendered = []
    for city in cities:
        status, payload = await from_data(api, caller, {"template_id": template_id,
                                                        "fields": {**VALUES, "city": city}})
        assert status == 200, payload
        rendered.append(payload)
    return rendered


async def test_lists_newest_first_with_fresh_urls_and_pages(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    rendered = await render_cities(api, caller, ["A", "B", "C"])
    await post_label(api, caller, {"zpl": SIMPLE_ZPL})  # raw renders are not listed
    status, page = await call(api, caller, "GET", "/v1/labels?limit=2")
    assert status == 200, page
    listed = page["labels"]
    assert [label["content_hash"] for label in listed] == [
        rendered[2]["content_hash"], rendered[1]["content_hash"]]
    first = listed[0]
    assert first["url"] == rendered[2]["url"]  # same window, same URL
    assert (first["template_id"], first["template_version"]) == ("tpl_ship", 1)
    assert first["size_bytes"] > 0
    assert unix(first["expires_at"]) - time.time() >= 3600
    assert unix(first["cached_at"]) <= time.time() + 1
    async with api.session.get(first["url"]) as png:
        assert png.status == 200
    _, rest = await call(api, caller, "GET", f"/v1/labels?limit=2&cursor={page['next_cursor']}")
    assert [label["content_hash"] for label in rest["labels"]] == [rendered[0]["content_hash"]]
    assert rest["next_cursor"] is None


async def test_filters_and_isolation(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller, other = make_caller(), make_caller()
    await commit(api, caller)
    await commit(api, caller, "tpl_other", DRAFT)
    [ship] = await render_cities(api, caller, ["A"])
    await render_cities(api, caller, ["B"], "tpl_other")
    _, by_template = await call(api, caller, "GET", "/v1/labels?template_id=tpl_ship")
    assert [label["content_hash"] for label in by_template["labels"]] == [ship["content_hash"]]
    _, by_hash = await call(api, caller, "GET", f"/v1/labels?content_hash={ship['content_hash']}")
    assert [label["content_hash"] for label in by_hash["labels"]] == [ship["content_hash"]]
    status, payload = await call(api, other, "GET",
                                 f"/v1/labels?content_hash={ship['content_hash']}")
    assert status == 404
    assert_error(payload, "not_found_error", "LabelNotFound", "content_hash")
    _, nothing = await call(api, other, "GET", "/v1/labels")
    assert nothing == {"labels": [], "next_cursor": None}


@pytest.mark.parametrize(("query", "status", "kind", "param"), [
    ("limit=0", 400, "InvalidLimit", "limit"),
    ("limit=101", 400, "InvalidLimit", "limit"),
    ("limit=ten", 400, "InvalidLimit", "limit"),
    ("cursor=" + quote("not-a-cursor"), 400, "InvalidCursor", "cursor"),
    ("content_hash=xyz", 400, "InvalidContentHash", "content_hash"),
    ("colour=red", 400, "UnknownField", "colour"),
    # Validated through the query model, whose patterns match whole values:
    # Python's "$" let a trailing line break through.
    ("template_id=tpl%0A", 400, "InvalidTemplateId", "template_id"),
    ("content_hash=" + "a" * 64 + "%0A", 400, "InvalidContentHash", "content_hash"),
    ("limit=%2B5", 400, "InvalidLimit", "limit"),
    ("content_hash=" + "a" * 64, 404, "LabelNotFound", "content_hash"),
])
async def test_query_errors(api: Api, make_caller: Callable[..., Caller], query: str,
                            status: int, kind: str, param: str) -> None:
    got, payload = await call(api, make_caller(), "GET", f"/v1/labels?{query}")
    assert got == status, payload
    assert payload["errors"][0]["kind"] == kind
    assert payload["error"]["param"] == param


async def test_after_purge_url_and_listing_are_404_and_render_is_billed_again(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore,
) -> None:
    caller = make_caller("sandbox")  # 14 days of retention
    await commit(api, caller)
    [label] = await render_cities(api, caller, ["A"])
    _, raw, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert labels_used(redis_db, caller, "sandbox") == 2
    now = time.time()
    inside = RetentionSweeper(redis_db, object_store, clock=lambda: now + 13 * DAY_S)
    assert inside.sweep_once() == 0
    after = RetentionSweeper(redis_db, object_store, clock=lambda: now + 15 * DAY_S)
    assert after.sweep_once() == 2
    for url in (label["url"], raw["url"]):
        async with api.session.get(url) as resp:
            assert resp.status == 404
            assert (await resp.json())["error"]["type"] == "not_found_error"
    status, payload = await call(api, caller, "GET",
                                 f"/v1/labels?content_hash={label['content_hash']}")
    assert (status, payload["errors"][0]["kind"]) == (404, "LabelNotFound")
    _, listing = await call(api, caller, "GET", "/v1/labels")
    assert listing["labels"] == []
    [again] = await render_cities(api, caller, ["A"])
    status, raw_again, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert again["cached"] is False and raw_again["cached"] is False
    assert again["content_hash"] == label["content_hash"]
    assert labels_used(redis_db, caller, "sandbox") == 4
    _, listing = await call(api, caller, "GET", "/v1/labels")
    assert [x["content_hash"] for x in listing["labels"]] == [label["content_hash"]]
