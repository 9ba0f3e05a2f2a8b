"""Worker autoscaling: exactly one autoscaler per worker Deployment, and KEDA
reading the very stream and consumer group the code uses."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helm.support import CASES, SLOW_SCALE_DOWN, case_values, metric_list, render


def autoscalers(case: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rendered = render(case_values(case))
    worker = rendered.component("Deployment", "worker")
    assert worker is not None
    name = worker["metadata"]["name"]
    found = [m for m in rendered.of_kind("ScaledObject") + rendered.of_kind(
        "HorizontalPodAutoscaler") if m["spec"]["scaleTargetRef"]["name"] == name]
    return worker, found


@pytest.mark.parametrize("case", CASES)
def test_at_most_one_autoscaler_per_worker_deployment(case: str) -> None:
    worker, found = autoscalers(case)
    mode = case_values(case).get("autoscaling", {}).get("mode", "none")
    expected = {"keda": ["ScaledObject"], "hpa": ["HorizontalPodAutoscaler"], "none": []}[mode]
    assert [m["kind"] for m in found] == expected
    # The autoscaler owns the replica count; a fixed count only without one.
    assert ("replicas" in worker["spec"]) == (mode == "none")


@pytest.mark.parametrize("case", [c for c in CASES if "keda" in c or c == "external-redis-and-s3"])
def test_keda_reads_the_render_figures_the_api_serves(case: str) -> None:
    """The lag and the jobs in progress, summed over every tenant group's stream
    (one figure on a single Redis and on a Redis Cluster), from the API's /metrics."""
    _, (scaled,) = autoscalers(case)
    triggers = {t["name"]: t for t in scaled["spec"]["triggers"]}
    lag, pending = triggers["render-lag"]["metadata"], triggers["render-pending"]["metadata"]
    served = {m["name"] for m in metric_list()}
    for trigger in triggers.values():
        assert trigger["type"] == "metrics-api"
        assert trigger["metadata"]["format"] == "prometheus"
        assert trigger["metadata"]["valueLocation"] in served
        assert trigger["metadata"]["url"].endswith("/metrics")
    assert lag["valueLocation"] == "labelrender_render_queue_lag"
    assert {"targetValue", "activationTargetValue"} <= set(lag)
    assert pending["valueLocation"] == "labelrender_render_queue_pending"


@pytest.mark.parametrize(("case", "url"), [
    ("keda", "http://lr-labelrender-api.labels.svc:80/metrics"),
    ("external-redis-and-s3", "http://labels-api.platform.svc:8080/metrics"),
])
def test_keda_reads_the_api_service_or_the_given_url(case: str, url: str) -> None:
    rendered = render(case_values(case))
    (scaled,) = rendered.of_kind("ScaledObject")
    assert {t["metadata"]["url"] for t in scaled["spec"]["triggers"]} == {url}
    assert rendered.of_kind("TriggerAuthentication") == []  # KEDA needs no Redis password


def test_keda_wakes_workers_for_their_background_queues_too() -> None:
    _, (scaled,) = autoscalers("keda")
    figures = {t["metadata"]["valueLocation"] for t in scaled["spec"]["triggers"]}
    assert figures == {"labelrender_render_queue_lag", "labelrender_render_queue_pending",
                       "labelrender_synthesis_queue_lag", "labelrender_webhook_event_lag"}


@pytest.mark.parametrize(("case", "expected"), [
    ("keda", {"min": 1, "max": 20}),
    ("keda-to-zero", {"min": 0, "max": 20}),
])
def test_keda_replica_bounds(case: str, expected: dict[str, int]) -> None:
    _, (scaled,) = autoscalers(case)
    assert scaled["spec"]["minReplicaCount"] == expected["min"]
    assert scaled["spec"]["maxReplicaCount"] == expected["max"]


@pytest.mark.parametrize(("case", "metric_type", "metric"), [
    ("hpa", "External", "labelrender_render_queue_depth"),
    ("hpa-pods", "Pods", "labelrender_worker_jobs_in_flight"),
])
def test_hpa_scales_on_a_listed_prometheus_metric(case: str, metric_type: str,
                                                  metric: str) -> None:
    _, (hpa,) = autoscalers(case)
    assert hpa["apiVersion"] == "autoscaling/v2"
    (spec,) = hpa["spec"]["metrics"]
    assert spec["type"] == metric_type
    source = spec[metric_type.lower()]
    assert source["metric"]["name"] == metric
    assert source["target"]["type"] == "AverageValue"
    listed = {m["name"]: m for m in metric_list()}
    assert metric in listed
    # A Pods metric must be one series per worker pod.
    assert metric_type == "External" or listed[metric]["tiers"] == ["worker"]


def test_the_default_hpa_target_is_the_jobs_one_worker_holds() -> None:
    """Queue depth counts jobs waiting and jobs being rendered; a worker holds
    2 x renderProcesses jobs at once, so that is the depth each worker carries."""
    rendered = render(case_values("hpa"))
    (hpa,) = rendered.of_kind("HorizontalPodAutoscaler")
    target = hpa["spec"]["metrics"][0]["external"]["target"]["averageValue"]
    config = rendered.of_kind("ConfigMap")[0]["data"]
    assert int(target) == 2 * int(config["LABELRENDER_RENDER_PROCESSES"])


@pytest.mark.parametrize(("case", "path"), [
    ("keda", ("advanced", "horizontalPodAutoscalerConfig", "behavior")),
    ("hpa", ("behavior",)),
])
def test_scaling_behavior_reaches_the_autoscaler(case: str, path: tuple[str, ...]) -> None:
    _, (autoscaler,) = autoscalers(case)
    node = autoscaler["spec"]
    for key in path:
        node = node[key]
    assert node == SLOW_SCALE_DOWN
