"""The probes workers and the operator serve on LABELRENDER_HEALTH_PORT: real
HTTP on localhost, a real Redis, and a real render consumer whose loop the
liveness probe watches."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from labelrender.store.objects import FilesystemStore
from labelrender.store.settings import Settings
from labelrender.worker.consumer import Consumer
from labelrender.worker.health import (
    CHECK_TIMEOUT_S,
    Probes,
    ProbeThread,
    loop_turns,
    redis_answers,
)
from labelrender.worker.render import JobHandler
from labelrender.worker.run import NOT_READING, start_probes
from labelrender.worker.sandbox import Sandbox
from tests.fixtures.tiers import free_port, get
from tests.worker.conftest import SIGNER


def probe(port: int, path: str) -> tuple[int, Any]:
    status, body = get(f"http://127.0.0.1:{port}{path}")
    return status, json.loads(body)


@pytest.fixture
def serve() -> Iterator[Any]:
    """``serve(probes)``: the probes on a free port; returns the port."""
    running: list[ProbeThread] = []

    def start(probes: Probes) -> int:
        port = free_port()
        running.append(ProbeThread(probes, "127.0.0.1", port))
        running[-1].start()
        return port

    yield start
    for thread in running:
        thread.stop()


@pytest.fixture
def silent_redis() -> Iterator[redis.Redis]:
    """A client of a server that takes connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    client = redis.Redis(port=listener.getsockname()[1], socket_timeout=30)
    yield client
    client.close()
    listener.close()


def closed_port_redis() -> redis.Redis:
    """Nothing listens: refused at once (no retries, so the refusal is the answer)."""
    return redis.Redis(port=free_port(), socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))


@pytest.mark.parametrize(("client", "status", "problem"), [
    ("live", 200, None),
    ("refused", 503, "Redis does not answer: "),
    ("silent", 503, f"Redis: no answer within {CHECK_TIMEOUT_S:.0f} s"),
])
def test_ready_while_redis_answers(serve: Any, redis_db: redis.Redis, request: Any,
                                   client: str, status: int, problem: str | None) -> None:
    r = {"live": lambda: redis_db, "refused": closed_port_redis,
         "silent": lambda: request.getfixturevalue("silent_redis")}[client]()
    port = serve(Probes(ready=[redis_answers(r)]))
    started = time.monotonic()
    answer_status, body = probe(port, "/readyz")
    assert time.monotonic() - started < CHECK_TIMEOUT_S + 2  # a silent Redis hangs no probe
    assert answer_status == status
    if problem is None:
        assert body == {"status": "ready"}
    else:
        assert body["status"] == "unavailable"
        assert [p for p in body["problems"] if p.startswith(problem)], body
    assert probe(port, "/healthz") == (200, {"status": "ok"})  # alive all the same


def test_alive_while_the_consumer_loop_goes_round(
        serve: Any, redis_db: redis.Redis, engine_sandbox: Sandbox, tmp_path: Path) -> None:
    handler = JobHandler(redis_db, FilesystemStore(tmp_path, SIGNER), engine_sandbox)
    consumer = Consumer(redis_db, handler, name="probed", read_ahead=0, claim_idle_ms=60_000,
                        claim_interval_s=5, block_ms=50)
    port = serve(Probes(live=[loop_turns(consumer.last_turn, 1.0, "the render consumer")]))
    thread = threading.Thread(target=consumer.run, daemon=True)
    thread.start()
    try:
        time.sleep(1.5)  # longer than the limit: only a loop going round stays alive
        assert probe(port, "/healthz") == (200, {"status": "ok"})
    finally:
        consumer.stop()
        thread.join(10)
    time.sleep(1.5)  # the loop has stopped going round
    status, body = probe(port, "/healthz")
    assert status == 503 and body["status"] == "unhealthy"
    assert body["problems"][0].startswith("the render consumer has not gone round for")


def test_a_worker_serves_its_probes_on_the_health_port(
        redis_db: redis.Redis, engine_sandbox: Sandbox, tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(data_dir=tmp_path, health_port=port)
    handler = JobHandler(redis_db, FilesystemStore(tmp_path, SIGNER), engine_sandbox)
    consumer = Consumer(redis_db, handler, name="probed", read_ahead=0, claim_idle_ms=60_000,
                        claim_interval_s=5, block_ms=50)
    probes = start_probes(settings, redis_db, consumer)
    assert probes is not None
    thread = threading.Thread(target=consumer.run, daemon=True)
    try:
        assert probe(port, "/healthz") == (200, {"status": "ok"})
        # Not ready until it reads the stream: then it can take a job.
        assert probe(port, "/readyz") == (503, {"status": "unavailable",
                                                "problems": [NOT_READING]})
        thread.start()
        assert consumer.reading.wait(30)
        assert probe(port, "/readyz") == (200, {"status": "ready"})
        # A second worker on the same port logs it and goes on without probes.
        assert start_probes(settings, redis_db, consumer) is None
    finally:
        consumer.stop()
        thread.join(30)
        probes.stop()
