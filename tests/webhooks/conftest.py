"""Webhook test harness: the real API, a real HTTPS receiver with a test CA,
dispatchers on threads (or in a process, to kill), and a DNS table we control.

Dispatchers run with a short backoff (50 ms), timeout and lease, so retries,
dead letters and crash recovery take seconds.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import redis
import trustme

from labelrender.store import events
from labelrender.store.events import LabelRendered
from labelrender.store.objects import FilesystemStore, ObjectStore
from labelrender.store.webhook_targets import TargetPolicy
from labelrender.worker.dispatcher import DispatcherConfig, WebhookDispatcher
from labelrender.zpl import RenderOptions, render
from tests.api.conftest import (  # noqa: F401 (API fixtures)
    Api,
    Caller,
    make_caller,
    object_store,
    render_worker,
    start_api,
)
from tests.fixtures.receiver import Receiver, write_ca
from tests.fixtures.s3 import moto_endpoint, s3_bucket, s3_client  # noqa: F401 (S3 fixtures)

LOCAL = ("127.0.0.0/8", "::1/128")
PUBLIC_ADDRESS = "93.184.216.34"


class DnsTable:
    """A resolver whose answers the test sets (and changes: rebinding)."""

    def __init__(self) -> None:
        self.answers: dict[str, list[str]] = {"receiver.test": ["127.0.0.1"]}

    def __call__(self, host: str, port: int) -> list[str]:
        try:
            return list(self.answers[host.lower().rstrip(".")])
        except KeyError:
            raise OSError(f"no DNS answer for {host}") from None


@pytest.fixture
def dns() -> DnsTable:
    return DnsTable()


@pytest.fixture(scope="session")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="session")
def ca_file(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_ca(ca, tmp_path_factory.mktemp("ca"))


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[Receiver]:
    running = Receiver(ca).start()
    yield running
    running.close()


@pytest.fixture
async def hooks_api(start_api: Any, dns: DnsTable) -> Api:  # noqa: F811
    """The API with the local networks allowed and our DNS table."""
    api: Api = await start_api(webhook_allow_networks=LOCAL, webhook_resolver=dns)
    return api


def dispatcher_config(base_url: str, ca_file: Path, dns: DnsTable, **overrides: Any
                      ) -> DispatcherConfig:
    config = DispatcherConfig(
        public_base_url=base_url, timeout_s=1.0, backoff_s=(0.05,) * 5, jitter=0.2,
        lease_s=2.0, poll_s=0.02, claim_idle_ms=300,
        policy=TargetPolicy.from_text(LOCAL), resolver=dns, ca_file=ca_file,
        rng=random.Random(1))
    return replace(config, **overrides)


@dataclass
class Running:
    dispatcher: WebhookDispatcher
    stop: threading.Event
    thread: threading.Thread

    def halt(self) -> None:
        self.stop.set()
        self.thread.join(10)


StartDispatcher = Callable[..., Running]


@pytest.fixture
def start_dispatcher(redis_db: redis.Redis, object_store: FilesystemStore,  # noqa: F811
                     ca_file: Path, dns: DnsTable) -> Iterator[StartDispatcher]:
    """``start_dispatcher(base_url, timeout_s=...)``: a dispatcher on a thread."""
    running: list[Running] = []

    def start(base_url: str = "http://127.0.0.1:9/v1", objects: ObjectStore | None = None,
              **overrides: Any) -> Running:
        config = dispatcher_config(base_url, ca_file, dns, **overrides)
        dispatcher = WebhookDispatcher(redis_db, objects or object_store, config,
                                       consumer=f"test-{len(running)}")
        stop = threading.Event()
        thread = threading.Thread(target=dispatcher.run, args=(stop,), daemon=True)
        thread.start()
        running.append(Running(dispatcher, stop, thread))
        return running[-1]

    yield start
    for one in running:
        one.halt()


def store_label(store: ObjectStore, tenant_id: str, text: str) -> tuple[str, str]:
    """Render and store a real PNG; its content hash and object key."""
    import hashlib

    png = render(f"^XA^FO20,20^A0N,30,30^FD{text}^FS^XZ", RenderOptions(dpi=203)).png
    content_hash = hashlib.sha256(png).hexdigest()
    key = f"tenants/{tenant_id}/labels/{content_hash}.png"
    store.put(key, png, "image/png")
    return content_hash, key


def publish_render(r: redis.Redis, store: ObjectStore, tenant_id: str,
                   text: str = "Order 1", **fields: Any) -> LabelRendered:
    """What a template render does for webhooks: store the label, add the event."""
    content_hash, key = store_label(store, tenant_id, text)
    event = LabelRendered(
        event_id=events.new_event_id(time.time()), tenant_id=tenant_id,
        content_hash=content_hash, object_key=key,
        template_id=fields.pop("template_id", "tpl_box"),
        template_version=fields.pop("template_version", 3),
        external_ref=fields.pop("external_ref", f"ref-{text}"),
        cached=fields.pop("cached", False), created_at=time.time(), **fields)
    events.publish(r, event)
    return event


async def subscribe(api: Api, caller: Caller, receiver: Receiver, webhook_id: str,
                    path: str, host: str = "receiver.test") -> dict[str, Any]:
    """Create a subscription to ``receiver`` and teach the receiver its secret."""
    async with api.session.post(api.url(f"/v1/webhooks/{webhook_id}"), headers=caller.headers,
                                json={"url": receiver.url(path, host)}) as response:
        body: dict[str, Any] = await response.json()
        assert response.status == 201, body
    receiver.secrets[path] = body["signing_secret"]
    return body


async def until(predicate: Callable[[], bool], timeout_s: float = 20.0) -> None:
    """Wait (without blocking the API's loop) until ``predicate()`` holds."""
    import asyncio

    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)


async def get_json(api: Api, caller: Caller, path: str) -> tuple[int, Any]:
    async with api.session.get(api.url(path), headers=caller.headers) as response:
        return response.status, await response.json()
