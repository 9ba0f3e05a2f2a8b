"""GET /healthz, /readyz and /metrics: no key needed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from labelrender.store import connect, shutdown_server
from labelrender.store import jobs as render_jobs
from labelrender.store.objects import FilesystemStore, S3Store
from labelrender.worker.sandbox import Sandbox
from tests.api.conftest import (
    SIMPLE_ZPL,
    Api,
    Caller,
    RenderConsumer,
    StartApi,
    start_worker,
)
from tests.fixtures.s3 import make_s3_client


async def test_healthz_and_readyz(api: Api) -> None:
    for path in ("/healthz", "/readyz"):
        async with api.session.get(api.url(path)) as resp:
            assert resp.status == 200
            assert (await resp.json())["status"] == "ok"


async def test_readyz_is_503_without_redis(start_api: StartApi) -> None:
    unreachable = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    api = await start_api(redis_client=unreachable)
    async with api.session.get(api.url("/readyz")) as resp:
        assert resp.status == 503
        assert (await resp.json())["status"] == "unavailable"
    async with api.session.get(api.url("/healthz")) as resp:
        assert resp.status == 200
    async with api.session.get(api.url("/metrics")) as resp:
        assert resp.status == 200
        assert "labelrender_redis_up 0.0" in (await resp.text()).splitlines()


async def test_metrics_say_redis_answers(api: Api) -> None:
    async with api.session.get(api.url("/metrics")) as resp:
        assert "labelrender_redis_up 1.0" in (await resp.text()).splitlines()


async def readiness(api: Api) -> tuple[int, dict[str, str]]:
    async with api.session.get(api.url("/readyz")) as resp:
        return resp.status, await resp.json()


async def test_under_serve_readyz_waits_for_a_worker_that_can_take_a_job(
        start_api: StartApi, redis_db: redis.Redis, object_store: FilesystemStore,
        engine_sandbox: Sandbox) -> None:
    """``serve`` asks for it (ready_min_workers): ready only while its render
    workers read the stream, so the first render after ready finds one."""
    api = await start_api(ready_min_workers=1)
    assert await readiness(api) == (503, {"status": "unavailable", "redis": "ok", "objects": "ok",
                                          "workers": "starting"})
    worker = start_worker(redis_db, object_store, engine_sandbox)
    try:
        worker.consumer.reading.wait(30)
        assert await readiness(api) == (200, {"status": "ok", "redis": "ok", "objects": "ok"})
    finally:
        worker.stop()
    assert (await readiness(api))[0] == 503  # a stopped worker withdraws at once


async def test_a_separate_api_tier_is_ready_without_workers(api: Api) -> None:
    """``labelrender api`` alone: a worker restart must not empty the Service."""
    assert await readiness(api) == (200, {"status": "ok", "redis": "ok", "objects": "ok"})


async def test_redis_outage_is_503_envelope(start_api: StartApi) -> None:
    unreachable = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    api = await start_api(redis_client=unreachable)
    headers = {"Authorization": "Bearer svc_live_" + "a" * 64, "Content-Type": "application/json"}
    async with api.session.post(api.url("/v1/labels"), data=b"{}", headers=headers) as resp:
        payload = await resp.json()
        assert resp.status == 503
        assert "Retry-After" in resp.headers
    assert payload["error"]["type"] == "api_error"
    assert "Connection" not in payload["error"]["message"]  # no internals


async def test_metrics(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    for _ in range(2):
        async with api.session.post(api.url("/v1/labels"), json={"zpl": SIMPLE_ZPL},
                                    headers=caller.headers) as resp:
            assert resp.status == 200
    async with api.session.get(api.url("/v1/whoami")) as resp:
        assert resp.status == 401
    render_worker.stop()
    render_jobs.enqueue(redis_db, render_jobs.RenderJob(
        tenant="tnt_x", content_hash="0" * 64, object_key="x/0.png", zpl="^XA^XZ"))
    async with api.session.get(api.url("/metrics")) as resp:
        assert resp.status == 200
        assert resp.content_type == "text/plain"
        text = await resp.text()
    assert ('labelrender_http_requests_total{method="POST",route="/v1/labels",status="200"} 2.0'
            in text)
    assert 'route="/v1/whoami",status="401"' in text
    assert "labelrender_http_request_duration_seconds_bucket" in text
    assert 'labelrender_renders_total{outcome="rendered"} 1.0' in text
    assert "labelrender_render_cache_hits_total 1.0" in text
    assert "labelrender_render_queue_depth" in text


async def test_readyz_is_503_when_redis_answers_ping_but_refuses_writes(
        start_api: StartApi, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A PING is not proof: a Redis out of memory answers it and refuses every write.
    The 503 is logged with its cause and the request id."""
    full = connect(data_dir=tmp_path / "full-redis")
    try:
        api = await start_api(redis_client=full)
        async with api.session.get(api.url("/readyz")) as resp:
            assert (resp.status, (await resp.json())["redis"]) == (200, "ok")
        full.config_set("maxmemory", 1)
        assert full.ping()
        with caplog.at_level(logging.WARNING, logger="labelrender.api"):
            async with api.session.get(api.url("/readyz"),
                                       headers={"X-Request-Id": "probe-1"}) as resp:
                answer = await resp.json()
                assert resp.status == 503
        assert answer == {"status": "unavailable", "redis": "unreachable", "objects": "ok"}
        [logged] = [r.getMessage() for r in caplog.records if "probe-1" in r.getMessage()]
        assert "OOM" in logged or "maxmemory" in logged
    finally:
        shutdown_server(full, save=False)


async def test_readyz_is_503_when_the_object_store_fails(start_api: StartApi) -> None:
    """An S3 endpoint nothing listens on: the lookup fails, Redis still works."""
    broken = S3Store("bucket", make_s3_client("http://127.0.0.1:9", max_attempts=1))
    api = await start_api(objects=broken)
    async with api.session.get(api.url("/readyz")) as resp:
        assert resp.status == 503
        assert (await resp.json())["objects"] == "unreachable"


async def test_every_answer_says_nosniff(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller = make_caller()
    for method, path, headers in (("GET", "/healthz", {}), ("GET", "/v1/openapi.json", {}),
                                  ("GET", "/docs", {}), ("GET", "/v1/keys", caller.headers),
                                  ("GET", "/v1/keys", {}), ("GET", "/v1/nowhere", {}),
                                  ("GET", "/v1/files/x.png?exp=1&sig=x", {})):
        async with api.session.request(method, api.url(path), headers=headers) as resp:
            assert resp.headers.get("X-Content-Type-Options") == "nosniff", (path, resp.status)


async def test_the_root_points_to_the_studio_and_the_docs(api: Api) -> None:
    async with api.session.get(api.url("/")) as resp:
        assert resp.status == 200
        links = await resp.json()
    assert (links["studio"], links["docs"]) == ("/studio", "/docs")
    html = {"Accept": "text/html,application/xhtml+xml"}
    async with api.session.get(api.url("/"), headers=html, allow_redirects=False) as resp:
        assert (resp.status, resp.headers["Location"]) == (302, "/studio")
