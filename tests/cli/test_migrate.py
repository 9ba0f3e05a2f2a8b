"""`labelrender admin migrate` on a copy of the data directory the release
before tenant groups made (tests/data/release_data), checked through the
service: its keys authenticate, its templates render, its plan override and
usage hold, its undelivered event is delivered and its queued synthesis job
runs. And what the command refuses, in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
import trustme

from tests.fixtures.receiver import Receiver, write_ca
from tests.fixtures.redis_cluster import redis_cluster
from tests.fixtures.serve import serve_ready
from tests.fixtures.tiers import free_port

RELEASE_DATA = Path(__file__).resolve().parents[1] / "data" / "release_data"
MANIFEST = json.loads((RELEASE_DATA / "manifest.json").read_text())
ONE, TWO = MANIFEST["tenants"]["one"], MANIFEST["tenants"]["two"]


def command(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labelrender.cli", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def data_env(tmp_path: Path) -> dict[str, str]:
    """An operator's environment on a copy of the release's data directory."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    shutil.copyfile(RELEASE_DATA / "appendonly.aof", data_dir / "appendonly.aof")
    shutil.copytree(RELEASE_DATA / "objects", data_dir / "objects")  # template bodies
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
    env.update(LABELRENDER_DATA_DIR=str(data_dir), LABELRENDER_WORKERS="1",
               LABELRENDER_API_PROCESSES="1", LABELRENDER_RENDER_PROCESSES="2",
               LABELRENDER_WEBHOOK_ALLOW_NETWORKS="127.0.0.0/8")
    return env


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    running = Receiver(trustme.CA()).start()
    yield running
    running.close()


def call(base: str, method: str, path: str, secret: str,
         body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@pytest.fixture
def serve(data_env: dict[str, str], receiver: Receiver, tmp_path: Path) -> Iterator[str]:
    """``labelrender serve`` on the migrated copy."""
    migrated = command(data_env, "admin", "migrate")
    assert migrated.returncode == 0, migrated.stderr
    assert json.loads(migrated.stdout)["status"] == "migrated"
    with serving(data_env, receiver, tmp_path) as base:
        yield base


@contextmanager
def serving(env: dict[str, str], receiver: Receiver, tmp_path: Path) -> Iterator[str]:
    """``labelrender serve`` with ``env``, trusting the receiver's CA."""
    env = {**env, "LABELRENDER_WEBHOOK_CA_FILE": str(write_ca(receiver.ca, tmp_path))}
    with serve_ready(env, what="on the migrated data") as base:
        yield base


def answers_ping(port: int) -> bool:
    try:
        with redis.Redis(port=port) as client:
            return bool(client.ping())
    except redis.ConnectionError:
        return False


def wait_for(check: Any, timeout_s: float = 60) -> Any:
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)
    return found


def test_the_release_data_works_after_migration(serve: str, receiver: Receiver,
                                                data_env: dict[str, str]) -> None:
    check_release_data(serve, receiver, data_env)


def check_release_data(serve: str, receiver: Receiver, data_env: dict[str, str]) -> None:
    """What the release stored, used through the service."""
    # Keys: the active ones authenticate, the revoked one stays revoked.
    assert call(serve, "GET", "/v1/whoami", ONE["secret"])[1]["tenant_id"] == ONE["tenant_id"]
    assert call(serve, "GET", "/v1/whoami", ONE["spare_secret"])[0] == 200
    assert call(serve, "GET", "/v1/whoami", ONE["revoked_secret"])[0] == 401
    # Usage kept: three labels stored by the release for tenant one.
    assert call(serve, "GET", "/v1/usage", ONE["secret"])[1]["labels"]["used"] == 3
    # Templates, the tenant's and the global one, render new values.
    for template_id, fields in (("shipping", {"name": "Grace Hopper", "city": "Arlington"}),
                                ("release-global", {"name": "Migrated"})):
        status, body = call(serve, "POST", "/v1/labels/from-data", TWO["secret"],
                            {"template_id": template_id, "fields": fields})
        assert status == 200, body
    # The synthesis job the release queued runs.
    job = MANIFEST["synthesis_job"]
    done = wait_for(lambda: call(serve, "GET", f"/v1/templates/synthesize/jobs/{job}",
                                 ONE["secret"])[1]["state"] in ("succeeded", "failed"))
    assert done and call(serve, "GET", f"/v1/templates/synthesize/jobs/{job}",
                         ONE["secret"])[1]["state"] == "succeeded"
    # The event no dispatcher had read is delivered, signed with the kept secret.
    receiver.secrets["/hooks/hourly"] = ONE["signing_secret"]
    status, _ = call(serve, "POST", "/v1/webhooks/hourly", ONE["secret"],
                     {"url": receiver.url("/hooks/hourly")})
    assert status == 200
    receiver.wait_for(lambda: any(
        r.body["data"].get("external_ref") == "unread-event" and r.verified
        for r in receiver.received), timeout_s=60)
    # The dead letter and the plan override are where the admin commands look.
    letters = json.loads(command(data_env, "admin", "dlq", "list").stdout)["dead_letters"]
    assert [letter["tenant_id"] for letter in letters] == [TWO["tenant_id"]]
    plans = json.loads(command(data_env, "admin", "plan", "list").stdout)["plans"]
    assert [p["labels_per_month"] for p in plans if p["name"] == "warehouse"] == [777]


def test_migrated_data_imported_into_a_cluster_works_there(
        tmp_path: Path, receiver: Receiver, data_env: dict[str, str]) -> None:
    """Single Redis to cluster: migrate a Redis 7 server on the release's AOF,
    copy its keys into an empty cluster (`redis-cli --cluster import`), and run
    the service on the cluster."""
    single_dir = tmp_path / "single"
    single_dir.mkdir()
    shutil.copyfile(RELEASE_DATA / "appendonly.aof", single_dir / "appendonly.aof")
    port = free_port()
    single = subprocess.Popen(
        ["/usr/bin/redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "yes", "--dir", str(single_dir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        single_env = {**data_env, "REDIS_URL": f"redis://127.0.0.1:{port}/0"}
        wait_for(lambda: answers_ping(port), timeout_s=30)
        migrated = command(single_env, "admin", "migrate")
        assert migrated.returncode == 0, migrated.stderr
        assert json.loads(migrated.stdout)["status"] == "migrated"
        with redis_cluster(tmp_path / "cluster") as cluster:
            cluster.cli("--cluster", "import", f"127.0.0.1:{cluster.ports[0]}",
                        "--cluster-from", f"127.0.0.1:{port}", "--cluster-copy")
            cluster_env = {**data_env, "REDIS_URL": cluster.url}
            with serving(cluster_env, receiver, tmp_path) as base:
                check_release_data(base, receiver, cluster_env)
    finally:
        single.terminate()
        single.wait(30)


def test_a_second_run_finds_nothing_to_move(
        data_env: dict[str, str]) -> None:
    first = command(data_env, "admin", "migrate")
    assert first.returncode == 0, first.stderr
    again = command(data_env, "admin", "migrate")
    assert again.returncode == 0 and json.loads(again.stdout)["status"] == "nothing to migrate"


def test_a_cluster_is_refused_in_one_line(tmp_path: Path) -> None:
    with redis_cluster(tmp_path) as cluster:
        env = {**os.environ, "REDIS_URL": cluster.url,
               "LABELRENDER_DATA_DIR": str(tmp_path / "data")}
        done = command(env, "admin", "migrate")
    assert done.returncode == 1, done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert "redis-cli --cluster import" in done.stderr
