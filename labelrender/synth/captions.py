"""Captions and the values they name: "Ref: 4711" in one field, or "Weight:" in a
field of its own beside or above its value."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from . import recognise, shapes
from .decision import Decision, leading_spaces
from .decision import mark_variable as _variable
from .source import SourceField, printed_bytes, sample_value

PARTY = r"(ship_to|ship_from|mark_for|bill_to)_"
# The parts of an address that have a caption of their own ("Tel:", "Attn:", "E-mail:"):
# named after their caption, they are still the party's.
PARTY_CAPTIONED = frozenset({"phone", "contact", "email"})


def raw_caption_split(source: SourceField) -> int | None:
    """Where the value starts in the raw data of a "Caption: value" field. A caption
    written with ^FH escapes ("Zawarto_c5_9b_c4_87:") or in UTF-8 is read as it prints,
    and the split taken back to the raw data."""
    split = shapes.caption_split(source.raw)
    indicator = source.hex_indicator
    escaped = indicator is not None and indicator in source.raw
    if split is not None or not escaped and source.raw.isascii():
        return split
    # (a caption in UTF-8, "Ingrédients :", is no word in its raw bytes)
    read = printed_bytes if escaped else sample_value
    printed = read(source, source.raw) or ""
    at = shapes.caption_split(printed)
    return None if at is None else raw_end(source, 0, printed[:at], read)


def raw_end(source: SourceField, start: int, printed: str,
            read: Callable[[SourceField, str], str | None] = sample_value) -> int | None:
    """Where ``printed`` (the raw data from ``start`` as ``read`` makes it print) ends in
    the raw data: an accent is several bytes there, and a ^FH escape three."""
    for end in range(start + len(printed), len(source.raw) + 1):
        if read(source, source.raw[start:end]) == printed:
            return end
    return None


# How far along its line (in dots) a value beside a caption is in another column.
_FAR = 200
# How much larger than its caption a value may be printed for a word that is a
# caption elsewhere to be read as the value.
_VALUE_PRINT = 1.8


def _caption_target(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The field a caption labels: beside it on its line, else right below it."""
    c = caption.source
    # (a word of the vocabulary printed far larger than the caption is its value:
    # "DEST." over "ABV", Abuja's airport, not alcohol by volume)
    candidates = [d for d in decisions if d is not caption and not d.source.is_barcode
                  and d.text and not shapes.is_caption(d.text)
                  and d.source.orientation == c.orientation  # (a value reads as its caption)
                  and (not shapes.is_known_caption(d.text)
                       or d.source.font_height >= _VALUE_PRINT * c.font_height)
                  and not _heading_beside(d, c)]
    line = max(10, int(0.6 * c.font_height))
    # (a field under a caption of its own, far across the line, is that caption's:
    # "Payment" ... "Delivery Type" over "HOME DELIVERY")
    beside = [d for d in candidates if abs(d.source.ry - c.ry) <= line
              and 0 < d.source.rx - c.rx <= 520 and not _under_other_caption(decisions, d, caption)]
    reach = max(int(2.2 * c.font_height), 40)
    # A caption with no colon may head a table column ("Qty.", "Wgt", "Value"): with
    # a number below it and only words beside it (the next headers), the number is
    # its value (a date may be "29 DEC 2026").
    cells = [d for d in candidates if 0 < d.source.ry - c.ry <= max(reach, 4 * c.font_height)
             and abs(d.source.rx - c.rx) <= 30 and len(d.text) <= 12
             and shapes.has_digits(d.text, 1)]
    # (a value far along the line, "Use by" ... "£5.45", is another column's)
    if cells and not caption.text.strip().endswith((":", "#")) \
            and shapes.caption_name(caption.text)[0] != "description" \
            and all(shapes.words_only(_unitless(d.text)) or d.source.rx - c.rx > _FAR
                    for d in beside):  # (goods are words)
        return min(cells, key=lambda d: d.source.ry)
    # Words beside a caption in its own print size are the next column's heading
    # ("GTIN" ... "COUNT", "Peso (kg)" ... "Volumen (m3)"): the value is below.
    headings = all(shapes.words_only(_unitless(d.text))
                   and (d.text.isupper() or d.text.istitle() or d.text[:1].isupper())
                   and len(_unitless(d.text).split()) <= 3 and not d.variable
                   and abs(d.source.font_height - c.font_height) <= 2 for d in beside)
    if beside and not (headings and not caption.text.strip().endswith(":")):
        return min(beside, key=lambda d: d.source.rx)
    others = [o.source for o in decisions if o is not caption and not o.variable
              and o.text and shapes.is_caption(o.text)]
    below = [d for d in candidates if 0 < d.source.ry - c.ry <= reach
             and c.rx - 60 <= d.source.rx <= c.rx + 200
             and not any(abs(o.ry - d.source.ry) <= line and o.rx < d.source.rx for o in others)]
    return min(below, key=lambda d: (d.source.ry, abs(d.source.rx - c.rx))) if below else None


