"""The application factory."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import redis
from aiohttp import web

from labelrender.api import account, files, health, keys, labels
from labelrender.api.config import ApiConfig
from labelrender.api.context import STATE, AppState
from labelrender.api.metrics import new_metrics
from labelrender.api.middleware import authenticate_key, envelope, observe
from labelrender.store.objects import ObjectStore

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
    app[STATE] = AppState(config, redis_client, object_store, executor, new_metrics())
    for module in (labels, keys, account, files, health):
        module.add_routes(app)
    app.on_cleanup.append(_shutdown_executor)
    return app


async def _shutdown_executor(app: web.Application) -> None:
    # Threads blocked waiting for a reply finish on their own timeout.
    app[STATE].executor.shutdown(wait=False, cancel_futures=True)
