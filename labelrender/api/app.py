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
from labelrender.store.redis_conn import async_twin

# Bodies are read through api.body with their own limits (413 kinds); this
# framework cap only backs them up.
_FRAMEWORK_SLACK = 1024


def create_app(
    config: ApiConfig, redis_client: redis.Redis, object_store: ObjectStore
) -> web.Application:
    """The API on ``redis_client`` (sync redis-py, ``decode_responses=True``)
    and ``object_store`` (a ``FilesystemStore``, whose URLs this app serves
    under ``/v1/files/``, or an ``S3Store``)."""
    app = web.Application(
        middlewares=[observe, envelope, authenticate_key],
        client_max_size=config.max_body_bytes + _FRAMEWORK_SLACK,
    )
    executor = ThreadPoolExecutor(config.executor_threads, thread_name_prefix="labelrender-api")
    aredis = async_twin(redis_client)
    app[STATE] = AppState(config, redis_client, object_store, executor, new_metrics(),
                          aredis, Authorizer(aredis))
    for module in (labels, keys, account, files, health, webhooks):
        module.add_routes(app)
    for module in (synthesis, templates, from_data, label_listing):
        module.add_routes(app)
    app.on_cleanup.append(_shutdown_executor)
    app.on_cleanup.append(_close_async_redis)
    return app


async def _close_async_redis(app: web.Application) -> None:
    await app[STATE].aredis.aclose()


async def _shutdown_executor(app: web.Application) -> None:
    # Threads blocked waiting for a reply finish on their own timeout.
    app[STATE].executor.shutdown(wait=False, cancel_futures=True)