def _unitless(text: str) -> str:
    """A caption without the unit in brackets after it: "Volumen (m3)" is words."""
    return re.sub(r"\s*\([^()]{1,8}\)", "", text)


def _heading_beside(d: Decision, caption: SourceField) -> bool:
    """Words in the caption's print that hold a caption word ("Vikt kg", "Värde SEK"
    beside "Innehåll"): the next column's heading, not a value."""
    return abs(d.source.font_height - caption.font_height) <= 2 \
        and abs(d.source.ry - caption.ry) <= 4 and shapes.words_only(d.text) \
        and len(d.text.split()) <= 3 and shapes.caption_name(d.text)[1] >= 0.7


def _under_other_caption(decisions: list[Decision], d: Decision, caption: Decision) -> bool:
    """``d`` is printed right under words in a print no larger than its own, other
    than ``caption``, and well to the right of it."""
    return d.source.rx - caption.source.rx > 200 and any(
        o is not caption and not o.variable and o.text and shapes.words_only(o.text)
        and above(o.source, d.source) and o.source.font_height <= d.source.font_height
        for o in decisions)


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
        indent = leading_spaces(number)
        _variable(number, f"number before its unit {unit.text.strip()!r}", 0.8, indent,
                  ("weight", 0.8))
    return True


def _refines(caption: str, shape: str | None) -> bool:
    """A caption says which kind of a shape's value it is: "BEST BEFORE" over a date."""
    return shape == "date" and caption != "date" and shapes.is_date_name(caption)


# Captions whose value is words, printed below them ("Contents" over "Clothes and
# shoes"): the words are the value, not more static text.
_WORDS_BELOW = frozenset({"description", "remarks", "delivery_instructions", "customer_name",
                          "carrier"})


def continued_lines(decisions: list[Decision]) -> None:
    """Words printed right under a description or a remark, in its print and column
    ("CLIP, WIRE HARNESS" / "NYLON 6/6 BLK"), continue it: the next line of the
    same free text."""
    for first in decisions:
        if not first.variable or first.name not in _WORDS_BELOW or first.source.is_barcode \
                or first.name_certainty < 0.5 or first.prefix_len:
            continue  # the value of a caption of its own ("DESC: ..." in one field, or a
            # line guessed as a description, starts nothing)
        line = first
        while True:
            f = line.source
            nxt = [d for d in decisions if (not d.variable or d.name == "text"
                                            and d.name_certainty <= 0.3 and not d.prefix_len)
                   and not d.source.is_barcode and d.text and abs(d.source.rx - f.rx) <= 6
                   and abs(d.source.font_height - f.font_height) <= 2
                   and 0 < d.source.ry - f.ry <= 1.6 * f.font_height]
            if not nxt:
                break
            line = min(nxt, key=lambda d: d.source.ry)
            text = line.text.strip()
            if len(text.split()) > 8 or shapes.reads_as_caption(text):
                break
            if first.name_certainty < 0.7 and (not shapes.has_digits(text, 1)
                                               or text.endswith(".") or ":" in text):
                break  # a line only guessed to be the goods' name goes on in a line
                # with its size or model ("1/2 in. Drill/Driver Kit DCD791D2"), not in
                # a sentence or a caption
            _variable(line, f"next line of {first.name}", 0.6, leading_spaces(line),
                      (first.name, min(0.6, first.name_certainty)))


# A row that starts with its number, then a gap: "20  CNC MILL OP1      WC-240".
_NUMBERED_ROW = re.compile(r"(\d{1,4})\s{2,}\S")
_GUESSED = frozenset({"text", "field", "description"})


def repeated_rows(decisions: list[Decision]) -> None:
    """Rows printed under a named row, in its column and print and of its form (an
    operation's number, a gap, words: "10  SAW CUT BLANKS  WC-110" over "20  CNC MILL
    OP1  WC-240"), are more rows of the same kind, whatever a guess named them."""
    rows = sorted((d for d in decisions if not d.source.is_barcode and d.text),
                  key=lambda d: d.source.ry)
    for first in rows:
        form = _NUMBERED_ROW.match(first.text)
        if not first.variable or form is None or first.prefix_len \
                or first.name_certainty < 0.6 or first.name in _GUESSED \
                or re.match(PARTY, first.name or ""):
            continue
        line = first
        while True:
            f = line.source
            nxt = [d for d in rows if d.variable and not d.prefix_len and d.name in _GUESSED
                   and d.name_certainty <= 0.5 and abs(d.source.rx - f.rx) <= 6
                   and abs(d.source.font_height - f.font_height) <= 2
                   and 0 < d.source.ry - f.ry <= 2.5 * f.font_height]
            if not nxt:
                break
            line = min(nxt, key=lambda d: d.source.ry)
            row = _NUMBERED_ROW.match(line.text)
            if row is None or len(row.group(1)) != len(form.group(1)):
                break
            line.name, line.name_certainty = first.name, 0.6


def _shape_guess(d: Decision) -> bool:
    """A name only the value's shape gave: a long code looks like a parcel number, a
    short one printed large like a sort code."""
    return d.name in ("tracking_number", "text", "field") and d.name_certainty <= 0.7 \
        or d.reason == "short code in a large font"  # "8N3152" under "Heat No."


