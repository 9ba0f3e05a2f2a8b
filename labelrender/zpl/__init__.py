"""labelrender.zpl: a ZPL II renderer. ZPL in, PNG out.

    from labelrender.zpl import render, RenderOptions
    result = render(zpl, RenderOptions(dpi=203))
    open("label.png", "wb").write(result.png)

The pipeline is lexer -> printer state -> elements -> layout -> raster. Nothing
here knows about HTTP, Redis or storage; every call is independent, so it is
safe from many threads and processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import fonts
from .budget import Budget
from .commands import execute
from .elements import Label
from .errors import (
    DEFAULT_LIMITS,
    LabelIndexOutOfRange,
    LimitExceeded,
    Limits,
    Warning,
    ZplError,
    check_deadline,
)
from .ink import FieldBox, turned
from .layout import LayoutContext, layout
from .lexer import tokenize
from .pdf import PdfPage, pdf_document
from .printer import PrinterState
from .raster import encode_png, finish, paint

__all__ = ["FONT_PROFILES", "FieldBox", "LabelIndexOutOfRange", "LimitExceeded", "Limits",
           "PdfPage", "PdfResult", "RenderOptions", "RenderResult", "Warning", "ZplError",
           "render", "render_pdf"]

FONT_PROFILES = tuple(name for name in fonts.PROFILES if name != "default")


@dataclass(frozen=True)
class RenderOptions:
    """How to render. ``dpi`` is the output resolution; ``source_dpi`` the one the
    ZPL was written for (default: the same). Sizes in dots are source dots."""

    dpi: int = 203
    source_dpi: int | None = None
    width_dots: int | None = None
    height_dots: int | None = None
    index: int = 0
    threshold: bool = False
    font_profile: str | None = None
    rotation: int = 0
    limits: Limits = field(default=DEFAULT_LIMITS)


@dataclass(frozen=True)
class RenderResult:
    """The PNG and what the engine found; ``fields`` has one ``FieldBox`` per printed
    field, in the order of the ZPL, in this image's pixels."""

    png: bytes
    width: int
    height: int
    warnings: tuple[Warning, ...]
    label_count: int
    fields: tuple[FieldBox, ...] = ()


@dataclass(frozen=True)
class PdfResult:
    """A PDF of one label or of every label of a stream, one page each (or a sheet
    of them); ``labels`` are their renders (PNG, warnings, fields), in page order."""

    pdf: bytes
    labels: tuple[RenderResult, ...]
    label_count: int

    @property
    def warnings(self) -> tuple[Warning, ...]:
        """Every label's warnings, each once (a stream's own are every label's)."""
        return tuple(dict.fromkeys(w for label in self.labels for w in label.warnings))


def render(zpl: str | bytes, options: RenderOptions | None = None) -> RenderResult:
    """Render label ``options.index`` of a ZPL stream to PNG."""
    opts = options or RenderOptions()
    state, deadline = _play(zpl, opts)
    return _label_result(state, opts.index, opts, deadline)


def render_pdf(zpl: str | bytes, options: RenderOptions | None = None, *,
               every_label: bool = False, page: PdfPage | None = None) -> PdfResult:
    """Label ``options.index`` of a ZPL stream, or with ``every_label`` each of its
    labels (at most ``Limits.max_labels``), as a PDF laid out as ``page`` says. The
    time budget is for the whole document."""
    opts = options or RenderOptions()
    state, deadline = _play(zpl, opts)
    count = len(state.labels)
    if every_label and count > opts.limits.max_labels:
        raise LimitExceeded(f"the stream has {count} labels, over the {opts.limits.max_labels}"
                            "-label cap of one PDF", limit="labels")
    indexes = range(count) if every_label else [opts.index]
    labels = tuple(_label_result(state, index, opts, deadline) for index in indexes)
    check_deadline(deadline, opts.limits.time_budget_s)
    return PdfResult(pdf_document([label.png for label in labels], opts.dpi, page), labels,
                     count)


