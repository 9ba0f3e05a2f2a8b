"""POST/GET /v1/keys and DELETE /v1/keys/{prefix}."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from labelrender.store import create_key
from tests.api.conftest import Api, Caller


async def call(api: Api, method: str, path: str, caller: Caller, body: Any = None,
               secret: str | None = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {secret or caller.secret}"}
    async with api.session.request(method, api.url(path), json=body, headers=headers) as resp:
        return resp.status, await resp.json()


async def test_create_returns_secret_once_and_list_never_shows_it(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller()
    status, created = await call(api, "POST", "/v1/keys", caller, {"label": "ci deploy"})
    assert status == 201
    assert re.fullmatch(r"svc_live_[0-9a-f]{64}", created["apiKey"])
    assert created["key_prefix"] == created["apiKey"][9:17]
    assert created["label"] == "ci deploy"
    status, listed = await call(api, "GET", "/v1/keys", caller)
    assert status == 200
    # Oldest first, to the second; two keys made in one second may list either way.
    assert {k["key_prefix"] for k in listed["keys"]} == {caller.key_prefix,
                                                          created["key_prefix"]}
    for key in listed["keys"]:
        assert set(key) == {"key_prefix", "label", "status", "created_at"}
        assert key["status"] == "active"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", key["created_at"])
    assert created["apiKey"] not in str(listed)
    status, _ = await call(api, "GET", "/v1/whoami", caller, secret=created["apiKey"])
    assert status == 200


async def test_create_without_body_or_label(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    async with api.session.post(api.url("/v1/keys"), headers=caller.headers) as resp:
        assert resp.status == 201
        assert (await resp.json())["label"] is None


@pytest.mark.parametrize(("body", "status", "kind", "param"), [
    ({"label": "x" * 65}, 422, "InvalidLabel", "label"),
    ({"label": 5}, 422, "InvalidLabel", "label"),
    ({"name": "x"}, 400, "UnknownField", "name"),
])
async def test_create_rejects_bad_bodies(
    api: Api, make_caller: Callable[..., Caller], body: Any, status: int, kind: str, param: str,
) -> None:
    got, payload = await call(api, "POST", "/v1/keys", make_caller(), body)
    assert got == status
    assert payload["error"]["kind"] == kind and payload["error"]["param"] == param


async def test_create_beyond_plan_cap_is_409(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    caller = make_caller("sandbox")  # 5 active keys
    for _ in range(4):
        create_key(redis_db, caller.tenant_id, now=time.time())
    status, payload = await call(api, "POST", "/v1/keys", caller, {})
    assert status == 409
    assert payload["error"]["type"] == "invalid_request_error"
    assert payload["error"]["kind"] == "KeyCapReached"


async def test_revoke_then_key_is_401_and_listed_revoked(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller()
    _, created = await call(api, "POST", "/v1/keys", caller, {})
    status, payload = await call(api, "DELETE", f"/v1/keys/{created['key_prefix']}", caller)
    assert status == 200
    assert payload == {"status": "revoked", "key_prefix": created["key_prefix"]}
    status, _ = await call(api, "GET", "/v1/whoami", caller, secret=created["apiKey"])
    assert status == 401
    _, listed = await call(api, "GET", "/v1/keys", caller)
    statuses = {k["key_prefix"]: k["status"] for k in listed["keys"]}
    assert statuses == {caller.key_prefix: "active", created["key_prefix"]: "revoked"}


async def test_revoke_unknown_prefix_is_404(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    for prefix in ("deadbeef", "not-a-prefix"):
        status, payload = await call(api, "DELETE", f"/v1/keys/{prefix}", caller)
        assert status == 404
        assert payload["error"]["type"] == "not_found_error"
        assert payload["error"]["kind"] == "KeyNotFound"


async def test_other_tenants_key_cannot_be_revoked(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    mine, theirs = make_caller(), make_caller()
    await call(api, "POST", "/v1/keys", theirs, {})
    status, _ = await call(api, "DELETE", f"/v1/keys/{theirs.key_prefix}", mine)
    assert status == 404


async def test_last_active_key_cannot_be_revoked(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller()
    status, payload = await call(api, "DELETE", f"/v1/keys/{caller.key_prefix}", caller)
    assert status == 409
    assert payload["error"]["kind"] == "LastActiveKey"
    status, _ = await call(api, "GET", "/v1/whoami", caller)
    assert status == 200


async def test_the_answer_carrying_a_new_key_is_never_cached(
        api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    async with api.session.post(api.url("/v1/keys"), json={}, headers=caller.headers) as resp:
        assert resp.status == 201
        assert resp.headers.get("Cache-Control") == "no-store"
        assert resp.headers.get("X-Content-Type-Options") == "nosniff"