def _numbered_by_caption(target: Decision, name: tuple[str, float]) -> bool:
    """A code printed large, guessed a sort code by its print alone, under a caption the
    glossary knows of a number ("Bunt nr" over "2611-08842"): that number. So is a
    postcode beside its caption on a party's form ("Cod poștal:" by "100066")."""
    return target.reason == "short code in a large font" and name[1] >= 0.6 \
        and (name[0].endswith(("_number", "_id")) or name[0] == "postal_code")


def _parcel_number_off_a_parcel(decisions: list[Decision], target: Decision,
                                name: tuple[str, float]) -> bool:
    """A code that only looks like a carrier's parcel number, on a label with no
    recipient (a bundle of timber, a reagent bottle, a crate): its caption says which
    number it is ("BUNDLE NO.", "Reagent ID", "Asset No")."""
    return name[1] >= 0.6 and name[0] != "tracking_number" \
        and name[0].endswith(("_number", "_id")) and parcel_number_guess(decisions, target)


def parcel_number_guess(decisions: list[Decision], d: Decision) -> bool:
    """A tracking number that only the value's shape gave (a check digit a code has
    one time in ten, a long run of digits), on a label that goes to no recipient: no
    carrier's parcel number, only some other number of the thing labelled."""
    return d.name == "tracking_number" and d.name_certainty < 0.9 \
        and not has_recipient(decisions)


def _for_words(name: tuple[str, float], value: str, caption: str = "") -> tuple[str, float]:
    """"Customer" over a company's name names the customer, not their number."""
    if name[0] == "customer_number" and not shapes.has_digits(value, 1):
        return "customer_name", name[1]
    if name[0] in ("quantity", "piece_count") and value[:1].isalpha() \
            and len(value.split()) >= 2 and not shapes.PIECES.match(value):
        return "description", min(name[1], 0.7)  # "ITEM" over "Bamboo Dish Brush"
    code = value.strip()
    if name[0] == "description" and len(code) in (8, 12, 13, 14) and recognise.gs1_valid(code):
        return "gtin", 0.8  # "Innehåll (GTIN)" over "07354018207139": the contents' GTIN
    if name[0] == "quantity" and re.fullmatch(r"[^\W\d_]+[\w.]*[-/][\w./-]+", value.strip()) \
            and shapes.has_digits(value, 2):
        return "part_number", min(name[1], 0.6)  # "ITEM" over "HX-2240-BLK": the item's code
    return shapes.named_by_value(name, value, caption)  # "CLASS" over "77.5", "Volume:"
    # beside "1/2"


def caption_values(decisions: list[Decision]) -> None:
    """A caption in a field of its own ("Account No:", "Phone:", "Gewicht:") names the
    value beside or below it, and makes it variable."""
    for caption in decisions:
        text = caption.text
        if caption.variable or caption.source.is_barcode or not text \
                or shapes.address_role(text) is not None:
            continue
        words = _words_before_colon(decisions, caption)
        if words is not None:  # "Protokol No" | ":" | "2026/0418837": the words left of a
            text = words.text.strip() + ":"  # colon printed in a column of its own caption
            words.variable, words.value, words.prefix_len, words.name = False, None, 0, None
            words.reason, words.certainty = "caption, its colon in a column of its own", 0.8
        described = _described(text)
        known = shapes.is_known_caption(text) or shapes.is_caption(text) or described
        dating = not known and _dating_caption(text)  # (it says which date only of a date)
        if not (known or dating) or _unit_after_number(decisions, caption):
            continue
        name = shapes.caption_name(text)
        target = _caption_target(decisions, caption)
        if target is not None and dating and target.name != "date":
            continue  # "Data di scadenza" beside no date names nothing
        if target is not None:
            name = _for_words(name, target.text, text)
            event = shapes.event_date(text) if target.name == "date" else None
            if event is not None and not shapes.is_date_name(name[0]):
                name = event, 0.8  # "Delivery" over "25/11/26"
        if target is None or name[0] in ("service", "form_version"):
            continue  # a service banner is part of the layout (see _text)
        if target.variable and target.prefix_len and not target.source.is_barcode:
            if ":" in target.source.raw[:target.prefix_len] or target.name in _SURE_SHAPES:
                continue  # a value after its own caption ("Climate: Controlled", "Sale
                # ends 12/01/26")
            target.variable = False  # "Ref:" beside "Order 1234": all of it is the value
        if not target.variable:
            wordy = not shapes.has_digits(target.text, 1)
            below = target.source.ry - caption.source.ry > 8 and not (
                name[0] in _WORDS_BELOW and (name[1] >= 0.85 or shapes.is_caption(text)
                                             or described)
                and target.source.font_height <= 2 * caption.source.font_height
                or name[0] == "routing_code" and name[1] >= 0.85 and len(target.text) <= 20
                and target.text.isupper())  # "ORIGIN" over "CHI", "Ruta" over "NORTE 3"
            # (a caption of the glossary with its colon names the words beside it:
            # "Paciente:" ... "María Dolores Sanchis Ferrer")
            sure = 0.6 if text.strip().endswith(":") and not below else 0.7
            # (but a letter or two printed far larger under it is its value: "SIZE"
            # over "M", "Energiaosztály" over "E", "VG / PG" over "II")
            big = target.source.font_height >= 2 * caption.source.font_height \
                and 0 < len(target.text.strip()) <= 3 and target.text.strip().isalnum() \
                and name[1] >= 0.6
            if wordy and not big and (name[1] < sure or below
                                      or sum(c.isalnum() for c in target.text) < 2):
                continue  # words below a caption are often more static text
            indent = leading_spaces(target)
            _variable(target, f"value of caption {text.strip()!r}", 0.8, indent, name)
            continue
        party = re.match(PARTY, target.name or "")
        if party and name[0] in PARTY_CAPTIONED:
            target.name, target.name_certainty = f"{party.group(1)}_{name[0]}", 0.8
        elif name[0] == "description" and target.name in ("quantity", "weight"):
            continue  # "Contenu" over "6 x 75 cl": how much, not what
        elif not party and (name[1] > target.name_certainty or _refines(name[0], target.name)
                            or name[1] >= 0.7 and _shape_guess(target)
                            and name[0] not in _SURE_SHAPES  # "Data logger" is no date
                            or _numbered_by_caption(target, name)
                            or _symbology_named(target) and name[0] not in _SURE_SHAPES
                            or _parcel_number_off_a_parcel(decisions, target, name)):
            # (a date its caption names is as sure a date as its shape said)
            target.name, target.name_certainty = name[0], max(
                name[1], target.name_certainty if dating else 0.0)