def _play(zpl: str | bytes, opts: RenderOptions) -> tuple[PrinterState, float]:
    """The printer state after the whole stream: its labels, ready to draw."""
    _check_options(opts)
    data = zpl.encode("utf-8") if isinstance(zpl, str) else bytes(zpl)
    limits = opts.limits
    if len(data) > limits.max_input_bytes:
        raise LimitExceeded(f"input is {len(data)} bytes, over the {limits.max_input_bytes}-byte "
                            "cap", limit="input_bytes")
    deadline = time.monotonic() + limits.time_budget_s
    state = PrinterState(limits=limits, deadline=deadline)
    execute(state, tokenize(data, limits.max_commands))
    if state.in_label:
        state.end_label()  # a stream cut off before ^XZ still prints what it has
    if not state.labels and state.empty_formats:
        state.labels.append(Label())  # only blank formats: one blank label
    if not state.labels:
        raise ZplError("no label format found: ZPL labels start with ^XA and end with ^XZ")
    return state, deadline


def _label_result(state: PrinterState, index: int, opts: RenderOptions, deadline: float
                  ) -> RenderResult:
    if index >= len(state.labels):
        raise LabelIndexOutOfRange(f"label index {index} is out of range: the stream has "
                       f"{len(state.labels)} label(s)")
    png, width, height, notes, fields = _draw(state.labels[index], state, opts, deadline)
    return RenderResult(png, width, height, tuple(state.warnings + notes), len(state.labels),
                        fields)


def _check_options(opts: RenderOptions) -> None:
    if not 1 <= opts.dpi <= 1200:
        raise ValueError(f"dpi must be 1-1200, got {opts.dpi}")
    if opts.source_dpi is not None and not 1 <= opts.source_dpi <= 1200:
        raise ValueError(f"source_dpi must be 1-1200, got {opts.source_dpi}")
    if opts.rotation % 90 != 0:
        raise ValueError(f"rotation must be 0, 90, 180 or 270, got {opts.rotation}")
    if opts.index < 0:
        raise ValueError(f"index must be 0 or more, got {opts.index}")
    if opts.font_profile is not None and opts.font_profile not in fonts.PROFILES:
        raise ValueError(f"unknown font profile {opts.font_profile!r}; choose one of "
                         f"{', '.join(FONT_PROFILES)}")
    for name in ("width_dots", "height_dots"):
        value = getattr(opts, name)
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")


def _canvas_size(label: Label, opts: RenderOptions, scale: float) -> tuple[int, int]:
    source_dpi = opts.source_dpi or opts.dpi
    width = opts.width_dots or label.width or round(4 * source_dpi)
    height = opts.height_dots or label.length or round(6 * source_dpi)
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    limits = opts.limits
    side = limits.max_side_inches * opts.dpi
    if w > side or h > side:
        raise LimitExceeded(f"canvas {w}x{h} px is over the {limits.max_side_inches:g} in "
                            f"({side:g} px at {opts.dpi} dpi) per-side cap", limit="canvas")
    if w * h > limits.max_megapixels * 1_000_000:
        raise LimitExceeded(f"canvas {w}x{h} px is over the {limits.max_megapixels:g} megapixel "
                            "cap", limit="canvas")
    return w, h


def _draw(label: Label, state: PrinterState, opts: RenderOptions, deadline: float
          ) -> tuple[bytes, int, int, list[Warning], tuple[FieldBox, ...]]:
    scale = opts.dpi / (opts.source_dpi or opts.dpi)
    width, height = _canvas_size(label, opts, scale)
    budget = Budget(width, height, opts.limits, deadline)
    ctx = LayoutContext(scale=scale, font0=fonts.profile_file(opts.font_profile), budget=budget,
                        max_side_px=opts.limits.max_side_inches * opts.dpi)
    if label.width is not None and opts.width_dots is not None and label.width < opts.width_dots:
        # Labelary centres a label narrower than the requested canvas (^PW < width).
        ctx.offset_x = float((opts.width_dots - label.width) // 2) * scale
    for name, blob in state.fonts.items():
        key = fonts.register_font_file(name, blob)
        if key is None:
            ctx.warnings.append(Warning(0, "~DU", f"font {name} cannot be read; font 0 used"))
        else:
            ctx.font_files[name] = key
    primitives = layout(label.elements, ctx)
    canvas = paint(primitives, width, height, budget.tick)
    budget.tick()
    ink = finish(canvas, mirror=label.mirror, invert=label.invert, rotation=opts.rotation)
    fields = tuple(turned(box, width, height, mirror=label.mirror, invert=label.invert,
                          rotation=opts.rotation) for box in ctx.ink.boxes)
    height_out, width_out = ink.shape
    return (encode_png(ink, threshold=opts.threshold), width_out, height_out,
            ctx.warnings, fields)
