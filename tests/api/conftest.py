"""API test harness: the real app on a localhost port, real Redis, a filesystem
object store in tmp_path, and the real render worker on a thread.

The worker is ``labelrender.worker``'s own ``Consumer`` and ``JobHandler`` on
the session's engine processes (``tests.fixtures.sandbox``), so API tests go
through the real limits, fair share and billing settlement. The app's engine
calls (synthesis, template checks) use the same processes.
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
from labelrender.store import create_key, create_tenant
from labelrender.store.jobs import RenderJob
from labelrender.store.objects import FilesystemStore, ObjectStore
from labelrender.store.signing import UrlSigner
from labelrender.worker import Consumer, JobHandler, Sandbox

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
    redis_db: redis.Redis, object_store: FilesystemStore, engine_sandbox: Sandbox,
) -> AsyncIterator[StartApi]:
    """Start the app on 127.0.0.1: ``await start_api(render_timeout_s=1)``; config
    overrides as keywords, ``redis_client`` to use another server and ``objects``
    another object store."""
    runners: list[web.AppRunner] = []
    session = aiohttp.ClientSession()

    async def start(redis_client: redis.Redis | None = None,
                    objects: ObjectStore | None = None, **overrides: Any) -> Api:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = replace(ApiConfig(public_base_url=base + "/v1", render_timeout_s=10,
                                   engine_sandbox=engine_sandbox), **overrides)
        app = create_app(config, redis_client or redis_db, objects or object_store)
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
    """The real worker on a thread; ``rendered`` lists the content hashes the
    engine rendered, so tests can tell a render from a cache hit."""

    consumer: Consumer
    thread: threading.Thread
    rendered: list[str] = field(default_factory=list)

    def stop(self) -> None:
        """Stop reading (what it holds is finished first) and wait for it."""
        self.consumer.stop()
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


def start_worker(r: redis.Redis, store: FilesystemStore, sandbox: Sandbox,
                 **options: Any) -> RenderConsumer:
    """A ``Consumer`` and ``JobHandler`` as ``labelrender worker`` builds them;
    ``options`` override the consumer's settings."""
    rendered: list[str] = []

    def note(job: RenderJob) -> None:
        rendered.append(job.content_hash)

    handler = JobHandler(r, store, sandbox, on_rendered=note)
    settings: dict[str, Any] = {"name": "api-tests", "read_ahead": 4, "claim_idle_ms": 60_000,
                                "claim_interval_s": 5.0, "block_ms": 50, **options}
    consumer = Consumer(r, handler, **settings)
    thread = threading.Thread(target=consumer.run, daemon=True)
    thread.start()
    return RenderConsumer(consumer, thread, rendered)


@pytest.fixture
def render_worker(redis_db: redis.Redis, object_store: FilesystemStore,
                  engine_sandbox: Sandbox) -> Iterator[RenderConsumer]:
    worker = start_worker(redis_db, object_store, engine_sandbox)
    yield worker
    if worker.thread.is_alive():
        worker.stop()