def _words_before_colon(decisions: list[Decision], colon: Decision) -> Decision | None:
    """The words printed just left of a field that holds only a colon, on its line."""
    if colon.text.strip() not in (":", "："):
        return None
    c = colon.source
    left = [d for d in decisions if d is not colon and not d.source.is_barcode and d.text
            and abs(d.source.ry - c.ry) <= 6 and 0 < c.rx - d.source.rx <= 400
            and shapes.has_letters(d.text) and not shapes.has_digits(d.text, 3)]
    return max(left, key=lambda d: d.source.rx) if left else None


# The dates a caption of unknown words still names surely: when goods expire, were made
# (roasted, bottled) or are due (a receipt's or a collection's date is often just "date"
# to an integrator).
_DATES_OF_GOODS = frozenset({"expiry_date", "manufacture_date", "roast_date", "bottling_date",
                             "delivery_date", "due_date", "sell_by_date", "pack_date"})


def _described(text: str) -> bool:
    """A caption that is, as a whole, the word for "description" in another language
    ("Descrizione", "Benennung", "Popis", "Produs"), alone over the goods' name."""
    return shapes.caption_name(text) == ("description", 0.6) and shapes.words_only(text) \
        and len(text.split()) <= 2


def _dating_caption(text: str) -> bool:
    """A caption of a few words that says when goods expire, were made or are due
    ("Data di scadenza", "SHELF LIFE EXP", "Piegādes datums", "À consommer jusqu'au /
    Te gebruiken tot"), though not of the vocabulary as a whole: it names only a date."""
    if not shapes.words_only(text) or any(len(half.split()) > 7 for half in text.split(" / ")):
        return False
    name, sure = shapes.caption_name(text)
    # (or one or two words of an event: "Zustellung", "Livraison" over a date; or up to
    # four that end in one, "NEXT EXAMINATION DUE", not a note such as "Consegna su
    # appuntamento")
    words = text.split()
    return sure >= 0.6 and name in _DATES_OF_GOODS \
        or len(words) <= 2 and shapes.event_date(text) in _DATES_OF_GOODS \
        or len(words) <= 4 and shapes.event_date(words[-1]) in _DATES_OF_GOODS


def _symbology_named(d: Decision) -> bool:
    """A barcode's printed form named only by the symbology ("code128_data") or by
    its shape (a long code looks like a parcel number): any caption over it, known
    or not ("Precinto / Seal No."), says more."""
    return d.reason == "printed form of barcode data" and (
        (d.name or "").endswith("_data") or _shape_guess(d))


# Names a value keeps over a caption of words above it: what the data itself says.
_SURE_SHAPES = frozenset({"date", "weight", "piece_count", "gtin", "sscc", "price", "phone"})
# Captions are small print; a large line over a value is a heading ("ZONE C").
_CAPTION_PRINT = 32
# Words that head a form or a block, not one value ("Ship to", "Contents").
_HEADINGS = re.compile(r"^(?:from|to|ship|sender|receiver|remarks|notes?)\b", re.IGNORECASE)


def above(caption: SourceField, value: SourceField) -> bool:
    """``caption`` is printed right above ``value``, in its column."""
    return 0 < value.ry - caption.ry <= max(2.2 * caption.font_height, 30) \
        and abs(caption.rx - value.rx) <= 12


