"""The subscription API: POST/GET/DELETE /v1/webhooks[/id], deliveries, test,
on the real app and Redis (spec "Webhooks", DECISIONS.md "Webhooks")."""

from __future__ import annotations

from typing import Any

import pytest

from labelrender.store.webhooks import MAX_WEBHOOKS
from tests.webhooks.conftest import Api, Caller, get_json

GOOD_URL = "https://receiver.test:8443/hooks/labels"


async def post(api: Api, caller: Caller, path: str, body: Any = None) -> tuple[int, Any]:
    async with api.session.post(api.url(path), headers=caller.headers, json=body) as response:
        return response.status, await response.json()


async def delete(api: Api, caller: Caller, path: str) -> tuple[int, Any]:
    async with api.session.delete(api.url(path), headers=caller.headers) as response:
        return response.status, await response.json()


async def test_create_shows_the_secret_once_and_update_keeps_it(
        hooks_api: Api, make_caller: Any) -> None:
    caller = make_caller()
    status, created = await post(hooks_api, caller, "/v1/webhooks/wh-1", {"url": GOOD_URL})
    assert status == 201
    assert {k: created[k] for k in ("status", "id", "scope", "version", "url", "topics")} == {
        "status": "created", "id": "wh-1", "scope": "tenant", "version": 1, "url": GOOD_URL,
        "topics": ["label.rendered"]}
    assert created["signing_secret"].startswith("whsec_") and len(created["signing_secret"]) > 30

    for version in (2, 3):
        status, updated = await post(hooks_api, caller, "/v1/webhooks/wh-1",
                                     {"url": GOOD_URL + "/v2", "topics": ["label.rendered"]})
        assert status == 200
        assert (updated["status"], updated["version"], updated["url"]) == (
            "updated", version, GOOD_URL + "/v2")
        assert "signing_secret" not in updated

    status, got = await get_json(hooks_api, caller, "/v1/webhooks/wh-1")
    assert status == 200 and got["version"] == 3 and "signing_secret" not in got
    status, listed = await get_json(hooks_api, caller, "/v1/webhooks")
    assert status == 200 and [h["id"] for h in listed["webhooks"]] == ["wh-1"]
    assert "signing_secret" not in listed["webhooks"][0]


async def test_update_keeps_signing_with_the_first_secret(
        hooks_api: Api, make_caller: Any, redis_db: Any) -> None:
    from labelrender.store.webhooks import get_webhook

    caller = make_caller()
    _, created = await post(hooks_api, caller, "/v1/webhooks/wh-1", {"url": GOOD_URL})
    await post(hooks_api, caller, "/v1/webhooks/wh-1", {"url": GOOD_URL + "/moved"})
    hook = get_webhook(redis_db, caller.tenant_id, "wh-1")
    assert (hook.signing_secret, hook.url) == (created["signing_secret"], GOOD_URL + "/moved")


async def test_delete_then_404(hooks_api: Api, make_caller: Any) -> None:
    caller = make_caller()
    await post(hooks_api, caller, "/v1/webhooks/wh-1", {"url": GOOD_URL})
    assert await delete(hooks_api, caller, "/v1/webhooks/wh-1") == (
        200, {"status": "deleted", "id": "wh-1"})
    for status, body in (await get_json(hooks_api, caller, "/v1/webhooks/wh-1"),
                         await delete(hooks_api, caller, "/v1/webhooks/wh-1"),
                         await get_json(hooks_api, caller, "/v1/webhooks/wh-1/deliveries"),
                         await post(hooks_api, caller, "/v1/webhooks/wh-1/test")):
        assert status == 404
        assert (body["error"]["type"], body["error"]["kind"]) == (
            "not_found_error", "WebhookNotFound")
    assert (await get_json(hooks_api, caller, "/v1/webhooks"))[1] == {"webhooks": []}


async def test_tenants_never_see_each_others_webhooks(hooks_api: Api, make_caller: Any) -> None:
    owner, other = make_caller(), make_caller()
    await post(hooks_api, owner, "/v1/webhooks/shared-name", {"url": GOOD_URL})
    assert (await get_json(hooks_api, other, "/v1/webhooks"))[1] == {"webhooks": []}
    assert (await get_json(hooks_api, other, "/v1/webhooks/shared-name"))[0] == 404
    assert (await delete(hooks_api, other, "/v1/webhooks/shared-name"))[0] == 404
    status, created = await post(hooks_api, other, "/v1/webhooks/shared-name",
                                 {"url": GOOD_URL + "/other"})
    assert (status, created["version"]) == (201, 1)  # its own, not an update of the owner's
    assert (await get_json(hooks_api, owner, "/v1/webhooks/shared-name"))[1]["url"] == GOOD_URL


