"""The docs' Kubernetes pages (deploy, scaling, metrics, alerts) say what the chart does:
their values install, their values exist, and the metrics table is the list."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from tests.helm.support import REPO, chart, merged, metric_list, render
from tests.helm.test_monitoring import listed_series

PAGES = ("operators/deploy.md", "sre/scaling.md", "sre/metrics.md", "sre/alerts.md")


def deploy_section() -> str:
    """The pages an operator and an SRE read to deploy, scale and watch it."""
    return "\n".join((REPO / "docs" / page).read_text() for page in PAGES)


def values_blocks() -> list[dict[str, Any]]:
    """The YAML blocks that are chart values (not prometheus-adapter's rules)."""
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", deploy_section(), re.S)]
    return [b for b in blocks if "rules" not in b]


def test_the_install_values_and_each_variant_render() -> None:
    install, *variants = values_blocks()
    assert install["redis"]["existingSecret"] and variants
    for variant in [{}, *variants]:
        rendered = render(merged(install, variant))
        assert rendered.component("Deployment", "worker") is not None


@pytest.mark.parametrize("mode", ["keda", "hpa"])
def test_each_autoscaling_variant_is_shown(mode: str) -> None:
    install, *variants = values_blocks()
    (variant,) = [v for v in variants if v.get("autoscaling", {}).get("mode") == mode]
    kind = {"keda": "ScaledObject", "hpa": "HorizontalPodAutoscaler"}[mode]
    assert len(render(merged(install, variant)).of_kind(kind)) == 1


def value_exists(path: str, values: dict[str, Any]) -> bool:
    node: Any = values
    for part in path.split("."):
        if part == "*":
            return isinstance(node, dict)
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def test_every_value_the_section_names_exists() -> None:
    values = chart().values
    top = "|".join(values)
    named = set(re.findall(rf"`((?:{top})\.[\w.*]+)`", deploy_section()))
    assert named
    assert {path for path in named if not value_exists(path.rstrip("."), values)} == set()


def test_every_metric_the_section_names_is_listed() -> None:
    named = set(re.findall(r"\blabelrender_[a-z0-9_]+", deploy_section()))
    assert named - set(listed_series()) - {m["name"] for m in metric_list()} == set()


def test_the_metrics_table_is_the_list() -> None:
    rows = re.findall(r"^\| `(labelrender_\w+)` \| (\w+) \| ([^|]*) \| ([^|]*) \| (\w+) \| "
                      r"(.*) \|$", deploy_section(), re.M)
    table = [(name, kind, re.findall(r"`(\w+)`", labels), tiers.strip().split(", "), status,
              meaning) for name, kind, labels, tiers, status, meaning in rows]
    assert table == [(m["name"], m["type"], m["labels"], m["tiers"], m["status"], m["meaning"])
                     for m in metric_list()]