def line_under(decisions: list[Decision], d: Decision, column: float, reach: float,
               takes: Callable[[Decision], bool]) -> Decision | None:
    """The field printed next under ``d`` that ``takes`` accepts: in its column (within
    ``column`` dots), in its direction (a band's lines are rotated with it), at most
    ``reach`` dots lower; no barcode."""
    s = d.source
    return min((o for o in decisions if not o.source.is_barcode
                and o.source.orientation == s.orientation and abs(o.source.rx - s.rx) <= column
                and 0 < o.source.ry - s.ry <= reach and takes(o)),
               key=lambda o: o.source.ry, default=None)


def beside(caption: SourceField, value: SourceField) -> bool:
    """``caption`` is printed left of ``value`` on its line ("Cross-section" ...
    "5x16 mm²"): their heights overlap and the value starts within a column's reach."""
    return 0 < value.rx - caption.rx <= 400 and caption.ry < value.ry + value.font_height \
        and value.ry < caption.ry + caption.font_height \
        and abs(value.ry - caption.ry) <= max(caption.font_height, 12)


def column_captions(decisions: list[Decision], of_goods: bool) -> None:
    """A few words in a small print right above a value ("Coil No." over "K6-204417",
    "Heat No." over "8N3152", "Grade" over "S355MC") are that value's caption, known
    to the vocabulary or not: they name it where its shape or place only guessed
    (an unknown caption's name is its words, for review). On a label of goods
    (``of_goods``), a few words under such a caption are its value too."""
    for target in decisions:
        if not target.variable and of_goods and _short_words(target):
            pass  # words under a caption of their own on goods: "Process" over "Washed"
        elif not target.variable or target.source.is_barcode or target.prefix_len \
                or target.name_certainty >= 0.7 and not _shape_guess(target) \
                or target.name in _SURE_SHAPES \
                or re.match(PARTY, target.name or ""):
            continue
        t = target.source
        captions = [d for d in decisions if not d.variable and not d.source.is_barcode
                    and d.text and (above(d.source, t) or beside(d.source, t))
                    and d.source.font_height < min(t.font_height, _CAPTION_PRINT)
                    and _few_words(_FIELD_NUMBER.sub("", d.text), target)
                    and not _HEADINGS.match(d.text) and shapes.address_role(d.text) is None]
        if not captions:
            continue
        caption = max(captions, key=lambda d: (d.source.ry, d.source.rx))
        name = shapes.caption_name(_FIELD_NUMBER.sub("", caption.text).strip().rstrip(":"))
        if of_goods and shapes.is_product_caption(caption.text.strip().rstrip(":")):
            name = ("description", 0.7)  # "Produkt / Product" over the goods' name
        if name[0] in ("field", "service", "form_version") or len(name[0]) > 30 \
                or target.name == "routing_code" and not above(caption.source, t) \
                or name[1] < 0.6 and _sort_code_of_a_parcel(decisions, target) \
                or target.name == "description" and name[1] < 0.85 \
                and not shapes.is_glossary_caption(caption.text) \
                or shapes.is_date_name(name[0]) and not _holds_date(target.text):
            continue  # a maker's name over the product's ("GRÜNHAND SAATGUT"); a caption
            # of the glossary is a caption ("DEPARTAMENTO" over "Qualidade - Edifício B");
            # a code in the row of "Utgår:" is no day
        name = _for_words(name, target.text, caption.text)
        if not target.variable:
            if name[1] < 0.7 and caption.text.isupper() and not target.text.isupper() \
                    or name[0] in _SURE_SHAPES and not shapes.has_digits(target.text, 1):
                continue  # a brand in capitals over a line of its own; "Weight" over words
            _variable(target, f"value under its caption {caption.text.strip()!r}", 0.6,
                      leading_spaces(target), (name[0], min(name[1], 0.6)))
            continue
        target.name, target.name_certainty = name[0], min(name[1], 0.6)
        if target.reason.startswith("printed form"):
            _caption_of_printed_form(decisions, target)


# Captions that say which of a label's prices an amount is: before a markdown, or the
# maker's list price ("statt", "Was", "Adviesprijs", "UVP").
_EARLIER_PRICES = frozenset({"was_price", "list_price"})


def captions_of_prices(decisions: list[Decision]) -> None:
    """A price with a caption of its own right above or left of it that says it is
    the price before a markdown or the list price ("statt" beside "2,99 €", "Was"
    over "£4.25", "Adviesprijs" over "€ 799,-") is that price, though its shape said
    only a price: the label's other amount is what the goods cost now."""
    for target in decisions:
        if not target.variable or target.name != "price" or target.prefix_len:
            continue
        t = target.source
        captions = [d for d in decisions if not d.variable and not d.source.is_barcode
                    and d.text and (above(d.source, t) or beside(d.source, t))
                    and shapes.few_words(d.text, 3)]
        if not captions:
            continue
        caption = min(captions, key=lambda d: abs(d.source.rx - t.rx) + abs(d.source.ry - t.ry))
        name = shapes.caption_name(caption.text.strip().rstrip(":"))
        if name[0] in _EARLIER_PRICES and name[1] >= 0.6:
            target.name, target.name_certainty = name[0], 0.6


