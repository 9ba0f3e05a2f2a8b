"""Which fields of a legacy label are variable data, and what part of each.

Each field gets a :class:`Decision`: variable or static, the static part of its
data that stays in the body (a caption such as ``REF: `` or a barcode's format
prefix), the sample value, a name and how certain each of those is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import goods, recognise, shapes
from .decision import Decision
from .decision import mark_variable as _variable
from .decision import printed as _printed
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
_CODE128_CODES = re.compile(r">[0-9:;<=]")
# In an address block, a line of 7 to 15 digits is a telephone number.
_PHONE_DIGITS = re.compile(r"\+?[\d ()/-]{7,18}")
# Names of data that is never an address line.
_DATA_NAMES = frozenset({"routing_code", "tracking_number", "sscc", "gtin", "date", "weight",
                         "dimensions", "piece_count"})
# A short code with a digit printed large is a sort or routing code ("SK13", "700").
_SORT_CODE = re.compile(r"(?=.*\d)[A-Z0-9][A-Z0-9 -]{1,7}")
_CODE_FONT = 40
# Words of prose: a line with four of them and a number is form or legal text.
_PROSE = re.compile(r"[^\W\d_]{3,}")
_PARTY = r"(ship_to|ship_from|mark_for|bill_to)_"
# 2D symbols whose data is often a record of several fields (a carrier's message).
_TWO_D = frozenset({"BQ", "BX", "B7", "BF", "BO", "B0", "BD"})
_COMPOSITE = re.compile(r"\[\)>|[|{}\x1d\x1e]|_1D|_1E|[^,]*,[^,]*,")
# The label's lines as each reading direction sees them: orientation -> [(rx, ry,
# length)] (SourceLabel.rules).
Rules = Mapping[str, Sequence[tuple[int, int, int]]]
# Line layout: lines of one block share a column and follow each other closely.
_COLUMN_TOLERANCE = 14
_MAX_BLOCK_LINES = 8
# Lines of one address share a print size: one twice as large is a code above it.
_FONT_JUMP = 1.7


def _barcode(d: Decision) -> None:
    symbology = d.source.symbology or ""
    pattern = _FORMAT_PREFIXES.get(symbology)
    match = pattern.match(d.source.raw) if pattern else None
    prefix_len = match.end() if match else 0
    data = d.source.raw[prefix_len:]
    name = recognise.barcode_data(d.source.raw if symbology == "BC" else data, symbology)
    if (name is None or name[1] < 0.85) and symbology in _TWO_D and len(data.split()) > 1:
        name = None  # several values in one symbol ("3SKR... 8021EV 112bis"): a record
    if name is None and symbology != "BD":
        name = shapes.shape_name(data)
        if name is not None and name[0] in ("phone", "date", "weight", "piece_count"):
            name = None  # a barcode of such a shape is data of its own, not a phone
        if name is not None:  # a shape, not a validated format: less sure
            name = (name[0], min(name[1], 0.6))
        if symbology in _TWO_D and len(data.split()) > 1:
            name = None
    if name is None and symbology in _TWO_D and (_COMPOSITE.search(data)
                                                 or len(data.split()) > 1):
        name = (_SYMBOLOGY_NAMES[symbology] + "_data", 0.75)  # a record of several fields
    name = name or (_SYMBOLOGY_NAMES.get(symbology, "barcode") + "_data", 0.55)
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
    if "___" in text:
        d.reason, d.certainty = "a blank to write in by hand", 0.85
        return
    if goods.made_in(text):
        _variable(d, "where the goods are made", 0.7, indent, ("country_of_origin", 0.7))
        return
    split = _caption_split(d.source)
    loose = split is None  # a caption without a colon: its name is for review
    split = split if split is not None else _words_then_value(d, indent)
    if split is not None:
        caption = sample_value(d.source, d.source.raw[:split]) or d.source.raw[:split]
        name = shapes.caption_name(caption)
        if name[0] == "service" or name[0] == "form_version" and name[1] >= 0.85:
            # "SERVICE: EXPRESS 9AM" describes the product the layout is made for, and
            # "VER: 01.06" the form; another service is another layout (and another
            # template), so they are static.
            d.reason, d.certainty = f"{name[0]} line: part of the layout", 0.8
            return
        value = text[len(caption.strip()):].strip()
        found = recognise.text_value(value)
        if found is None and name[1] <= 0.7:  # a caption not of the vocabulary: the
            # value's shape names it
            found = shapes.shape_name(value)
        if found is not None and (name[1] < 0.85 or name[0] in ("reference", "date")
                                  and found[0] != "phone" and found[1] >= 0.9):
            name = found  # "Sendungsnr.: 2222..." is named by the value it holds
        name = _words_for_number(name, value, found)
        if loose:
            name = (name[0], min(name[1], 0.65))
        _variable(d, f"value after caption {caption.strip()!r}", 0.85, split, name)
        if d.variable:
            return
    found = recognise.text_value(text)
    shape = found or shapes.shape_name(text)
    if shape is not None:
        _variable(d, "data shape " + shape[0], 0.8, indent, shape)
    elif shapes.data_digits(text, 4) and len(_PROSE.findall(text)) < 4:
        head = text.split()[0].rstrip(".:#") if len(text.split()) in (2, 3) else ""
        name = shapes.caption_name(head) if head.isalpha() else ("text", 0.3)
        # "Order 1234", "PO 5521": a caption word without a colon names the value
        _variable(d, "contains a number", 0.6, indent,
                  (name[0], 0.65) if name[1] >= 0.85 else ("text", 0.3))
    elif shapes.data_digits(text, 4):
        d.reason, d.certainty = "words with a number: form or legal text", 0.55
    elif d.source.font_height >= _CODE_FONT and _SORT_CODE.fullmatch(text):
        _variable(d, "short code in a large font", 0.7, indent, ("routing_code", 0.7))


# A caption of a count or a number whose value is words names what is counted:
# "Item: Hex Bolt M8x25" is a description, "Customer: Halvorsen Marine AS" a name.
_WORDS_INSTEAD = {"piece_count": "description", "quantity": "description",
                  "customer_number": "customer_name"}


def _words_for_number(name: tuple[str, float], value: str,
                      found: tuple[str, float] | None) -> tuple[str, float]:
    if name[0] not in _WORDS_INSTEAD or found is not None or len(value.split()) < 2 \
            or not value[:1].isalpha() or shapes.PIECES.match(value):
        return name
    return _WORDS_INSTEAD[name[0]], min(name[1], 0.7)


# Words that start an address line, not a caption: "Box 12", "Flat 4", "Route 66".
_ADDRESS_START = re.compile(r"^(?:P\.? ?O\.? BOX|BOX|POSTFACH|SKRYTKA|SUITE|STE|APT|APARTMENT|"
                            r"UNIT|FLAT|FLOOR|BLDG|BUILDING|PSC|LOCAL|PISO|HAUS|ROUTE|RT|RR|"
                            r"HWY|RUE|VIA|CALLE|ULICA|UL)\b", re.IGNORECASE)


def _words_then_value(d: Decision, indent: int) -> int | None:
    """Where the value starts after a caption written without a colon: "Prepped 1/28",
    "Use by 2/1" (a date), "Parcel 1 of 1" (a count), "Sendingsnr. 7072..." and
    "ORIGEN GDL" (a caption of the vocabulary, then a code)."""
    text = d.text
    if d.source.raw[indent:].rstrip() != text or _ADDRESS_START.match(text):
        return None  # escapes in the data: positions in the text are not in the raw
    match = re.fullmatch(r"([^\W\d_][^\W\d]*\.?(?: [^\W\d_][^\W\d]*\.?){0,2}) (\S.*)", text)
    if match is None or shapes.address_role(match.group(1)) is not None:
        return None
    caption, value = match.group(1), match.group(2)
    found = recognise.text_value(value)
    if found is not None and found[0] == "date" or shapes.PIECES.match(value):
        return indent + match.start(2)
    name, certainty = shapes.caption_name(caption)
    code = shapes.has_digits(value, 2) or name == "routing_code" and re.fullmatch(
        r"[A-Z]{2,5}", value) is not None
    if certainty >= 0.85 and code and name not in ("service", "form_version") \
            and len(value.split()) <= 4:
        return indent + match.start(2)
    return None


def _caption_split(source: SourceField) -> int | None:
    """Where the value starts in the raw data of a "Caption: value" field. A caption
    written with ^FH escapes ("Zawarto_c5_9b_c4_87:") is read as it prints, and the
    split taken back to the raw data."""
    split = shapes.caption_split(source.raw)
    indicator = source.hex_indicator
    if split is not None or indicator is None or indicator not in source.raw:
        return split
    printed = printed_bytes(source, source.raw)
    at = shapes.caption_split(printed)
    if at is None:
        return None
    for end in range(at, len(source.raw) + 1):
        if printed_bytes(source, source.raw[:end]) == printed[:at]:
            return end
    return None


def _captioned_barcode_value(d: Decision, barcodes: list[tuple[str, Decision]]) -> None:
    """Text that prints a caption and then a barcode's data ("PO# 4500012345" above
    its Code 39) is that value under its caption: the text changes with the barcode,
    or a reprint would print the old number beside the new barcode."""
    if d.variable and d.prefix_len:
        return
    raw = d.source.raw.rstrip()
    for data, barcode in barcodes:
        if len(data) < 4 or not shapes.has_digits(data, 3) or not raw.endswith(data) \
                or len(raw) == len(data):
            continue
        caption = raw[:-len(data)]
        if caption[-1:].isalnum() and not caption.rstrip(":#").endswith(tuple(" ")):
            continue  # "AB12345" is one code, not a caption and a value
        words = caption.strip().rstrip(":#.").strip()
        if not words or shapes.has_digits(words, 1):
            continue
        name = shapes.caption_name(caption)
        if name[1] < 0.7:
            name = (barcode.name or "barcode_data", min(0.6, barcode.name_certainty))
        d.variable = False
        _variable(d, f"value of barcode after caption {caption.strip()!r}", 0.85,
                  len(caption), name)
        return


def _barcode_of(d: Decision, barcodes: list[tuple[str, Decision]]) -> Decision | None:
    """The barcode whose data ``d`` prints (spaces and brackets aside), if any."""
    code = shapes.compact(d.text)
    if len(code) < 6 or not shapes.has_digits(code, 3):
        return None
    found = next((b for data, b in barcodes if code in data), None)
    # Printed forms group digits with dots or dashes too: "99.60.000000.00000000".
    plain = re.sub(r"[.-]", "", code)
    if found is None and plain != code and len(plain) >= 8 and plain.isalnum():
        found = next((b for data, b in barcodes if plain in data), None)
    return found


def _barcodes_of_captioned_values(decisions: list[Decision],
                                  barcodes: list[tuple[str, Decision]]) -> None:
    """A barcode whose data is a captioned value without its dashes ("R2611048213"
    under "RMA: R-2611-048213") is that value: the caption names it better than
    the barcode's shape does."""
    for data, barcode in barcodes:
        if barcode.name_certainty >= 0.7 or len(data) < 5:
            continue
        for d in decisions:
            if d.source.is_barcode or not d.variable or not d.prefix_len or not d.name \
                    or d.name_certainty < 0.85 or not d.value:
                continue
            if re.sub(r"[\s./-]", "", d.value) == data:
                barcode.name, barcode.name_certainty = d.name, 0.75
                break


