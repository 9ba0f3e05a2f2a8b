"""Rendering the chart the way `helm install` would, offline, for the tests.

``helm_python`` (PyPI helm-python-sdk) runs Helm's own Go SDK: ``render``
applies values.schema.json and the templates' ``required``/``fail`` exactly as
an install does, and ``lint`` is `helm lint`. The matrix of values every chart
test runs over is here too.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import helm_python
import yaml

REPO = Path(__file__).resolve().parents[2]
CHART_DIR = REPO / "helm" / "labelrender"
METRICS_FILE = REPO / "helm" / "metrics.yaml"
RELEASE = "lr"
NAMESPACE = "labels"
COMPONENTS = ("api", "worker", "operator")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# What every install must say: where Redis is, and the bucket.
MINIMAL: dict[str, Any] = {
    "redis": {"existingSecret": "lr-redis"},
    "objectStore": {"s3": {"bucket": "labels"}},
}
MONITORED = {"metrics": {"serviceMonitor": {"enabled": True,
                                            "labels": {"release": "kube-prometheus-stack"}}}}
SLOW_SCALE_DOWN = {"scaleDown": {"stabilizationWindowSeconds": 600,
                                  "policies": [{"type": "Pods", "value": 1, "periodSeconds": 60}]}}
KEDA = {"autoscaling": {"mode": "keda", "keda": {"behavior": SLOW_SCALE_DOWN}}}

# The matrix: each case is layered on MINIMAL.
CASES: dict[str, dict[str, Any]] = {
    "defaults": {},
    "keda": {**KEDA, **MONITORED},
    "keda-to-zero": {"autoscaling": {"mode": "keda", "minReplicas": 0, "keda": {
        "backgroundStreams": False}}},
    "hpa": {"autoscaling": {"mode": "hpa", "maxReplicas": 12,
                            "hpa": {"behavior": SLOW_SCALE_DOWN}}, **MONITORED},
    "hpa-pods": {"autoscaling": {"mode": "hpa", "hpa": {"metric": {
        "type": "Pods", "name": "labelrender_worker_jobs_in_flight", "targetAverageValue": "3"}}}},
    "none": {"autoscaling": {"mode": "none"}, "worker": {"replicas": 3}, **MONITORED},
    "ingress": {"ingress": {"enabled": True, "className": "nginx",
                            "annotations": {"cert-manager.io/cluster-issuer": "letsencrypt"},
                            "hosts": [{"host": "labels.example.com",
                                       "paths": [{"path": "/v1", "pathType": "Prefix"}]}],
                            "tls": [{"secretName": "labels-tls",
                                     "hosts": ["labels.example.com"]}]}},
    "external-redis-and-s3": {
        "redis": {"existingSecret": "managed-redis", "urlKey": "url"},
        "objectStore": {"s3": {"bucket": "acme-labels", "region": "eu-west-1",
                               "endpointUrl": "https://s3.eu-west-1.amazonaws.com",
                               "addressingStyle": "virtual",
                               "credentials": {"existingSecret": "labels-s3",
                                               "sessionTokenKey": "session-token"}}},
        "urlSecret": {"existingSecret": "labels-url-secret"},
        "publicBaseUrl": "https://labels.acme.example/v1",
        # Webhook receivers behind a private CA.
        "config": {"webhookCaFile": "/etc/labelrender/ca/ca.crt"},
        "worker": {"extraVolumes": [{"name": "webhook-ca", "configMap": {"name": "acme-ca"}}],
                   "extraVolumeMounts": [{"name": "webhook-ca", "mountPath": "/etc/labelrender/ca",
                                          "readOnly": True}]},
        "autoscaling": {"mode": "keda", "keda": {
            "metricsUrl": "http://labels-api.platform.svc:8080/metrics"}},
    },
    "filesystem-store": {"objectStore": {"type": "filesystem",
                                         "filesystem": {"existingClaim": "labels-objects"}},
                         "urlSecret": {"existingSecret": "labels-url-secret"},
                         "publicBaseUrl": "https://labels.example.com/v1"},
    "two-replicas-each": {"api": {"replicas": 2}, "worker": {"replicas": 2},
                          "operator": {"replicas": 2, "clusterId": "eu-west-1-prod"},
                          "config": {"logFormat": "json"}, **MONITORED},
    "without-operator": {"operator": {"enabled": False}, **MONITORED},
    "platform": {"priorityClassName": "labels-high", "image": {
        "digest": "sha256:" + "ab" * 32},
        "worker": {"priorityClassName": "labels-batch", "topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
             "whenUnsatisfiable": "ScheduleAnyway"}]},
        "api": {"topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
             "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"app.kubernetes.io/component": "api"}}}]},
        "operator": {"podDisruptionBudget": {"enabled": True, "maxUnavailable": 1,
                                             "unhealthyPodEvictionPolicy": "IfHealthyBudget"}}},
    "network-policy": {"networkPolicy": {
        "enabled": True,
        "apiFrom": [{"namespaceSelector": {"matchLabels": {
            "kubernetes.io/metadata.name": "ingress-nginx"}}}],
        "metricsFrom": [{"namespaceSelector": {"matchLabels": {
            "kubernetes.io/metadata.name": "monitoring"}}}],
        "redis": {"to": [{"ipBlock": {"cidr": "10.20.30.40/32"}}], "ports": [6380]}}},
    "alerts": {"metrics": {**MONITORED["metrics"], "prometheusRule": {
        "enabled": True, "labels": {"release": "kube-prometheus-stack"},
        "runbookBaseUrl": "https://docs.example.com/labelrender/alerts"}}},
}


def merged(*layers: dict[str, Any]) -> dict[str, Any]:
    """Deep merge, later layers winning (how Helm layers -f files)."""
    result: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if isinstance(value, dict) and isinstance(result.get(key), dict):
                result[key] = merged(result[key], value)
            else:
                result[key] = copy.deepcopy(value)
    return result


def case_values(case: str) -> dict[str, Any]:
    return merged(MINIMAL, CASES[case])


@functools.cache
def chart() -> helm_python.Chart:
    return helm_python.Chart.load(CHART_DIR)


@dataclass(frozen=True)
class Rendered:
    """The manifests of one render, parsed."""

    manifests: tuple[dict[str, Any], ...]

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.manifests if m["kind"] == kind]

    def component(self, kind: str, component: str) -> dict[str, Any] | None:
        found = [m for m in self.of_kind(kind)
                 if labels(m).get("app.kubernetes.io/component") == component]
        assert len(found) <= 1, f"{len(found)} {kind}s for {component}"
        return found[0] if found else None

    def deployments(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for component in COMPONENTS:
            deployment = self.component("Deployment", component)
            if deployment is not None:
                yield component, deployment


def render(values: dict[str, Any]) -> Rendered:
    """Render like `helm install lr -n labels`; raises the Helm error on bad values."""
    # A copy: a test may change what it was given.
    return copy.deepcopy(_render(json.dumps(values, sort_keys=True)))


@functools.cache
def _render(values_json: str) -> Rendered:
    files = chart().render(json.loads(values_json), name=RELEASE, namespace=NAMESPACE)
    manifests = tuple(doc for path, text in sorted(files.items()) if path.endswith(".yaml")
                      for doc in yaml.load_all(text, Loader=LOADER) if doc)
    return Rendered(manifests)


# Spec fields the templates write only where Kubernetes has them (semverCompare
# on .Capabilities.KubeVersion); the offline render is for Helm's default
# version, so for an older one they come out as a cluster of that version gets it.
GATED_SPEC_FIELDS = {("PodDisruptionBudget", "unhealthyPodEvictionPolicy"): (1, 27)}


def for_kube(manifest: dict[str, Any], kube_version: str) -> dict[str, Any]:
    """``manifest`` as the chart renders it for a cluster of ``kube_version``."""
    version = tuple(int(part) for part in kube_version.split(".")[:2])
    gated = [field for (kind, field), since in GATED_SPEC_FIELDS.items()
             if kind == manifest["kind"] and version < since]
    if not gated:
        return manifest
    spec = {k: v for k, v in manifest["spec"].items() if k not in gated}
    return {**manifest, "spec": spec}


def labels(manifest: dict[str, Any]) -> dict[str, str]:
    return dict(manifest.get("metadata", {}).get("labels") or {})


def pod_spec(deployment: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = deployment["spec"]["template"]["spec"]
    return spec


def selects(selector: dict[str, Any], target: dict[str, str]) -> bool:
    """A Kubernetes label selector (matchLabels and matchExpressions) applied to labels."""
    if any(target.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression["key"], expression["operator"], expression.get(
            "values", [])
        checks = {"In": key in target and target[key] in values,
                  "NotIn": key not in target or target[key] not in values,
                  "Exists": key in target, "DoesNotExist": key not in target}
        if not checks[operator]:
            return False
    return True


def metric_list() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = yaml.safe_load(METRICS_FILE.read_text())["metrics"]
    return entries