# What a barcode's data only looks like: a caption over its printed form says more.
_BARCODE_GUESSES = frozenset({"postal_code", "tracking_number", "routing_code", "reference"})


def _caption_of_printed_form(decisions: list[Decision], printed: Decision) -> None:
    """The barcode whose printed form a caption named ("LOCK NO." over "L-0392") is
    what the caption says, not what its data looks like (a postcode "L-0392"); on a
    parcel a long code is its parcel number, whatever its caption ("Job")."""
    parcel = has_recipient(decisions)
    for d in decisions:
        if d.source.is_barcode and d.variable and d.value == printed.value \
                and d.reason == "barcode data" and d.name_certainty <= 0.6 \
                and d.name in _BARCODE_GUESSES \
                and not (parcel and d.name == "tracking_number"):
            d.name, d.name_certainty = printed.name, printed.name_certainty


def _holds_date(text: str) -> bool:
    return shapes.DATE.search(text) is not None \
        or (recognise.text_value(text) or ("", 0.0))[0] == "date"


# The number a form gives its field, before the caption: "(6) Anzahl Packstücke" (VDA 4902).
_FIELD_NUMBER = re.compile(r"^\s*\(\d{1,2}\)\s*")


def _few_words(text: str, target: Decision) -> bool:
    """Words few enough for a caption: three, or four of the vocabulary over a code
    printed large ("TOTAL NO. OF PIECES" over "12")."""
    words = len(text.split())
    return shapes.words_only(text) and (words <= 3 or words == 4 and target.reason
                                        == "short code in a large font"
                                        and shapes.caption_name(text)[1] >= 0.6)


def _sort_code_of_a_parcel(decisions: list[Decision], target: Decision) -> bool:
    """A code of letters and digits printed large on a parcel with a recipient ("MDP-03",
    "DSU 8-3", "044 DO"): a sort code, whatever unknown words caption it ("Sucursal
    distribución", "Delivery Unit", "Empfangs-NL"); a number alone may be a count or a
    class."""
    return target.name == "routing_code" and target.reason == "short code in a large font" \
        and shapes.has_letters(target.text) and has_recipient(decisions)


def has_recipient(decisions: list[Decision]) -> bool:
    """A parcel with a recipient: some field is named as the recipient's."""
    return any(d.variable and (d.name or "").startswith("ship_to_") for d in decisions)


def table_rows(decisions: list[Decision]) -> None:
    """Rows of values under a row of column captions (a customs declaration's
    "Description | Qty | Weight | Value | HS no."): where a row's other cells are
    data, the words under a caption of the vocabulary are that column's value, the
    goods' description too, however long; the rows below go on in the same columns."""
    column_of: dict[int, Decision] = {}  # a cell of a table -> its column's caption
    texts = [d for d in decisions if d.text and not d.source.is_barcode]
    ups = _fields_above(texts)
    by_row = sorted(texts, key=lambda d: d.source.ry)
    rows = [d.source.ry for d in by_row]

    def caption_over(d: Decision) -> tuple[Decision | None, bool]:
        """The caption of ``d``'s column, and whether a row of the table is between."""
        up = ups.get(id(d))
        if up is None:
            return None, False
        if id(up) in column_of:
            return column_of[id(up)], True
        return (None if up.variable and not _guessed_words(up) else up), False

    def row_of(d: Decision) -> list[Decision]:
        """The fields on ``d``'s line."""
        return by_row[bisect_left(rows, d.source.ry - 3):bisect_right(rows, d.source.ry + 3)]

    for d in by_row:
        header, below_a_row = caption_over(d)
        if header is None:
            continue
        captions = [h for h in row_of(header) if not h.variable or _guessed_words(h)]
        cells = [c for c in row_of(d) if c is not d and caption_over(c)[0] is not None]
        data = sum(c.variable or shapes.has_digits(c.text, 1) for c in cells)
        if len(captions) < 3 or data < (1 if below_a_row else 2):
            continue  # (the row's data: values found, or numbers)
        column_of[id(d)] = header
        if header.variable:  # "WORK CTR" heads a column: no goods' name
            header.variable, header.value, header.name = False, None, None
            header.reason, header.certainty = "the caption of a table's column", 0.7
        name = _column_name(header, d)
        if d.variable and not d.prefix_len and d.name == "value" and name[0] in _MONEY \
                and name[1] >= 0.6:
            d.name, d.name_certainty = name[0], min(0.8, name[1])  # "$38.00" under "PRICE"
            continue
        if d.variable and not d.prefix_len and d.name not in _KEPT_SHAPES and (
                d.name_certainty < 0.5 or name[1] >= 0.7 and (d.reason.startswith("data shape")
                                                              or _guessed_words(d))):
            d.name, d.name_certainty = name  # "545,00" under "Värde", "E-2611-90415" under
            continue  # "Objednávka"
        if d.variable or shapes.reads_as_caption(d.text):
            continue
        if name[1] < 0.7 and not re.fullmatch(r"(?=.*\d)[A-Z0-9][A-Z0-9./-]*", d.text.strip()) \
                or name[0] in ("field", "service", "form_version"):
            continue  # (numbers and codes under a caption of no known word are data too)
        _variable(d, f"in the column of {header.text.strip()!r}", 0.7, leading_spaces(d), name)