def classify(label: SourceLabel) -> list[Decision]:
    """A decision for every field of ``label``, in field order."""
    decisions = [Decision(f, _printed(f)) for f in label.fields]
    for d in decisions:
        if d.source.is_barcode:
            _barcode(d)
    barcodes = [(_CODE128_CODES.sub("", shapes.compact(d.text)), d) for d in decisions
                if d.source.is_barcode]
    for d in decisions:
        if d.source.is_barcode:
            continue
        _text(d)
        barcode = _barcode_of(d, barcodes)
        if barcode is None:
            _captioned_barcode_value(d, barcodes)
        generic = barcode is not None and (barcode.name or "").endswith("_data")
        if barcode is not None and barcode.name and generic and not d.variable:
            # The barcode says nothing of its data; the printed form may.
            own = shapes.shape_name(d.text) or ("tracking_number", 0.6) \
                if shapes.is_tracking(d.text) else None
            _variable(d, "printed form of barcode data", 0.9, 0,
                      own or (barcode.name, min(0.8, barcode.name_certainty)))
        elif barcode is not None and barcode.name and not generic and (
                not d.variable or d.name_certainty < 0.75):
            d.variable = False
            _variable(d, "printed form of barcode data", 0.9, 0,
                      (barcode.name, min(0.8, barcode.name_certainty)))
    _barcodes_of_captioned_values(decisions, barcodes)
    _address_blocks(decisions, label.rules)
    _echoes(decisions)
    _caption_values(decisions)  # again: captions of the values the blocks left alone
    _parties(decisions)
    goods.refine(decisions)
    return decisions


