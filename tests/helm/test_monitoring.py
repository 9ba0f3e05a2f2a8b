"""Monitoring: the ServiceMonitor reaches every tier's /metrics, and the
dashboard (and the HPA) name only the metrics in helm/metrics.yaml."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helm.support import (
    CASES,
    CHART_DIR,
    NAMESPACE,
    case_values,
    labels,
    metric_list,
    pod_spec,
    render,
    selects,
)

MONITORED_CASES = [c for c in CASES
                   if case_values(c).get("metrics", {}).get("serviceMonitor", {}).get("enabled")]

# PromQL words that are not metric names.
PROMQL_FUNCTIONS = {
    "abs", "absent", "avg", "avg_over_time", "bottomk", "ceil", "changes", "clamp",
    "clamp_max", "clamp_min", "count", "count_over_time", "count_values", "delta", "deriv",
    "exp", "floor", "group", "histogram_quantile", "idelta", "increase", "irate", "label_join",
    "label_replace", "last_over_time", "ln", "log10", "log2", "max", "max_over_time", "min",
    "min_over_time", "predict_linear", "quantile", "quantile_over_time", "rate", "resets",
    "round", "scalar", "sort", "sort_desc", "sqrt", "stddev", "stdvar", "sum", "sum_over_time",
    "time", "timestamp", "topk", "vector",
}
PROMQL_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
                   "unless", "bool", "offset"}
# Listed metrics the dashboard leaves out, and why.
NOT_ON_THE_DASHBOARD = {
    "labelrender_worker_jobs_total": "per-worker detail of labelrender_renders_total",
    "labelrender_worker_job_seconds": "labelrender_render_duration_seconds has the outcome",
    "labelrender_worker_claimed_total": "rare; read it in Prometheus when workers die",
    "labelrender_render_cache_hits_total": "labelrender_cache_requests_total gives the ratio",
    "labelrender_worker_labels_settled_total": "billing detail; read it in Prometheus when "
                                               "reconciling usage",
}


def series_names(expression: str) -> set[str]:
    """The metric names a PromQL (or Grafana label_values) expression reads."""
    text = re.sub(r"label_values\(\s*([^,()]+?)\s*,\s*\w+\s*\)", r"\1", expression)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", text)  # strings
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # range selectors
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    text = re.sub(r"\$\{?\w+\}?", "", text)  # Grafana variables
    words = re.findall(r"(?<![\w.])[A-Za-z_:][A-Za-z0-9_:]*", text)
    return {w for w in words if w not in PROMQL_FUNCTIONS | PROMQL_KEYWORDS}


def listed_series() -> dict[str, str]:
    """Every series name the listed metrics expose, to the metric it belongs to."""
    series: dict[str, str] = {}
    for metric in metric_list():
        name = metric["name"]
        suffixes = ("_bucket", "_sum", "_count") if metric["type"] == "histogram" else ("",)
        series.update({name + suffix: name for suffix in suffixes})
    return series


@pytest.mark.parametrize(("expression", "names"), [
    ("max(labelrender_render_queue_depth)", {"labelrender_render_queue_depth"}),
    ('sum by (outcome) (rate(labelrender_renders_total{namespace="$namespace"}'
     "[$__rate_interval]))", {"labelrender_renders_total"}),
    ("histogram_quantile(0.95, sum by (le) (rate(x_seconds_bucket{a=\"b{c}\"}[5m])))",
     {"x_seconds_bucket"}),
    ('sum(rate(a_total{result="hit"}[1m])) / sum(rate(a_total[1m])) > 1e-9', {"a_total"}),
    ("up == 0 and on (pod) kube_pod_info", {"up", "kube_pod_info"}),
    ("label_values(labelrender_http_requests_total, namespace)",
     {"labelrender_http_requests_total"}),
])
def test_series_names_reads_expressions(expression: str, names: set[str]) -> None:
    assert series_names(expression) == names


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CHART_DIR / "dashboards" / "labelrender.json")
                                        .read_text())
    return loaded


def panels(container: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in container.get("panels", []):
        yield panel
        yield from panels(panel)


def dashboard_expressions() -> list[str]:
    board = dashboard()
    expressions = [t["expr"] for p in panels(board) for t in p.get("targets", [])]
    for variable in board["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]
            expressions.append(query["query"] if isinstance(query, dict) else query)
    return expressions


def test_every_dashboard_expression_names_only_listed_metrics() -> None:
    expressions = dashboard_expressions()
    assert expressions
    unknown = {name: e for e in expressions for name in series_names(e)
               if name not in listed_series()}
    assert unknown == {}


def test_the_dashboard_shows_every_listed_metric() -> None:
    shown = {listed_series()[n] for e in dashboard_expressions() for n in series_names(e)}
    missing = {m["name"] for m in metric_list()} - shown - set(NOT_ON_THE_DASHBOARD)
    assert missing == set()


def test_the_metric_list_is_well_formed() -> None:
    entries = metric_list()
    names = [m["name"] for m in entries]
    assert len(names) == len(set(names))
    for metric in entries:
        assert re.fullmatch(r"labelrender_[a-z0-9_]+", metric["name"])
        assert metric["type"] in {"counter", "gauge", "histogram"}
        assert metric["name"].endswith("_total") == (metric["type"] == "counter")
        assert metric["tiers"] and set(metric["tiers"]) <= {"api", "worker", "operator"}
        assert metric["status"] in {"exported", "planned"}
        assert all(re.fullmatch(r"[a-z_]+", label) for label in metric["labels"])
        assert metric["meaning"]


def test_dashboard_panels_have_unique_ids_and_read_the_chosen_datasource() -> None:
    board = dashboard()
    ids = [p["id"] for p in panels(board)]
    assert len(ids) == len(set(ids))
    for panel in panels(board):
        for target in panel.get("targets", []):
            assert target["datasource"]["uid"] == "${datasource}"


@pytest.mark.parametrize("case", ["defaults", "keda"])
def test_the_dashboard_ships_for_grafanas_sidecar(case: str) -> None:
    rendered = render(case_values(case))
    (config_map,) = [m for m in rendered.of_kind("ConfigMap") if "labelrender.json" in
                     m.get("data", {})]
    assert labels(config_map)["grafana_dashboard"] == "1"
    assert json.loads(config_map["data"]["labelrender.json"]) == dashboard()


def test_no_service_monitor_unless_asked() -> None:
    assert render(case_values("defaults")).of_kind("ServiceMonitor") == []


@pytest.mark.parametrize("case", MONITORED_CASES)
def test_the_service_monitor_scrapes_every_tier(case: str) -> None:
    rendered = render(case_values(case))
    (monitor,) = rendered.of_kind("ServiceMonitor")
    assert labels(monitor)["release"] == "kube-prometheus-stack"
    assert monitor["spec"]["namespaceSelector"]["matchNames"] == [NAMESPACE]
    endpoints = {e["port"]: e for e in monitor["spec"]["endpoints"]}
    deployments = dict(rendered.deployments())
    scraped = set()
    for service in rendered.of_kind("Service"):
        if not selects(monitor["spec"]["selector"], labels(service)):
            continue
        component = labels(service)["app.kubernetes.io/component"]
        (port,) = [p for p in service["spec"]["ports"] if p["name"] in endpoints]
        assert endpoints[port["name"]]["path"] == "/metrics"
        # The Service's target port is a named port of the pods it selects.
        pods = deployments[component]["spec"]["template"]["metadata"]["labels"]
        assert selects({"matchLabels": service["spec"]["selector"]}, pods)
        (container,) = pod_spec(deployments[component])["containers"]
        assert port["targetPort"] in {p["name"] for p in container["ports"]}
        # Metrics-only Services list pods that are not ready, which may say why.
        assert service["spec"].get("publishNotReadyAddresses", False) == (component != "api")
        scraped.add(component)
    assert scraped == set(deployments)


@pytest.mark.parametrize(("component", "setting"), [
    ("worker", "LABELRENDER_WORKER_METRICS_PORT"),
    ("operator", "LABELRENDER_OPERATOR_METRICS_PORT"),
])
def test_metrics_are_served_on_the_scraped_port(component: str, setting: str) -> None:
    deployment = render(case_values("keda")).component("Deployment", component)
    assert deployment is not None
    (container,) = pod_spec(deployment)["containers"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert env[setting] == str(ports["metrics"])
    assert env["LABELRENDER_HEALTH_PORT"] == str(ports["health"])


def test_worker_panels_count_only_worker_pods() -> None:
    """The operator serves the default registry (worker metrics included, at 0):
    the worker panels select the worker container."""
    reading = [e for e in dashboard_expressions() if "labelrender_worker_jobs_in_flight" in e]
    assert reading
    assert all('container="worker"' in e for e in reading)