def _guessed_words(d: Decision) -> bool:
    """Words taken for a goods' name on no sign but being words: they may be a caption."""
    return d.variable and d.name == "description" and d.name_certainty <= 0.5 \
        and not d.prefix_len


def _fields_above(texts: list[Decision]) -> dict[int, Decision]:
    """Each text's first field right above it in its column, found among the few in
    reach of its x."""
    order = {id(d): i for i, d in enumerate(texts)}
    by_x = sorted(texts, key=lambda d: d.source.rx)
    xs = [d.source.rx for d in by_x]
    out: dict[int, Decision] = {}
    for d in texts:
        near = by_x[bisect_left(xs, d.source.rx - 12):bisect_right(xs, d.source.rx + 12)]
        found = [h for h in near if h is not d and 0 < d.source.ry - h.source.ry
                 <= max(2.6 * h.source.font_height, 30)]  # (a table's rows are further apart
        # than a caption from its value)
        if found:  # the nearest, then the first in the label
            out[id(d)] = min(found, key=lambda h: (d.source.ry - h.source.ry, order[id(h)]))
    return out


# Which amount of money a column holds: a sum's shape only says it is money.
_MONEY = frozenset({"price", "unit_price", "cod_amount", "total", "subtotal", "tax", "amount",
                    "declared_value", "customs_value", "insured_value", "freight_charges",
                    "shipping_charges"})
# What a value's shape says, kept under any column caption ("6 x 75 cl" under "Contents").
_KEPT_SHAPES = _SURE_SHAPES | {"quantity", "dimensions", "value"}


def _column_name(header: Decision, cell: Decision) -> tuple[str, float]:
    """What a column's caption names the value in one of its cells."""
    name = shapes.caption_name(header.text)
    if name[0] == "routing_code" and shapes.is_country(cell.text):
        return "country_of_origin", 0.7  # "Origin" over "KR" in a table of goods
    return _for_words((name[0], min(name[1], 0.75)), cell.text, header.text)


def captions_over_large_values(decisions: list[Decision]) -> None:
    """Words in a small print right over a value printed much larger ("DEST SC" over
    "CLT", "SORT ROUTE" over "M3-07") are that value's caption, not a caption and a
    code of their own."""
    for d in decisions:
        if not d.variable or not d.prefix_len or d.source.is_barcode \
                or not re.fullmatch(r"[^\W\d_]{1,5}", (d.value or "").strip()):
            continue
        if any(e is not d and e.variable and not e.source.is_barcode
               and above(d.source, e.source)
               and e.source.font_height >= 1.5 * d.source.font_height for e in decisions):
            d.variable, d.value, d.prefix_len, d.name = False, None, 0, None
            d.reason, d.certainty = "a caption over a larger value", 0.7


def caption_grid(decisions: list[Decision]) -> None:
    """A label laid out as small captions over larger values ("Waybill" over the number,
    "Declared Value" over the amount, "Payment" over "Wallet - Prepaid"): where at least
    three captions in one print head data, words under another caption in that print are
    its value too."""
    pairs: list[tuple[Decision, Decision]] = []
    for value in decisions:
        if value.source.is_barcode or not value.text or value.prefix_len:
            continue
        caption = next((c for c in decisions if c is not value and not c.variable and c.text
                        and not c.source.is_barcode and above(c.source, value.source)
                        and c.source.font_height < value.source.font_height
                        and shapes.few_words(c.text, 3) and shapes.words_only(c.text)
                        and shapes.address_role(c.text) is None), None)
        if caption is not None:
            pairs.append((caption, value))
    heads = [c.source.font_height for c, v in pairs if v.variable and shapes.has_digits(v.text, 2)]
    for caption, value in pairs:
        if value.variable or sum(abs(h - caption.source.font_height) <= 1 for h in heads) < 2 \
                or not 0 < len(value.text.split()) <= 4 or shapes.reads_as_caption(value.text) \
                or shapes.is_web(value.text) or value.text.strip().endswith((".", ":", "#")):
            continue
        name = _for_words(shapes.caption_name(caption.text.strip().rstrip(":.")), value.text,
                          caption.text)
        if name[0] in ("field", "service", "form_version"):
            continue
        _variable(value, f"under its caption {caption.text.strip()!r} in a grid of captions",
                  0.6, leading_spaces(value), (name[0], min(name[1], 0.6)))


