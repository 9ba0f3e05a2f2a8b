"""``labelrender operator``: the command runs the operator from the environment's
settings until SIGTERM, and says clearly when it has no cluster."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import redis

from labelrender.store import templates
from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import redis_url
from tests.operator.harness import Cluster, ready


def command_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LABELRENDER_", "S3_")) and k not in ("REDIS_URL", "KUBECONFIG")}
    return {**env, **values}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read().decode()


def test_the_command_runs_the_operator_until_sigterm(
        cluster: Cluster, redis_db: redis.Redis, tmp_path: Path) -> None:
    health, metrics = free_port(), free_port()
    env = command_env(REDIS_URL=redis_url(redis_db), LABELRENDER_DATA_DIR=str(tmp_path),
                      LABELRENDER_KUBECONFIG=str(cluster.kubeconfig),
                      LABELRENDER_OPERATOR_PEERING="mandatory", LABELRENDER_HOST="127.0.0.1",
                      LABELRENDER_HEALTH_PORT=str(health),
                      LABELRENDER_OPERATOR_METRICS_PORT=str(metrics))
    process = subprocess.Popen([sys.executable, "-m", "labelrender.cli", "operator"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        template = example("LabelTemplate")
        cluster.apply(template)
        name = template["metadata"]["name"]
        wait_for(lambda: ready(cluster.find("labeltemplates", name)), timeout=30,
                 what="the command's operator")
        latest = templates.get_version(redis_db, None, name)
        assert latest is not None and latest.version == 1
        assert get(f"http://127.0.0.1:{health}/healthz")[0] == 200
        assert get(f"http://127.0.0.1:{health}/readyz") == (200, '{"status": "ready"}')
        _, scraped = get(f"http://127.0.0.1:{metrics}/metrics")
        assert ('labelrender_operator_reconciles_total{kind="LabelTemplate",outcome="Stored"} 1.0'
                in scraped)
    finally:
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0, errors


def test_no_cluster_is_one_clear_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-kubeconfig"
    answer = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "operator", "--kubeconfig", str(missing)],
        env=command_env(LABELRENDER_DATA_DIR=str(tmp_path), LABELRENDER_EMBEDDED_REDIS="true"),
        capture_output=True, text=True,
        timeout=60)
    assert answer.returncode == 3
    assert answer.stderr.startswith("labelrender operator: no cluster to run against")
    assert str(missing) in answer.stderr
