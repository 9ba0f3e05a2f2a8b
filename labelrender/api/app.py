"""The application factory."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import redis
from aiohttp import web

from labelrender.api import (
    account,
    files,
    from_data,
    health,
    keys,
    label_listing,
    labels,
    synthesis,
    templates,
    webhooks,
)
from labelrender.api.config import ApiConfig
from labelrender.api.context import STATE, AppState
from labelrender.api.metrics import new_metrics
from labelrender.api.middleware import authenticate_key, envelope, observe
from labelrender.store.access import Authorizer
from labelrender.store.objects import ObjectStore
from labelrender.store.redis_conn import async_twin, pooled_twin

# Bodies are read through api.body with their own limits (413 kinds); this
# framework cap only backs them up.
_FRAMEWORK_SLACK = 1024


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
    app[STATE] = AppState(config, sync_redis, object_store, executor, new_metrics(), aredis,
                          Authorizer(aredis))
    for module in (labels, keys, account, files, health, webhooks):
        module.add_routes(app)
    for module in (synthesis, templates, from_data, label_listing):
        module.add_routes(app)
    app.on_cleanup.append(_shutdown_executor)
    app.on_cleanup.append(_close_redis)
    return app


async def _close_redis(app: web.Application) -> None:
    # An embedded server stops at exit only when no other connection is left.
    state = app[STATE]
    await state.aredis.aclose()
    state.redis.connection_pool.disconnect()


async def _shutdown_executor(app: web.Application) -> None:
    # Threads blocked waiting for a reply finish on their own timeout.
    app[STATE].executor.shutdown(wait=False, cancel_futures=True)
