"""The chart's PrometheusRule: each alert fires on the series of its trouble and
resolves once it is over, checked with `promtool test rules` (Debian's
prometheus package) on the rules exactly as the chart renders them. Each alert
also has a summary, a description, a runbook link and a runbook section."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helm.support import NAMESPACE, REPO, case_values, merged, render

PROMTOOL = shutil.which("promtool")
RUNBOOKS = REPO / "docs" / "sre" / "runbooks.md"
RUNBOOK_BASE = "https://docs.example.com/alerts"
ALERTING = {"metrics": {"serviceMonitor": {"enabled": True},
                        "prometheusRule": {"enabled": True, "runbookBaseUrl": RUNBOOK_BASE}}}


def series(name: str, values: str, **labels: str) -> dict[str, str]:
    """One input series of this release's namespace, scraped from one pod."""
    labels = {"namespace": NAMESPACE, "pod": "lr-labelrender-api-0", **labels}
    inner = ",".join(f'{k}="{v}"' for k, v in labels.items())
    return {"series": f"{name}{{{inner}}}", "values": values}


# alert: (input series, when it fires, the $value (and $labels) it fires with,
# when it has resolved). One sample a minute.
CASES: dict[str, dict[str, Any]] = {
    "LabelrenderRenderLagGrowing": {
        "series": [series("labelrender_render_queue_lag", "0+1x30 0x30")],
        "fires": "25m", "value": "25", "resolved": "45m"},
    "LabelrenderNoWorkerConsuming": {
        "series": [series("labelrender_render_queue_lag", "5x30 0x30")],
        "fires": "10m", "value": "5", "resolved": "45m"},
    "LabelrenderDeadLettersGrowing": {
        "series": [series("labelrender_webhook_dead_letters", "0x40 0+1x10 10x60")],
        "fires": "55m", "value": "10", "resolved": "100m"},
    "LabelrenderWebhookFailureRate": {
        "series": [series("labelrender_webhook_attempts_total", "0+6x40 240x40",
                          outcome="retry", pod="lr-labelrender-worker-0"),
                   series("labelrender_webhook_attempts_total", "0+4x80",
                          outcome="delivered", pod="lr-labelrender-worker-0")],
        "fires": "35m", "value": "60%", "resolved": "60m"},
    "LabelrenderHttp5xxRate": {
        "series": [series("labelrender_http_requests_total", "0+1x20 20x40", method="POST",
                          route="/v1/labels", status="500"),
                   series("labelrender_http_requests_total", "0+1x60", method="POST",
                          route="/v1/labels", status="200")],
        "fires": "15m", "value": "50%", "resolved": "40m"},
    "LabelrenderObjectsNotReady": {
        "series": [series("labelrender_operator_objects_not_ready", "2x30 0x30",
                          kind="LabelTemplate", reason="InvalidTemplate",
                          pod="lr-labelrender-operator-0")],
        "fires": "20m", "value": "2", "resolved": "40m",
        "labels": {"kind": "LabelTemplate", "reason": "InvalidTemplate"}},
    "LabelrenderRedisUnreachable": {
        "series": [series("labelrender_redis_up", "1x5 0x10 1x30"),
                   series("labelrender_redis_up", "1x45", pod="lr-labelrender-api-1")],
        "fires": "10m", "value": "0", "resolved": "20m"},
}

# Troubles the alerts must not page for.
QUIET: dict[str, tuple[list[dict[str, str]], str]] = {
    # Jobs wait, and workers finish some every minute: consuming, just busy.
    "LabelrenderNoWorkerConsuming": (
        [series("labelrender_render_queue_lag", "5x30"),
         series("labelrender_worker_jobs_total", "0+10x30", outcome="rendered",
                pod="lr-labelrender-worker-0")], "20m"),
    # A steady backlog that does not grow.
    "LabelrenderRenderLagGrowing": ([series("labelrender_render_queue_lag", "8x30")], "25m"),
    # Dead letters waiting, none new in 30 minutes.
    "LabelrenderDeadLettersGrowing": (
        [series("labelrender_webhook_dead_letters", "3x60")], "50m"),
    # One replica of two briefly without Redis, back within the 2 minutes.
    "LabelrenderRedisUnreachable": ([series("labelrender_redis_up", "1x5 0 1x20")], "8m"),
}

pytestmark = pytest.mark.skipif(PROMTOOL is None and not os.environ.get("CI"),
                                reason="promtool (Debian package prometheus) is not installed")


def rules() -> dict[str, Any]:
    (rule,) = render(merged(case_values("defaults"), ALERTING)).of_kind("PrometheusRule")
    return {"groups": rule["spec"]["groups"]}


def alerts() -> dict[str, dict[str, Any]]:
    return {r["alert"]: r for group in rules()["groups"] for r in group["rules"]}


def expanded(template: str, value: str, labels: dict[str, str]) -> str:
    """An annotation as Prometheus expands it, for the few forms the rules use."""
    text = re.sub(r"\{\{ \$value( \| humanizePercentage)? \}\}", value, template)
    for key, label in labels.items():
        text = text.replace(f"{{{{ $labels.{key} | toLower }}}}", label.lower())
        text = text.replace(f"{{{{ $labels.{key} }}}}", label)
    return text


def promtool_test(tmp_path: Path, tests: list[dict[str, Any]]) -> None:
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rules()))
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump({
        "rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": tests}))
    assert PROMTOOL is not None, "promtool is needed (apt-get install prometheus)"
    done = subprocess.run([PROMTOOL, "test", "rules", "tests.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_alert_has_a_case() -> None:
    assert set(alerts()) == set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_the_alert_fires_and_resolves(tmp_path: Path, name: str) -> None:
    case, rule = CASES[name], alerts()[name]
    labels = {**rule["labels"], **case.get("labels", {})}
    annotations = {key: expanded(text, case["value"], case.get("labels", {}))
                   for key, text in rule["annotations"].items()}
    promtool_test(tmp_path, [{"interval": "1m", "input_series": case["series"],
                              "alert_rule_test": [
        {"eval_time": case["fires"], "alertname": name,
         "exp_alerts": [{"exp_labels": labels, "exp_annotations": annotations}]},
        {"eval_time": case["resolved"], "alertname": name, "exp_alerts": []}]}])


@pytest.mark.parametrize("name", QUIET)
def test_the_alert_stays_quiet_when_all_is_well(tmp_path: Path, name: str) -> None:
    input_series, at = QUIET[name]
    promtool_test(tmp_path, [{"interval": "1m", "input_series": input_series,
                              "alert_rule_test": [
        {"eval_time": at, "alertname": name, "exp_alerts": []}]}])


@pytest.mark.parametrize("name", CASES)
def test_each_alert_has_a_summary_and_a_runbook(name: str) -> None:
    rule = alerts()[name]
    assert rule["labels"]["severity"] in {"critical", "warning"}
    assert rule["annotations"]["summary"] and rule["annotations"]["description"]
    anchor = name.lower()
    assert rule["annotations"]["runbook_url"] == f"{RUNBOOK_BASE}#{anchor}"
    assert f"### {name}\n" in RUNBOOKS.read_text()


def test_no_rule_unless_asked() -> None:
    assert render(case_values("defaults")).of_kind("PrometheusRule") == []
