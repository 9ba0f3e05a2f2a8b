"""Settings platform teams expect: a PriorityClass, an image pinned by digest,
topology spread (across zones), PDBs that let unready pods be evicted, and a
`helm test` hook that checks the API answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.fixtures.tiers import Tiers, clean_env
from tests.helm.support import case_values, merged, pod_spec, render, selects
from tests.operator.conftest import redis_url

DIGEST = "sha256:" + "ab" * 32


def test_priority_classes() -> None:
    rendered = render(case_values("platform"))
    classes = {c: pod_spec(d).get("priorityClassName") for c, d in rendered.deployments()}
    assert classes == {"api": "labels-high", "worker": "labels-batch",
                       "operator": "labels-high"}
    assert all("priorityClassName" not in pod_spec(d)
               for _, d in render(case_values("defaults")).deployments())


def test_the_image_is_pinned_by_digest() -> None:
    rendered = render(case_values("platform"))
    pods = [pod_spec(d) for _, d in rendered.deployments()]
    pods += [p["spec"] for p in rendered.of_kind("Pod")]  # the helm test's
    images = {c["image"] for spec in pods for c in spec["containers"]}
    assert images == {f"labelrender@{DIGEST}"}


def test_topology_spread_selects_the_tiers_own_pods_by_default() -> None:
    rendered = render(case_values("platform"))
    for _, deployment in rendered.deployments():
        pods = deployment["spec"]["template"]["metadata"]["labels"]
        for constraint in pod_spec(deployment).get("topologySpreadConstraints", []):
            assert constraint["topologyKey"] == "topology.kubernetes.io/zone"
            assert selects(constraint["labelSelector"], pods)
    worker = rendered.component("Deployment", "worker")
    assert worker is not None
    (spread,) = pod_spec(worker)["topologySpreadConstraints"]
    assert spread["labelSelector"] == {"matchLabels": worker["spec"]["selector"]["matchLabels"]}


@pytest.mark.parametrize(("case", "policies"), [
    ("defaults", {"api": "AlwaysAllow", "worker": "AlwaysAllow", "operator": "AlwaysAllow"}),
    ("platform", {"api": "AlwaysAllow", "worker": "AlwaysAllow",
                  "operator": "IfHealthyBudget"}),
])
def test_unready_pods_do_not_block_drains(case: str, policies: dict[str, str]) -> None:
    budgets = render(case_values(case)).of_kind("PodDisruptionBudget")
    found = {b["metadata"]["labels"]["app.kubernetes.io/component"]:
             b["spec"].get("unhealthyPodEvictionPolicy") for b in budgets}
    assert found == policies


def test_the_helm_test_hook() -> None:
    rendered = render(case_values("defaults"))
    (pod,) = rendered.of_kind("Pod")
    assert pod["metadata"]["annotations"]["helm.sh/hook"] == "test"
    spec = pod["spec"]
    assert spec["restartPolicy"] == "Never" and spec["automountServiceAccountToken"] is False
    (container,) = spec["containers"]
    assert container["securityContext"]["runAsNonRoot"] is True
    api = rendered.component("Service", "api")
    assert api is not None
    assert f"http://{api['metadata']['name']}.labels.svc:80" in container["command"][2]
    assert render(merged(case_values("defaults"), {"helmTest": {"enabled": False}})
                  ).of_kind("Pod") == []


def test_the_helm_test_script_passes_against_a_running_api_and_fails_without(
        redis_db: redis.Redis, tmp_path: Path) -> None:
    (pod,) = render(case_values("defaults")).of_kind("Pod")
    command = pod["spec"]["containers"][0]["command"]
    assert command[:2] == ["python", "-c"]
    tiers = Tiers(clean_env(REDIS_URL=redis_url(redis_db),
                            LABELRENDER_DATA_DIR=str(tmp_path / "data")), tmp_path)
    try:
        api = tiers.start_api()
        base = api.url("http", "")
        script = command[2].replace("http://lr-labelrender-api.labels.svc:80", base)
        passed = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                text=True, timeout=60)
    finally:
        tiers.close()
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.split() == ["/readyz", "200", "/v1/openapi.json", "200"]
    failed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60)  # the API is gone now
    assert failed.returncode != 0
