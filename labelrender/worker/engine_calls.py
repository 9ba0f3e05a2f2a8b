"""What the sandbox's processes run: a render job, a synthesis, a template check.

Each runs inside a ``Sandbox`` process (``labelrender.worker.sandbox``), never
in the worker's or the API's own process. Refusals come back as values, not
exceptions: an exception's extra constructor arguments (``ZplError``'s offset
and command) do not survive pickling intact, and a value says plainly which
refusals are expected. ``MemoryError`` is left to the sandbox, which answers
it as the memory limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from labelrender.store.jobs import RenderJob
from labelrender.store.templates import Draft
from labelrender.synth.engine import EngineUnavailable, SynthesisEngine, UnparseableZpl
from labelrender.synth.service import SynthesisInput, synthesize
from labelrender.synth.template_checks import InvalidTemplate, check_draft
from labelrender.zpl import LimitExceeded, Limits, RenderOptions, ZplError, render

INVALID_ZPL = "InvalidZpl"  # the spec's 422 kind for unparseable ZPL
INVALID_OPTIONS = "InvalidOptions"  # DPI or font profile the API should have refused
TOO_COMPLEX = "RenderTooComplex"  # over a limit: the engine's, or the sandbox's


@dataclass(frozen=True)
class Rendered:
    """The engine's output, in plain types so it crosses the process boundary."""

    png: bytes
    width: int
    height: int
    warnings: list[str]


@dataclass(frozen=True)
class Rejected:
    """Input the engine cannot render; ``kind`` is the reply's error_kind and
    ``limit`` names the limit a ``RenderTooComplex`` went over."""

    kind: str
    message: str
    limit: str = ""
    unexpected: bool = False  # the engine raised something it never should


@dataclass(frozen=True)
class Refused:
    """A synthesis or template check that cannot succeed: the API's kind,
    message and the parameter at fault."""

    kind: str
    message: str
    param: str


def render_label(job: RenderJob, time_budget_s: float) -> Rendered | Rejected:
    """Run the engine on one render job, with its own time budget."""
    options = RenderOptions(
        dpi=job.target_dpi, source_dpi=job.source_dpi, width_dots=job.width_dots,
        height_dots=job.height_dots, threshold=job.threshold, font_profile=job.font_profile,
        limits=Limits(time_budget_s=time_budget_s),
    )
    try:
        result = render(job.zpl, options)
    except LimitExceeded as exc:
        return Rejected(TOO_COMPLEX, str(exc), exc.limit)
    except ZplError as exc:
        return Rejected(INVALID_ZPL, str(exc))
    except ValueError as exc:  # option checks: render() raises plain ValueError
        return Rejected(INVALID_OPTIONS, str(exc))
    except MemoryError:
        raise
    except Exception as exc:  # the same input fails the same way: final, not retried
        return Rejected(INVALID_ZPL, f"the label cannot be rendered: {type(exc).__name__}: "
                                     f"{exc}", unexpected=True)
    return Rendered(result.png, result.width, result.height,
                    [str(warning) for warning in result.warnings])


def synthesize_draft(engine: SynthesisEngine, request: SynthesisInput, tenant_id: str,
                     request_id: str) -> dict[str, Any] | Refused:
    """The synthesis response body, or why there is none."""
    try:
        return synthesize(engine, request, tenant_id, request_id)
    except UnparseableZpl as exc:
        if isinstance(exc.__cause__, LimitExceeded):  # a label over an engine limit
            return Refused(TOO_COMPLEX, str(exc), "input_zpl")
        return Refused("InvalidInputZpl", str(exc), "input_zpl")
    except EngineUnavailable as exc:
        return Refused("SynthesisUpstreamUnavailable", str(exc), "input_zpl")


def check_template(draft: Draft) -> str | Refused:
    """``check_draft``: the body's SHA-256, or why the draft cannot be stored."""
    try:
        return check_draft(draft)
    except InvalidTemplate as exc:
        if isinstance(exc.__cause__, LimitExceeded):  # a body over an engine limit
            return Refused(TOO_COMPLEX, exc.message, exc.param)
        return Refused(exc.kind, exc.message, exc.param)
