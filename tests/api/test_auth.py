"""Bearer authentication, request ids, limit headers and the rate limit."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis

from labelrender.store import revoke_key
from tests.api.conftest import SIMPLE_ZPL, Api, Caller

BAD_AUTH = [
    None,
    "svc_live_" + "0" * 64,  # well formed, unknown
    "Basic dXNlcjpwYXNz",
    "Bearer",
    "Bearer svc_live_tooshort",
    "Bearer svc_test_" + "a" * 64,
    "Bearer svc_live_" + "0" * 64,
]


@pytest.mark.parametrize("authorization", BAD_AUTH)
@pytest.mark.parametrize(("method", "path", "kinds"), [
    ("POST", "/v1/labels", True), ("GET", "/v1/whoami", False), ("GET", "/v1/keys", False),
    ("GET", "/v1/usage", False), ("DELETE", "/v1/keys/abcdef12", False),
])
async def test_missing_or_malformed_key_is_401(
    api: Api, authorization: str | None, method: str, path: str, kinds: bool,
) -> None:
    headers = {"Content-Type": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    async with api.session.request(method, api.url(path), data=b'{"zpl":"^XA^XZ"}',
                                   headers=headers) as resp:
        payload = await resp.json()
        assert resp.status == 401
        assert resp.headers["WWW-Authenticate"] == "Bearer"
        assert resp.headers["X-Request-Id"]
        assert "X-RateLimit-Limit" not in resp.headers
    assert payload["error"]["type"] == "authentication_error"
    if kinds:
        assert payload["status"] == "error"
        assert payload["errors"][0]["kind"] == "Unauthorized"


async def test_revoked_key_is_401_on_the_next_request(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    async with api.session.post(api.url("/v1/keys"), headers=caller.headers) as resp:
        spare = (await resp.json())["apiKey"]
    async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
        assert resp.status == 200
    revoke_key(redis_db, caller.tenant_id, caller.key_prefix, now=time.time())
    async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
        assert resp.status == 401
    async with api.session.get(api.url("/v1/whoami"),
                               headers={"Authorization": f"Bearer {spare}"}) as resp:
        assert resp.status == 200


async def test_request_id_is_echoed_or_minted(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller()
    headers = {**caller.headers, "X-Request-Id": "client-abc.123"}
    async with api.session.get(api.url("/v1/whoami"), headers=headers) as resp:
        assert resp.headers["X-Request-Id"] == "client-abc.123"
    async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
        assert resp.headers["X-Request-Id"].startswith("req_")


async def test_limit_headers_count_down(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller("sandbox")
    remaining = []
    for _ in range(3):
        async with api.session.get(api.url("/v1/keys"), headers=caller.headers) as resp:
            assert resp.headers["X-RateLimit-Limit"] == "10"
            assert int(resp.headers["X-RateLimit-Reset"]) >= int(time.time())
            remaining.append(int(resp.headers["X-RateLimit-Remaining"]))
    assert remaining == [9, 8, 7]


async def test_rate_limit_on_labels_is_429_with_fractional_retry_after(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller("sandbox")  # 10 requests per minute
    headers = {**caller.headers, "Content-Type": "application/json"}
    for _ in range(10):  # invalid bodies still count: the limiter runs before validation
        async with api.session.post(api.url("/v1/labels"), data=b"{", headers=headers) as resp:
            assert resp.status == 400
    async with api.session.post(api.url("/v1/labels"), data=b'{"zpl": "' + SIMPLE_ZPL.encode()
                                + b'"}', headers=headers) as resp:
        payload = await resp.json()
        assert resp.status == 429
        retry_after = float(resp.headers["Retry-After"])
        assert 0 < retry_after <= 6.0  # one request refills every 6 s
        assert resp.headers["X-RateLimit-Remaining"] == "0"
    assert payload["error"]["type"] == "rate_limit_error"
    assert payload["errors"][0]["kind"] == "RateLimitExceeded"


async def test_rate_limit_applies_to_other_endpoints(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller("sandbox")
    statuses = []
    for _ in range(11):
        async with api.session.get(api.url("/v1/whoami"), headers=caller.headers) as resp:
            statuses.append(resp.status)
            last = await resp.json()
    assert statuses == [200] * 10 + [429]
    assert last["error"]["kind"] == "RateLimitExceeded"
    # Looking at the counters does not use up a request.
    async with api.session.get(api.url("/v1/usage"), headers=caller.headers) as resp:
        assert resp.status == 200


async def test_unknown_route_is_404_envelope(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    async with api.session.get(api.url("/v1/nothing-here"), headers=caller.headers) as resp:
        assert resp.status == 404
        assert (await resp.json())["error"]["type"] == "not_found_error"
    async with api.session.put(api.url("/v1/keys"), headers=caller.headers) as resp:
        assert resp.status == 405
        assert (await resp.json())["error"]["type"] == "invalid_request_error"
