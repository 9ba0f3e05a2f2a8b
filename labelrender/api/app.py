"""The application factory."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import redis
from aiohttp import web

from labelrender.api import (
    account,
    batches,
    files,
    from_data,
    graphics,
    health,
    home,
    keys,
    label_listing,
    labelary,
    labels,
    openapi,
    studio,
    synthesis,
    templates,
    webhooks,
)
from labelrender.api.bulkhead import Circuit
from labelrender.api.config import ApiConfig
from labelrender.api.context import STATE, AppState, cancel_and_wait
from labelrender.api.metrics import new_metrics
from labelrender.api.middleware import authenticate_key, envelope, observe
from labelrender.store import deliveries, jobs, synthesis_jobs
from labelrender.store.access import Authorizer
from labelrender.store.objects import ObjectStore
from labelrender.store.redis_conn import REDIS_ERRORS, async_twin, close, pooled_twin

log = logging.getLogger("labelrender.api")

# Bodies are read through api.body with their own limits (413 kinds); this
# framework cap only backs them up.
_FRAMEWORK_SLACK = 1024
GROUPS_RETRY_S = 5.0  # Redis unreachable at start: try creating the groups again
PENDING_WAIT_S = 5.0  # at shutdown, for the store steps left after answers
_GROUPS_TASK = web.AppKey("labelrender_groups_task", asyncio.Task[None])


def create_app(
    config: ApiConfig, redis_client: redis.Redis, object_store: ObjectStore
) -> web.Application:
    """The API on ``redis_client`` (sync redis-py, ``decode_responses=True``)
    and ``object_store`` (a ``FilesystemStore``, whose URLs this app serves
    under ``/v1/files/``, or an ``S3Store``).

    The app talks to ``redis_client``'s server through two pools of its own,
    both blocking and sized by ``config``, so a burst of requests waits for a
    connection instead of failing. Serve it with ``api.server`` (timeouts,
    backlog, the envelope on aiohttp's own errors)."""
    app = web.Application(
        middlewares=[observe, envelope, authenticate_key],
        client_max_size=config.max_body_bytes + _FRAMEWORK_SLACK,
    )
    executor = ThreadPoolExecutor(config.executor_threads, thread_name_prefix="labelrender-api")
    size, wait = config.redis_max_connections, config.redis_pool_timeout_s
    aredis = async_twin(redis_client, max_connections=size, pool_timeout_s=wait)
    sync_redis = pooled_twin(redis_client, max_connections=size, pool_timeout_s=wait)
    app[STATE] = AppState(
        config, sync_redis, object_store, executor, new_metrics(), aredis, Authorizer(aredis),
        ThreadPoolExecutor(config.objects_threads, thread_name_prefix="labelrender-objects"),
        Circuit(config.objects_circuit_failures, config.objects_circuit_open_s),
        ThreadPoolExecutor(config.parse_threads, thread_name_prefix="labelrender-parse"))
    for module in (labels, keys, account, files, health, home, webhooks):
        module.add_routes(app)
    for module in (synthesis, templates, from_data, batches, label_listing, labelary, graphics,
                   studio):
        module.add_routes(app)
    openapi.add_routes(app)  # every route above must be in openapi.operations
    app.on_response_prepare.append(_no_sniffing)
    app.on_startup.append(_start_creating_groups)
    app.on_startup.append(health.warm_up)
    app.on_cleanup.append(_stop_creating_groups)
    app.on_cleanup.append(_finish_pending)
    app.on_cleanup.append(_shutdown_executor)
    app.on_cleanup.append(_close_redis)
    return app


def ensure_groups(r: redis.Redis) -> None:
    """The consumer groups of the render, synthesis and event streams (each
    created with its stream, reading from its start, if missing). Created by
    the API at start, so a worker autoscaler polling them (KEDA's
    ``redis-streams`` trigger fails on a missing group) finds them before any
    worker has ever run."""
    jobs.ensure_group(r)
    synthesis_jobs.ensure_group(r)
    deliveries.ensure_group(r)


async def _start_creating_groups(app: web.Application) -> None:
    """The groups before the first request is served; while Redis does not
    answer, the API starts anyway (its /readyz says so) and keeps trying."""
    state = app[STATE]
    if not await _try_creating_groups(state):
        app[_GROUPS_TASK] = asyncio.create_task(_retry_creating_groups(state))


async def _try_creating_groups(state: AppState) -> bool:
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(state.executor, ensure_groups, state.redis)
    except REDIS_ERRORS as exc:
        log.warning("could not create the stream consumer groups (retrying every %.0f s): "
                    "%s", GROUPS_RETRY_S, exc)
        return False
    return True


async def _retry_creating_groups(state: AppState) -> None:
    while True:
        await asyncio.sleep(GROUPS_RETRY_S)
        if await _try_creating_groups(state):
            log.info("stream consumer groups created")
            return


async def _stop_creating_groups(app: web.Application) -> None:
    await cancel_and_wait(app.get(_GROUPS_TASK))


async def _no_sniffing(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, files, errors and pages included, is taken as the type it
    declares: a browser never guesses HTML or script out of a label or JSON."""
    response.headers["X-Content-Type-Options"] = "nosniff"


async def _close_redis(app: web.Application) -> None:
    # An embedded server stops at exit only when no other connection is left.
    state = app[STATE]
    await state.aredis.aclose()
    close(state.redis)


async def _finish_pending(app: web.Application) -> None:
    """The store steps left to run after answers (``AppState.after_answer``)."""
    await app[STATE].finish_pending(PENDING_WAIT_S)


async def _shutdown_executor(app: web.Application) -> None:
    # Threads blocked waiting for a reply finish on their own timeout.
    state = app[STATE]
    for executor in (state.executor, state.objects_executor, state.parse_executor):
        executor.shutdown(wait=False, cancel_futures=True)
