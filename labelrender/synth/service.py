"""One synthesis call as the API and the job worker both answer it.

The synchronous endpoint and a finished job return the same body (DECISIONS.md
"Synthesis jobs": ``result`` is the synchronous response), so it is built here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import SCHEMA_VERSION, SynthesisEngine, SynthesisRequest
from .source import read_first_label


@dataclass(frozen=True)
class SynthesisInput:
    """A validated request body (scope and tenant already checked and forced)."""

    input_zpl: str
    hint_template_id: str | None = None
    hint_field_names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"input_zpl": self.input_zpl, "hint_template_id": self.hint_template_id,
                "hint_field_names": list(self.hint_field_names)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> SynthesisInput:
        return SynthesisInput(str(data["input_zpl"]), data.get("hint_template_id"),
                              tuple(data.get("hint_field_names") or ()))


def check_parseable(zpl: str) -> None:
    """Raise UnparseableZpl early for input with no label format in it, so a
    request that cannot succeed is never billed."""
    read_first_label(zpl.encode("utf-8").decode("latin-1"))


def synthesize(engine: SynthesisEngine, request: SynthesisInput, tenant_id: str,
               request_id: str) -> dict[str, Any]:
    """The synthesis response body. Raises UnparseableZpl or EngineUnavailable."""
    result = engine.synthesize(SynthesisRequest(
        request.input_zpl, request.hint_field_names, request.hint_template_id))
    return {
        "status": "ok",
        "scope": "tenant",
        "tenant_id": tenant_id,
        "template_id": request.hint_template_id,
        "draft": result.draft.as_json(),
        "confidence_score": result.confidence_score,
        "low_confidence": result.low_confidence,
        "confidence_components": result.confidence_components,
        "field_confidence": result.field_confidence,
        "warnings": result.warnings,
        "_synthesis_meta": {
            "schema_version": SCHEMA_VERSION,
            "model": result.model,
            "prompt_version": result.prompt_version,
            "request_id": request_id,
        },
    }
