"""Templates over HTTP: commit, list and delete, tenant isolation, global read-only."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from labelrender.store import templates
from labelrender.store.objects import FilesystemStore
from labelrender.store.templates import Draft
from tests.api.conftest import Api, Caller, StartApi
from tests.api.test_labels import assert_error

BODY = "^XA^PW400^LL200^FO20,20^A0N,40,40^FN1^FS^FO20,100^A0N,30,30^FN2^FS^XZ"
FIELD_MAP = {"name": 1, "city": 2}
DRAFT = {"body": BODY, "field_map": FIELD_MAP, "values": {"name": "Ada", "city": "Oslo"},
         "name": "Shipping", "width_dots": 400, "height_dots": 200, "source_dpi": 203}


async def call(api: Api, caller: Caller, method: str, path: str, body: Any = None,
               *, raw: bytes | None = None, content_type: str = "application/json"
               ) -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {**caller.headers, "Content-Type": content_type}
    async with api.session.request(method, api.url(path), data=data, headers=headers) as resp:
        return resp.status, await resp.json()


def add_global(r: redis.Redis, store: FilesystemStore, template_id: str,
               body: str = BODY) -> templates.TemplateVersion:
    """What ``labelrender admin template apply`` stores."""
    draft = Draft(body=body, field_map=dict(FIELD_MAP), name="Global " + template_id)
    return templates.commit(r, store, None, template_id, draft,
                            hashlib.sha256(body.encode()).hexdigest(), now=time.time())


@pytest.mark.parametrize("body", [DRAFT, {"draft": DRAFT, "status": "ok", "confidence_score": 0.9,
                                          "warnings": [], "_synthesis_meta": {}}])
async def test_commit_mints_versions(api: Api, make_caller: Callable[..., Caller],
                                     body: dict[str, Any]) -> None:
    caller = make_caller()
    status, first = await call(api, caller, "POST", "/v1/templates/tpl_ship", body)
    assert status == 201, first
    assert first["status"] == "ok"
    assert (first["template_id"], first["version"], first["scope"]) == ("tpl_ship", 1, "tenant")
    assert first["tenant_id"] == caller.tenant_id
    assert first["field_names"] == ["city", "name"]
    assert first["created_at"].endswith("Z")
    status, second = await call(api, caller, "POST", "/v1/templates/tpl_ship", body)
    assert (status, second["version"]) == (201, 2)


@pytest.mark.parametrize(("body", "status", "kind", "param"), [
    ({"field_map": FIELD_MAP}, 422, "MissingField", "body"),
    ({"body": BODY}, 422, "MissingField", "field_map"),
    ({"body": "  ", "field_map": {}}, 422, "MissingBody", "body"),
    ({"body": BODY, "field_map": {"name": 1}}, 422, "FieldMapMismatch", "field_map"),
    ({"body": BODY, "field_map": {**FIELD_MAP, "zip": 3}}, 422, "FieldMapMismatch", "field_map"),
    ({"body": BODY, "field_map": {"name": 1, "city": 1}}, 422, "FieldMapMismatch", "field_map"),
    ({"body": BODY, "field_map": FIELD_MAP, "values": {"zip": "1"}}, 422, "FieldMapMismatch",
     "values"),
    ({"body": "hello ^FN1", "field_map": {"name": 1}}, 422, "InvalidZpl", "body"),
    ({"body": BODY, "field_map": {"name": "1", "city": 2}}, 422, "InvalidDraft",
     "field_map.name"),
    ({"body": BODY, "field_map": FIELD_MAP, "source_dpi": 5000}, 422, "InvalidDraft",
     "source_dpi"),
    ({**DRAFT, "colour": "red"}, 400, "UnknownField", "colour"),
    ({"draft": {**DRAFT, "colour": "red"}}, 400, "UnknownField", "draft.colour"),
    ({"draft": DRAFT, "colour": "red"}, 400, "UnknownField", "colour"),
    ({"draft": "nope"}, 422, "InvalidDraft", "draft"),
])
async def test_commit_errors(api: Api, make_caller: Callable[..., Caller], body: dict[str, Any],
                             status: int, kind: str, param: str) -> None:
    caller = make_caller()
    got, payload = await call(api, caller, "POST", "/v1/templates/tpl_bad", body)
    assert got == status, payload
    assert payload["errors"][0]["kind"] == kind
    assert payload["error"]["param"] == param
    status, listing = await call(api, caller, "GET", "/v1/templates")
    assert listing == {"templates": []}


@pytest.mark.parametrize(("raw", "content_type", "status", "kind"), [
    (b"{not json", "application/json", 400, "InvalidJson"),
    (b"[]", "application/json", 400, "InvalidJson"),
    (json.dumps(DRAFT).encode(), "text/plain", 415, "UnsupportedMediaType"),
])
async def test_commit_body_errors(api: Api, make_caller: Callable[..., Caller], raw: bytes,
                                  content_type: str, status: int, kind: str) -> None:
    got, payload = await call(api, make_caller(), "POST", "/v1/templates/tpl_x", raw=raw,
                              content_type=content_type)
    assert (got, payload["errors"][0]["kind"]) == (status, kind)


@pytest.mark.parametrize("template_id", [
    ".hidden",
    # Checked through the path model, whose pattern matches the whole id:
    # Python's "$" let a trailing line break through into the registry.
    "tpl_x%0A",
])
async def test_bad_template_id_is_422(api: Api, make_caller: Callable[..., Caller],
                                      template_id: str) -> None:
    status, payload = await call(api, make_caller(), "POST", f"/v1/templates/{template_id}",
                                 DRAFT)
    assert_error(payload, "validation_error", "InvalidTemplateId", "template_id")
    assert status == 422


async def test_missing_key_is_401(api: Api) -> None:
    async with api.session.get(api.url("/v1/templates")) as resp:
        assert resp.status == 401


async def test_list_shows_own_and_global_templates(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore,
) -> None:
    caller, other = make_caller(), make_caller()
    add_global(redis_db, object_store, "carrier_std")
    await call(api, caller, "POST", "/v1/templates/tpl_mine", DRAFT)
    await call(api, caller, "POST", "/v1/templates/tpl_mine", DRAFT)
    await call(api, other, "POST", "/v1/templates/tpl_theirs", DRAFT)
    status, listing = await call(api, caller, "GET", "/v1/templates")
    assert status == 200
    mine, shared = listing["templates"]
    assert {k: mine[k] for k in ("id", "scope", "name", "latest_version", "versions",
                                 "field_names")} == {
        "id": "tpl_mine", "scope": "tenant", "name": "Shipping", "latest_version": 2,
        "versions": [1, 2], "field_names": ["city", "name"]}
    assert mine["created_at"].endswith("Z") and mine["updated_at"].endswith("Z")
    assert (shared["id"], shared["scope"], shared["latest_version"]) == ("carrier_std",
                                                                         "global", 1)
    for scope, ids in (("tenant", ["tpl_mine"]), ("global", ["carrier_std"])):
        _, filtered = await call(api, caller, "GET", f"/v1/templates?scope={scope}")
        assert [t["id"] for t in filtered["templates"]] == ids
    status, payload = await call(api, caller, "GET", "/v1/templates?scope=everything")
    assert (status, payload["errors"][0]["kind"]) == (400, "InvalidScope")


async def test_global_templates_are_read_only(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore,
) -> None:
    caller = make_caller()
    add_global(redis_db, object_store, "carrier_std")
    for method in ("POST", "DELETE"):
        status, payload = await call(api, caller, method, "/v1/templates/carrier_std", DRAFT)
        assert status == 403, payload
        assert_error(payload, "permission_error", "TemplateReadOnly", "template_id")
    assert templates.resolve(redis_db, caller.tenant_id, "carrier_std") is not None


async def test_delete_is_permanent_and_private(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    caller, other = make_caller(), make_caller()
    await call(api, caller, "POST", "/v1/templates/tpl_gone", DRAFT)
    status, payload = await call(api, other, "DELETE", "/v1/templates/tpl_gone")
    assert status == 404
    assert_error(payload, "not_found_error", "TemplateNotFound", "template_id")
    status, payload = await call(api, caller, "DELETE", "/v1/templates/tpl_gone")
    assert (status, payload) == (200, {"status": "deleted", "template_id": "tpl_gone"})
    status, _ = await call(api, caller, "DELETE", "/v1/templates/tpl_gone")
    assert status == 404
    _, listing = await call(api, caller, "GET", "/v1/templates")
    assert listing == {"templates": []}
    status, again = await call(api, caller, "POST", "/v1/templates/tpl_gone", DRAFT)
    assert (status, again["version"]) == (201, 2)  # numbers are never reused


ENDPOINTS = [("POST", "/v1/templates/tpl_x"), ("GET", "/v1/templates"),
             ("DELETE", "/v1/templates/tpl_x"), ("POST", "/v1/labels/from-data"),
             ("GET", "/v1/labels")]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
async def test_every_endpoint_needs_a_key(api: Api, method: str, path: str) -> None:
    for headers in ({}, {"Authorization": "Bearer svc_live_" + "0" * 64}):
        async with api.session.request(method, api.url(path), json={}, headers=headers) as resp:
            assert resp.status == 401
            assert (await resp.json())["error"]["type"] == "authentication_error"


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
async def test_every_endpoint_is_rate_limited(api: Api, make_caller: Callable[..., Caller],
                                              method: str, path: str) -> None:
    caller = make_caller("sandbox")  # 10 requests a minute
    statuses = [(await call(api, caller, method, path, {}))[0] for _ in range(11)]
    assert 429 not in statuses[:10] and statuses[10] == 429


async def test_commit_over_the_body_limit_is_413(start_api: StartApi,
                                                 make_caller: Callable[..., Caller]) -> None:
    api = await start_api(max_body_bytes=1000)
    status, payload = await call(api, make_caller(), "POST", "/v1/templates/tpl_big",
                                 {**DRAFT, "body": BODY + " " * 2000})
    assert (status, payload["errors"][0]["kind"]) == (413, "PayloadTooLarge")
