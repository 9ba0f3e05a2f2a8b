"""GET /healthz (the process answers), /readyz (Redis answers, and where the
configuration asks, a render worker can take a job), /metrics."""

from __future__ import annotations

import contextlib
import time

import redis
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from labelrender.api import errors
from labelrender.api.context import PUBLIC, AppState, app_state, route_policy
from labelrender.api.metrics import Metrics
from labelrender.store import jobs, worker_presence
from labelrender.store.deliveries import dead_letter_count


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
    if state.config.ready_needs_worker and not await _a_worker_is_ready(state):
        return web.json_response({"status": "unavailable", "redis": "ok", "workers": "none"},
                                 status=503)
    return web.json_response({"status": "ok", "redis": "ok"})


async def _a_worker_is_ready(state: AppState) -> bool:
    try:
        return await state.call(worker_presence.ready_count, state.redis, now=time.time()) > 0
    except errors.ServiceUnavailable:
        return False


@route_policy(PUBLIC)
async def metrics(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    # Without Redis the other figures are still worth scraping.
    with contextlib.suppress(errors.ServiceUnavailable):
        await state.call(read_fleet_figures, state.redis, state.metrics)
    body = generate_latest(state.metrics.registry)
    response = web.Response(body=body)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return response


def read_fleet_figures(r: redis.Redis, metrics: Metrics) -> None:
    """The gauges every API replica reads alike from Redis, at scrape time."""
    metrics.queue_depth.set(jobs.backlog(r))
    metrics.queue_lag.set(jobs.lag(r))
    metrics.dead_letters.set(dead_letter_count(r))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
