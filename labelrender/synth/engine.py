"""The synthesis engine interface: what every engine takes and gives back.

The service picks its engine by name from settings (``LABELRENDER_SYNTHESIS_ENGINE``).
Only the offline rule-based engine exists today; another engine, for example one
that asks a model endpoint, implements :class:`SynthesisEngine`, raises
:class:`EngineUnavailable` when its upstream fails (the API answers 502) and is
added to :func:`make_engine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .source import UnparseableZpl

__all__ = ["LOW_CONFIDENCE", "SCHEMA_VERSION", "Draft", "EngineUnavailable",
           "SynthesisEngine", "SynthesisRequest", "SynthesisResult", "UnparseableZpl",
           "make_engine"]

# Spec, Limits: "Low-confidence threshold: about 0.7".
LOW_CONFIDENCE = 0.7
# Version of the draft and response shape (bumped when fields change meaning).
SCHEMA_VERSION = "1"


@dataclass(frozen=True)
class SynthesisRequest:
    input_zpl: str
    hint_field_names: tuple[str, ...] = ()
    hint_template_id: str | None = None


@dataclass(frozen=True)
class Draft:
    name: str
    width_dots: int | None
    height_dots: int | None
    source_dpi: int | None
    body: str
    field_map: dict[str, int]
    values: dict[str, str]

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "width_dots": self.width_dots,
                "height_dots": self.height_dots, "source_dpi": self.source_dpi,
                "body": self.body, "field_map": dict(self.field_map),
                "values": dict(self.values)}


@dataclass(frozen=True)
class SynthesisResult:
    draft: Draft
    confidence_score: float
    confidence_components: dict[str, float]
    model: str
    prompt_version: str
    warnings: list[str] = field(default_factory=list)
    # Each placeholder's confidence (0-1), by field name: below LOW_CONFIDENCE its
    # kind or party is uncertain and it is listed in the "names to review" warning.
    field_confidence: dict[str, float] = field(default_factory=dict)

    @property
    def low_confidence(self) -> bool:
        return self.confidence_score < LOW_CONFIDENCE


class EngineUnavailable(RuntimeError):
    """The engine's upstream cannot answer now; the call may be retried."""


class SynthesisEngine(Protocol):
    """Turns one legacy label into a template draft. Must be safe to call from
    several threads; raises UnparseableZpl for input with no label in it."""

    @property
    def model(self) -> str: ...

    def synthesize(self, request: SynthesisRequest) -> SynthesisResult: ...


ENGINES = ("heuristic",)


def make_engine(name: str) -> SynthesisEngine:
    """The engine configured by ``name``; only ``heuristic`` is built."""
    if name == "heuristic":
        from .heuristic import HeuristicEngine

        return HeuristicEngine()
    raise ValueError(f"unknown synthesis engine {name!r}; choose one of {', '.join(ENGINES)}")
