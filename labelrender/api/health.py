"""GET /healthz (the process answers), /readyz (Redis answers, and where the
configuration asks, enough render workers can take a job), /metrics."""

from __future__ import annotations

import contextlib
import time

import redis
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from labelrender.api import errors
from labelrender.api.context import PUBLIC, STATE, AppState, app_state, route_policy
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
    if state.config.ready_min_workers and not await _enough_workers(state):
        return web.json_response({"status": "unavailable", "redis": "ok", "workers": "starting"},
                                 status=503)
    return web.json_response({"status": "ok", "redis": "ok"})


def app_state_of(app: web.Application) -> AppState:
    return app[STATE]


async def _enough_workers(state: AppState) -> bool:
    try:
        ready = await state.call(worker_presence.ready_count, state.redis, now=time.time())
        return ready >= state.config.ready_min_workers
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


WARM_UP_KEY = "svc_live_" + "0" * 64  # the right shape, never issued: no tenant has it


async def warm_up(app: web.Application) -> None:
    """At start, the first request's one-time costs: a connection in each Redis
    pool, a thread of the store executor, the render path's and the authorization
    scripts loaded. The
    first render after ready is then as fast as the rest. Redis may be down at
    start: /readyz says so, and nothing here is needed to serve."""
    state = app_state_of(app)
    with contextlib.suppress(errors.ServiceUnavailable, redis.RedisError, OSError):
        await state.call(worker_presence.preload_render_scripts, state.redis)
        await state.aredis.ping()
        await state.authorizer.authorize(WARM_UP_KEY, now=state.now(), cost=0)


def read_fleet_figures(r: redis.Redis, metrics: Metrics) -> None:
    """The gauges every API replica reads alike from Redis, at scrape time."""
    metrics.queue_depth.set(jobs.backlog(r))
    metrics.queue_lag.set(jobs.lag(r))
    metrics.dead_letters.set(dead_letter_count(r))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
