"""Bad values fail at `helm install` with a message that names the problem."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import helm_python
import pytest

from tests.helm.support import CHART_DIR, MINIMAL, merged, render

WITHOUT_REDIS = {"objectStore": {"s3": {"bucket": "labels"}}}


@pytest.mark.parametrize(("values", "error"), [
    # values.schema.json: wrong types, unknown keys and values.
    (merged(MINIMAL, {"api": {"replicas": "two"}}), "at '/api/replicas': got string, want integer"),
    (merged(MINIMAL, {"autoscaling": {"mode": "vpa"}}),
     "at '/autoscaling/mode': value must be one of 'keda', 'hpa', 'none'"),
    (merged(MINIMAL, {"worker": {"replica": 3}}), "additional properties 'replica' not allowed"),
    (merged(MINIMAL, {"autoscalling": {"mode": "keda"}}),
     "additional properties 'autoscalling' not allowed"),
    (merged(MINIMAL, {"config": {"renderProcesses": 0}}), "/config/renderProcesses"),
    (merged(MINIMAL, {"config": {"signedUrlWindowSeconds": 60}}),
     "/config/signedUrlWindowSeconds"),
    (merged(MINIMAL, {"objectStore": {"type": "gcs"}}), "at '/objectStore/type'"),
    (merged(MINIMAL, {"api": {"resources": {"requests": None}}}), "/api/resources"),
    (merged(MINIMAL, {"worker": {"extraEnv": [{"name": "A", "vaule": "1"}]}}),
     "additional properties 'vaule' not allowed"),
    (merged(MINIMAL, {"worker": {"ports": {"health": 70000}}}), "/worker/ports/health"),
    (merged(MINIMAL, {"autoscaling": {"keda": {"metricsUrl": "labels-api:8080/metrics"}}}),
     "/autoscaling/keda/metricsUrl"),
    (merged(MINIMAL, {"autoscaling": {"keda": {"redisAddress": "redis.example:6379"}}}),
     "additional properties 'redisAddress' not allowed"),
    (merged(MINIMAL, {"redis": {"existingSecret": "Not_A_Name"}}), "/redis/existingSecret"),
    (merged(MINIMAL, {"ingress": {"hosts": [{"host": "a.example", "paths": [
        {"path": "/", "pathType": "Everything"}]}]}}), "pathType"),
    (merged(MINIMAL, {"metrics": {"serviceMonitor": {"interval": "30 seconds"}}}),
     "/metrics/serviceMonitor/interval"),
    # The templates: what needs a value, and combinations the schema cannot see.
    (WITHOUT_REDIS, "redis.existingSecret is required: the name of an existing Secret"),
    ({"redis": {"existingSecret": "lr-redis"}},
     "objectStore.s3.bucket is required when objectStore.type is s3"),
    (merged(MINIMAL, {"objectStore": {"type": "filesystem"}}),
     "objectStore.filesystem.existingClaim is required"),
    (merged(MINIMAL, {"objectStore": {"type": "filesystem",
                                      "filesystem": {"existingClaim": "objects"}}}),
     "publicBaseUrl is required with the filesystem store"),
    (merged(MINIMAL, {"autoscaling": {"mode": "hpa", "minReplicas": 0}}),
     "only KEDA scales workers to zero"),
    (merged(MINIMAL, {"autoscaling": {"minReplicas": 5, "maxReplicas": 2}}),
     "autoscaling.minReplicas must not exceed autoscaling.maxReplicas"),
])
def test_bad_values_fail_with_a_clear_message(values: dict[str, Any], error: str) -> None:
    with pytest.raises((helm_python.HelmValuesError, helm_python.HelmRenderError)) as failure:
        render(values)
    assert error in str(failure.value)


def schema_objects(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if "properties" in node:
            yield path, node
        for key, child in node.items():
            yield from schema_objects(child, f"{path}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from schema_objects(child, f"{path}/{index}")


def test_every_object_in_the_schema_refuses_unknown_keys() -> None:
    schema = json.loads((CHART_DIR / "values.schema.json").read_text())
    open_objects = [path for path, node in schema_objects(schema)
                    if node.get("additionalProperties") is not False]
    assert open_objects == []


def test_the_default_values_satisfy_the_schema_and_every_key_is_declared() -> None:
    chart = helm_python.Chart.load(CHART_DIR)
    chart.validate_schema(merged(chart.values, MINIMAL))
    schema = chart.schema
    assert schema is not None

    def declared(values: dict[str, Any], node: dict[str, Any], path: str) -> None:
        node = schema["definitions"][node["$ref"].rsplit("/", 1)[1]] if "$ref" in node else node
        for key, value in values.items():
            assert key in node.get("properties", {}), f"{path}.{key} is not in the schema"
            child = node["properties"][key]
            if isinstance(value, dict) and ("properties" in child or "$ref" in child):
                declared(value, child, f"{path}.{key}")

    declared(chart.values, schema, "")
