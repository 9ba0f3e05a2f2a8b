"""POST /v1/labels/from-data: template renders end to end (real HTTP, Redis, consumer)."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from PIL import Image

from labelrender.store import acquire_slot, consume, get_plan, keys, labels
from labelrender.store import jobs as render_jobs
from labelrender.store.events import LabelRendered
from labelrender.store.objects import FilesystemStore
from tests.api.conftest import Api, Caller, RenderConsumer, StartApi
from tests.api.test_labels import assert_error, labels_used
from tests.api.test_templates import BODY, DRAFT, add_global, call

VALUES = {"name": "Ada Lovelace", "city": "Oslo"}


async def commit(api: Api, caller: Caller, template_id: str = "tpl_ship",
                 draft: dict[str, Any] = DRAFT) -> int:
    status, payload = await call(api, caller, "POST", f"/v1/templates/{template_id}", draft)
    assert status == 201, payload
    return int(payload["version"])


async def from_data(api: Api, caller: Caller, body: Any, *, raw: bytes | None = None,
                    headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else json.dumps(body).encode()
    all_headers = {**caller.headers, "Content-Type": "application/json", **(headers or {})}
    async with api.session.post(api.url("/v1/labels/from-data"), data=data,
                                headers=all_headers) as resp:
        return resp.status, await resp.json()


def events(r: redis.Redis) -> list[LabelRendered]:
    return [LabelRendered.from_fields(fields) for number in range(keys.GROUPS)
            for _, fields in r.xrange(keys.event_stream(number))]


async def fetch_png(api: Api, url: str) -> Image.Image:
    async with api.session.get(url) as resp:
        assert resp.status == 200
        return Image.open(io.BytesIO(await resp.read())).convert("L")


def dark_share(image: Image.Image) -> float:
    histogram = image.histogram()
    return sum(histogram[:128]) / sum(histogram)


async def test_render_records_bills_once_and_emits_every_time(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    body = {"template_id": "tpl_ship", "fields": VALUES, "external_ref": "order-42"}
    status, first = await from_data(api, caller, body)
    assert status == 200, first
    assert first["status"] == "ok" and first["cached"] is False
    assert len(first["content_hash"]) == 64 and int(first["content_hash"], 16) >= 0
    assert (first["template_id"], first["template_version"]) == ("tpl_ship", 1)
    image = await fetch_png(api, first["url"])
    assert image.size == (400, 200)  # the template's ^PW/^LL
    status, second = await from_data(api, caller, {**body, "external_ref": None})
    assert status == 200 and second["cached"] is True
    assert (second["url"], second["content_hash"]) == (first["url"], first["content_hash"])
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller) == 1
    sent = events(redis_db)
    assert [(e.cached, e.external_ref) for e in sent] == [(False, "order-42"), (True, None)]
    for event in sent:
        assert (event.tenant_id, event.content_hash) == (caller.tenant_id, first["content_hash"])
        assert (event.template_id, event.template_version) == ("tpl_ship", 1)
        assert event.object_key.endswith(first["content_hash"] + ".png")
        assert event.event_id.startswith("evt_")
    record = labels.get_label(redis_db, caller.tenant_id, first["content_hash"])
    assert record is not None and record.template_version == 1 and record.size_bytes > 0


@pytest.mark.parametrize(("body", "status", "kind", "param"), [
    ({"template_id": "tpl_ship", "fields": {}}, 422, "MissingField", "fields"),
    ({"template_id": "tpl_ship", "fields": {"name": "x"}}, 422, "MissingField", "fields"),
    ({"template_id": "tpl_ship", "fields": {**VALUES, "zip": "1"}}, 422, "UnknownField",
     "fields"),
    ({"template_id": "tpl_ship", "fields": {**VALUES, "city": 7}}, 422, "InvalidField", "fields"),
    ({"template_id": "tpl_nope", "fields": VALUES}, 404, "TemplateNotFound", "template_id"),
    ({"template_id": "tpl_ship", "fields": VALUES, "template_version": 9}, 404,
     "TemplateNotFound", "template_version"),
    ({"template_id": "tpl_ship", "fields": VALUES, "template_version": 0}, 422,
     "InvalidTemplateVersion", "template_version"),
    ({"template_id": "tpl_ship", "fields": VALUES, "target_dpi": 600}, 403, "DpiNotPermitted",
     "target_dpi"),
    ({"template_id": "tpl_ship", "fields": VALUES, "target_dpi": "300"}, 400, "InvalidDpi",
     "target_dpi"),
    ({"template_id": "tpl_ship", "fields": VALUES, "target_dpi": 0}, 400, "InvalidDpi",
     "target_dpi"),
    ({"template_id": "tpl_ship", "fields": VALUES, "colour": "red"}, 400, "UnknownField",
     "colour"),
    ({"template_id": "tpl_ship", "fields": VALUES, "external_ref": "x" * 129}, 422,
     "InvalidExternalRef", "external_ref"),
    ({"template_id": "tpl_ship", "fields": VALUES, "threshold": "yes"}, 422,
     "InvalidThreshold", "threshold"),
    ({"fields": VALUES}, 422, "MissingTemplateId", "template_id"),
    ({"template_id": "tpl_ship"}, 422, "MissingField", "fields"),
    ({"template_id": "tpl_ship", "fields": ["name"]}, 422, "MissingField", "fields"),
])
async def test_errors(api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
                      body: dict[str, Any], status: int, kind: str, param: str) -> None:
    caller = make_caller()
    await commit(api, caller)
    got, payload = await from_data(api, caller, body)
    assert got == status, payload
    assert payload["errors"][0]["kind"] == kind
    assert payload["error"]["param"] == param
    assert events(redis_db) == []
    assert labels_used(redis_db, caller) == 0


async def test_missing_fields_are_all_named(api: Api, make_caller: Callable[..., Caller]
                                            ) -> None:
    caller = make_caller()
    await commit(api, caller)
    status, payload = await from_data(api, caller, {"template_id": "tpl_ship", "fields": {}})
    assert status == 422
    assert_error(payload, "validation_error", "MissingField", "fields")
    assert payload["missing_fields"] == ["city", "name"]
    assert "city" in payload["error"]["message"] and "name" in payload["error"]["message"]


async def test_a_misspelt_field_is_named_with_the_one_it_misses(
        api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    await commit(api, caller)
    misspelt = {("nmae" if name == "name" else name): value for name, value in VALUES.items()}
    status, payload = await from_data(api, caller, {"template_id": "tpl_ship",
                                                    "fields": misspelt})
    assert status == 422
    assert_error(payload, "validation_error", "MissingField", "fields")
    assert payload["missing_fields"] == ["name"]
    assert "fields the template does not use: nmae (did you mean name?)" in (
        payload["error"]["message"])


@pytest.mark.parametrize(("raw", "content_type", "status", "kind"), [
    (b"{oops", "application/json", 400, "InvalidJson"),
    (b"{}", "text/plain", 415, "UnsupportedMediaType"),
])
async def test_body_errors(api: Api, make_caller: Callable[..., Caller], raw: bytes,
                           content_type: str, status: int, kind: str) -> None:
    caller = make_caller()
    got, payload = await from_data(api, caller, None, raw=raw,
                                   headers={"Content-Type": content_type})
    assert (got, payload["errors"][0]["kind"]) == (status, kind)


async def test_body_over_limit_is_413(start_api: StartApi, make_caller: Callable[..., Caller]
                                      ) -> None:
    api = await start_api(max_body_bytes=1000)
    big = {"template_id": "tpl_ship", "fields": {"name": "x" * 2000, "city": "y"}}
    status, payload = await from_data(api, make_caller(), big)
    assert (status, payload["errors"][0]["kind"]) == (413, "PayloadTooLarge")


async def test_another_tenants_template_is_404(api: Api, make_caller: Callable[..., Caller]
                                               ) -> None:
    owner, stranger = make_caller(), make_caller()
    await commit(api, owner, "tpl_private")
    status, payload = await from_data(api, stranger, {"template_id": "tpl_private",
                                                      "fields": VALUES})
    assert status == 404
    assert_error(payload, "not_found_error", "TemplateNotFound", "template_id")


async def test_gates_match_raw_renders(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    """402 quota, 429 in-flight cap and 503 overload, as for POST /v1/labels."""
    api = await start_api(max_queue_depth=0)
    body = {"template_id": "tpl_ship", "fields": VALUES}
    quota = make_caller("sandbox")
    await commit(api, quota)
    consume(redis_db, quota.tenant_id, "labels", get_plan(redis_db, "sandbox"),
            overages=False, now=time.time(), count=50)
    status, payload = await from_data(api, quota, body)
    assert (status, payload["errors"][0]["kind"]) == (402, "QuotaExceeded")
    busy = make_caller("sandbox")
    await commit(api, busy)
    assert acquire_slot(redis_db, busy.tenant_id, 1, now=time.time()) is not None
    status, payload = await from_data(api, busy, body)
    assert (status, payload["errors"][0]["kind"]) == (429, "RateLimitExceeded")
    overloaded = make_caller()
    await commit(api, overloaded)
    # The backlog limit is per tenant group: a job of the same group fills it.
    render_jobs.enqueue(redis_db, render_jobs.RenderJob(
        tenant=overloaded.tenant_id, content_hash="0" * 64, object_key="x/0.png",
        zpl="^XA^XZ"))
    status, payload = await from_data(api, overloaded, body)
    assert (status, payload["errors"][0]["kind"]) == (503, "AgentOverloaded")
    assert labels_used(redis_db, overloaded) == 0
    assert events(redis_db) == []


async def test_versions_pin_and_change_the_hash(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    body = {"template_id": "tpl_ship", "fields": VALUES}
    _, v1 = await from_data(api, caller, body)
    await commit(api, caller, draft={**DRAFT, "body": BODY.replace("40,40", "60,60")})
    _, v2 = await from_data(api, caller, body)
    assert v2["template_version"] == 2 and v2["cached"] is False
    assert v2["content_hash"] != v1["content_hash"]
    _, pinned = await from_data(api, caller, {**body, "template_version": 1})
    assert pinned["template_version"] == 1 and pinned["cached"] is True
    assert pinned["content_hash"] == v1["content_hash"]
    _, other_values = await from_data(api, caller, {**body, "fields": {**VALUES, "city": "Rome"}})
    assert other_values["cached"] is False
    assert other_values["content_hash"] not in (v1["content_hash"], v2["content_hash"])


async def test_target_dpi_scales_from_the_templates_source_dpi(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller, draft={**DRAFT, "body": BODY.replace("^PW400^LL200", "")})
    _, payload = await from_data(api, caller, {"template_id": "tpl_ship", "fields": VALUES,
                                               "target_dpi": 300})
    image = await fetch_png(api, payload["url"])
    # No ^PW/^LL: the template's 400 x 200 dots at 203 dpi, scaled to 300 dpi.
    assert image.size == (round(400 * 300 / 203), round(200 * 300 / 203))


ESCAPE_BODY = "^XA^PW400^LL200^FO20,20^A0N,30,30^FN1^FS^XZ"
PREFIX_BODY = "^XA^CC+~CT!+PW400+LL200+FO20,20+A0N,30,30+FN1+FS+XZ"


@pytest.mark.parametrize(("body", "value"), [
    (ESCAPE_BODY, "^FS^FO0,0^GB400,200,200^FS"),
    (ESCAPE_BODY, "x^XZ^XA^PW400^LL200^FO0,0^GB400,200,200^FS^XZ"),
    (ESCAPE_BODY, "~CC+ +FO0,0+GB400,200,200+FS"),
    (PREFIX_BODY, "+FS+FO0,0+GB400,200,200+FS"),
    (PREFIX_BODY, "!CC^ ^FO0,0^GB400,200,200^FS"),
])
async def test_values_cannot_inject_commands(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    body: str, value: str,
) -> None:
    """A value that would paint the whole label black as ZPL stays text."""
    caller = make_caller()
    await commit(api, caller, "tpl_esc", {"body": body, "field_map": {"v": 1}})
    status, payload = await from_data(api, caller, {"template_id": "tpl_esc",
                                                    "fields": {"v": value}})
    assert status == 200, payload
    assert dark_share(await fetch_png(api, payload["url"])) < 0.25


async def test_injection_check_can_fail(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    """The same box as part of the body does paint the label black."""
    caller = make_caller()
    box = ESCAPE_BODY.replace("^XZ", "^FO0,0^GB400,200,200^FS^XZ")
    await commit(api, caller, "tpl_box", {"body": box, "field_map": {"v": 1}})
    _, payload = await from_data(api, caller, {"template_id": "tpl_box", "fields": {"v": "x"}})
    assert dark_share(await fetch_png(api, payload["url"])) > 0.9


async def test_global_template_renders_per_tenant(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore,
) -> None:
    add_global(redis_db, object_store, "carrier_std")
    first, second = make_caller(), make_caller()
    body = {"template_id": "carrier_std", "fields": VALUES}
    _, a = await from_data(api, first, body)
    _, b = await from_data(api, second, body)
    assert a["cached"] is False and b["cached"] is False  # hashes are per tenant
    assert a["content_hash"] != b["content_hash"]


async def test_deleted_template_is_404_but_its_labels_stay(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    body = {"template_id": "tpl_ship", "fields": VALUES}
    _, rendered = await from_data(api, caller, body)
    await call(api, caller, "DELETE", "/v1/templates/tpl_ship")
    status, payload = await from_data(api, caller, body)
    assert (status, payload["errors"][0]["kind"]) == (404, "TemplateNotFound")
    await fetch_png(api, rendered["url"])


async def test_label_in_flight_keeps_its_version(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    request: pytest.FixtureRequest,
) -> None:
    """Commit v2 and delete the template while v1's render waits in the queue."""
    caller = make_caller()
    await commit(api, caller)
    pending = asyncio.create_task(from_data(api, caller, {"template_id": "tpl_ship",
                                                          "fields": VALUES}))
    while redis_db.xlen(keys.render_stream(keys.group(caller.tenant_id))) == 0:
        await asyncio.sleep(0.01)
    await commit(api, caller, draft={**DRAFT, "body": BODY.replace("40,40", "60,60")})
    await call(api, caller, "DELETE", "/v1/templates/tpl_ship")
    request.getfixturevalue("render_worker")  # the render starts only now
    status, payload = await pending
    assert status == 200, payload
    assert payload["template_version"] == 1
    assert events(redis_db)[0].template_version == 1


