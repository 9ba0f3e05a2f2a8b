"""``labelrender api``: the HTTP tier alone, against ``REDIS_URL`` and ``S3_*``."""

from __future__ import annotations

import argparse
import errno
import socket
from collections.abc import Callable
from functools import partial
from typing import Any

import redis

from labelrender.cli.common import (
    PortUnavailable,
    TierUnavailable,
    run_service,
    shared_redis_settings,
)
from labelrender.store.objects import ObjectStore
from labelrender.store.settings import Settings, build_object_store, connect_redis

AppFactory = Callable[[Settings, redis.Redis, ObjectStore], Any]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "api", help="run the API tier only (against REDIS_URL, S3_*)",
        description="Run the HTTP API alone, against the shared Redis (REDIS_URL) and "
                    "object storage (S3_BUCKET and S3_*; unset: files in "
                    "LABELRENDER_DATA_DIR). Render workers run separately (labelrender "
                    "worker). Exit codes: 0 stopped, 2 invalid configuration, 3 Redis "
                    "unreachable or the port unavailable.")
    http_options(p)
    p.set_defaults(run=api_command)


def http_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=None, help="listen address (LABELRENDER_HOST)")
    p.add_argument("--port", type=int, default=None, help="listen port (LABELRENDER_PORT)")


def api_command(args: argparse.Namespace) -> int:
    def api() -> None:
        settings = shared_redis_settings("api", host=args.host, port=args.port)
        sock = listen(settings)
        factory = load_app_factory()
        run_api(settings, factory, connect_redis(settings), build_object_store(settings), sock)

    return run_service("api", api)


def listen(settings: Settings) -> socket.socket:
    """The API's socket, bound before anything else starts (``PortUnavailable``,
    one line, when another process has the port)."""
    from labelrender.api import server

    try:
        return server.listen(settings.host, settings.port, settings.http_listen_backlog)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortUnavailable(
                f"port {settings.port} on {settings.host} is already in use (another "
                "labelrender serve?); choose another with --port N or LABELRENDER_PORT=N"
            ) from exc
        raise PortUnavailable(f"cannot listen on {settings.host}:{settings.port}: "
                              f"{exc.strerror or exc}") from exc


def load_app_factory(metrics_dir: str | None = None) -> AppFactory:
    """A factory of the aiohttp app from our settings, over the API tier's
    ``create_app(ApiConfig, redis_client, object_store) -> web.Application``;
    ``metrics_dir``: ``ApiConfig.metrics_dir``."""
    try:
        from labelrender.api.app import create_app
        from labelrender.api.config import ApiConfig
        from labelrender.graphics import GraphicLimits
    except ImportError as exc:
        raise TierUnavailable(
            f"the API tier is not available (labelrender.api.app.create_app): {exc}") from exc

    def factory(settings: Settings, r: redis.Redis, object_store: ObjectStore) -> Any:
        config = ApiConfig(
            public_base_url=settings.public_base_url,
            render_timeout_s=settings.render_timeout_s,
            max_queue_depth=settings.max_queue_depth,
            url_window_s=settings.signed_url_window_s,
            webhook_allow_networks=settings.webhook_networks(),
            synthesis_engine=settings.synthesis_engine,
            body_timeout_s=settings.http_body_timeout_s,
            idle_timeout_s=settings.http_idle_timeout_s,
            listen_backlog=settings.http_listen_backlog,
            redis_max_connections=settings.redis_max_connections,
            redis_pool_timeout_s=settings.redis_pool_timeout_s,
            objects_circuit_failures=settings.objects_circuit_failures,
            objects_circuit_open_s=settings.objects_circuit_open_s,
            engine_processes=settings.api_engine_processes,
            engine_queue=settings.api_engine_queue,
            render_deadline_s=settings.render_deadline_s,
            render_memory_mb=settings.render_memory_mb,
            metrics_dir=metrics_dir,
            batch_in_flight=settings.batch_in_flight,
            batch_lease_s=settings.batch_lease_s,
            batch_poll_s=settings.batch_poll_s,
            graphic_limits=GraphicLimits(
                max_pixels=settings.graphic_max_pixels,
                max_decoded_bytes=settings.graphic_max_decoded_mb * 1024 * 1024,
                max_pdf_pages=settings.graphic_max_pdf_pages),
            ready_min_workers=settings.ready_min_workers,
        )
        return create_app(config, r, object_store)

    return factory


def run_api(settings: Settings, factory: AppFactory, r: redis.Redis,
            object_store: ObjectStore, sock: socket.socket | None = None,
            ready: Callable[[], None] | None = None) -> None:
    """Serve the API until SIGINT or SIGTERM (``api.server``: our timeouts,
    backlog and error envelope around aiohttp's server), on ``sock`` (from
    ``listen``) if given. Once it serves, ``ready()``; by default the
    "listening" line is printed (``announce_api``)."""
    from labelrender.api import server

    app = factory(settings, r, object_store)
    server.run(app, settings.host, settings.port, sock=sock,
               ready=ready or partial(announce_api, settings))


def announce_api(settings: Settings) -> None:
    """The line saying the API serves, and where."""
    site = settings.public_base_url.rstrip("/").removesuffix("/v1")
    print(f"API at {settings.public_base_url} (listening on {settings.host}:"
          f"{settings.port})", flush=True)
    print(f"Studio at {site}/studio; API reference at {site}/docs", flush=True)
