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
from labelrender.zpl import (
    FieldBox,
    LabelIndexOutOfRange,
    LimitExceeded,
    Limits,
    PdfPage,
    RenderOptions,
    ZplError,
    render,
    render_pdf,
)

INVALID_ZPL = "InvalidZpl"  # the spec's 422 kind for unparseable ZPL
INVALID_LABEL_INDEX = "InvalidLabelIndex"  # a label_index past the stream's last label
INVALID_OPTIONS = "InvalidOptions"  # DPI or font profile the API should have refused
TOO_COMPLEX = "RenderTooComplex"  # over a limit: the engine's, or the sandbox's


@dataclass(frozen=True)
class Rendered:
    """The engine's output, in plain types so it crosses the process boundary."""

    png: bytes  # the output file: a PNG, or a PDF for a job that asks for one
    width: int
    height: int
    warnings: list[str]
    label_count: int = 1
    fields: list[list[Any]] | None = None  # each field's ink box, when the job asks
    content_type: str = "image/png"


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


# What a render process renders before it says it is ready (``warm_up``), and a
# worker through each of them before it takes a job (``JobHandler.warm_up``):
# font 0 (the default and most used), a scalable font, and a Code 128 barcode.
WARM_UP_LABEL = (b"^XA^FO20,20^A0N,40^FDWarm up 0123^FS^FO20,80^ADN,18^FDWarm up^FS"
                 b"^FO20,120^BCN,60^FD0123456789^FS^XZ")


def render_label(job: RenderJob, time_budget_s: float) -> Rendered | Rejected:
    """Run the engine on one render job, with its own time budget."""
    options = RenderOptions(
        dpi=job.target_dpi, source_dpi=job.source_dpi, width_dots=job.width_dots,
        height_dots=job.height_dots, threshold=job.threshold, font_profile=job.font_profile,
        index=job.label_index or 0, rotation=job.rotation,
        limits=Limits(time_budget_s=time_budget_s),
    )
    try:
        if job.output_format == "pdf":
            return _pdf(job, options)
        result = render(job.zpl, options)
    except LimitExceeded as exc:
        return Rejected(TOO_COMPLEX, str(exc), exc.limit)
    except LabelIndexOutOfRange as exc:
        return Rejected(INVALID_LABEL_INDEX, str(exc))
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
                    [str(warning) for warning in result.warnings], result.label_count,
                    numbered(field_rows(result.fields), job.extra.get("field_numbers", []))
                    if job.fields else None)


def _pdf(job: RenderJob, options: RenderOptions) -> Rendered:
    page = PdfPage(**{**job.pdf_page, **_tuples(job.pdf_page)}) if job.pdf_page else None
    document = render_pdf(job.zpl, options, every_label=job.label_index is None, page=page)
    first = document.labels[0]
    return Rendered(document.pdf, first.width, first.height,
                    [str(warning) for warning in document.warnings], document.label_count,
                    content_type="application/pdf")


def _tuples(page: dict[str, Any]) -> dict[str, Any]:
    """PdfPage's sizes, which JSON carried as lists."""
    return {name: tuple(page[name]) for name in ("label_size", "sheet") if page.get(name)}


def numbered(rows: list[list[Any]], spans: list[list[int]]) -> list[list[Any]]:
    """A template's field boxes with the ``^FN`` number their field had in the
    template (the filled body has ``^FD`` data there): ``spans`` are [start, end, n]
    byte ranges of the filled body (``from_data.placeholder_spans``)."""
    for row in rows:
        for start, end, number in spans:
            if row[2] is None and start <= row[0] < end:
                row[2] = number
    return rows


def field_rows(fields: tuple[FieldBox, ...]) -> list[list[Any]]:
    """Field boxes in plain lists, as the reply and the object's record carry them."""
    return [[f.offset, f.command, f.fn, f.x, f.y, f.width, f.height] for f in fields]


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
