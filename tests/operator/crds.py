"""The CRDs in crds/, read for the tests: their kinds, and their schemas as JSON
Schema, since the emulator the operator tests run against does not validate.

The API server checks an object against ``openAPIV3Schema``; with strict field
validation (kubectl's default) it also refuses fields the schema does not name.
``json_schema`` converts the OpenAPI subset a CRD uses to JSON Schema with that
strictness, leaving ``metadata`` to the API server as it does.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

ROOT = Path(__file__).parents[2]
CRD_DIR = ROOT / "crds"
EXAMPLES_DIR = CRD_DIR / "examples"
_NESTED = ("items", "additionalProperties", "not")


@dataclass(frozen=True)
class Crd:
    """One CustomResourceDefinition: its names, scope and the served version."""

    doc: dict[str, Any]

    @property
    def group(self) -> str:
        return str(self.doc["spec"]["group"])

    @property
    def names(self) -> dict[str, Any]:
        return dict(self.doc["spec"]["names"])

    @property
    def kind(self) -> str:
        return str(self.names["kind"])

    @property
    def plural(self) -> str:
        return str(self.names["plural"])

    @property
    def namespaced(self) -> bool:
        return bool(self.doc["spec"]["scope"] == "Namespaced")

    @property
    def version(self) -> dict[str, Any]:
        served = [v for v in self.doc["spec"]["versions"] if v.get("storage")]
        return dict(served[0])

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version['name']}"

    def validator(self) -> jsonschema.Draft202012Validator:
        schema = json_schema(self.version["schema"]["openAPIV3Schema"], root=True)
        return jsonschema.Draft202012Validator(schema,
                                               format_checker=jsonschema.FormatChecker())


def load_crds() -> dict[str, Crd]:
    """Every CRD in crds/, by kind."""
    found = [Crd(yaml.safe_load(path.read_text())) for path in sorted(CRD_DIR.glob("*.yaml"))]
    return {crd.kind: crd for crd in found}


def json_schema(openapi: Mapping[str, Any], *, root: bool = False) -> dict[str, Any]:
    """An ``openAPIV3Schema`` (structural, as CRDs require) as JSON Schema."""
    schema: dict[str, Any] = {}
    for key, value in openapi.items():
        if key.startswith("x-kubernetes-") or key == "nullable":
            continue
        if key == "properties":
            schema[key] = {name: (copy.deepcopy(sub) if root and name == "metadata"
                                  else json_schema(sub)) for name, sub in value.items()}
        elif key in _NESTED and isinstance(value, Mapping):
            schema[key] = json_schema(value)
        elif key in ("allOf", "anyOf", "oneOf"):
            schema[key] = [json_schema(sub) for sub in value]
        else:
            schema[key] = copy.deepcopy(value)
    if openapi.get("nullable"):
        schema["type"] = [schema["type"], "null"]
    strict = (schema.get("type") == "object" and "properties" in schema
              and "additionalProperties" not in schema
              and not openapi.get("x-kubernetes-preserve-unknown-fields"))
    if strict:
        schema["additionalProperties"] = False
    return schema


def schema_errors(crd: Crd, obj: Mapping[str, Any]) -> list[str]:
    """What the API server would refuse in ``obj``: ``path: message`` lines."""
    problems = [f"apiVersion: expected {crd.api_version}"] if (
        obj.get("apiVersion") != crd.api_version) else []
    for error in crd.validator().iter_errors(obj):
        path = ".".join(str(part) for part in error.absolute_path) or "(root)"
        problems.append(f"{path}: {error.message}")
    return problems
