"""A worker's background services: one that dies is started again within
seconds, one that keeps dying does not spin, and stopping the worker stops
them all, even one waiting to be started again."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis

from labelrender.store import create_tenant, deliveries, events, socket_url
from labelrender.store.events import LabelRendered
from labelrender.store.objects import FilesystemStore
from labelrender.store.webhook_targets import TargetPolicy
from labelrender.store.webhooks import upsert_webhook
from labelrender.worker.dispatcher import DispatcherConfig, WebhookDispatcher
from labelrender.worker.services import ServiceThreads
from tests.worker.conftest import SIGNER

RESTART_WAIT_S = 15.0  # generous: the first restart comes after 1 s


@dataclass
class Flaky:
    """A service that fails its first ``failures`` runs, raising ``error`` (or,
    with None, returning at once), then runs until told to stop."""

    failures: int
    error: type[Exception] | None = RuntimeError
    name: str = "flaky"
    runs: int = 0
    running: threading.Event = field(default_factory=threading.Event)

    def run(self, stop: threading.Event) -> None:
        self.runs += 1
        if self.runs <= self.failures:
            if self.error is not None:
                raise self.error(f"run {self.runs} fails")
            return
        self.running.set()
        stop.wait()


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def service_threads_alive(name: str) -> bool:
    return any(t.name == f"service-{name}" and t.is_alive() for t in threading.enumerate())


@pytest.mark.parametrize(("failures", "error"), [
    (1, RuntimeError),  # raised out of run
    (2, redis.ConnectionError),  # twice: the second restart waits longer, still seconds
    (1, None),  # returned while the worker runs
])
def test_a_service_that_dies_is_started_again(
    failures: int, error: type[Exception] | None, caplog: pytest.LogCaptureFixture,
) -> None:
    service = Flaky(failures, error)
    threads = ServiceThreads([service])
    caplog.set_level(logging.INFO, logger="labelrender.worker.services")
    threads.start()
    try:
        assert service.running.wait(RESTART_WAIT_S), f"not running again: {caplog.text}"
        assert service.runs == failures + 1
        assert caplog.text.count("service flaky: starting it again") == failures
    finally:
        threads.stop()
    assert not service_threads_alive("flaky")


def test_stopping_the_worker_ends_a_service_waiting_to_restart() -> None:
    """A service that always fails waits longer each time (never spins) and
    stopping the worker does not wait for its next start."""
    service = Flaky(failures=1_000)
    threads = ServiceThreads([service])
    threads.start()
    wait_until(lambda: service.runs >= 2, RESTART_WAIT_S, "never restarted")
    time.sleep(2.5)  # the third run is due 2 s after the second
    assert service.runs <= 3  # 1 s, then 2 s between runs: no spinning
    threads.stop()
    assert not service_threads_alive("flaky")
    runs = service.runs
    time.sleep(1.5)
    assert service.runs == runs


def test_a_dispatcher_started_while_redis_is_down_delivers_once_it_is_back(
    redis_db: redis.Redis, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """The dispatcher meets Redis before its loop does (its consumer group),
    so Redis down at start used to end it for the worker's lifetime. Here its
    Redis is a socket path that appears only after the first run died."""
    url = socket_url(redis_db)
    if url is None:
        pytest.skip("needs the embedded server's unix socket")
    link = tmp_path / "redis.sock"
    client = redis.Redis(unix_socket_path=str(link), decode_responses=True)
    tenant = create_tenant(redis_db, "Hooks", "pro", now=time.time())
    upsert_webhook(redis_db, tenant.tenant_id, "wh-1", url="http://127.0.0.1:9/hook",
                   topics=["label.rendered"], now=time.time())
    config = DispatcherConfig(public_base_url="http://127.0.0.1:9/v1", timeout_s=1.0,
                              lease_s=5.0, poll_s=0.05,
                              policy=TargetPolicy.from_text(["127.0.0.0/8"]))
    dispatcher = WebhookDispatcher(client, FilesystemStore(tmp_path / "objects", SIGNER),
                                   config, consumer="test-webhooks")
    threads = ServiceThreads([dispatcher])
    caplog.set_level(logging.INFO, logger="labelrender.worker.services")
    threads.start()
    try:  # redis-py retries a connection for a few seconds before it gives up
        wait_until(lambda: any(r.exc_info for r in caplog.records), 30,
                   "the dispatcher did not fail without Redis")
        os.symlink(url.removeprefix("unix://").split("?")[0], link)
        events.publish(redis_db, LabelRendered(
            event_id=events.new_event_id(time.time()), tenant_id=tenant.tenant_id,
            content_hash="0" * 64, object_key=f"tenants/{tenant.tenant_id}/labels/x.png",
            template_id="tpl_box", template_version=1, external_ref=None, cached=False,
            created_at=time.time()))
        wait_until(lambda: bool(deliveries.list_attempts(redis_db, tenant.tenant_id, "wh-1")),
                   RESTART_WAIT_S + 5, "the dispatcher never tried the delivery")
    finally:
        threads.stop()
        client.close()
