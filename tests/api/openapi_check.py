"""Checking real answers against the served OpenAPI document, strictly: every
property an answer carries must be documented (``additionalProperties`` is
made false on the document's component schemas for the check)."""

from __future__ import annotations

import copy
import json
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from labelrender.api.openapi import document_bytes

ROOT = "urn:labelrender:openapi"


def strict(schema: Any) -> Any:
    """Every object schema with properties, and no rule for others, allows no others."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    tightened = {key: strict(value) for key, value in schema.items()}
    if "properties" in tightened and "additionalProperties" not in tightened:
        tightened["additionalProperties"] = False
    return tightened


def pointer(*parts: str) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


class Contract:
    """The served document, with strict component schemas."""

    def __init__(self) -> None:
        self.document: dict[str, Any] = json.loads(document_bytes())
        checked = copy.deepcopy(self.document)
        checked["components"]["schemas"] = strict(checked["components"]["schemas"])
        resource = Resource.from_contents(checked, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(ROOT, resource)

    def response(self, method: str, path: str, status: int) -> dict[str, Any]:
        responses = self.document["paths"][path][method.lower()]["responses"]
        assert str(status) in responses, f"{method} {path} answered an undocumented {status}"
        found: dict[str, Any] = responses[str(status)]
        return found

    def check(self, method: str, path: str, status: int, body: Any,
              content_type: str = "application/json") -> None:
        """``body`` (parsed JSON) is what the document promises for this answer."""
        media = self.response(method, path, status)["content"]
        assert content_type in media, f"{method} {path} {status}: undocumented {content_type}"
        self.check_at(pointer("paths", path, method.lower(), "responses", str(status),
                              "content", content_type, "schema"), body)

    def check_at(self, schema_pointer: str, value: Any) -> None:
        """``value`` against the schema at ``schema_pointer`` in the document."""
        validator = Draft202012Validator({"$ref": f"{ROOT}#{schema_pointer}"},
                                         registry=self._registry)
        problems = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        assert not problems, "\n".join(f"{list(p.absolute_path)}: {p.message}"
                                       for p in problems[:5])

    def example(self, method: str, path: str, status: int) -> Any:
        media = self.response(method, path, status)["content"]
        return next(iter(media.values())).get("example")
