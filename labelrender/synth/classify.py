"""Which fields of a legacy label are variable data, and what part of each.

Each field gets a :class:`Decision`: variable or static, the static part of its
data that stays in the body (a caption such as ``REF: `` or a barcode's format
prefix), the sample value, a name and how certain each of those is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import shapes
from .source import SourceField, SourceLabel, printed_bytes, sample_value

# Data that belongs to the barcode format, not to the value (see fill.py).
_FORMAT_PREFIXES = {
    "BQ": re.compile(r"^[HQML][AM],(?:(?<=M,)(?:B\d{4}|[NAK]))?"),  # QR level and mode
    "BC": re.compile(r"^(?:>[5-9:;])+"),  # Code 128 start subset and FNC1 codes
}
_SYMBOLOGY_NAMES = {
    "BC": "code128", "B3": "code39", "BA": "code93", "B2": "interleaved_2of5",
    "BE": "ean13", "B8": "ean8", "BU": "upc_a", "B9": "upc_e", "BQ": "qr_code",
    "BX": "datamatrix", "B7": "pdf417", "BF": "micro_pdf417", "BO": "aztec", "B0": "aztec",
    "BD": "maxicode", "BR": "databar", "BZ": "postnet", "B5": "planet",
}
# Line layout: lines of one block share a column and follow each other closely.
_COLUMN_TOLERANCE = 14
# In an address block, a line of 7 to 15 digits is a telephone number.
_PHONE_DIGITS = re.compile(r"\+?[\d ()/-]{7,18}")
_MAX_BLOCK_LINES = 8


@dataclass
class Decision:
    source: SourceField
    text: str  # the printed text (decoded), stripped
    variable: bool = False
    prefix_len: int = 0  # length of the raw static part kept in the body
    value: str | None = None
    certainty: float = 0.6
    reason: str = "words only"
    name: str | None = None
    name_certainty: float = 0.0


def _printed(source: SourceField) -> str:
    value = sample_value(source, source.raw)
    return (value if value is not None else printed_bytes(source, source.raw)).strip()


def _variable(d: Decision, reason: str, certainty: float, prefix_len: int = 0,
              name: tuple[str, float] | None = None) -> None:
    """Mark ``d`` variable if its value after the static part is readable text."""
    value = sample_value(d.source, d.source.raw[prefix_len:])
    joined = printed_bytes(d.source, d.source.raw[:prefix_len]) + printed_bytes(
        d.source, d.source.raw[prefix_len:])
    if value is None or not value.strip() or joined != printed_bytes(d.source, d.source.raw):
        return
    d.variable, d.prefix_len, d.value = True, prefix_len, value
    d.reason, d.certainty = reason, certainty
    if name is not None:
        d.name, d.name_certainty = name


def _barcode(d: Decision) -> None:
    symbology = d.source.symbology or ""
    pattern = _FORMAT_PREFIXES.get(symbology)
    match = pattern.match(d.source.raw) if pattern else None
    prefix_len = match.end() if match else 0
    data = d.source.raw[prefix_len:]
    shape = shapes.shape_name(data) if symbology != "BD" else None
    if symbology == "BC" and re.fullmatch(r"42[01]\d{5,12}", data):
        shape = ("postal_routing_code", 0.75)  # GS1 AI 420/421: ship-to postal code
    name = shape or (_SYMBOLOGY_NAMES.get(symbology, "barcode") + "_data", 0.55)
    _variable(d, "barcode data", 0.95, prefix_len, name)


def _text(d: Decision) -> None:
    text = d.text
    if not text:
        d.reason, d.certainty = "empty", 0.95
        return
    # Leading spaces are layout (right-aligned ^FB columns), not part of the value.
    indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
    if shapes.is_caption(text):
        d.reason, d.certainty = "caption", 0.9
        return
    split = shapes.caption_split(d.source.raw)
    if split is not None:
        caption = d.source.raw[:split]
        _variable(d, f"value after caption {caption.strip()!r}", 0.85, split,
                  (shapes.caption_name(caption), 0.85))
        if d.variable:
            return
    shape = shapes.shape_name(text)
    if shape is not None:
        _variable(d, "data shape " + shape[0], 0.8, indent, shape)
    elif shapes.data_digits(text, 4):
        _variable(d, "contains a number", 0.6, indent, ("text", 0.3))


def _in_barcode(d: Decision, barcodes: list[str]) -> bool:
    code = shapes.compact(d.text)
    return len(code) >= 6 and shapes.has_digits(code, 3) and any(code in b for b in barcodes)


def classify(label: SourceLabel) -> list[Decision]:
    """A decision for every field of ``label``, in field order."""
    decisions = [Decision(f, _printed(f)) for f in label.fields]
    barcodes = [shapes.compact(d.text) for d in decisions if d.source.is_barcode]
    for d in decisions:
        if d.source.is_barcode:
            _barcode(d)
            continue
        _text(d)
        if not d.variable and _in_barcode(d, barcodes):
            _variable(d, "printed form of barcode data", 0.9, 0,
                      ("tracking_number_text", 0.7))
    _address_blocks(decisions)
    _echoes(decisions)
    return decisions


def _echoes(decisions: list[Decision]) -> None:
    """Text that repeats part of an address (a sort area's "LYON", "SW1A" or "BC")
    is that address's data too."""
    addresses = [d for d in decisions if d.variable and d.name
                 and d.name.startswith(("ship_to_", "ship_from_")) and d.value]
    for d in decisions:
        word = d.text.strip(" -").upper()
        if d.variable or d.source.is_barcode or len(word) < 2 or shapes.is_caption(d.text):
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        source = next((a for a in addresses if pattern.search((a.value or "").upper())), None)
        if source is not None:
            indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
            _variable(d, f"repeats part of {source.name}", 0.7, indent,
                      (f"{source.name}_part", 0.6))


def _block_lines(decisions: list[Decision], start: Decision, first_y: int) -> list[Decision]:
    """The lines of the column that starts at ``start``, top to bottom."""
    column = [d for d in decisions if not d.source.is_barcode and d.text
              and abs(d.source.x - start.source.x) <= _COLUMN_TOLERANCE
              and d.source.y >= first_y]
    column.sort(key=lambda d: (d.source.y, d.source.x))
    lines: list[Decision] = []
    previous = start
    for d in column:
        if d is not start and lines and d.source.y == lines[-1].source.y:
            continue
        gap = d.source.y - previous.source.y
        if d is not start and gap > max(2.4 * previous.source.font_height, 48):
            break
        if d is not start and shapes.is_caption(d.text):
            break
        lines.append(d)
        previous = d
        if len(lines) >= _MAX_BLOCK_LINES:
            break
    return lines


def _first_line(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The first address line for ``caption``: beside it on the same line, or below."""
    c = caption.source
    near = [d for d in decisions if d is not caption and not d.source.is_barcode and d.text
            and not shapes.is_caption(d.text)
            and c.x - 40 <= d.source.x <= c.x + 420
            and c.y - 6 <= d.source.y <= c.y + max(3 * c.font_height, 60)]
    beside = [d for d in near if abs(d.source.y - c.y) <= 6 and d.source.x > c.x]
    below = [d for d in near if d.source.y > c.y + 6 and d.source.x <= c.x + 80]
    # A column under the caption wins over a value far to its right ("FROM:  phone").
    far = not beside or min(d.source.x for d in beside) - c.x > 120
    pick = below if below and far else beside
    return min(pick, key=lambda d: (d.source.y, d.source.x)) if pick else None


def _address_blocks(decisions: list[Decision]) -> None:
    """Lines under an address caption, or above a postal-code line, are an address."""
    claimed: set[int] = set()
    for caption in decisions:
        role = shapes.address_role(caption.text)
        first = _first_line(decisions, caption) if role and not caption.variable else None
        if role is None or first is None:
            continue
        lines = _block_lines(decisions, first, first.source.y)
        stop = min((d.source.y for d in decisions if d is not caption
                    and shapes.address_role(d.text) and d.source.y > first.source.y
                    and abs(d.source.x - first.source.x) <= 80), default=None)
        lines = [d for d in lines if stop is None or d.source.y < stop]
        _name_block(lines, role, 0.8, claimed)
    ship_to_y = min((d.source.y for d in decisions
                     if d.name and d.name.startswith("ship_to_")), default=None)
    for anchor in decisions:
        if anchor.source.position in claimed or anchor.source.is_barcode \
                or not shapes.is_postal_line(anchor.text) or shapes.is_tracking(anchor.text):
            continue
        above = _lines_above(decisions, anchor, claimed)
        if len(above) < 2:
            continue  # an address has at least a name and a street above its town
        role = "ship_from" if ship_to_y is not None and anchor.source.y < ship_to_y else (
            "ship_to" if ship_to_y is None else "address")
        lines = _block_lines(decisions, above[0], above[0].source.y)
        _name_block([d for d in lines if d.source.position not in claimed], role, 0.7, claimed)


def _lines_above(decisions: list[Decision], anchor: Decision, claimed: set[int]
                 ) -> list[Decision]:
    """Up to four lines right above a postal line in its column (name, street...)."""
    column = sorted((d for d in decisions if not d.source.is_barcode and d.text
                     and abs(d.source.x - anchor.source.x) <= _COLUMN_TOLERANCE
                     and d.source.y < anchor.source.y and d.source.position not in claimed),
                    key=lambda d: -d.source.y)
    lines: list[Decision] = []
    below = anchor
    for d in column:
        if below.source.y - d.source.y > max(2.4 * d.source.font_height, 48) \
                or shapes.is_caption(d.text) or len(lines) == 4:
            break
        lines.append(d)
        below = d
    return list(reversed(lines))


def _name_block(lines: list[Decision], role: str, certainty: float, claimed: set[int]) -> None:
    """Name an address block's lines: name, address_n, postal_city, country, phone."""
    postal = max((i for i, d in enumerate(lines) if shapes.is_postal_line(d.text)
                  and not d.prefix_len), default=None)  # "REF: PO-1234" is no town
    street = 0
    named = False
    for i, d in enumerate(lines):
        if d.source.position in claimed:
            continue
        claimed.add(d.source.position)
        if shapes.PHONE.search(d.text) or _PHONE_DIGITS.fullmatch(d.text) or d.name == "phone":
            part = "phone"
        elif not named:
            part, named = "name", True
        elif i == postal:
            part = "postal_city"
        elif postal is not None and i == postal + 1 and shapes.words_only(d.text):
            part = "country"
        else:
            street += 1
            part = f"address_{street}"
        if d.variable and d.prefix_len:
            continue  # "Tel: ..." keeps its caption and caption name
        indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
        _variable(d, f"{role} address line", certainty, indent, (f"{role}_{part}", certainty))
