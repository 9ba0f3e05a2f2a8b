"""GET /healthz (the process answers), /readyz (Redis answers), /metrics."""

from __future__ import annotations

import contextlib

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from labelrender.api import errors
from labelrender.api.context import PUBLIC, app_state, route_policy
from labelrender.store.jobs import backlog


@route_policy(PUBLIC)
async def healthz(request: web.Request) -> web.StreamResponse:
    return web.json_response({"status": "ok"})


@route_policy(PUBLIC)
async def readyz(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    try:
        await state.call(state.redis.ping)
    except errors.ServiceUnavailable:
        return web.json_response({"status": "unavailable", "redis": "unreachable"}, status=503)
    return web.json_response({"status": "ok", "redis": "ok"})


@route_policy(PUBLIC)
async def metrics(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    # Without Redis the other figures are still worth scraping.
    with contextlib.suppress(errors.ServiceUnavailable):
        state.metrics.queue_depth.set(await state.call(backlog, state.redis))
    body = generate_latest(state.metrics.registry)
    response = web.Response(body=body)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return response


def add_routes(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
