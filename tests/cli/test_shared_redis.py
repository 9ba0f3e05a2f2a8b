"""The tiers that share Redis (api, worker, operator) refuse to start without
``REDIS_URL`` unless told the embedded server is meant, in one line; ``serve``
needs no configuration. ``LABELRENDER_LOG_FORMAT=json`` logs one JSON object a line."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from labelrender.cli.common import JsonLines, TextLines
from tests.fixtures.polling import wait_for
from tests.fixtures.tiers import Tiers, clean_env
from tests.operator.conftest import redis_url
from tests.operator.harness import Cluster


def bare_env(tmp_path: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LABELRENDER_", "S3_")) and k not in ("REDIS_URL", "KUBECONFIG")}
    return {**env, "LABELRENDER_DATA_DIR": str(tmp_path / "data"), **values}


@pytest.mark.parametrize("command", ["api", "worker", "operator"])
def test_no_redis_url_is_one_line(tmp_path: Path, command: str) -> None:
    done = subprocess.run([sys.executable, "-m", "labelrender.cli", command],
                          env=bare_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"labelrender {command}: no Redis to share: set REDIS_URL")
    assert "LABELRENDER_EMBEDDED_REDIS=true" in line
    assert not (tmp_path / "data").exists()  # no private Redis was started


def test_told_it_is_embedded_the_operator_goes_on(tmp_path: Path) -> None:
    """With the flag the check passes; the next missing piece (a cluster) is what stops it."""
    missing = tmp_path / "no-kubeconfig"
    done = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "operator", "--kubeconfig", str(missing)],
        env=bare_env(tmp_path, LABELRENDER_EMBEDDED_REDIS="true"), capture_output=True,
        text=True, timeout=60)
    assert done.returncode == 3
    assert done.stderr.startswith("labelrender operator: no cluster to run against")


def kopf_record(message: str, ref: dict[str, str] | None) -> logging.LogRecord:
    record = logging.makeLogRecord({"name": "kopf.objects", "levelname": "INFO",
                                    "levelno": logging.INFO, "msg": message, "args": ()})
    if ref is not None:
        record.k8s_ref = ref
    return record


TEMPLATE_REF = {"kind": "LabelTemplate", "namespace": "shop", "name": "shipping-4x6",
                "apiVersion": "labelrender.io/v1", "uid": "u-1"}
PLAN_REF = {"kind": "Plan", "name": "gold", "apiVersion": "labelrender.io/v1", "uid": "u-2"}


@pytest.mark.parametrize(("ref", "about"), [
    (TEMPLATE_REF, "LabelTemplate shop/shipping-4x6"),
    (PLAN_REF, "Plan gold"),
    (None, None),
])
def test_log_lines_name_the_object(ref: dict[str, str] | None, about: str | None) -> None:
    text = TextLines().format(kopf_record("Handler 'reconcile' succeeded.", ref))
    entry = json.loads(JsonLines().format(kopf_record("Handler 'reconcile' succeeded.", ref)))
    assert entry["message"] == "Handler 'reconcile' succeeded."
    assert entry["level"] == "INFO" and entry["logger"] == "kopf.objects"
    assert entry.get("object") == about
    expected = f"[{about}] Handler" if about else "INFO Handler"
    assert expected in text


@pytest.mark.parametrize("command", ["worker", "operator"])
def test_a_tier_logs_json_lines_when_asked(redis_db: redis.Redis, tmp_path: Path,
                                           command: str) -> None:
    cluster = Cluster(tmp_path) if command == "operator" else None
    tiers = Tiers(clean_env(REDIS_URL=redis_url(redis_db), LABELRENDER_LOG_FORMAT="json",
                            LABELRENDER_DATA_DIR=str(tmp_path / "data"),
                            LABELRENDER_OPERATOR_PEERING="standalone"), tmp_path)
    try:
        tier = (tiers.start_operator(cluster.kubeconfig) if cluster is not None
                else tiers.start_worker())
        wait_for(lambda: tier.log.read_text().strip(), what=f"the {command}'s first log line")
    finally:
        tiers.close()
        if cluster is not None:
            cluster.close()
    lines = [json.loads(line) for line in tier.log.read_text().splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(e) for e in lines)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["time"])
               for e in lines)
