"""helm/metrics.yaml against the code: every metric the tiers register is
listed, every one marked exported is registered with its type, and none marked
planned is yet (when the code starts serving one, mark it exported)."""

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


def registered() -> dict[str, str]:
    """Scraped name -> type of every labelrender metric the tiers register."""
    found: dict[str, str] = {}
    for registry in (new_metrics().registry, prometheus_client.REGISTRY):
        for family in registry.collect():
            if family.name.startswith("labelrender_"):
                suffix = "_total" if family.type == "counter" else ""
                found[family.name + suffix] = family.type
    return found


def test_exported_metrics_are_registered_with_their_type() -> None:
    code = registered()
    exported = {m["name"]: m["type"] for m in metric_list() if m["status"] == "exported"}
    assert {name: code.get(name) for name in exported} == exported


def test_planned_metrics_are_not_served_yet() -> None:
    planned = {m["name"] for m in metric_list() if m["status"] == "planned"}
    assert planned & set(registered()) == set()


def test_every_metric_the_code_registers_is_listed() -> None:
    """The README's table is the list, so every metric served is documented."""
    assert set(registered()) - {m["name"] for m in metric_list()} == set()
