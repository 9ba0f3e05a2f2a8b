"""API test harness: the real app on a localhost port, real Redis, a filesystem
object store in tmp_path, and a small render consumer thread.

The consumer is test-only: it drives the store's jobs API the way a render
worker does (read -> render -> put -> reply -> ack), so the API is exercised
end to end without depending on the worker package.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import redis
from aiohttp import web

from labelrender.api import ApiConfig, create_app
from labelrender.store import create_key, create_tenant, labels
from labelrender.store import jobs as render_jobs
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner
from labelrender.zpl import RenderOptions, ZplError, render

SIGNING_SECRET = b"api-tests-url-signing-secret-0123456789"
SIMPLE_ZPL = "^XA^PW400^LL200^FO20,20^A0N,40,40^FDHello^FS^XZ"


def slow_zpl(tag: str, fields: int = 12) -> str:
    """A big label that takes a while to render: about 40 ms a field on a laptop
    (12 fields ~0.5 s, 100 ~2.5 s). ``tag`` makes its content hash distinct."""
    lines = "".join(
        f"^FO20,{20 + (n % 24) * 100}^A0N,80,80^FD{tag} line {n}^FS"
        f"^FO900,{20 + (n % 24) * 100}^BQN,2,6^FDQA,{tag}{'x' * 200}{n}^FS"
        for n in range(fields))
    return f"^XA^PW1600^LL2400{lines}^XZ"


@dataclass(frozen=True)
class Caller:
    """A tenant and one of its keys, ready to send requests."""

    tenant_id: str
    secret: str
    key_prefix: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.secret}"}


@pytest.fixture
def make_caller(redis_db: redis.Redis) -> Callable[..., Caller]:
    def make(plan: str = "pro", **options: Any) -> Caller:
        tenant = create_tenant(redis_db, "Test Tenant", plan, now=time.time(), **options)
        created = create_key(redis_db, tenant.tenant_id, now=time.time(), label="first")
        return Caller(tenant.tenant_id, created.secret, created.key.key_prefix)

    return make


@pytest.fixture
def object_store(tmp_path: Path) -> FilesystemStore:
    return FilesystemStore(tmp_path / "objects", UrlSigner(SIGNING_SECRET))


@dataclass
class Api:
    """A running app: ``url("/v1/labels")`` and the shared client session."""

    base: str
    session: aiohttp.ClientSession
    config: ApiConfig

    def url(self, path: str) -> str:
        return self.base + path


StartApi = Callable[..., Awaitable[Api]]


@pytest.fixture
async def start_api(
    redis_db: redis.Redis, object_store: FilesystemStore
) -> AsyncIterator[StartApi]:
    """Start the app on 127.0.0.1: ``await start_api(render_timeout_s=1)``; config
    overrides as keywords, and ``redis_client`` to use another server."""
    runners: list[web.AppRunner] = []
    session = aiohttp.ClientSession()

    async def start(redis_client: redis.Redis | None = None, **overrides: Any) -> Api:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = replace(ApiConfig(public_base_url=base + "/v1", render_timeout_s=10),
                         **overrides)
        app = create_app(config, redis_client or redis_db, object_store)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        runners.append(runner)
        return Api(base, session, config)

    yield start
    await session.close()
    for runner in runners:
        await runner.cleanup()


@pytest.fixture
async def api(start_api: StartApi) -> Api:
    return await start_api()


@dataclass
class RenderConsumer:
    """Counts what it rendered, so tests can tell a render from a cache hit."""

    rendered: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)


def _consume(r: redis.Redis, store: FilesystemStore, consumer: RenderConsumer) -> None:
    render_jobs.ensure_group(r)
    while not consumer.stop.is_set():
        for entry_id, job in render_jobs.read(r, "api-tests", count=10, block_ms=50):
            reply = _render_job(r, store, job)
            consumer.rendered.append(job.content_hash)  # before the API can see the reply
            render_jobs.send_reply(r, job.job_id, reply)
            render_jobs.ack(r, entry_id)


def _render_job(r: redis.Redis, store: FilesystemStore, job: render_jobs.RenderJob
                ) -> render_jobs.RenderReply:
    options = RenderOptions(dpi=job.target_dpi, source_dpi=job.source_dpi,
                            width_dots=job.width_dots, height_dots=job.height_dots,
                            threshold=job.threshold, font_profile=job.font_profile)
    try:
        result = render(job.zpl, options)
    except ZplError as exc:
        return render_jobs.RenderReply(ok=False, error_kind="InvalidZpl", error_message=str(exc))
    store.put(job.object_key, result.png, "image/png")
    info = store.head(job.object_key)
    if info is not None:  # as the worker does: the retention sweeper's index
        labels.record_object(r, job.tenant, job.object_key, info.created_at,
                             [str(w) for w in result.warnings])
    return render_jobs.RenderReply(ok=True, size_bytes=len(result.png), width=result.width,
                                   height=result.height,
                                   warnings=[str(w) for w in result.warnings])


@pytest.fixture
def render_worker(redis_db: redis.Redis, object_store: FilesystemStore
                  ) -> Iterator[RenderConsumer]:
    consumer = RenderConsumer()
    render_jobs.ensure_group(redis_db)
    thread = threading.Thread(target=_consume, args=(redis_db, object_store, consumer),
                              daemon=True)
    thread.start()
    yield consumer
    consumer.stop.set()
    thread.join(timeout=5)