async def test_at_most_ten_subscriptions(hooks_api: Api, make_caller: Any) -> None:
    caller = make_caller()
    for n in range(MAX_WEBHOOKS):
        assert (await post(hooks_api, caller, f"/v1/webhooks/wh{n}", {"url": GOOD_URL}))[0] == 201
    status, body = await post(hooks_api, caller, "/v1/webhooks/one-more", {"url": GOOD_URL})
    assert status == 409 and body["error"]["kind"] == "WebhookCapReached"
    # updating one of the ten is still fine
    assert (await post(hooks_api, caller, "/v1/webhooks/wh0", {"url": GOOD_URL}))[0] == 200


@pytest.mark.parametrize(("path", "body", "status", "kind", "param"), [
    ("/v1/webhooks/wh", {"url": GOOD_URL, "topics": ["label.deleted"]}, 422,
     "UnsupportedTopic", "topics"),
    ("/v1/webhooks/wh", {"url": GOOD_URL, "topics": []}, 422, "UnsupportedTopic", "topics"),
    ("/v1/webhooks/wh", {"url": GOOD_URL, "topics": "label.rendered"}, 422,
     "UnsupportedTopic", "topics"),
    ("/v1/webhooks/wh", {}, 422, "MissingField", "url"),
    ("/v1/webhooks/wh", {"url": 42}, 422, "WebhookTargetRejected", "url"),
    ("/v1/webhooks/wh", {"url": GOOD_URL, "topics": ["label.rendered", 7]}, 422,
     "UnsupportedTopic", "topics"),
    ("/v1/webhooks/wh", [GOOD_URL], 400, "InvalidJson", None),
    ("/v1/webhooks/wh", {"url": GOOD_URL, "secret": "mine"}, 400, "UnknownField", "secret"),
    ("/v1/webhooks/wh", {"url": GOOD_URL, "tenant_id": "tnt_x"}, 400, "UnknownField",
     "tenant_id"),
    ("/v1/webhooks/wh", {"url": "http://receiver.test/hooks"}, 422, "WebhookTargetRejected",
     "url"),
    ("/v1/webhooks/wh", {"url": "https://localhost/hooks"}, 422, "WebhookTargetRejected",
     "url"),
    ("/v1/webhooks/wh", {"url": "https://169.254.169.254/latest"}, 422,
     "WebhookTargetRejected", "url"),
    ("/v1/webhooks/wh", {"url": "https://10.0.0.8/hooks"}, 422, "WebhookTargetRejected", "url"),
    ("/v1/webhooks/wh", {"url": "https://nowhere.test/hooks"}, 422, "WebhookTargetRejected",
     "url"),
    ("/v1/webhooks/-bad", {"url": GOOD_URL}, 422, "InvalidWebhookId", "id"),
    ("/v1/webhooks/" + "x" * 65, {"url": GOOD_URL}, 422, "InvalidWebhookId", "id"),
    # The path model's pattern matches the whole id (Python's "$" let a
    # trailing line break through into the subscription's id).
    ("/v1/webhooks/wh%0A", {"url": GOOD_URL}, 422, "InvalidWebhookId", "id"),
])
async def test_refused_bodies(hooks_api: Api, make_caller: Any, path: str, body: Any,
                              status: int, kind: str, param: str | None) -> None:
    caller = make_caller()
    got_status, got = await post(hooks_api, caller, path, body)
    assert got_status == status, got
    assert (got["error"]["kind"], got["error"]["param"]) == (kind, param)
    assert set(got["error"]) >= {"type", "message", "param"}
    assert (await get_json(hooks_api, caller, "/v1/webhooks"))[1] == {"webhooks": []}


async def test_refusal_says_why(hooks_api: Api, make_caller: Any) -> None:
    status, body = await post(hooks_api, make_caller(), "/v1/webhooks/wh",
                              {"url": "https://[::ffff:10.0.0.1]/x"})
    assert status == 422 and body["error"]["type"] == "validation_error"
    assert "private" in body["error"]["message"]


async def test_loopback_is_refused_without_the_operator_allowlist(
        start_api: Any, make_caller: Any, dns: Any) -> None:
    """The allowlist is operator configuration: the same URL is refused on an
    API started without it."""
    api = await start_api(webhook_resolver=dns)
    status, body = await post(api, make_caller(), "/v1/webhooks/wh",
                              {"url": "https://127.0.0.1:8443/hooks"})
    assert (status, body["error"]["kind"]) == (422, "WebhookTargetRejected")
    assert "loopback" in body["error"]["message"]


async def test_requires_a_key(hooks_api: Api) -> None:
    async with hooks_api.session.get(hooks_api.url("/v1/webhooks")) as response:
        assert response.status == 401


async def test_the_answer_carrying_the_secret_is_never_cached(
        hooks_api: Api, make_caller: Any) -> None:
    caller = make_caller()
    async with hooks_api.session.post(hooks_api.url("/v1/webhooks/wh-cache"),
                                      headers=caller.headers, json={"url": GOOD_URL}) as resp:
        assert resp.status == 201 and "signing_secret" in await resp.json()
        assert resp.headers.get("Cache-Control") == "no-store"
