"""The offline, deterministic synthesis engine: rules, no model.

Steps: read the first label (source.py), decide which fields are variable
(classify.py), give each distinct value a ^FN and a name (naming.py), splice the
placeholders into the body, then prove the draft: the body filled with the
sample values must render pixel for pixel like the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labelrender.zpl import RenderOptions, ZplError, render

from . import naming, shapes
from .classify import classify
from .decision import Decision
from .engine import LOW_CONFIDENCE, Draft, SynthesisRequest, SynthesisResult
from .fill import fill_body
from .shapes import snake, words_only
from .source import SourceLabel, UnparseableZpl, read_first_label
from .stored import read_stored_format

MODEL = "labelrender-heuristic-1"
PROMPT_VERSION = "rules-2026-11"  # the rule set's version; there is no prompt

# Label widths and heights in inches that printers ship with (inch and metric
# stock: 85, 100, 104 and 150 mm); the DPI whose ^PW/^LL land on one of them is
# the authoring DPI.
_DPIS = (203, 300, 600, 152)
_WIDTHS_IN = (1.0, 1.25, 1.5, 2.0, 2.25, 2.5, 3.0, 3.35, 3.5, 4.0, 4.09, 4.25, 5.0, 5.91,
              6.0, 8.0)
_HEIGHTS_IN = (1.0, 1.5, 2.0, 2.5, 3.0, 3.35, 4.0, 4.72, 5.0, 5.91, 6.0, 6.5, 7.0, 7.5, 8.0,
               10.0, 12.0)
_SIZE_TOLERANCE = 0.04
# A field judged from weak signs below this certainty is one a person should check.
_WEAK = 0.7
# A name this sure (a caption, a check digit) vouches that its field is data too.
_SURE_NAME = 0.8
# The names of fields whose kind was not found (naming.make_unique).
_GENERIC = re.compile(r"(?:text|field)_\d+")


@dataclass
class _Size:
    width: int | None
    height: int | None
    dpi: int | None
    certainty: float


def _to_text(zpl: str) -> str:
    return zpl.encode("utf-8").decode("latin-1")


def _from_text(text: str) -> str:
    return text.encode("latin-1").decode("utf-8", errors="replace")


def _nearest(dots: int, dpi: int, sizes: tuple[float, ...]) -> float:
    inches = dots / dpi
    return min(abs(inches - size) / size for size in sizes)


def detect_size(label: SourceLabel) -> _Size:
    """Width and height from ^PW/^LL; the DPI at which they are a stock size."""
    width, height = label.width, label.length
    if not width and not height:
        return _Size(None, None, None, 0.3)
    # The most common DPI that fits wins: 7.5 in at 203 dpi and 10 in at 152 are both 1520.
    for dpi in _DPIS:
        parts = [_nearest(width, dpi, _WIDTHS_IN)] if width else []
        parts += [_nearest(height, dpi, _HEIGHTS_IN)] if height else []
        if max(parts) <= _SIZE_TOLERANCE:
            return _Size(width or None, height or None, dpi, 1.0 if width and height else 0.8)
    return _Size(width or None, height or None, None, 0.5)


def _body(label: SourceLabel, placeholders: list[naming.Placeholder]) -> str:
    """The first label with each variable ^FD replaced by its ^FN (and static part)."""
    edits = []
    for p in placeholders:
        for d in p.decisions:
            source = d.source
            start, end = source.data_span
            original = label.text[start:end]
            newline = original[len(original.rstrip("\r\n")):]
            static = source.raw[: d.prefix_len]
            data = f"{source.caret}FD{static}" if static else ""
            edits.append((start, end, f"{source.caret}FN{p.index}{data}{newline}"))
            edits += [(start, end, "") for start, end in source.overridden]
    out, pos = [], 0
    for start, end, text in sorted(edits):
        out += [label.text[pos:start], text]
        pos = end
    out.append(label.text[pos:])
    return _from_text("".join(out))


def _suggested_name(request: SynthesisRequest, decisions: list[Decision]) -> str:
    if request.hint_template_id:
        name = snake(request.hint_template_id.removeprefix("tpl_"))
        if name:
            return name
    titles = [d for d in decisions if not d.variable and not d.source.is_barcode
              and d.text and words_only(d.text) and len(d.text.split()) <= 4
              and not d.text.endswith(":")]
    if titles:
        title = max(titles, key=lambda d: (d.source.font_height, -d.source.y))
        if snake(title.text):
            return snake(title.text) + "_label"
    return "label_template"


def _render(zpl: str) -> tuple[bytes, int]:
    result = render(zpl, RenderOptions())
    return result.png, len(result.warnings)


class HeuristicEngine:
    """Rule-based synthesis: captions, address blocks, data shapes, symbologies."""

    model = MODEL
    prompt_version = PROMPT_VERSION

    def __init__(self) -> None:
        # The country names of the carriers' languages load once, here, so that the
        # first request does not wait for them.
        shapes.is_country("")

    def synthesize(self, request: SynthesisRequest) -> SynthesisResult:
        text = _to_text(request.input_zpl)
        stored = read_stored_format(text)
        label = read_first_label(stored.text if stored is not None else text)
        original = _from_text(label.text)
        if stored is not None and stored.recall is not None:
            original = _from_text(stored.recall)  # the recalled label is what prints
        try:
            original_png, render_warnings = _render(original)
        except ZplError as exc:
            raise UnparseableZpl(str(exc)) from exc
        decisions = classify(label)
        if stored is None:
            placeholders = naming.group(decisions)
            warnings = []
        else:
            placeholders = naming.from_numbers(decisions, stored.numbers)
            warnings = [f"stored format {stored.name}: its ^FN numbers are kept"]
            if stored.recall is None:
                warnings.append(f"no ^XF recalls {stored.name}: the samples are the "
                                "format's own ^FD defaults")
        warnings += naming.apply_hints(placeholders, request.hint_field_names)
        naming.make_unique(placeholders)
        size = detect_size(label)
        draft = Draft(
            name=_suggested_name(request, decisions), width_dots=size.width,
            height_dots=size.height, source_dpi=size.dpi, body=_body(label, placeholders),
            field_map={p.name: p.index for p in placeholders},
            values={p.name: p.value for p in placeholders})
        round_trip = _round_trip(draft, label.text, original_png)
        fields = {p.name: field_confidence(p) for p in placeholders}
        components = _components(label, decisions, fields, size, render_warnings)
        likely = _likely_right(components, placeholders != [])
        warnings += _warnings(label, decisions, fields, size, render_warnings)
        if not placeholders or any(c < LOW_CONFIDENCE for c in fields.values()):
            # A field whose kind or party is uncertain needs a person's look: the label
            # is below the threshold, still ordered by how much of it is likely right.
            score = (LOW_CONFIDENCE - 0.01) * _settled_share(fields, components,
                                                             _weak_static(decisions))
        else:
            score = LOW_CONFIDENCE + (1.0 - LOW_CONFIDENCE) * likely
        if not round_trip:
            score *= 0.5
            warnings.append("the body filled with the sample values does not render like "
                            "the input; review the placeholders")
        components["round_trip"] = 1.0 if round_trip else 0.0
        return SynthesisResult(draft, round(max(0.0, score), 3), components, MODEL,
                               PROMPT_VERSION, warnings, fields)


def _round_trip(draft: Draft, source_text: str, original_png: bytes) -> bool:
    """The body filled with the samples prints like the input. When the filled body
    is the input byte for byte (the usual case), it does without rendering again."""
    try:
        filled = fill_body(draft.body, draft.field_map, draft.values)
        if filled == _from_text(source_text):
            return True
        return _render(filled)[0] == original_png
    except (ZplError, ValueError):
        return False


def field_confidence(p: naming.Placeholder) -> float:
    """How sure a placeholder is: that its fields are variable, and of its name
    (the kind of data and, for an address, whose)."""
    variable = min(d.certainty for d in p.decisions) if p.decisions else 0.5
    if p.name_certainty >= _SURE_NAME and variable >= 0.4:
        return round(p.name_certainty, 3)  # a caption or a validated shape says "data"
    return round(min(variable, p.name_certainty), 3)


def _mean(values: list[float], empty: float) -> float:
    return sum(values) / len(values) if values else empty


def _components(label: SourceLabel, decisions: list[Decision], fields: dict[str, float],
                size: _Size, render_warnings: int) -> dict[str, float]:
    coverage = label.known_commands / max(1, label.commands)
    coverage *= max(0.5, 1.0 - 0.02 * render_warnings)
    judged = [d for d in decisions if d.text]
    weak_static = _weak_static(decisions)
    return {
        "parse_coverage": round(coverage, 3),
        "variable_certainty": round(_mean([d.certainty for d in judged], 0.3), 3),
        "static_certainty": round(1.0 - weak_static / max(1, len(judged)), 3),
        "naming_certainty": round(_mean(list(fields.values()), 0.0), 3),
        "dimension_detection": size.certainty,
    }


def _weak_static(decisions: list[Decision]) -> int:
    """Texts left static on weak signs: each may be a missed field."""
    return sum(1 for d in decisions if d.text and not d.variable and d.certainty < _WEAK)


def _likely_right(components: dict[str, float], any_field: bool) -> float:
    """The share of the label's fields likely found and named right, 0-1.
    The fields' mean confidence (how sure each name is) times the share of text
    not left static on weak signs (a field there may be a missed variable one),
    times the share of the input understood. Label size and the other signals are
    reported, not scored: they say nothing of whether the names are right."""
    naming = components["naming_certainty"] if any_field else 0.5
    return naming * components["static_certainty"] * components["parse_coverage"]


# How often a name of each confidence is right, measured on the development labels
# and the generated ones (benchmarks/synthesis_eval.py, "field confidence -> names
# right"): (upper bound of the confidence, share named right).
_NAMED_RIGHT = ((0.5, 0.4), (0.7, 0.85), (0.85, 0.97), (1.01, 0.98))
_WEAK_STATIC_WEIGHT = 0.25


def _settled_share(fields: dict[str, float], components: dict[str, float],
                   weak: int) -> float:
    """For a label with fields to review: the share of its fields likely named right,
    each counted at how often a name of its confidence is right (a name of its own,
    not ``text_3``: one of those is surely not right), with each text left static
    on weak signs counted as a quarter of a field that may have been missed. On the
    development and generated labels this tracks the share named right more closely
    (correlation +0.51 and +0.50) than the share not listed for review (+0.43)."""
    if not fields:
        return 0.5 * components["static_certainty"]
    likely = [0.0 if _GENERIC.fullmatch(name) else
              next(right for upper, right in _NAMED_RIGHT if c < upper)
              for name, c in fields.items()]
    return sum(likely) / (len(likely) + _WEAK_STATIC_WEIGHT * weak)


def _warnings(label: SourceLabel, decisions: list[Decision], fields: dict[str, float],
              size: _Size, render_warnings: int) -> list[str]:
    warnings = []
    unknown = label.commands - label.known_commands
    if unknown:
        warnings.append(f"{unknown} command(s) not understood; they were kept as they are")
    if render_warnings:
        warnings.append(f"the input renders with {render_warnings} warning(s)")
    if not fields:
        warnings.append("no variable data found: the body has no placeholders")
    unsure = [d.text for d in decisions if d.text and d.certainty < _WEAK]
    if unsure:
        warnings.append(f"{len(unsure)} field(s) judged static or variable from weak signs, "
                        f"for example {unsure[0][:40]!r}")
    review = [name for name, c in fields.items() if c < LOW_CONFIDENCE]
    if review:  # every field whose kind or party is uncertain, most doubtful first
        review.sort(key=lambda name: fields[name])
        warnings.append("names to review: " + ", ".join(review))
    if size.width is None and size.height is None:
        warnings.append("no ^PW or ^LL: label size and DPI not detected")
    elif size.dpi is None:
        warnings.append("label size is not a stock size at 152, 203, 300 or 600 dpi: "
                        "source_dpi not detected")
    return warnings
