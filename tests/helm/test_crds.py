"""The chart's CRDs are the root crds/ files themselves (symlinks made by
helm/sync_crds.py): Helm loads them into the chart, and they cannot drift."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import helm_python
import pytest
import yaml

from tests.helm.support import CHART_DIR, REPO, case_values, render


def load_sync_crds() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sync_crds", REPO / "helm" / "sync_crds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sync_crds = load_sync_crds()
ROOT_DEFINITIONS = sync_crds.definition_files(sync_crds.ROOT_CRDS)
needs_root_crds = pytest.mark.skipif(
    not ROOT_DEFINITIONS, reason="no CustomResourceDefinitions in the root crds/ yet")


def definition(name: str, plural: str) -> str:
    return yaml.safe_dump({"apiVersion": "apiextensions.k8s.io/v1",
                           "kind": "CustomResourceDefinition",
                           "metadata": {"name": f"{plural}.example.io"},
                           "spec": {"group": "example.io", "names": {"kind": name,
                                                                     "plural": plural}}})


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A repository layout: root crds/ with two definitions, an example and a
    stray object; the chart's crds/ empty."""
    root, chart = tmp_path / "crds", tmp_path / "helm" / "labelrender" / "crds"
    (root / "examples").mkdir(parents=True)
    (root / "things.yaml").write_text(definition("Thing", "things"))
    (root / "widgets.yml").write_text(definition("Widget", "widgets"))
    (root / "examples" / "thing.yaml").write_text("apiVersion: example.io/v1\nkind: Thing\n")
    (root / "peering.yaml").write_text("apiVersion: kopf.dev/v1\nkind: ClusterKopfPeering\n")
    return root, chart


def test_sync_links_the_definitions_and_nothing_else(tree: tuple[Path, Path]) -> None:
    root, chart = tree
    assert sync_crds.drift(root, chart) == ["things.yaml: missing from the chart",
                                            "widgets.yml: missing from the chart"]
    sync_crds.sync(root, chart)
    assert sync_crds.drift(root, chart) == []
    assert sorted(p.name for p in chart.iterdir()) == ["things.yaml", "widgets.yml"]
    assert all(p.is_symlink() for p in chart.iterdir())
    assert (chart / "things.yaml").read_text() == (root / "things.yaml").read_text()


def remove_root_definition(root: Path, chart: Path) -> None:
    (root / "things.yaml").unlink()


def add_root_definition(root: Path, chart: Path) -> None:
    (root / "gadgets.yaml").write_text(definition("Gadget", "gadgets"))


def copy_instead_of_link(root: Path, chart: Path) -> None:
    (chart / "things.yaml").unlink()
    (chart / "things.yaml").write_text(definition("Thing", "things"))


@pytest.mark.parametrize(("change", "problem"), [
    (remove_root_definition, "things.yaml: in the chart but not a definition in"),
    (add_root_definition, "gadgets.yaml: missing from the chart"),
    (copy_instead_of_link, "things.yaml: not a link to ../../../crds/things.yaml"),
])
def test_drift_is_reported_and_repaired(tree: tuple[Path, Path],
                                        change: Callable[[Path, Path], None],
                                        problem: str) -> None:
    root, chart = tree
    sync_crds.sync(root, chart)
    change(root, chart)
    assert any(p.startswith(problem) for p in sync_crds.drift(root, chart))
    sync_crds.sync(root, chart)
    assert sync_crds.drift(root, chart) == []


def test_helm_ships_linked_definitions_as_the_charts_crds(tmp_path: Path,
                                                          tree: tuple[Path, Path]) -> None:
    root, chart_crds = tree
    sync_crds.sync(root, chart_crds)
    chart_dir = chart_crds.parent
    (chart_dir / "Chart.yaml").write_text("apiVersion: v2\nname: labelrender\nversion: 0.1.0\n")
    loaded = helm_python.Chart.load(chart_dir)
    assert {c["name"]: c["data"] for c in loaded.crds} == {
        "crds/things.yaml": (root / "things.yaml").read_text(),
        "crds/widgets.yml": (root / "widgets.yml").read_text()}
    archive = helm_python.package(chart_dir, destination=tmp_path)
    assert len(helm_python.Chart.load(archive).crds) == 2  # packaged as files


@needs_root_crds
def test_the_charts_crds_are_the_root_definitions() -> None:
    assert sync_crds.drift() == [], "run: python helm/sync_crds.py"
    shipped = {c["name"]: c["data"] for c in helm_python.Chart.load(CHART_DIR).crds}
    assert shipped == {f"crds/{p.name}": p.read_text() for p in ROOT_DEFINITIONS}


@needs_root_crds
def test_the_operator_may_touch_every_kind_of_ours_and_no_other() -> None:
    plurals = {d["spec"]["names"]["plural"] for p in ROOT_DEFINITIONS
               for d in yaml.safe_load_all(p.read_text())
               if d["spec"]["group"] == "labelrender.io"}
    (role,) = render(case_values("defaults")).of_kind("ClusterRole")
    ours = {r.split("/")[0] for rule in role["rules"] if "labelrender.io" in rule["apiGroups"]
            for r in rule["resources"]}
    assert ours == plurals
