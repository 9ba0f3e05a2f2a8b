"""The CRDs: well-formed, every example valid against its CRD, every bad object
of the bad-input table refused where the schema can say so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.operator.bad_input import ROWS, BadInput
from tests.operator.crds import EXAMPLES_DIR, ROOT, load_crds, schema_errors

CRDS = load_crds()
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml")) + [ROOT / "examples" / "label-template.yaml"]


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


@pytest.mark.parametrize(("kind", "scope", "short_names"), [
    ("LabelTemplate", "Namespaced", ["ltpl"]),
    ("Plan", "Cluster", ["lrplan"]),
])
def test_crd_shape(kind: str, scope: str, short_names: list[str]) -> None:
    crd = CRDS[kind]
    assert crd.doc["apiVersion"] == "apiextensions.k8s.io/v1"
    assert crd.doc["metadata"]["name"] == f"{crd.plural}.labelrender.io"
    assert crd.group == "labelrender.io" and crd.version["name"] == "v1"
    assert crd.doc["spec"]["scope"] == scope
    assert crd.names["shortNames"] == short_names
    assert crd.version["subresources"] == {"status": {}}
    columns = [c["name"] for c in crd.version["additionalPrinterColumns"]]
    assert columns[0] == "Ready" and columns[-1] == "Age"
    assert kind != "LabelTemplate" or "Version" in columns


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_are_valid(path: Path) -> None:
    for doc in documents(path):
        assert schema_errors(CRDS[doc["kind"]], doc) == []


@pytest.mark.parametrize("bad", ROWS, ids=lambda row: row.id)
def test_bad_objects(bad: BadInput) -> None:
    problems = schema_errors(CRDS[bad.kind], bad.object("bad"))
    if bad.schema_refuses is None:
        assert problems == []  # only the operator's template check can refuse it
    else:
        assert problems and problems[0].startswith(bad.schema_refuses + ":"), problems


@pytest.mark.parametrize(("change", "path"), [
    ({"status": {"version": "one"}}, "status.version"),
    ({"status": {"conditions": [{"type": "Ready", "status": "Yes"}]}},
     "status.conditions.0.status"),
    ({"metadata": {"name": "x" * 129}}, "metadata.name"),
], ids=["status-version", "condition-status", "name-length"])
def test_schema_also_guards_status_and_name(change: dict[str, Any], path: str) -> None:
    obj = {**BadInput("", "LabelTemplate", {}, None, "", "").object("ok"), **change}
    problems = schema_errors(CRDS["LabelTemplate"], obj)
    assert problems and problems[0].startswith(path + ":"), problems