async def test_idempotent_replay(api: Api, make_caller: Callable[..., Caller],
                                 render_worker: RenderConsumer, redis_db: redis.Redis) -> None:
    caller = make_caller()
    await commit(api, caller)
    body = {"template_id": "tpl_ship", "fields": VALUES}
    _, first = await from_data(api, caller, body, headers={"Idempotency-Key": "k1"})
    _, replay = await from_data(api, caller, body, headers={"Idempotency-Key": "k1"})
    assert replay == first
    status, payload = await from_data(api, caller, {**body, "threshold": True},
                                      headers={"Idempotency-Key": "k1"})
    assert (status, payload["errors"][0]["kind"]) == (409, "IdempotencyKeyConflict")
    assert len(events(redis_db)) == 1


async def test_parallel_renders_store_and_bill_each_value_set_once(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore,
) -> None:
    """Issue acceptance 4: 50 parallel renders of 10 value sets."""
    caller = make_caller("scale")
    await commit(api, caller)
    bodies = [{"template_id": "tpl_ship", "fields": {**VALUES, "city": f"City {n % 10}"}}
              for n in range(50)]
    answers = await asyncio.gather(*(from_data(api, caller, body) for body in bodies))
    assert [status for status, _ in answers] == [200] * 50
    assert len({payload["content_hash"] for _, payload in answers}) == 10
    assert sum(not payload["cached"] for _, payload in answers) == 10
    assert sorted(render_worker.rendered) == sorted({p["content_hash"] for _, p in answers})
    stored = list((object_store._root / "tenants" / caller.tenant_id / "labels").iterdir())
    assert len(stored) == 10
    assert labels_used(redis_db, caller, "scale") == 10
    sent = events(redis_db)
    assert len(sent) == 50 and sum(not e.cached for e in sent) == 10
    assert len(labels.list_labels(redis_db, caller.tenant_id, limit=100).labels) == 10


async def test_a_deleted_id_never_falls_through_to_a_global_template(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore,
) -> None:
    """Same id and version number would mean the same content hash."""
    caller = make_caller()
    await commit(api, caller, "shared_id")
    add_global(redis_db, object_store, "shared_id")  # an operator adds it later
    body = {"template_id": "shared_id", "fields": VALUES}
    status, own = await from_data(api, caller, body)
    assert status == 200 and own["template_version"] == 1
    await call(api, caller, "DELETE", "/v1/templates/shared_id")
    status, payload = await from_data(api, caller, body)
    assert (status, payload["errors"][0]["kind"]) == (404, "TemplateNotFound")
    status, fresh = await from_data(api, make_caller(), body)
    assert status == 200 and fresh["cached"] is False  # other tenants get the global one
