"""helm/metrics.yaml against the code: every metric the tiers register is
listed, every one listed is registered with its type and labels, and none is
left planned (the dashboard and the HPA use only metrics the code serves)."""

from __future__ import annotations

import importlib
import pkgutil

import prometheus_client

import labelrender
from labelrender.api.metrics import new_metrics
from tests.helm.support import metric_list

# Every module (but `python -m` entry points), so that each metric registered
# at import time is registered.
for module in pkgutil.walk_packages(labelrender.__path__, "labelrender."):
    if not module.name.endswith(".__main__"):
        importlib.import_module(module.name)


def families() -> dict[str, prometheus_client.Metric]:
    """Scraped name -> family of every labelrender metric the tiers register."""
    found: dict[str, prometheus_client.Metric] = {}
    for registry in (new_metrics().registry, prometheus_client.REGISTRY):
        for family in registry.collect():
            if family.name.startswith("labelrender_"):
                suffix = "_total" if family.type == "counter" else ""
                found[family.name + suffix] = family
    return found


def registered() -> dict[str, str]:
    """Scraped name -> type of every labelrender metric the tiers register."""
    return {name: family.type for name, family in families().items()}


def test_exported_metrics_are_registered_with_their_type() -> None:
    code = registered()
    exported = {m["name"]: m["type"] for m in metric_list() if m["status"] == "exported"}
    assert {name: code.get(name) for name in exported} == exported


def test_no_metric_is_left_planned() -> None:
    assert [m["name"] for m in metric_list() if m["status"] != "exported"] == []


def test_series_carry_the_listed_labels() -> None:
    """Every series a family has so far (those of closed label sets exist from
    the start) carries exactly the listed labels."""
    code = families()
    wrong = {}
    for metric in metric_list():
        for sample in code[metric["name"]].samples:
            names = set(sample.labels) - {"le"}  # a histogram bucket's bound
            if names != set(metric["labels"]):
                wrong[sample.name] = sorted(names)
    assert wrong == {}


def test_every_metric_the_code_registers_is_listed() -> None:
    """The README's table is the list, so every metric served is documented."""
    assert set(registered()) - {m["name"] for m in metric_list()} == set()
