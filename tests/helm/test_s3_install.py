"""The README's S3 install, run: the operator with exactly the environment the
chart gives its pod (ConfigMap, env, the Secrets the README creates) against
moto's S3, a real Redis and the emulated cluster makes the example
LabelTemplate Ready, its body in the bucket.

Outside a pod only three things differ: the Secrets' values (moto's keys, the
test Redis), the listen address (loopback) and the cluster (a kubeconfig for
the emulator instead of the pod's ServiceAccount).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.fixtures.polling import wait_for
from tests.fixtures.s3 import moto_endpoint, s3_bucket, s3_client  # noqa: F401
from tests.fixtures.tiers import Tiers, clean_env
from tests.helm.support import merged, pod_spec, render
from tests.operator.bad_input import example
from tests.operator.conftest import redis_url
from tests.operator.harness import Cluster, ready

# The README's values file for the S3 install ("Deploy on Kubernetes", 3. Install).
README_INSTALL: dict[str, Any] = {
    "image": {"repository": "registry.example.com/labelrender", "tag": "0.1.0"},
    "redis": {"existingSecret": "labelrender-redis"},
    "objectStore": {"type": "s3", "s3": {
        "bucket": "acme-labels", "region": "eu-west-1",
        "credentials": {"existingSecret": "labelrender-s3"}}},
}


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    bench = Cluster(tmp_path)
    yield bench
    bench.close()


def pod_environment(values: dict[str, Any], secrets: dict[str, dict[str, str]]
                    ) -> dict[str, str]:
    """The operator container's environment as the kubelet builds it: the
    ConfigMap (envFrom), then env, each secretKeyRef read from ``secrets``."""
    rendered = render(values)
    operator = rendered.component("Deployment", "operator")
    assert operator is not None
    (container,) = pod_spec(operator)["containers"]
    config_maps = {m["metadata"]["name"]: m["data"] for m in rendered.of_kind("ConfigMap")}
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(config_maps[source["configMapRef"]["name"]])
    for entry in container["env"]:
        if "value" in entry:
            env[entry["name"]] = entry["value"]
        else:
            ref = entry["valueFrom"]["secretKeyRef"]
            env[entry["name"]] = secrets[ref["name"]][ref["key"]]  # KeyError: not in the README
    return env


def test_the_readme_s3_install_makes_the_example_ready(
        cluster: Cluster, redis_db: redis.Redis, moto_endpoint: str,  # noqa: F811
        s3_bucket: str, s3_client: Any, tmp_path: Path) -> None:  # noqa: F811
    values = merged(README_INSTALL, {"objectStore": {"s3": {
        "bucket": s3_bucket, "region": "us-east-1", "endpointUrl": moto_endpoint,
        "addressingStyle": "path"}}})
    secrets = {"labelrender-redis": {"redis-url": redis_url(redis_db)},
               "labelrender-s3": {"access-key-id": "testing", "secret-access-key": "testing"}}
    env = pod_environment(values, secrets)
    assert {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "S3_BUCKET"} <= set(env)

    tiers = Tiers(clean_env(**env, LABELRENDER_DATA_DIR=str(tmp_path / "data")), tmp_path)
    try:
        tiers.start_operator(cluster.kubeconfig)
        template = example("LabelTemplate")
        cluster.apply(template)
        name = template["metadata"]["name"]

        def served() -> dict[str, Any] | None:
            found = ready(cluster.find("labeltemplates", name))
            return found if found and found["status"] == "True" else None

        try:
            wait_for(served, what="the example to be Ready")
        except AssertionError as exc:  # say what it is instead (StorageUnavailable ...)
            raise AssertionError(f"{exc}: {ready(cluster.find('labeltemplates', name))}"
                                 ) from None
        condition = served()
    finally:
        tiers.close()
    assert condition is not None and condition["reason"] == "Stored"
    keys = [o["Key"] for o in s3_client.list_objects_v2(Bucket=s3_bucket).get("Contents", [])]
    assert [key for key in keys if key.startswith(f"templates/global/all/{name}/")]
