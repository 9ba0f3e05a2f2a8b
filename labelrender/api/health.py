"""GET /healthz (the process answers), /readyz (the stores work and, where the
configuration asks, enough render workers can take a job), /metrics."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time

import redis
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from redis.exceptions import RedisClusterException

from labelrender.api import errors
from labelrender.api.context import (
    PUBLIC,
    STATE,
    AppState,
    app_state,
    request_id_of,
    route_policy,
)
from labelrender.api.labels import warm_request_path
from labelrender.api.metrics import Metrics
from labelrender.api.middleware import cause_chain
from labelrender.store import events, jobs, streams, synthesis_jobs, worker_presence
from labelrender.store.deliveries import dead_letter_count
from labelrender.store.readiness import probe_objects, probe_redis, probe_redis_async

log = logging.getLogger("labelrender.api")


@route_policy(PUBLIC)
async def healthz(request: web.Request) -> web.StreamResponse:
    return web.json_response({"status": "ok"})


@route_policy(PUBLIC)
async def readyz(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    checks = await dependency_checks(state)
    failed = {name: cause for name, cause in checks.items() if cause is not None}
    body: dict[str, str] = {name: "ok" if cause is None else "unreachable"
                            for name, cause in checks.items()}
    if failed:
        log.warning("readyz 503 (request %s): %s", request_id_of(request),
                    "; ".join(f"{name}: {cause}" for name, cause in failed.items()))
        return web.json_response({"status": "unavailable", **body}, status=503)
    if state.config.ready_min_workers and not await _enough_workers(state):
        return web.json_response({"status": "unavailable", **body, "workers": "starting"},
                                 status=503)
    return web.json_response({"status": "ok", **body})


async def dependency_checks(state: AppState) -> dict[str, str | None]:
    """Each dependency and why it does not work (None: it works). Redis takes a
    write and reads it back; the object store answers a lookup, unless its
    circuit is open (``api.bulkhead``), which already says it does not."""
    checks: dict[str, str | None] = {"redis": None, "objects": None}
    try:
        token = await state.call(probe_redis, state.redis, _WRITER)
        await state.call_async(probe_redis_async(state.aredis, token=token, writer=_WRITER))
    except errors.ServiceUnavailable as exc:
        checks["redis"] = cause_chain(exc) or exc.message
    try:
        await state.call_objects(probe_objects, state.objects)
    except errors.ServiceUnavailable as exc:
        checks["objects"] = cause_chain(exc) or exc.message
    return checks


_WRITER = f"{socket.gethostname()}:{os.getpid()}"


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
    try:
        await state.call(read_fleet_figures, state.redis, state.metrics)
    except errors.ServiceUnavailable:
        state.metrics.redis_up.set(0)
    else:
        state.metrics.redis_up.set(1)
    body = generate_latest(shared_registry(state.config.metrics_dir) or state.metrics.registry)
    response = web.Response(body=body)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return response


def shared_registry(metrics_dir: str | None) -> CollectorRegistry | None:
    """The figures of every API process sharing ``metrics_dir``, added up (the
    fleet gauges: the one set last by a live process)."""
    if metrics_dir is None:
        return None
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=metrics_dir)  # type: ignore[no-untyped-call]
    return registry


WARM_UP_KEY = "svc_live_" + "0" * 64  # the right shape, never issued: no tenant has it


async def warm_up(app: web.Application) -> None:
    """At start, the first request's one-time costs: a connection in each Redis
    pool, a thread of the store executor, the render path's and the authorization
    scripts loaded. The
    first render after ready is then as fast as the rest. Redis may be down at
    start: /readyz says so, and nothing here is needed to serve."""
    state = app_state_of(app)
    with contextlib.suppress(errors.ServiceUnavailable, redis.RedisError, RedisClusterException,
                             OSError):
        await state.call(worker_presence.preload_render_scripts, state.redis)
        await state.aredis.ping()
        await state.authorizer.authorize(WARM_UP_KEY, now=state.now(), cost=0)
    await state.parse(warm_request_path)  # on a parse thread: it starts that thread too


def read_fleet_figures(r: redis.Redis, metrics: Metrics) -> None:
    """The gauges every API replica reads alike from Redis, at scrape time."""
    metrics.queue_depth.set(jobs.backlog(r))
    metrics.queue_lag.set(jobs.lag(r))
    metrics.queue_pending.set(jobs.in_progress(r))
    metrics.synthesis_lag.set(streams.lag(r, synthesis_jobs.QUEUE))
    metrics.event_lag.set(streams.lag(r, events.QUEUE))
    metrics.dead_letters.set(dead_letter_count(r))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
