"""POST /v1/labels end to end: real HTTP, real Redis, a real render consumer."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from labelrender.store import acquire_slot, consume, get_plan, read_usage
from labelrender.store import jobs as render_jobs
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer, StartApi

MB = 1024 * 1024


async def post_label(api: Api, caller: Caller, body: Any, *, headers: dict[str, str] | None = None,
                     raw: bytes | None = None) -> tuple[int, dict[str, Any], Any]:
    data = raw if raw is not None else json.dumps(body).encode()
    all_headers = {**caller.headers, "Content-Type": "application/json", **(headers or {})}
    async with api.session.post(api.url("/v1/labels"), data=data, headers=all_headers) as resp:
        return resp.status, await resp.json(), resp.headers


def assert_error(payload: dict[str, Any], status_type: str, kind: str,
                 param: str | None = None) -> None:
    """Both envelopes of DECISIONS.md "Error bodies"."""
    assert payload["error"]["type"] == status_type
    assert payload["error"]["param"] == param
    assert payload["error"]["message"]
    assert payload["status"] == "error"
    assert payload["errors"][0]["kind"] == kind
    assert payload["errors"][0]["message"] == payload["error"]["message"]


def labels_used(r: redis.Redis, caller: Caller, plan: str = "pro") -> int:
    return read_usage(r, caller.tenant_id, get_plan(r, plan), now=time.time())["labels"].used


async def test_render_returns_signed_url_to_png(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    status, payload, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 200, payload
    assert payload["status"] == "ok"
    assert payload["cached"] is False
    assert len(payload["content_hash"]) == 64
    assert payload["warnings"] == []
    assert payload["url"].startswith(api.url("/v1/files/tenants/" + caller.tenant_id + "/"))
    async with api.session.get(payload["url"]) as png:  # no auth header (spec)
        assert png.status == 200
        assert png.content_type == "image/png"
        assert (await png.read()).startswith(b"\x89PNG\r\n\x1a\n")
    assert labels_used(redis_db, caller) == 1
    assert headers["X-RateLimit-Limit"] == "100"
    assert headers["X-Request-Id"]


async def test_repeat_is_cached_same_url_and_not_billed(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    body = {"zpl": SIMPLE_ZPL, "target_dpi": 300, "threshold": True, "font_profile": "inter"}
    _, first, _ = await post_label(api, caller, body)
    status, second, _ = await post_label(api, caller, body)
    assert status == 200
    assert second["cached"] is True
    assert second["url"] == first["url"]
    assert second["content_hash"] == first["content_hash"]
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller) == 1
    _, other, _ = await post_label(api, caller, {**body, "threshold": False})
    assert other["cached"] is False and other["content_hash"] != first["content_hash"]


async def test_a_cache_hit_answers_with_the_render_warnings(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    body = {"zpl": "^XA^FO50,50^A0N,40,40^FDHello^FS^XQ^XZ"}  # ^XQ: unknown, ignored
    _, first, _ = await post_label(api, caller, body)
    _, second, _ = await post_label(api, caller, body)
    assert (first["cached"], second["cached"]) == (False, True)
    assert any("^XQ" in w for w in first["warnings"])
    assert second["warnings"] == first["warnings"]


async def test_cache_is_per_tenant(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    _, first, _ = await post_label(api, make_caller(), {"zpl": SIMPLE_ZPL})
    _, second, _ = await post_label(api, make_caller(), {"zpl": SIMPLE_ZPL})
    assert second["cached"] is False
    assert second["content_hash"] != first["content_hash"]


async def test_extreme_dpi_ratio_warns(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    status, payload, _ = await post_label(
        api, make_caller(), {"zpl": SIMPLE_ZPL, "source_dpi": 300, "target_dpi": 50})
    assert status == 200
    assert any("source_dpi 300" in w for w in payload["warnings"])


BAD_BODIES = [
    # (body or raw bytes, status, type, kind, param)
    (b"{not json", 400, "invalid_request_error", "InvalidJson", None),
    (b"[1, 2]", 400, "invalid_request_error", "InvalidJson", None),
    ({"zpl": SIMPLE_ZPL, "dpi": 203}, 400, "invalid_request_error", "UnknownField", "dpi"),
    ({"zpl": SIMPLE_ZPL, "source_dpi": 0}, 400, "invalid_request_error", "InvalidDpi",
     "source_dpi"),
    ({"zpl": SIMPLE_ZPL, "target_dpi": 1201}, 400, "invalid_request_error", "InvalidDpi",
     "target_dpi"),
    ({"zpl": SIMPLE_ZPL, "target_dpi": "203"}, 400, "invalid_request_error", "InvalidDpi",
     "target_dpi"),
    ({"zpl": SIMPLE_ZPL, "source_dpi": 203.5}, 400, "invalid_request_error", "InvalidDpi",
     "source_dpi"),
    ({"zpl": SIMPLE_ZPL, "source_dpi": True}, 400, "invalid_request_error", "InvalidDpi",
     "source_dpi"),
    ({"zpl": SIMPLE_ZPL, "font_profile": "comic"}, 400, "invalid_request_error",
     "InvalidFontProfile", "font_profile"),
    ({"zpl": SIMPLE_ZPL, "threshold": "yes"}, 422, "validation_error", "InvalidThreshold",
     "threshold"),
    ({}, 422, "validation_error", "MissingZpl", "zpl"),
    ({"zpl": ""}, 422, "validation_error", "MissingZpl", "zpl"),
    ({"zpl": "   "}, 422, "validation_error", "MissingZpl", "zpl"),
    ({"zpl": None}, 422, "validation_error", "MissingZpl", "zpl"),
    ({"zpl": 42}, 422, "validation_error", "InvalidZpl", "zpl"),
    ({"zpl": SIMPLE_ZPL, "target_dpi": 600}, 403, "permission_error", "DpiNotPermitted",
     "target_dpi"),
    ({"zpl": SIMPLE_ZPL, "source_dpi": 600}, 403, "permission_error", "DpiNotPermitted",
     "source_dpi"),
]


@pytest.mark.parametrize(("body", "status", "error_type", "kind", "param"), BAD_BODIES)
async def test_bad_requests(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    body: Any, status: int, error_type: str, kind: str, param: str | None,
) -> None:
    caller = make_caller("pro")  # max_dpi 300
    raw = body if isinstance(body, bytes) else None
    got, payload, headers = await post_label(api, caller, body, raw=raw)
    assert got == status, payload
    assert_error(payload, error_type, kind, param)
    assert "X-RateLimit-Remaining" in headers
    assert labels_used(redis_db, caller) == 0


async def test_sandbox_dpi_ceiling_is_203(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller("sandbox")
    status, payload, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL, "target_dpi": 300})
    assert status == 403
    assert_error(payload, "permission_error", "DpiNotPermitted", "target_dpi")
    status, _, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL, "target_dpi": 203})
    assert status == 200


async def test_unrenderable_zpl_is_422_and_refunded(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    status, payload, _ = await post_label(api, caller, {"zpl": "hello, not a label"})
    assert status == 422
    assert_error(payload, "validation_error", "InvalidZpl", "zpl")
    assert "^XA" in payload["error"]["message"]  # the engine's own message
    assert labels_used(redis_db, caller) == 0


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/xml"])
async def test_non_json_content_type_is_415(
    api: Api, make_caller: Callable[..., Caller], content_type: str,
) -> None:
    status, payload, _ = await post_label(api, make_caller(), None, raw=b'{"zpl": "^XA^XZ"}',
                                          headers={"Content-Type": content_type})
    assert status == 415
    assert_error(payload, "invalid_request_error", "UnsupportedMediaType")
    # Raw ZPL is what Labelary takes: the answer says where it goes here.
    assert "POST /v1/printers/8dpmm/labels/4x6/0/" in payload["error"]["message"]


async def test_body_over_5_mb_is_413(api: Api, make_caller: Callable[..., Caller]) -> None:
    body = json.dumps({"zpl": "^XA" + "A" * (5 * MB) + "^XZ"}).encode()
    status, payload, _ = await post_label(api, make_caller(), None, raw=body)
    assert status == 413
    assert_error(payload, "invalid_request_error", "PayloadTooLarge")


async def test_chunked_body_over_limit_is_413(
    start_api: StartApi, make_caller: Callable[..., Caller],
) -> None:
    api = await start_api(max_body_bytes=64 * 1024)
    caller = make_caller()

    async def chunks() -> Any:
        for _ in range(8):
            yield b" " * 16 * 1024  # no Content-Length: sent chunked

    headers = {**caller.headers, "Content-Type": "application/json"}
    async with api.session.post(api.url("/v1/labels"), data=chunks(), headers=headers) as resp:
        assert resp.status == 413
        assert (await resp.json())["errors"][0]["kind"] == "PayloadTooLarge"


async def test_quota_exhausted_on_sandbox_is_402_but_cache_still_answers(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("sandbox")
    _, cached, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    consume(redis_db, caller.tenant_id, "labels", get_plan(redis_db, "sandbox"),
            overages=False, now=time.time(), count=49)
    status, payload, _ = await post_label(api, caller, {"zpl": "^XA^FO1,1^GB10,10,2^FS^XZ"})
    assert status == 402
    assert_error(payload, "invalid_request_error", "QuotaExceeded")
    assert payload["upgrade_url"].startswith("http")
    assert labels_used(redis_db, caller, "sandbox") == 50
    status, again, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 200 and again["cached"] is True and again["url"] == cached["url"]


async def test_paid_plan_with_overages_renders_past_allowance(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    consume(redis_db, caller.tenant_id, "labels", get_plan(redis_db, "pro"),
            overages=True, now=time.time(), count=10_000)
    status, _, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 200
    assert labels_used(redis_db, caller) == 10_001


async def test_in_flight_cap_is_429(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    caller = make_caller("sandbox")  # one concurrent render
    assert acquire_slot(redis_db, caller.tenant_id, 1, now=time.time()) is not None
    status, payload, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 429
    assert_error(payload, "rate_limit_error", "RateLimitExceeded")
    assert float(headers["Retry-After"]) > 0
    assert labels_used(redis_db, caller, "sandbox") == 0


async def test_full_render_queue_is_503_agent_overloaded(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    api = await start_api(max_queue_depth=2)
    caller = make_caller()
    for n in range(3):  # nobody consumes these; the limit is per tenant group
        render_jobs.enqueue(redis_db, render_jobs.RenderJob(
            tenant=caller.tenant_id, content_hash=f"{n:064x}", object_key=f"x/{n}.png",
            zpl="^XA^XZ"))
    status, payload, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 503
    assert_error(payload, "api_error", "AgentOverloaded")
    assert float(headers["Retry-After"]) > 0
    assert labels_used(redis_db, caller) == 0


async def test_render_timeout_is_504_retriable_and_the_unit_stays_with_the_job(
    start_api: StartApi, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    """The job is still queued: its unit is settled by the worker that stores it
    or refuses it, never by the request that stopped waiting (test_billing)."""
    api = await start_api(render_timeout_s=0.3)  # and no worker running
    caller = make_caller()
    status, payload, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL})
    assert status == 504
    assert_error(payload, "api_error", "RenderTimeout")
    assert "Retry-After" in headers
    assert labels_used(redis_db, caller) == 1
    assert render_jobs.backlog(redis_db) == 1


# --- idempotency -------------------------------------------------------------------

async def test_idempotent_replay_returns_original_response(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    key = {"Idempotency-Key": "order-1"}
    status, first, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL}, headers=key)
    assert status == 200 and "Idempotency-Replay" not in headers
    # Same JSON value, different spacing and key order: the same body.
    raw = json.dumps({"zpl": SIMPLE_ZPL}, indent=2).encode()
    status, again, headers = await post_label(api, caller, None, raw=raw, headers=key)
    assert status == 200
    assert headers["Idempotency-Replay"] == "true"
    assert again == first  # the original response, cached: false included
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller) == 1


async def test_idempotency_key_with_different_body_is_409(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    key = {"Idempotency-Key": "order-2"}
    await post_label(api, caller, {"zpl": SIMPLE_ZPL}, headers=key)
    status, payload, _ = await post_label(api, caller, {"zpl": SIMPLE_ZPL, "threshold": True},
                                          headers=key)
    assert status == 409
    assert_error(payload, "invalid_request_error", "IdempotencyKeyConflict", "Idempotency-Key")


async def test_idempotency_keys_are_per_tenant(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    key = {"Idempotency-Key": "shared-name"}
    await post_label(api, make_caller(), {"zpl": SIMPLE_ZPL}, headers=key)
    status, _, headers = await post_label(api, make_caller(), {"zpl": "^XA^XZ"}, headers=key)
    assert status == 200 and "Idempotency-Replay" not in headers


async def test_validation_errors_are_replayed_too(
    api: Api, make_caller: Callable[..., Caller],
) -> None:
    caller = make_caller()
    key = {"Idempotency-Key": "bad-1"}
    status, first, _ = await post_label(api, caller, {"zpl": ""}, headers=key)
    status2, again, headers = await post_label(api, caller, {"zpl": ""}, headers=key)
    assert status == status2 == 422
    assert again == first and headers["Idempotency-Replay"] == "true"


async def test_concurrent_idempotent_requests_render_once(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    key = {"Idempotency-Key": "burst"}
    answers = await asyncio.gather(*(
        post_label(api, caller, {"zpl": SIMPLE_ZPL}, headers=key) for _ in range(4)))
    assert [status for status, _, _ in answers] == [200] * 4
    assert len({json.dumps(payload) for _, payload, _ in answers}) == 1
    assert all(payload["cached"] is False for _, payload, _ in answers)
    replays = [h.get("Idempotency-Replay") for _, _, h in answers]
    assert replays.count("true") == 3
    assert len(render_worker.rendered) == 1
    assert labels_used(redis_db, caller) == 1


async def test_idempotency_is_checked_before_the_rate_limiter(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller("sandbox")  # 10 requests per minute
    key = {"Idempotency-Key": "before-rate"}
    assert (await post_label(api, caller, {"zpl": SIMPLE_ZPL}, headers=key))[0] == 200
    for _ in range(9):
        await post_label(api, caller, None, raw=b"{")
    assert (await post_label(api, caller, None, raw=b"{"))[0] == 429
    status, _, headers = await post_label(api, caller, {"zpl": SIMPLE_ZPL}, headers=key)
    assert status == 200 and headers["Idempotency-Replay"] == "true"