def captions_over_letters(decisions: list[Decision]) -> None:
    """A caption of the glossary without its colon ("Energiaosztály", "ADR Klasse /
    Class", "VG / PG") over a letter or a number or two printed far larger under it
    ("E", "3", "II"): that is its value, an energy class or a packing group."""
    for value in decisions:
        text = value.text.strip()
        if value.variable or value.source.is_barcode or not 0 < len(text) <= 3 \
                or not text.isalnum() or shapes.is_country(text):
            continue
        v = value.source
        over = [caption for caption in decisions
                if caption is not value and not caption.variable
                and not caption.source.is_barcode and caption.text
                and shapes.words_only(caption.text) and shapes.few_words(caption.text, 3)
                and shapes.address_role(caption.text) is None
                and v.font_height >= 2 * caption.source.font_height
                and 0 < v.ry - caption.source.ry <= max(2.2 * caption.source.font_height, 30)
                and caption.source.rx - 20 <= v.rx
                <= caption.source.rx + 0.6 * caption.source.font_height * len(caption.text)]
        if not over:
            continue
        caption = min(over, key=lambda c: abs(c.source.rx - v.rx))
        name = shapes.caption_name(caption.text)
        if name[1] >= 0.6 and name[0] not in ("service", "form_version", "field"):
            _variable(value, f"value under its caption {caption.text.strip()!r}", 0.7,
                      leading_spaces(value), (name[0], min(name[1], 0.6)))


def _short_words(d: Decision) -> bool:
    """A value of a few words: not a caption, a sentence, a web address or one word
    in capitals ("NOW" under "WAS" is the next heading)."""
    text = d.text.strip()
    return not d.source.is_barcode and 0 < len(text.split()) <= 4 \
        and (len(text) >= 2 or text.isdigit()) \
        and not (text.isalpha() and text.isupper()) \
        and not text.endswith((":", ".", "!")) and not shapes.reads_as_caption(text) \
        and not shapes.is_web(text) and shapes.address_role(text) is None


# A caption over a barcode: up to three words, perhaps numbered ("IMEI 2") or with the
# data identifier its bars begin with ("SERIAL NUMBER (S)", "PART NO. (P)"), naming one
# thing ("AWB + PIECE" names a code made of two).
_CAPTION_WORDS = re.compile(r"[^\W\d_][^\s\d+&]+(?: [^\W\d_][^\s\d+&]*){0,2}(?: \d)?"
                            r"(?: \(\d?[A-Z]{1,2}\))?")


def captions_over_barcodes(decisions: list[Decision]) -> None:
    """A known caption printed right over a barcode, flush with it ("IMEI 1", "WLAN
    MAC", "Specimen ID"), names what the barcode holds, and its printed form too: the
    caption says more than the shape of a long code does."""
    for code in decisions:
        if not code.source.is_barcode or not code.variable or code.name_certainty >= 0.7 \
                or (code.name or "").endswith("_data"):
            continue
        caption = _caption_over(decisions, code.source)
        if caption is None:
            continue
        name, sure = shapes.caption_name(caption.text)
        if sure < 0.5 or name in ("field", "service", "form_version", code.name):
            continue
        data, guess = shapes.compact(code.text), code.name
        for d in decisions:
            if d is code or _printed_form(d, data, guess):
                d.name, d.name_certainty = name, min(sure, 0.7)


def _printed_form(d: Decision, data: str, guess: str | None) -> bool:
    """``d`` prints barcode data ``data`` and is named only as the barcode was, or by
    a guess of its own ("contains a number")."""
    text = shapes.compact(d.text)
    return d.variable and not d.source.is_barcode and not d.prefix_len and bool(text) and (
        d.reason == "printed form of barcode data" and text in data and d.name == guess
        or text == data and d.name_certainty <= 0.6)


def _caption_over(decisions: list[Decision], code: SourceField) -> Decision | None:
    """The caption right over barcode ``code``, flush with its left edge, or ending just
    left of its top ("MAC" before the bars; not "CHECK" over its check digits), and
    not one that captions a value of its own on its line ("MRN" before "00841275",
    over a sample's bars)."""
    return next((c for c in decisions if not c.variable and not c.source.is_barcode
                 and _CAPTION_WORDS.fullmatch(c.text.strip()) is not None
                 and (0 < code.ry - c.source.ry <= 2 * max(c.source.font_height, 12)
                      and -24 <= code.rx - c.source.rx <= 40
                      and not _captions_beside(decisions, c, code)
                      or _just_left(c, code)
                      and not any(above(c.source, v.source) for v in decisions if v.variable))),
                None)


def _captions_beside(decisions: list[Decision], caption: Decision, code: SourceField) -> bool:
    """``caption`` has a value of another field beside it, right after it on its line
    (not the barcode's printed form: "Recept:" before "2611-004387")."""
    end = caption.source.rx + 0.6 * caption.source.font_height * len(caption.text.strip())
    bars = re.sub(r"\W", "", sample_value(code, code.raw) or code.raw)
    return any(v.variable and not v.source.is_barcode and v.value
               and re.sub(r"\W", "", v.value) not in bars
               and beside(caption.source, v.source) and v.source.rx - end <= 80
               for v in decisions)


def _just_left(caption: Decision, code: SourceField) -> bool:
    """``caption`` ends within a few letters left of ``code``, on the line of its top."""
    c = caption.source
    end = c.rx + 0.6 * c.font_height * len(caption.text.strip())
    return abs(code.ry - c.ry) <= max(c.font_height, 12) and 0 <= code.rx - end <= 2 * c.font_height
