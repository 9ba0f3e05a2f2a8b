"""GET /healthz, /readyz and /metrics: no key needed."""

from __future__ import annotations

from collections.abc import Callable

import redis

from labelrender.store import jobs as render_jobs
from labelrender.store.objects import FilesystemStore
from labelrender.worker.sandbox import Sandbox
from tests.api.conftest import (
    SIMPLE_ZPL,
    Api,
    Caller,
    RenderConsumer,
    StartApi,
    start_worker,
)


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


async def readiness(api: Api) -> tuple[int, dict[str, str]]:
    async with api.session.get(api.url("/readyz")) as resp:
        return resp.status, await resp.json()


async def test_under_serve_readyz_waits_for_a_worker_that_can_take_a_job(
        start_api: StartApi, redis_db: redis.Redis, object_store: FilesystemStore,
        engine_sandbox: Sandbox) -> None:
    """``serve`` asks for it (ready_min_workers): ready only while its render
    workers read the stream, so the first render after ready finds one."""
    api = await start_api(ready_min_workers=1)
    assert await readiness(api) == (503, {"status": "unavailable", "redis": "ok",
                                          "workers": "starting"})
    worker = start_worker(redis_db, object_store, engine_sandbox)
    try:
        worker.consumer.reading.wait(30)
        assert await readiness(api) == (200, {"status": "ok", "redis": "ok"})
    finally:
        worker.stop()
    assert (await readiness(api))[0] == 503  # a stopped worker withdraws at once


async def test_a_separate_api_tier_is_ready_without_workers(api: Api) -> None:
    """``labelrender api`` alone: a worker restart must not empty the Service."""
    assert await readiness(api) == (200, {"status": "ok", "redis": "ok"})


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


async def test_the_root_points_to_the_studio_and_the_docs(api: Api) -> None:
    async with api.session.get(api.url("/")) as resp:
        assert resp.status == 200
        links = await resp.json()
    assert (links["studio"], links["docs"]) == ("/studio", "/docs")
    html = {"Accept": "text/html,application/xhtml+xml"}
    async with api.session.get(api.url("/"), headers=html, allow_redirects=False) as resp:
        assert (resp.status, resp.headers["Location"]) == (302, "/studio")