def _caption_target(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The field a caption labels: beside it on its line, else right below it."""
    c = caption.source
    candidates = [d for d in decisions if d is not caption and not d.source.is_barcode
                  and d.text and not shapes.is_caption(d.text)
                  and not shapes.is_known_caption(d.text)]
    line = max(10, int(0.6 * c.font_height))
    beside = [d for d in candidates if abs(d.source.ry - c.ry) <= line
              and 0 < d.source.rx - c.rx <= 520]
    reach = max(int(2.2 * c.font_height), 40)
    # A caption with no colon may head a table column ("Qty.", "Wgt", "Value"): with
    # a number below it and only words beside it (the next headers), the number is
    # its value.
    cells = [d for d in candidates if 0 < d.source.ry - c.ry <= max(reach, 4 * c.font_height)
             and abs(d.source.rx - c.rx) <= 30 and len(d.text) <= 10
             and shapes.has_digits(d.text, 1)]
    if cells and not caption.text.strip().endswith((":", "#")) \
            and all(shapes.words_only(d.text) for d in beside):
        return min(cells, key=lambda d: d.source.ry)
    # Words beside a caption in its own print size are the next column's heading
    # ("GTIN" ... "COUNT"): the value is below.
    headings = all(shapes.words_only(d.text) and d.text.isupper() and not d.variable
                   and abs(d.source.font_height - c.font_height) <= 2 for d in beside)
    if beside and not (headings and not caption.text.strip().endswith(":")):
        return min(beside, key=lambda d: d.source.rx)
    others = [o.source for o in decisions if o is not caption and not o.variable
              and o.text and shapes.is_caption(o.text)]
    below = [d for d in candidates if 0 < d.source.ry - c.ry <= reach
             and c.rx - 60 <= d.source.rx <= c.rx + 200
             and not any(abs(o.ry - d.source.ry) <= line and o.rx < d.source.rx for o in others)]
    return min(below, key=lambda d: (d.source.ry, abs(d.source.rx - c.rx))) if below else None


_UNIT = re.compile(r"(?:kgs?|lbs?|g|oz)\.?", re.IGNORECASE)


def _unit_after_number(decisions: list[Decision], unit: Decision) -> bool:
    """A unit printed in a field of its own right after a number ("0.10" "kg") is the
    number's: the number is a weight, the unit static. False when ``unit`` is none."""
    if not _UNIT.fullmatch(unit.text.strip()):
        return False
    u = unit.source
    left = [d for d in decisions if d is not unit and not d.source.is_barcode
            and re.fullmatch(r"\d+(?:[.,]\d+)?", d.text.strip())
            and abs((d.source.ry + d.source.font_height) - (u.ry + u.font_height)) <= 12
            and 0 < u.rx - d.source.rx <= 160]
    if not left:
        return False
    number = max(left, key=lambda d: d.source.rx)
    if not number.variable or number.name_certainty < 0.8:
        number.variable = False
        indent = len(number.source.raw) - len(number.source.raw.lstrip(" "))
        _variable(number, f"number before its unit {unit.text.strip()!r}", 0.8, indent,
                  ("weight", 0.8))
    return True


def _refines(caption: str, shape: str | None) -> bool:
    """A caption says which kind of a shape's value it is: "BEST BEFORE" over a date."""
    return shape == "date" and caption != "date" and ("date" in caption or caption == "dob")


def _caption_values(decisions: list[Decision]) -> None:
    """A caption in a field of its own ("Account No:", "Phone:", "Gewicht:") names the
    value beside or below it, and makes it variable."""
    for caption in decisions:
        text = caption.text
        if caption.variable or caption.source.is_barcode or not text \
                or shapes.address_role(text) is not None \
                or not (shapes.is_known_caption(text) or shapes.is_caption(text)):
            continue
        if _unit_after_number(decisions, caption):
            continue
        name = shapes.caption_name(text)
        target = _caption_target(decisions, caption)
        if target is None or name[0] in ("service", "form_version") \
                or target.variable and target.prefix_len and not target.source.is_barcode:
            continue  # a service banner is part of the layout (see _text); a value
            # after its own caption ("Climate: Controlled") is not this caption's
        if not target.variable:
            wordy = not shapes.has_digits(target.text, 1)
            if wordy and (name[1] < 0.7 or target.source.ry - caption.source.ry > 8
                          or sum(c.isalnum() for c in target.text) < 2):
                continue  # words below a caption are often more static text
            indent = len(target.source.raw) - len(target.source.raw.lstrip(" "))
            _variable(target, f"value of caption {text.strip()!r}", 0.8, indent, name)
            continue
        party = re.match(_PARTY, target.name or "")
        if party and name[0] in ("phone", "contact", "email"):
            target.name, target.name_certainty = f"{party.group(1)}_{name[0]}", 0.8
        elif not party and (name[1] > target.name_certainty or _refines(name[0], target.name)):
            target.name, target.name_certainty = name


def _parties(decisions: list[Decision]) -> None:
    """A phone, contact or e-mail outside an address block belongs to the block
    beside it (the block its line falls in), and takes that party's name."""
    blocks: dict[str, list[Decision]] = {}
    for d in decisions:
        match = re.match(_PARTY, d.name or "") if d.variable else None
        if match and not d.source.is_barcode:
            blocks.setdefault(match.group(1), []).append(d)
    for d in decisions:
        if not d.variable or d.name not in ("phone", "contact", "email"):
            continue
        best: tuple[float, str] | None = None
        for role, lines in blocks.items():
            top = min(x.source.ry for x in lines) - 60
            bottom = max(x.source.ry for x in lines) + 120
            if not top <= d.source.ry <= bottom:
                continue
            distance = min(abs(x.source.ry - d.source.ry) + 0.2 * abs(x.source.rx - d.source.rx)
                           for x in lines)
            if best is None or distance < best[0]:
                best = (distance, role)
        if best is not None:
            d.name, d.name_certainty = f"{best[1]}_{d.name}", min(d.name_certainty, 0.75)
        elif blocks:  # whose phone? the nearest block's, for a person to check
            role = min(blocks, key=lambda r: min(
                abs(x.source.ry - d.source.ry) + 0.2 * abs(x.source.rx - d.source.rx)
                for x in blocks[r]))
            d.name, d.name_certainty = f"{role}_{d.name}", min(d.name_certainty, 0.5)
        else:
            d.name_certainty = min(d.name_certainty, 0.5)


def _echoes(decisions: list[Decision]) -> None:
    """Text that repeats part of an address (a sort area's "LYON", "SW1A" or "BC")
    is that address's data too; a postal code alone elsewhere is a routing code."""
    addresses = [d for d in decisions if d.variable and d.name
                 and re.match(_PARTY, d.name) and d.value]
    for d in decisions:
        word = d.text.strip(" -").upper()
        lone_postal = d.variable and d.name == "postal_code"
        if (d.variable and not lone_postal) or d.source.is_barcode or len(word) < 2 \
                or shapes.is_caption(d.text):
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        # A sort area routes to the recipient: its address wins when the sender's
        # holds the same town or code.
        matches = [a for a in addresses if pattern.search((a.value or "").upper())]
        source = min(matches, key=lambda a: not (a.name or "").startswith("ship_to_"),
                     default=None)
        if source is None:
            if lone_postal:
                d.name, d.name_certainty = "routing_code", 0.5
            continue
        role = re.match(_PARTY, source.name or "").group(1)  # type: ignore[union-attr]
        part = (source.name or "")[len(role) + 1:]
        if shapes.POSTAL.fullmatch(word) or part.startswith("postal_city") \
                and not shapes.words_only(word):
            part = "postal_code"
        elif part.startswith("postal_city"):
            part = "city"
        part = re.sub(r"_\d+$", "", part)
        indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
        d.variable = False
        _variable(d, f"repeats part of {source.name}", 0.7, indent, (f"{role}_{part}", 0.6))
    _sort_area_country(decisions)
    _sort_line_codes(decisions)


def _sort_line_codes(decisions: list[Decision]) -> None:
    """A short code of capitals printed just left of a sort code on its line ("SKA"
    before "SK13", "YVR" before "- VANCOUVER") is part of the routing too."""
    codes = [d for d in decisions if d.variable and not d.source.is_barcode
             and (d.name == "routing_code" or d.reason.startswith("repeats part of "))]
    for d in decisions:
        text = d.text.strip()
        if d.variable or d.source.is_barcode or not re.fullmatch(r"[A-Z]{2,4}", text) \
                or shapes.is_known_caption(text) or shapes.is_country(text):
            continue
        if any(abs(c.source.ry - d.source.ry) <= 4 and 0 < c.source.rx - d.source.rx <= 200
               and d.source.font_height >= 0.8 * c.source.font_height for c in codes):
            _variable(d, "code on the line of a sort code", 0.6, 0, ("routing_code", 0.55))


def _sort_area_country(decisions: list[Decision]) -> None:
    """A country code printed under the postcode and town a sort area repeats
    ("75002" / "PARIS" / "FR") is the destination country of that address."""
    echoes = [d for d in decisions if d.variable and d.reason.startswith("repeats part of ")]
    for d in decisions:
        code = d.text.strip().upper()
        if d.variable or d.source.is_barcode or len(code) != 2 \
                or not shapes.is_country(code):
            continue
        above = [e for e in echoes if abs(e.source.rx - d.source.rx) <= _COLUMN_TOLERANCE
                 and 0 < d.source.ry - e.source.ry <= 2 * max(e.source.font_height, 30)]
        if not above:
            continue
        role = re.match(_PARTY, above[0].name or "")
        indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
        if role:
            _variable(d, f"country code under {above[0].name}", 0.6, indent,
                      (f"{role.group(1)}_country", 0.6))


def _ruled_between(rules: Rules | None, upper: Decision, lower: Decision) -> bool:
    """A line is drawn between two lines of text that read the same way, across
    them (in their reading frame)."""
    a, b = upper.source, lower.source
    if rules is None or a.orientation != b.orientation:
        return False
    return any(a.ry < ry < b.ry and rx <= min(a.rx, b.rx) + 20 and max(a.rx, b.rx) <= rx + length
               for rx, ry, length in rules.get(a.orientation, ()))


def _block_lines(decisions: list[Decision], start: Decision, first_y: int,
                 rules: Rules | None = None) -> list[Decision]:
    """The lines of the column that starts at ``start``, top to bottom."""
    # Empty fields count as lines: an address line left blank keeps its place.
    column = [d for d in decisions if not d.source.is_barcode
              and abs(d.source.rx - start.source.rx) <= _COLUMN_TOLERANCE
              and d.source.ry >= first_y]
    column.sort(key=lambda d: (d.source.ry, d.source.rx))
    lines: list[Decision] = []
    previous = start
    for d in column:
        if d is not start and lines and d.source.ry == lines[-1].source.ry:
            continue
        gap = d.source.ry - previous.source.ry
        if d is not start and (gap > max(3.0 * previous.source.font_height, 48)
                               or _ruled_between(rules, previous, d)):
            break  # too far below, or a rule drawn between: another block
        if not d.text:
            previous = d if gap > 0 else previous
            continue
        if d is not start and (shapes.is_caption(d.text) or _captioned_data(d)
                               or shapes.is_known_caption(d.text)):
            break  # "SERVICE: EXPRESS", "Weight: 2 kg", "Kontakt" end the address above them
        lines.append(d)
        previous = d
        if len(lines) >= _MAX_BLOCK_LINES:
            break
    return lines


def _captioned_data(d: Decision) -> bool:
    """A "Caption: value" line whose caption is not one of an address's own."""
    split = _caption_split(d.source)
    if split is None:
        return False
    name = shapes.caption_name(sample_value(d.source, d.source.raw[:split]) or "")
    return name[0] not in ("phone", "contact", "email") and name[1] >= 0.7


def _first_line(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The first address line for ``caption``: beside it on the same line, or below."""
    c = caption.source
    # A bigger first line beside a small caption starts a little higher.
    line = max(6, min(16, c.font_height // 2))
    near = [d for d in decisions if d is not caption and not d.source.is_barcode and d.text
            and not shapes.is_caption(d.text)
            and c.rx - 40 <= d.source.rx <= c.rx + 420
            and c.ry - line <= d.source.ry <= c.ry + max(3 * c.font_height, 60)]
    # An address starts with a name: a number beside the caption is a value of its own.
    beside = [d for d in near if abs(d.source.ry - c.ry) <= line and d.source.rx > c.rx
              and shapes.has_letters(d.text)]
    below = [d for d in near if d.source.ry > c.ry + line and d.source.rx <= c.rx + 80]
    # A column under the caption wins over a value far to its right ("FROM:  phone").
    far = not beside or min(d.source.rx for d in beside) - c.rx > 120
    pick = below if below and far else beside
    return min(pick, key=lambda d: (d.source.ry, d.source.rx)) if pick else None


def _address_blocks(decisions: list[Decision], rules: Rules | None = None) -> None:
    """Lines under an address caption, or above a postal-code line, are an address."""
    claimed: set[int] = set()
    for caption in decisions:
        role = shapes.address_role(caption.text)
        first = _first_line(decisions, caption) if role and not caption.variable else None
        if role is None or first is None:
            continue
        first = _block_top(decisions, caption, first, claimed)
        _caption_line_phone(decisions, caption, role)
        lines = _block_lines(decisions, first, first.source.ry, rules)
        stop = min((d.source.ry for d in decisions if d is not caption
                    and shapes.address_role(d.text) and d.source.ry > first.source.ry
                    and abs(d.source.rx - first.source.rx) <= 80), default=None)
        lines = [d for d in lines if stop is None or d.source.ry < stop]
        _name_block(lines, role, 0.8, claimed)
        _same_line_town(decisions, lines, role, 0.8, claimed)
    _inline_caption_blocks(decisions, claimed, rules)
    # Values beside or below their own captions ("Ref:", "Weight:") are no address:
    # they are named first, and a column of them never makes a block.
    _caption_values(decisions)
    for d in decisions:
        if d.variable and d.name and "caption" in d.reason:
            claimed.add(d.source.position)
    captioned = {m.group(1) for d in decisions if d.variable and "address line" in d.reason
                 and (m := re.match(_PARTY, d.name or ""))}
    ship_to_y = min((d.source.ry for d in decisions
                     if d.name and d.name.startswith("ship_to_")), default=None)
    blocks: list[list[Decision]] = []
    for anchor in decisions:
        if anchor.source.position in claimed or anchor.source.is_barcode \
                or not shapes.is_postal_line(anchor.text) and not _lone_postcode(anchor) \
                or shapes.is_tracking(anchor.text):
            continue
        prefix = _country_prefix(decisions, anchor, claimed)
        above = _lines_above(decisions, prefix or anchor, claimed, rules)
        if any(shapes.is_known_caption(d.text) for d in above):
            continue  # "Kundenr." / "Referanse" over "PO-66120": captions, not an address
        if len(above) < 2 or not shapes.is_postal_line(anchor.text) and (
                len(above) < 3 or not shapes.words_only(above[-1].text)
                or shapes.is_country(above[-1].text)):
            continue  # a name and a street above the town; name, street and town above
            # a postcode printed alone under its town (British, Nordic forms)
        lines = _block_lines(decisions, above[0], above[0].source.ry, rules)
        block = [d for d in lines if d.source.position not in claimed and d is not prefix]
        if prefix is not None:  # "DK" then "2500 Copenhagen": the town line, then its country
            block += [anchor, prefix]
        claimed.update(d.source.position for d in block)
        blocks.append(block)
    for block, (role, sure) in zip(blocks, _block_roles(blocks, captioned, ship_to_y),
                                   strict=True):
        claimed.difference_update(d.source.position for d in block)
        _name_block(block, role, sure, claimed)
        _same_line_town(decisions, block, role, sure, claimed)


def _caption_line_phone(decisions: list[Decision], caption: Decision, role: str) -> None:
    """Digits printed on the caption's own line that are a valid number read with a
    "+" ("FROM:  46737671317") are that party's phone, for a person to check."""
    c = caption.source
    line = max(6, min(16, c.font_height // 2))
    for d in decisions:
        if d is not caption and not d.source.is_barcode and abs(d.source.ry - c.ry) <= line \
                and 0 < d.source.rx - c.rx <= 420 and recognise.international_digits(d.text) \
                and (not d.variable or d.name_certainty < 0.8):
            d.variable = False
            _variable(d, f"{role} phone beside its caption", 0.6, 0, (f"{role}_phone", 0.6))


def _inline_caption_blocks(decisions: list[Decision], claimed: set[int],
                           rules: Rules | None = None) -> None:
    """A party's name printed after its caption in one field ("From: Acme Corp",
    "SHIP TO: Jane Doe") starts that party's block: the lines below are its address."""
    for d in decisions:
        split = _caption_split(d.source)
        if d.source.position in claimed or d.source.is_barcode or split is None:
            continue
        role = shapes.address_role(sample_value(d.source, d.source.raw[:split]) or "")
        if role is None:
            continue
        lines = _block_lines(decisions, d, d.source.ry, rules)
        claimed.add(d.source.position)
        d.variable = False
        _variable(d, f"{role} name after its caption", 0.8, split, (f"{role}_name", 0.8))
        _name_block(lines[1:], role, 0.8, claimed, named=True)
        _same_line_town(decisions, lines, role, 0.8, claimed)


def _block_top(decisions: list[Decision], caption: Decision, first: Decision,
               claimed: set[int]) -> Decision:
    """The top line of a block whose caption sits beside one of its lower lines: a
    "TO" centred on the block, or the "TO:" of a two-line "SHIP / TO:" caption."""
    c = caption.source
    if abs(first.source.ry - c.ry) > max(6, min(16, c.font_height // 2)):
        return first  # the block starts below its caption
    top = first
    for _ in range(2):
        above = [d for d in decisions if d.text and not d.source.is_barcode
                 and d.source.position not in claimed and d is not caption
                 and abs(d.source.rx - top.source.rx) <= _COLUMN_TOLERANCE
                 and 0 < top.source.ry - d.source.ry <= 1.6 * top.source.font_height
                 and d.source.ry >= c.ry - 2.5 * c.font_height
                 and not shapes.is_caption(d.text) and not d.prefix_len
                 and d.source.font_height <= _FONT_JUMP * top.source.font_height]
        if not above:
            break
        top = max(above, key=lambda d: d.source.ry)
    return top


def _lone_postcode(d: Decision) -> bool:
    return bool(shapes.POSTAL.fullmatch(d.text.strip().upper())) and not d.prefix_len


def _country_prefix(decisions: list[Decision], anchor: Decision, claimed: set[int]
                    ) -> Decision | None:
    """A country code printed in a field of its own just left of a postal line
    ("DK" | "2500 Copenhagen"): the block's column is the code's."""
    left = [d for d in decisions if d.source.position not in claimed and d is not anchor
            and not d.source.is_barcode and not d.variable
            and abs(d.source.ry - anchor.source.ry) <= 4
            and 0 < anchor.source.rx - d.source.rx <= 120
            and len(d.text.strip()) <= 3 and shapes.is_country(d.text)]
    return max(left, key=lambda d: d.source.rx) if left else None


def _font(block: list[Decision]) -> float:
    heights = sorted(d.source.font_height for d in block)
    return float(heights[len(heights) // 2]) if heights else 0.0


def _block_roles(blocks: list[list[Decision]], captioned: set[str], ship_to_y: int | None
                 ) -> list[tuple[str, float]]:
    """Whose each uncaptioned address block is, from its place and its print size:
    the recipient's block is printed larger than the sender's (and, at equal size,
    below it); a block above a captioned recipient is the sender's. A person should
    look: these come from layout only."""
    if not blocks:
        return []
    if "ship_to" in captioned:
        return [("ship_from", 0.75) if ship_to_y is not None and b[0].source.ry < ship_to_y
                and "ship_from" not in captioned else ("address", 0.4) for b in blocks]
    if len(blocks) == 1:
        return [("ship_to", 0.6)]
    recipient = max(range(len(blocks)), key=lambda i: (_font(blocks[i]), blocks[i][0].source.ry))
    others = max(_font(b) for i, b in enumerate(blocks) if i != recipient)
    larger = _font(blocks[recipient]) >= 1.2 * others
    sender = "address" if "ship_from" in captioned else "ship_from"
    return [("ship_to", 0.7 if larger else 0.6) if i == recipient
            else (sender, 0.7 if larger and sender == "ship_from" else 0.45)
            for i in range(len(blocks))]


def _same_line_town(decisions: list[Decision], lines: list[Decision], role: str,
                    certainty: float, claimed: set[int]) -> None:
    """A town printed in a field of its own right of its postal code ("04230" and
    "Roma" on one line) is the block's town; a postal code in a field of its own
    right of the country code ("DK" "2500" "Copenhagen") is the block's postal code."""
    for line in lines:
        if (line.name or "").endswith(("_postal_city", "_postal_code", "_city")):
            _same_line_country(decisions, line, role, certainty, claimed)
        if not (line.name or "").endswith(("_postal_code", "_country")):
            continue
        codes = [d for d in decisions if d.source.position not in claimed
                 and not d.source.is_barcode and (line.name or "").endswith("_country")
                 and shapes.POSTAL.fullmatch(d.text.strip().upper())
                 and abs(d.source.ry - line.source.ry) <= 4
                 and 0 < d.source.rx - line.source.rx <= 200]
        if codes:
            code = min(codes, key=lambda d: d.source.rx)
            claimed.add(code.source.position)
            code.variable = False
            _variable(code, f"{role} address line", certainty, 0,
                      (f"{role}_postal_code", certainty))
        beside = [d for d in decisions if d.source.position not in claimed
                  and not d.source.is_barcode and d.text and shapes.words_only(d.text)
                  and not shapes.is_caption(d.text) and not shapes.is_country(d.text)
                  and abs(d.source.ry - line.source.ry) <= 4
                  and 0 < d.source.rx - line.source.rx <= 500]
        if beside:
            town = min(beside, key=lambda d: d.source.rx)
            claimed.add(town.source.position)
            town.variable = False
            _variable(town, f"{role} address line", certainty, 0, (f"{role}_city", certainty))


def _same_line_country(decisions: list[Decision], line: Decision, role: str,
                       certainty: float, claimed: set[int]) -> None:
    """A country printed in a field of its own right of the town line ("Des Moines
    WA 11111" ... "(US)") is the block's country."""
    beside = [d for d in decisions if d.source.position not in claimed and not d.variable
              and not d.source.is_barcode and shapes.is_country(d.text)
              and abs(d.source.ry - line.source.ry) <= 4
              and 0 < d.source.rx - line.source.rx <= 800]
    if beside:
        country = min(beside, key=lambda d: d.source.rx)
        claimed.add(country.source.position)
        _variable(country, f"{role} address line", certainty, 0, (f"{role}_country", certainty))


def _lines_above(decisions: list[Decision], anchor: Decision, claimed: set[int],
                 rules: Rules | None = None) -> list[Decision]:
    """Up to four lines right above a postal line in its column (name, street...),
    five above a postcode printed alone (a British name, flat, street, locality and
    town over it)."""
    most = 5 if _lone_postcode(anchor) else 4
    column = sorted((d for d in decisions if not d.source.is_barcode and d.text
                     and abs(d.source.rx - anchor.source.rx) <= _COLUMN_TOLERANCE
                     and d.source.ry < anchor.source.ry and d.source.position not in claimed),
                    key=lambda d: -d.source.ry)
    lines: list[Decision] = []
    below = anchor
    for d in column:
        if below.source.ry - d.source.ry > max(3.0 * d.source.font_height, 48) \
                or shapes.is_caption(d.text) or len(lines) == most \
                or d.source.font_height > _FONT_JUMP * below.source.font_height \
                or _ruled_between(rules, d, below):
            break  # a code printed much larger above a block (or ruled off) is no line of it
        lines.append(d)
        below = d
    return list(reversed(lines))


def _name_block(lines: list[Decision], role: str, certainty: float, claimed: set[int],
                named: bool = False) -> None:
    """Name an address block's lines: name, address_n, postal_city, country, phone
    (``named``: the name was printed before these lines, after its caption)."""
    postal = max((i for i, d in enumerate(lines) if shapes.is_postal_line(d.text)
                  and not d.prefix_len), default=None)  # "REF: PO-1234" is no town
    # A postcode on a line of its own under the town (British, Australian forms):
    # the town line, then the code.
    lone = [i for i, d in enumerate(lines) if i >= 2 and not d.prefix_len
            and shapes.POSTAL.fullmatch(d.text.strip().upper())
            and shapes.words_only(lines[i - 1].text)
            and not shapes.is_country(lines[i - 1].text)]
    # A lone code below a line that only looks like a town ("78580 Gonzalez Island" is
    # a street with its house number first) is the block's code.
    if postal is None or lone and lone[-1] >= postal:
        postal = lone[-1] if lone else postal
    town = postal - 1 if lone and postal == lone[-1] else None
    street = 0
    for i, d in enumerate(lines):
        if d.source.position in claimed:
            continue
        claimed.add(d.source.position)
        if d.variable and d.name in _DATA_NAMES and (d.name_certainty >= 0.8 or d.name == "sscc"):
            continue  # a routing code or a date in the column is no address line
        if recognise.phone(d.text) or d.name in ("phone", "ship_to_phone", "ship_from_phone") \
                or _PHONE_DIGITS.fullmatch(d.text) and not shapes.is_postal_line(d.text):
            part = "phone"
        elif recognise.EMAIL.fullmatch(d.text.strip()):
            part = "email"
        elif not named:
            part, named = "name", True
        elif i == town:
            part = "city"
        elif i == postal:
            part = "postal_code" if town is not None else "postal_city"
        elif shapes.is_country(d.text) or postal is not None and i == postal + 1 \
                and shapes.words_only(d.text):
            part = "country"
        elif i > 0 and shapes.POSTAL.fullmatch(d.text.strip().upper()):
            part = "postal_code"  # the town follows on the same line, in a field of its own
        else:
            street += 1
            part = f"address_{street}"
        if d.variable and d.prefix_len:
            continue  # "Tel: ..." keeps its caption and caption name
        indent = len(d.source.raw) - len(d.source.raw.lstrip(" "))
        _variable(d, f"{role} address line", certainty, indent, (f"{role}_{part}", certainty))
