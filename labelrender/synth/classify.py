"""Which fields of a legacy label are variable data, and what part of each.

Each field gets a :class:`Decision`: variable or static, the static part of its
data that stays in the body (a caption such as ``REF: `` or a barcode's format
prefix), the sample value, a name and how certain each of those is. The stages
after each field's own reading live beside it: address blocks (addresses.py),
captions in fields of their own (captions.py), echoes of an address elsewhere
(echoes.py) and labels of goods (goods.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import badges, goods, recognise, scales, shapes
from .addresses import (
    NAMELESS,
    PLACE_REASON,
    address_blocks,
    parties,
    pickup_point_address,
    pickup_point_ids,
    pickup_point_lines,
    stray_street_lines,
    towns_under_streets,
)
from .captions import above as caption_above
from .captions import beside as caption_beside
from .captions import (
    caption_grid,
    caption_values,
    captions_of_prices,
    captions_over_barcodes,
    captions_over_large_values,
    captions_over_letters,
    column_captions,
    continued_lines,
    has_recipient,
    line_under,
    parcel_number_guess,
    raw_caption_split,
    raw_end,
    repeated_rows,
    table_rows,
)
from .decision import Decision, leading_spaces
from .decision import mark_variable as _variable
from .decision import printed as _printed
from .echoes import echoes
from .source import SourceLabel, sample_value

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
# A short code with a digit printed large is a sort or routing code ("SK13", "700",
# "KRA-W3 / 12", "R14 KSM-C"; not a fraction such as "1/X").
# (in capitals of any script: "ΘΕΣ-12", "ПД 412")
_SORT_CODE = re.compile(r"(?=.*\d)(?=.{2,14}$)(?!.{1,2}/.{1,2}$)"
                        r"[^\W_]{1,6}(?: ?[-/]? ?[^\W_]{1,6}){0,3}")
_CODE_FONT = 40
# Words of prose: a line with four of them and a number is form or legal text.
_PROSE = re.compile(r"[^\W\d_]{3,}")
# 2D symbols whose data is often a record of several fields (a carrier's message).
_TWO_D = frozenset({"BQ", "BX", "B7", "BF", "BO", "B0", "BD"})
_COMPOSITE = re.compile(r"\[\)>|[|{}\x1d\x1e]|_1D|_1E|[^,]*,[^,]*,")


def _barcode(d: Decision) -> None:
    symbology = d.source.symbology or ""
    pattern = _FORMAT_PREFIXES.get(symbology)
    match = pattern.match(d.source.raw) if pattern else None
    prefix_len = match.end() if match else 0
    data = d.source.raw[prefix_len:]
    name = recognise.barcode_data(d.source.raw if symbology == "BC" else data, symbology)
    # Several values in one 2D symbol ("3SKR... 8021EV 112bis"): a record, whatever
    # its first value looks like, unless a validated format names it.
    record = symbology in _TWO_D and len(data.split()) > 1
    if record and name is not None and name[1] < 0.85:
        name = None
    if name is None and symbology != "BD" and not record:
        name = shapes.shape_name(data)
        if name is not None and name[0] in ("phone", "date", "weight", "piece_count"):
            name = None  # a barcode of such a shape is data of its own, not a phone
        if name is not None:  # a shape, not a validated format: less sure
            name = (name[0], min(name[1], 0.6))
    if name is None and symbology in _TWO_D and (record or _COMPOSITE.search(data)):
        name = (_SYMBOLOGY_NAMES[symbology] + "_data", 0.75)  # a record of several fields
    name = name or (_SYMBOLOGY_NAMES.get(symbology, "barcode") + "_data", 0.55)
    _variable(d, "barcode data", 0.95, prefix_len, name)


# A date after a star, perhaps with the sex ("* 07.09.1968  w"): how German, Austrian,
# Swiss and Nordic hospitals print a patient's birth date.
_BORN = re.compile(r"\*\s?\d{1,2}\.\d{1,2}\.(?:\d{2}|\d{4})(?:\s+[mwfdkMWFDK])?")


def _text(d: Decision) -> None:
    text = d.text
    if not text:
        d.reason, d.certainty = "empty", 0.95
        return
    # Leading spaces are layout (right-aligned ^FB columns), not part of the value.
    indent = leading_spaces(d)
    if shapes.is_caption(text) or shapes.has_digits(text, 1) and shapes.is_known_caption(text):
        d.reason, d.certainty = "caption", 0.9  # "SHIP TO:", "Ref. 1"
        return
    if "___" in text:
        d.reason, d.certainty = "a blank to write in by hand", 0.85
        return
    if shapes.is_site(text):
        d.reason, d.certainty = "a web address: the label owner's own", 0.8
        return
    if (shapes.POSTAGE.search(text) and not re.search(r"\d[.,]\d{2}\b", text)) \
            or shapes.EMERGENCY.search(text):  # (the postage paid, "2,70 EUR", is data)
        d.reason, d.certainty = "postage indicia or emergency number: the account's own", 0.7
        return
    if goods.made_in(text) and " · " not in text and not goods.bilingual_caption(text) \
            and not text.isupper():  # ("PRODUCT OF THAILAND" in capitals: a case's marking)
        _variable(d, "where the goods are made", 0.7, indent, ("country_of_origin", 0.7))
        return
    if _TOTAL_OF.fullmatch(text.strip()):
        _variable(d, "how many in all, under which one", 0.7, indent, ("piece_count", 0.6))
        return  # "z 4" under "2", "de 240" under "037": the count's total
    if _BORN.fullmatch(text.strip()):
        _variable(d, "a date after the sign of birth", 0.8, indent, ("date_of_birth", 0.7))
        return
    split = raw_caption_split(d.source)
    loose = split is None  # a caption without a colon: its name is for review
    if split is None and _goods_and_size(text):
        _variable(d, "goods with their size", 0.6, indent, ("description", 0.55))
        return  # "Baguette de tradition 250 g": what, and how much of it
    split = split if split is not None else _words_then_value(d, indent)
    if split is not None and _unit_before_words(d, split):
        split = None  # "гр. Казанлък, ул. Искра 14": "гр." is a town here, not grams
    if split is not None:
        caption = sample_value(d.source, d.source.raw[:split]) or d.source.raw[:split]
        name = shapes.caption_name(caption)
        value = text[len(caption.strip()):].strip()
        if name[0] == "form_version" and _REVISION.fullmatch(value):
            name = ("revision", 0.7)  # "Rev: C": a part's revision letter, not the form's
        if name[0] == "service" or name[0] == "form_version" and name[1] >= 0.85:
            # "SERVICE: EXPRESS 9AM" describes the product the layout is made for, and
            # "VER: 01.06" the form; another service is another layout (and another
            # template), so they are static.
            kind = "product" if shapes.is_product_caption(caption) else name[0]
            d.reason, d.certainty = f"{kind} line: part of the layout", 0.8
            return
        found = recognise.text_value(value)
        if found is None and name[1] <= 0.7:  # a caption not of the vocabulary: the
            # value's shape names it
            found = shapes.shape_name(value)
        # A long code only looks like a parcel number, four digits like a postcode: a
        # caption that is known says more ("Ref.ª cliente: ENC-2026-5531", "Encomenda:
        # 7100448812", "Model year: 2027").
        shape_only = found is not None and found[0] in ("tracking_number", "postal_code") \
            and found[1] <= 0.7 and name[1] >= 0.6 \
            and name[0] not in ("description", "routing_code") \
            or found is not None and found[0] == "phone" and name[1] >= 0.6 \
            and re.search(r"_(?:number|id)$", name[0]) is not None  # "Code client : 0493
        # 1187": a number the caption names, however much it looks like a phone's
        words = value.split()
        if len(words) > 1 and recognise.is_weekday(words[0].rstrip(",")):
            words = words[1:]  # "vendredi 27/11/2026 avant 6h": the day names the date
        first = recognise.text_value(words[0].rstrip(",")) if words else None
        dated = found is not None and found[0] == "date" or found is None \
            and first is not None and first[0] == "date"  # "25/11/26 AM", "11/26 0700-1100"
        clause = _last_clause(caption)  # ("Sold frozen, best before:": the words of
        # the sentence before the caption name no date)
        if dated and clause != caption.strip():
            name = _sure_date_caption(clause) or name
        event = shapes.event_date(clause) if dated else None
        if dated and shapes.is_date_name(name[0]) and (name[1] >= 0.85 or event is None):
            pass  # "Fällig am: 30.11." says which date (an event word says it better than
            # a guess from the glossary: "Ship by" is the ship date)
        elif event is not None:
            name = (event, 0.8)  # "Entrega estimada: 27/11"
        elif dated and name[0] in _NEVER_DATES:
            name = ("date", 0.6)  # "DEP 24/11": no sort code nor price is a day
        elif dated and found is None and name[1] < 0.6:
            name = ("date", 0.6)  # "Preparado: 24/11/2026 21:47": a caption not of the
            # vocabulary names no field; the date it holds does
        elif found is not None and found[0] == "weight" and name[0].endswith("_weight") \
                and name[1] >= 0.6:
            pass  # "TARE 3,880 kg": which weight
        elif found is not None and found[0] == "value" and name[0] in _WHICH_PRICE \
                and name[1] >= 0.6:
            pass  # "Kiloprijs € 11,63", "Was £24.99": an amount, and which
        elif found is not None and not shape_only and found[1] >= min(name[1], 0.6) and (
                name[1] < 0.85 or name[0] in ("reference", "date", "container_id")
                and found[0] != "phone" and found[1] >= 0.9):
            name = found  # "Sendungsnr.: 2222..." is named by the value it holds; a shape
            # less sure than a caption the glossary knows says less ("Startverzögerung:
            # 30 min" is the start delay, no mere duration)
        name = _words_for_number(name, value, found, caption)
        if loose:
            name = (name[0], min(name[1], 0.65))
        _variable(d, f"value after caption {caption.strip()!r}", 0.85, split, name)
        if d.variable:
            return
    found = recognise.text_value(text)
    shape = found or shapes.shape_name(text)
    if shape is None and _counted_after_words(text):
        shape = ("piece_count", 0.7)  # "C/N 3 OF 7", "Karton 2 von 5": which of how many
    if shape is not None:
        _variable(d, "data shape " + shape[0], 0.8, indent, shape)
    elif d.source.font_height >= _CODE_FONT and _SORT_CODE.fullmatch(text) \
            and text == text.upper():
        _variable(d, "short code in a large font", 0.7, indent, ("routing_code", 0.7))
    elif shapes.data_digits(text, 4) and len(_PROSE.findall(text)) < 4:
        head = text.split()[0].rstrip(".:#") if len(text.split()) in (2, 3) else ""
        if head.lower() in _UNTIL or recognise.is_weekday(head):
            head = ""  # ("bis 12.12.2026": the date's own word, no caption)
        name = shapes.caption_name(head) if head.replace("-", "").isalpha() else ("text", 0.3)
        # "Order 1234", "PO 5521": a caption word without a colon names the value
        # an unknown word names it for review ("Ticket 0187": ticket)
        named = (name[0], 0.65) if name[1] >= 0.85 else \
            (name[0], 0.3) if name[0] not in ("text", "field") and len(head) >= 3 else None
        if name[0] in _NEVER_DATES and _is_date(text[len(head):]):
            named = None  # ("PRET VEN 27/11", "DEP 24/11": no price or sort code is a day;
            # the word means another thing: ready, deposited)
        rest = recognise.text_value(text[len(head):].strip(" .:")) \
            if head and name[1] < 0.85 else None
        if rest is not None and rest[0] in _KINDS_OVER_WORDS:
            named = (rest[0], 0.4)  # "Départ 13h40": a word nobody knows, then a time; the
            # time says more than the word
        elif rest is not None and rest[0] == "date" and shapes.event_date(text) is not None:
            named = (shapes.event_date(text) or "date", 0.5)  # "Prod. 2026-10": the
            # abbreviation of an event names the date, or the month, after it
        # (two words of a caption the glossary knows whole say more than the first of
        # them, unknown: "Noutopisteen tunnus 203418" is the pickup point's number)
        lead = _LEAD_CAPTION.match(text) if named is None or named[1] < 0.4 else None
        guess = shapes.caption_name(lead.group(1)) if lead else None
        if lead and guess and guess[1] >= 0.6 \
                and guess[0] not in ("field", "service", "form_version"):
            # "PICK TKT 7720418  WAVE 1125-2", "PRO# 0421-8870311   BOL 7718240": the
            # first caption of a line of several names it
            named = (shapes.named_by_value(guess, text[lead.end():])[0], 0.4)
        elif lead and recognise.tracking(shapes.compact(text[lead.end():])) is not None:
            named = ("tracking_number", 0.5)  # "USPS # 9261 2903 3847 5512 0046 18": a
            # carrier's number by its format, whatever the caption
        if (named is None or name[1] < 0.6 and _dated_word(text)) and _day_in_line(text):
            # "24.11.2026  K. Brandt", "MD 11/25": a day's date with a word or a name (a
            # word of no known meaning before it is no name: "geldig t/m 06-12-2026")
            named = (_caption_before_date(text) or shapes.event_date(text) or "date", 0.3)
        if named is not None and named[0] == "phone" \
                and shapes.has_letters(text.split(maxsplit=1)[-1]):
            named = None  # "Tel Aviv-Yafo 6688112": a town, and no phone has words
        _variable(d, "contains a number", 0.6, indent, named or ("text", 0.3))
    elif shapes.DATE.search(text) and len(text.split()) <= 12 and "(" not in text:
        # a day's date in a line of words: when it was printed, packed or built
        event = _caption_before_date(text) or shapes.event_date(text)
        _variable(d, "a line with a day's date", 0.6, indent, (event or "date", 0.5))
    elif shapes.data_digits(text, 4):
        d.reason, d.certainty = "words with a number: form or legal text", 0.55


# Names of what is never a day: amounts of money, a sort code.
_NEVER_DATES = frozenset({"price", "value", "unit_price", "cod_amount", "total", "amount",
                          "routing_code"})


def _is_date(text: str) -> bool:
    return (recognise.text_value(text.strip()) or ("", 0.0))[0] == "date"


def _caption_before_date(text: str) -> str | None:
    """The caption the date of a sentence follows, when a known one says which date:
    "Store sealed, cool and dry. Best before: 23 May 2027" is the expiry date."""
    date = shapes.DATE.search(text)
    head = _last_clause(text[:date.start()]) if date else ""
    found = _sure_date_caption(head) if head.endswith(":") else None
    return found[0] if found else None


def _last_clause(text: str) -> str:
    return re.split(r"[.;!?,] ", text.strip())[-1].strip()


def _sure_date_caption(caption: str) -> tuple[str, float] | None:
    """A caption of the vocabulary that says which date."""
    name = shapes.caption_name(caption)
    return name if name[1] >= 0.85 and shapes.is_date_name(name[0]) else None


# Captions that say which of a label's prices an amount is: per unit, before a
# markdown, recommended.
_WHICH_PRICE = frozenset({"unit_price", "was_price", "list_price"})
# Attributes of goods whose value is a word or two: "Kleur wit", "Size L", "Grade A".
_ATTRIBUTES = frozenset({"color", "size", "material", "grade", "variety", "flavour", "flavor",
                         "style", "shade", "finish", "breed", "species", "category"})
# A part's revision letter, with a number after it ("Rev: C", "REV B2"), not the form's
# version ("Rev: 01.06").
_REVISION = re.compile(r"[A-Z]{1,2}\d?")
# A caption of a count or a number whose value is words names what is counted:
# "Item: Hex Bolt M8x25" is a description, "Customer: Halvorsen Marine AS" a name.
_WORDS_INSTEAD = {"piece_count": "description", "quantity": "description",
                  "customer_number": "customer_name"}


# A caption of a person whose value is a number names the person's number.
_NUMBER_INSTEAD = {"patient_name": "patient_id", "customer_name": "customer_number"}


def _words_for_number(name: tuple[str, float], value: str,
                      found: tuple[str, float] | None, caption: str) -> tuple[str, float]:
    if name[0] == "description" and found is not None and found[0] in ("quantity", "weight"):
        return found  # "Contents: 24 x 330ml" is how much, not what
    by_value = shapes.named_by_value(name, value, caption)
    if by_value != name:
        return by_value  # "Case 0213 of 0480", "PIN 3359..."
    if name[0] in _NUMBER_INSTEAD and shapes.has_digits(value, 3) \
            and not shapes.has_letters(value):
        return _NUMBER_INSTEAD[name[0]], min(name[1], 0.7)  # "Patient 58213": the id
    if name[0] in ("quantity", "piece_count") and _COUNTED_GOODS.fullmatch(value):
        return "description", min(name[1], 0.7)  # "Items: 2 x human hair wig (boxed)"
    if name[0] not in _WORDS_INSTEAD or found is not None or len(value.split()) < 2 \
            or not value[:1].isalpha() or shapes.PIECES.match(value):
        return name
    return _WORDS_INSTEAD[name[0]], min(name[1], 0.7)


# A count, then what is counted in words: "2 x porcelain teacup", not "6 x 75 cl".
_COUNTED_GOODS = re.compile(r"\d{1,4}\s*[x×]\s+(?:[^\W\d_]{3,}\b.*){2,}", re.IGNORECASE)


# Words that start an address line, not a caption: "Box 12", "Flat 4", "Route 66".
_ADDRESS_START = re.compile(r"^(?:P\.? ?O\.? BOX|BOX|POSTFACH|SKRYTKA|SUITE|STE|APT|APARTMENT|"
                            r"UNIT|FLAT|FLOOR|BLDG|BUILDING|PSC|LOCAL|PISO|HAUS|ROUTE|RT|RR|"
                            r"HWY|RUE|VIA|CALLE|ULICA|UL)\b", re.IGNORECASE)


# One to three words ("jusqu'au" too), then the value.
_WORD_OF_CAPTION = r"[^\W\d_](?:[^\W\d]|['’]|\.-(?=[^\W\d_]))*\.?"  # "Kd.-Nr."
_WORDS_THEN = re.compile(rf"({_WORD_OF_CAPTION}(?: {_WORD_OF_CAPTION}){{0,2}}) (\S.*)")


# The total of a count printed on a line of its own, in the labels' languages ("of 12",
# "de 240", "z 4", "von 5"); Polish "z" in small letters only.
_TOTAL_OF = re.compile(r"(?:of|de|di|da|do|(?-i:z)|ze|zo|von|van|af|av|sur|su|od|iš|din|из|"
                       r"от)\s+\d{1,4}", re.IGNORECASE)  # (not "Z 27": a zone)


# Kinds of value that name a line of an unknown word and the value ("Départ 13h40").
_KINDS_OVER_WORDS = frozenset({"time", "weight", "dimensions", "volume", "quantity"})


# Values whose shape says what they are, whatever words come before them.
_SELF_NAMED = frozenset({"weight", "location", "dimensions", "email", "value"})


# "Until" before a date, in the labels' languages: part of a deadline, no caption.
_UNTIL = frozenset({"until", "till", "bis", "iki", "tot", "hasta", "até", "fino", "entro",
                    "jusqu'au", "avant", "före", "inden", "innen", "mennessä", "ig", "pana"})
_PAGE = re.compile(r"page|seite|página|pagina|strona|sida|side|sivu|oldal|strana", re.I)


def _words_then_value(d: Decision, indent: int) -> int | None:
    """Where the value starts after a caption written without a colon: "Prepped 1/28",
    "Use by 2/1" (a date), "Parcel 1 of 1" (a count), "Sendingsnr. 7072..." and
    "ORIGEN GDL" (a caption of the vocabulary, then a code)."""
    text = d.text
    if _ADDRESS_START.match(text):
        return None
    match = _WORDS_THEN.fullmatch(text)
    if match is None or shapes.address_role(match.group(1)) is not None \
            or recognise.is_weekday(match.group(1)) or match.group(1).lower() in _UNTIL:
        return None  # ("WED 26 NOV", "iki 2026-12-03": the day of the week, or "until",
        # is the date's)
    caption, value = match.group(1), match.group(2)
    found = recognise.text_value(value)
    name, certainty = shapes.caption_name(caption)
    if name == "phone" and shapes.has_letters(value):
        return None  # "Tel Aviv-Yafo 6688112" is a town and its postcode
    dated = found is not None and found[0] == "date" and (
        found[1] >= 0.85 or "date" in name and certainty >= 0.85
        or re.search(r"(?:ed|by|on)$", caption.lower()) is not None)
    counted = bool(re.fullmatch(shapes.COUNT, value, re.I) and "/" not in value
                   and not _PAGE.fullmatch(caption))  # "Valija 3 de 5"; not "PAGE 1 OF 1"
    if dated or shapes.PIECES.match(value) and (name == "piece_count" and certainty >= 0.85
                                                 or counted):
        # "Use by 2/1", "Parcel 1 of 1" (not "Calle 3/5", not "Rettenbacherplatz 5/3")
        return raw_end(d.source, indent, text[:match.start(2)])
    if name == "operator" and certainty >= 0.85 and re.fullmatch(r"[A-Z]{2,4}", value):
        return raw_end(d.source, indent, text[:match.start(2)])  # "by JMK": who, by initials
    if certainty >= 0.85 and re.fullmatch(r"[A-Z]|[A-Z]?\d{1,2}", value) \
            and name not in ("service", "form_version", "piece_count") \
            and not (name == "reference" and re.fullmatch(r"[1-4]", value)):  # ("REF 2": the
        # second reference's caption)
        return raw_end(d.source, indent, text[:match.start(2)])  # "Operador 7", "Turno M"
    if name == "form_version" and _REVISION.fullmatch(value):
        return raw_end(d.source, indent, text[:match.start(2)])  # "REV B2": a part's
    if name in _ATTRIBUTES and certainty in (0.85, 0.6) and len(caption.split()) == 1 \
            and len(value.split()) <= 2 and "/" not in text \
            and (shapes.caption_name(value)[1] < 0.6 or shapes.is_unit(value)):
        # "Kleur wit", "Size L", "Categoria A" (not "Kolor / Colour")
        return raw_end(d.source, indent, text[:match.start(2)])
    if found is not None and found[0] in _SELF_NAMED and found[1] >= 0.7:
        return raw_end(d.source, indent, text[:match.start(2)])  # "Gross 8.9 kg", "Scaffale C-14-3"
    code = shapes.data_digits(value, 2) or name == "routing_code" and re.fullmatch(
        r"[A-Z]{2,5}", value) is not None
    if certainty >= 0.85 and code and name not in ("service", "form_version") \
            and len(value.split()) <= 4:
        return raw_end(d.source, indent, text[:match.start(2)])
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
        # An unknown caption ("Student ID") still says more than the symbology does.
        if name[1] < 0.7 and not (barcode.name or "barcode_data").endswith("_data"):
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
    # (a Brazilian access key holds the invoice's number and series, the sender's CNPJ:
    # each printed alone is a field of its own, only the whole 44 digits the key)
    barcodes = [(data, b) for data, b in barcodes if b.name != "access_key" or code == data]
    found = next((b for data, b in barcodes if code in data), None)
    # Printed forms group digits with dots or dashes too: "99.60.000000.00000000".
    plain = re.sub(r"[.-]", "", code)
    if found is None and plain != code and len(plain) >= 8 and plain.isalnum():
        found = next((b for data, b in barcodes if plain in data), None)
    return found


def _plain(text: str) -> str:
    """A value as a barcode holds it: "R-2611-048213" -> "R2611048213", "#TW-104418"
    -> "TW104418"."""
    return re.sub(r"[\s./-]", "", text).lstrip("#")


def _barcodes_of_captioned_values(decisions: list[Decision],
                                  barcodes: list[tuple[str, Decision]],
                                  apart: bool = False) -> None:
    """A barcode whose data is a captioned value without its dashes ("R2611048213"
    under "RMA: R-2611-048213") is that value: the caption names it better than
    the barcode's shape does. With ``apart``, the caption may be a field of its own
    ("資産番号" over "IT-2026-03381")."""
    for data, barcode in barcodes:
        if barcode.name_certainty >= 0.7 or len(data) < 2:
            continue
        for d in decisions:
            if d.source.is_barcode or not d.variable or not (d.prefix_len or apart) \
                    or not d.name or d.name_certainty < 0.85 or not d.value:
                continue
            held = (data, _plain(barcode.value or "")) if apart else (data,)
            if _plain(d.value) in held and (len(data) >= 5 or d.value.strip() == data):
                barcode.name, barcode.name_certainty = d.name, 0.75
                break


def _barcodes_of_printed_codes(decisions: list[Decision]) -> None:
    """A barcode that says nothing of its data ("K6204417") is the code printed
    with dashes beside it ("K6-204417" under "Coil No."): it takes that code's name,
    as unsure as it is."""
    texts: dict[str, Decision] = {}
    for d in decisions:
        if not d.source.is_barcode and d.variable and d.value and d.name \
                and d.name not in ("text", "field", "barcode") and not d.name.endswith("_data"):
            texts.setdefault(_plain(d.value), d)
    for barcode in decisions:
        data = _CODE128_CODES.sub("", barcode.value or "")
        guessed = (barcode.name or "").endswith("_data") and barcode.name_certainty <= 0.55 \
            or barcode.name == "tracking_number" and barcode.name_certainty <= 0.6 \
            or parcel_number_guess(decisions, barcode)
        if barcode.source.is_barcode and guessed and len(data) >= 5 and data in texts \
                and texts[data].name != barcode.name:
            text = texts[data]
            barcode.name = text.name
            barcode.name_certainty = min(0.6, text.name_certainty)


# ANSI MH10.8.2 data identifiers in front of a Code 39/128's data (automotive and
# electronics labels: AIAG B-10, VDA 4902, Odette): "P" part, "Q" quantity...
_DATA_IDENTIFIERS = {"P": "part_number", "1P": "part_number", "30P": "part_number",
                     "Q": "quantity", "V": "supplier_number", "S": "serial_number",
                     "1S": "serial_number", "3S": "serial_number", "4S": "serial_number",
                     "N": "reference", "H": "lot_number", "T": "lot_number",
                     "1T": "lot_number", "K": "purchase_order", "1K": "order_number",
                     "9D": "date_code", "10D": "date_code"}
_DI = re.compile(r"^(\d{0,2}[A-Z])(.+)$")


def _data_identifiers(decisions: list[Decision]) -> None:
    """Barcodes whose data is a data identifier then a value printed beside them
    ("P5Q0971837C" and "5Q0 971 837 C"): the identifier says what both are, unless
    a caption already named the printed value."""
    texts = {_plain(d.value if d.variable and d.value else d.text): d for d in decisions
             if not d.source.is_barcode and d.text and shapes.has_digits(d.text, 1)}
    found = []
    unprinted = []
    for d in decisions:
        match = _DI.match(_plain(_CODE128_CODES.sub("", d.value or ""))) \
            if d.variable and d.source.symbology in ("B3", "BC") else None
        if match and match.group(1) in _DATA_IDENTIFIERS and match.group(2) in texts:
            found.append((d, _DATA_IDENTIFIERS[match.group(1)], texts[match.group(2)]))
        elif match and match.group(1) in _DATA_IDENTIFIERS and (d.name or "").endswith("_data"):
            unprinted.append((d, _DATA_IDENTIFIERS[match.group(1)]))
    if len(found) < 2:
        return  # one match may be chance ("S" and a number); a label of them is not
    for barcode, name in unprinted:  # ("Q10000" beside "10000 ks": printed otherwise)
        barcode.name, barcode.name_certainty = name, 0.6
    for barcode, name, text in found:
        if not text.variable:
            _variable(text, "printed value of a data identifier's barcode", 0.8,
                      leading_spaces(text), (name, 0.7))
        elif text.name_certainty < 0.85 or text.name in ("tracking_number", "text", "field"):
            text.name, text.name_certainty = name, 0.7
        barcode.name, barcode.name_certainty = text.name, 0.7


# A hub or airport code printed large on a parcel label: "ORD", "YQB", "CO-DEN",
# "CHN/TNR", "DNG-HC".
_LETTER_CODE = re.compile(r"[^\W\d_]{3}|[^\W\d_]{2,3}[-/][^\W\d_]{2,3}")
_LETTER_CODE_FONT = 34
# The top left corner, where a carrier prints its logo ("UPS", "MPL"); a code at
# the top right is the hub ("AUH" beside "EMIRATES POST").
_LOGO_CORNER = (300, 100)
# Three capitals that are not a place: terms of trade, payment and service marks,
# carriers' own names.
_NOT_PLACES = frozenset(re.findall(r"\w+",
    "EXW FCA FAS FOB CFR CIF CPT CIP DAP DPU DDP DDU DAT COD POD ATL EDI DES DST ORG AIR "
    "SEA EXP STD ECO REG PRI ROW EUR USD GBP CHF SEK NOK DKK PLN CZK HUF TEL FAX REF QTY "
    "PCS KGS LBS NET TOT VAT TAX PIN NEW OLD YES TOP BOX BAG "
    "UPS DHL TNT GLS DPD PPL MPL LBC BRT SDA CTT ACS GEL DSV DAO SPS UPU EMS JNE CJT"))


def _letter_codes(decisions: list[Decision]) -> None:
    """Three capitals alone in a large font below the header of a parcel label
    ("ORD", "YQB", "MEX"), or two codes joined by a dash ("CO-DEN"), are the hub or
    airport the parcel is routed through, unless the label prints the same word in
    static text elsewhere (a carrier's name: "PPL" beside "PPL Parcel CZ")."""
    candidates = [d for d in decisions if not d.variable and not d.source.is_barcode
                  and d.source.font_height >= _LETTER_CODE_FONT
                  and not (d.source.x < _LOGO_CORNER[0] and d.source.y < _LOGO_CORNER[1])
                  and d.text.isupper()
                  and _LETTER_CODE.fullmatch(d.text) and d.text not in _NOT_PLACES
                  and not shapes.is_country(d.text) and not shapes.is_known_caption(d.text)]
    if not candidates or goods.is_goods_label(decisions):
        return
    for d in candidates:
        word = re.compile(rf"(?<![^\W_]){re.escape(d.text)}(?![^\W_])")
        if any(o is not d and not o.variable and not o.source.is_barcode
               and word.search(o.text) for o in decisions):
            continue  # in static words: a carrier's name (in data it is the hub again)
        _variable(d, "a hub or airport code in a large font", 0.65, 0, ("routing_code", 0.6))


# GHS signal words in the languages of the labels ("GEFAHR", "Atención / Warning").
_SIGNAL_WORD = (r"(?:danger|warning|gefahr|achtung|attention|peligro|atenci[oó]n|pericolo|"
                r"attenzione|gevaar|waarschuwing|fara|varning|vaara|varoitus|fare|advarsel|"
                r"niebezpiecze[nń]stwo|uwaga|perigo|aten[cç][aã]o|nebezpe[cč][ií]|"
                r"varov[aá]n[ií]|vesz[eé]ly|figyelem|κίνδυνος|προσοχή|опасно|внимание)")
_SIGNAL_WORDS = re.compile(rf"{_SIGNAL_WORD}(?:\s*[/|-]\s*{_SIGNAL_WORD})*", re.IGNORECASE)


def _signal_words(decisions: list[Decision]) -> None:
    """On a label with hazard statements, the signal word alone on its line is the
    product's ("DANGER" for one chemical, "WARNING" for the next)."""
    if not any(d.variable and d.name == "hazard_statements" for d in decisions):
        return
    for d in decisions:
        if not d.variable and not d.source.is_barcode and _SIGNAL_WORDS.fullmatch(d.text):
            _variable(d, "the signal word of a hazard label", 0.8, leading_spaces(d),
                      ("signal_word", 0.75))


# The orange plate of a dangerous-goods load: the hazard identification number (Kemler
# code: "33", "X423") over the UN number ("1993"), both printed large.
_KEMLER = re.compile(r"X?[2-9]\d{1,2}")
_UN_NUMBER = re.compile(r"(?:UN\s?)?(\d{4})")
_PLATE_FONT = 30


def _hazard_plates(decisions: list[Decision]) -> None:
    texts = [d for d in decisions if not d.source.is_barcode
             and d.source.font_height >= _PLATE_FONT]
    for upper in texts:
        if not _KEMLER.fullmatch(upper.text.strip()):
            continue
        u = upper.source
        lower = next((d for d in texts if _UN_NUMBER.fullmatch(d.text.strip())
                      and abs(d.source.rx - u.rx) <= 40
                      and 0 < d.source.ry - u.ry <= 2.5 * u.font_height), None)
        if lower is None:
            continue
        for d, name in ((upper, "hazard_number"), (lower, "un_number")):
            if not d.variable or d.name_certainty < 0.85:
                d.variable = False
                _variable(d, "a number of a dangerous-goods plate", 0.8, leading_spaces(d),
                          (name, 0.75))


def _codes_off_parcels(decisions: list[Decision]) -> None:
    """On a label with no party's address, no place it travels from or to and no
    validated parcel number, a barcode whose shape alone said "tracking number" is a
    code of unknown kind: it is named by its symbology (for review), and so is the
    printed form beside it."""
    if any(d.variable and d.name and (goods.PARTY.match(d.name) or d.name == "tracking_number"
                                      and d.name_certainty >= 0.85
                                      or d.reason == PLACE_REASON) for d in decisions):
        return
    renamed: dict[str, str] = {}
    for d in decisions:
        if d.source.is_barcode and d.variable and d.name == "tracking_number" \
                and d.name_certainty <= 0.6:  # (a carrier's format, "1Z...", says more)
            d.name = _SYMBOLOGY_NAMES.get(d.source.symbology or "", "barcode") + "_data"
            d.name_certainty = 0.5
            renamed[_plain(_CODE128_CODES.sub("", d.value or ""))] = d.name
    for d in decisions:
        if not d.source.is_barcode and d.variable and d.name == "tracking_number" \
                and d.reason == "printed form of barcode data":
            code = _plain(d.text)
            name = next((n for data, n in renamed.items() if code and code in data), None)
            if name is not None:
                d.name, d.name_certainty = name, 0.5


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
        if barcode is not None and d.variable and d.name == "phone" and not d.prefix_len:
            d.variable = False  # a barcode's number printed under it is no phone
        generic = barcode is not None and (barcode.name or "").endswith("_data")
        if barcode is not None and barcode.name and generic and not d.variable:
            # The barcode says nothing of its data; the printed form may.
            own = shapes.shape_name(d.text) or ("tracking_number", 0.6) \
                if shapes.is_tracking(d.text) else None
            if own is not None and own[0] == "phone":
                own = None  # a barcode's number is no phone, however it is spaced
            _variable(d, "printed form of barcode data", 0.9, 0,
                      own or (barcode.name, min(0.8, barcode.name_certainty)))
        elif barcode is not None and barcode.name and not generic and (
                not d.variable or d.name_certainty < 0.75):
            d.variable = False
            _variable(d, "printed form of barcode data", 0.9, 0,
                      (barcode.name, min(0.8, barcode.name_certainty)))
    _barcodes_of_captioned_values(decisions, barcodes)
    address_blocks(decisions, label.rules)
    echoes(decisions)
    caption_values(decisions)  # again: captions of the values the blocks left alone
    parties(decisions)
    pickup_point_address(decisions)
    pickup_point_lines(decisions)
    goods.refine(decisions)
    badges.refine(decisions)
    _signal_words(decisions)
    column_captions(decisions, goods.is_goods_label(decisions))
    captions_of_prices(decisions)
    table_rows(decisions)
    continued_lines(decisions)
    repeated_rows(decisions)
    _data_identifiers(decisions)
    _barcodes_of_printed_codes(decisions)
    _letter_codes(decisions)
    _hazard_plates(decisions)
    _codes_off_parcels(decisions)
    captions_over_large_values(decisions)
    caption_grid(decisions)
    captions_over_letters(decisions)
    captions_over_barcodes(decisions)
    _barcodes_of_captioned_values(decisions, barcodes, apart=True)
    _prefixed_codes(decisions)
    _composite_barcodes(decisions)
    _cartons_of_orders(decisions)
    _store_numbers(decisions)
    _library_items(decisions)
    _parts_of_records(decisions)
    _people_by_initials(decisions)
    _size_systems(decisions)
    _tyre_codes(decisions)
    _dates_under_barcodes(decisions)
    _times_of_dates(decisions)
    _counts_not_month_days(decisions)
    _days_of_times(decisions)
    _birth_dates(decisions)
    _patients_of_blocks(decisions)
    _counts_of_trade_items(decisions)
    _volumes_of_goods(decisions)
    parties(decisions)  # again: phones and postcodes the column captions named
    _postal_lines_of_parties(decisions)
    pickup_point_address(decisions)  # again: points the grids of captions named
    pickup_point_ids(decisions)
    _postcodes_mailed_from(decisions)
    stray_street_lines(decisions)
    towns_under_streets(decisions)
    _marked_postcodes(decisions)
    _captions_leading_values(decisions)
    _inspectors(decisions)
    _copies_of_named_codes(decisions)
    goods.places_in_buildings(decisions)
    goods.stock_levels(decisions)
    goods.patients_allergies(decisions)
    goods.patients_wards(decisions)
    goods.owned_assets(decisions)
    goods.totes(decisions)
    goods.calibrated_instruments(decisions)
    goods.claim_tickets(decisions)
    goods.chemicals_in_stock(decisions)
    goods.admission_tickets(decisions)
    badges.pass_numbers(decisions)
    if goods.is_goods_label(decisions) or not has_recipient(decisions):
        goods.counted_contents(decisions)  # (a parcel's contents are declared goods)
    if goods.is_goods_label(decisions):
        scales.refine(decisions)  # (once every field has its name from the layout)
        scales.signed_prices(decisions)
        goods.patients_samples(decisions)
        _months_of_expiry(decisions)
        goods.rack_parts(decisions)
        goods.zones(decisions)
    else:
        if has_recipient(decisions):  # a parcel
            _notes_to_the_driver(decisions)
            _collected_parcels(decisions)
            _delivery_days(decisions)
            _uncaptioned_sort_codes(decisions)
            _parcel_numbers_as_ssccs(decisions)
        else:
            _prices_off_parcels(decisions)
            goods.zones(decisions)
        for d in decisions:  # a parcel's size ("Medium Box", "40 x 30 x 20 cm") is its
            if d.variable and d.name == "size" and not _in_row_of_goods(decisions, d) \
                    and not _SIZE_LETTERS.fullmatch((d.value or "").strip()):
                d.name = "dimensions"  # dimensions; a garment's is its size, as in a
                # table of goods
            elif d.variable and d.name == "location" and d.reason == "data shape location" \
                    and d.source.font_height >= _CODE_FONT and not d.text.strip()[:1].isalpha():
                d.name = "routing_code"  # "61-04-2" printed large on a parcel: its sort code
    goods.graded_sizes(decisions)  # (on goods, or in an exporter's carton to its consignee)
    return decisions


def _copies_of_named_codes(decisions: list[Decision]) -> None:
    """A code printed again elsewhere on the label (on a stub, along the edge), with
    nothing but its shape or its large print to name it, is the code its caption or place
    named where it was printed first ("ECHANTILLON" over "E26-04481", and "E26-04481"
    again in the corner; "KELANRO" over "K26-418837", and it again down the coil's tag).
    (A party's line printed again is an echo of its address: echoes.py.)"""
    named: dict[str, str] = {}
    for d in decisions:
        key = _record_key(d.value or "")
        if d.variable and not d.source.is_barcode and d.name_certainty >= 0.6 \
                and d.name not in (None, "text", "field") and not (d.name or "").endswith("_data") \
                and not goods.PARTY.match(d.name or "") and len(key) >= 4 \
                and shapes.has_digits(key, 2):
            named.setdefault(key, d.name or "")
    for d in decisions:
        guessed = d.name in ("text", "field") or d.reason == "short code in a large font" \
            and d.name_certainty <= 0.7  # ("K26-418837" again, large, down a coil's tag)
        if d.variable and not d.source.is_barcode and guessed \
                and (first := named.get(_record_key(d.value or ""))) is not None:
            d.name, d.name_certainty = first, 0.6


# One or two words, then a short value with a digit in it, in one field ("Store 0147");
# a letter alone is a unit or a grade ("A 75 W"), no caption.
_LEADING_CAPTION = re.compile(
    r"([^\W\d_][^\W\d_'-]+\.?(?:\s[^\W\d_][^\W\d_'-]*\.?)?)\s*[:#]?\s+(\S*\d.*)")


def _captions_leading_values(decisions: list[Decision]) -> None:
    """A field no rule named whose first words are a caption of the vocabulary ("Store
    0147", "Avd 32", "Lvl 2"): the caption inside the field says what it is, whatever
    the layout or the value's shape suggested."""
    for d in decisions:
        if not d.variable or d.name not in NAMELESS or d.source.is_barcode:
            continue
        lead = _LEADING_CAPTION.fullmatch(d.text.strip())
        if lead is None or len(lead.group(2).split()) > 3:
            continue  # "Items: 2 x human hair wig": what the goods are, and how many
        name, sure = shapes.caption_name(lead.group(1))
        if name in ("piece_count", "quantity") and not lead.group(2)[:1].isdigit():
            continue  # "Carton: CT2611-08842": the carton's code, not a count of them
        if sure >= 0.6 and name not in ("description", "text"):
            d.name, d.name_certainty = name, 0.6


# A size by letters ("M", "XL"): a parcel locker's compartment, no measure.
# A garment's size in letters, or a parcel's size class in one letter (a locker's
# "Gabaryt A", "B", "C")
_SIZE_LETTERS = re.compile(r"X{0,3}S|M|X{0,3}L|[A-D]", re.IGNORECASE)


def _counted_after_words(text: str) -> bool:
    """One to three words, then which of how many in words ("3 OF 7"; not a form's
    "PAGE 1 OF 1", not "7/13", which may be a date)."""
    counted = re.fullmatch(r"[^\W\d_][\w/.#-]*(?: [^\W\d_][\w/.#-]*){0,2}\s+(.+)", text.strip())
    return counted is not None and shapes.PIECES.fullmatch(counted.group(1)) is not None \
        and "/" not in counted.group(1) and not _PAGE.match(text.strip())


def _goods_and_size(text: str) -> bool:
    """Words of no caption, then a weight or a content ("Organic rolled oats 250 g",
    "Lingonsylt 12 x 400 g"): goods named with their size."""
    match = re.fullmatch(r"((?:[^\W\d_][\w'’.-]*,?\s+){1,6})(\d.*)", text.strip())
    if match is None or shapes.caption_name(match.group(1).strip())[1] >= 0.6:
        return False
    found = recognise.text_value(match.group(2))
    pack = re.fullmatch(r"\d{1,3}\s?[x×]\s?\d+(?:[.,]\d+)?\s?(?:g|kg|ml|cl|l|oz|lb)\.?",
                        match.group(2), re.IGNORECASE) is not None  # "12 x 400 g"
    strength = re.fullmatch(r"\d{1,2}(?:[.,]\d+)?\s?%", match.group(2)) is not None
    return (pack or strength or found is not None and found[0] in ("weight", "quantity")) \
        and len(_PROSE.findall(match.group(1))) >= (1 if pack else 2)


def _unit_before_words(d: Decision, split: int) -> bool:
    """A caption that names a weight before words, not a number: an abbreviation
    that only reads like a unit."""
    caption = sample_value(d.source, d.source.raw[:split]) or d.source.raw[:split]
    value = d.text[len(caption.strip()):].strip()
    return shapes.caption_name(caption)[0] == "weight" and value[:1].isalpha() \
        and len(re.sub(r"\W", "", caption)) <= 3


def _in_row_of_goods(decisions: list[Decision], d: Decision) -> bool:
    """A value in a table's row that lists an article: its code, name and count."""
    row = {e.name for e in decisions if e is not d and e.variable
           and abs(e.source.ry - d.source.ry) <= 3}
    return d.reason.startswith("in the column of") and bool(
        row & {"description", "sku", "part_number", "price"})


# A person by initial and surname: "D. PATEL", "L. Prieto", "J. Okonkwo", "A. Petrović, QS".
_INITIALS_NAME = re.compile(r"(?:[A-Z]\.\s?){1,2}[A-ZÀ-Ý][\wÀ-ÿ'’-]+(?:[ -][A-ZÀ-Ý][\wÀ-ÿ'’-]+)?"
                            r"(?=$|[\s,/(])")


# A person by given name, or name and surname, with a staff number or an initial:
# "Ana Ferreira (#118)", "Tóth Gábor (K118)", "Marta S.".
_GIVEN_NAME = re.compile(r"[A-ZÀ-Ý][a-zß-ÿ]{2,}(?: [A-ZÀ-Ý][a-zß-ÿ]{2,})?"
                         r"(?: [A-Z]\.| \((?:#|[A-Z]{1,2})\d{1,5}\))")


# The size systems a shoe or garment label prints side by side ("US 10.5 | UK 9.5 |
# EUR 44.5 | CM 28.5"): each caption names one size.
_SIZE_SYSTEMS = frozenset({"us", "usa", "uk", "eu", "eur", "fr", "it", "jp", "cm", "cn", "mx",
                           "mex", "br", "au", "kr", "de", "int"})


def _size_systems(decisions: list[Decision]) -> None:
    """Two or more values named only by a size system's caption are sizes."""
    sized = [d for d in decisions if d.variable and not d.source.is_barcode
             and d.name in _SIZE_SYSTEMS and d.name_certainty <= 0.5
             and re.fullmatch(r"\d{1,3}(?:[.,]\d)?|[A-Z]{1,3}", (d.value or "").strip())]
    if len(sized) >= 2:
        for d in sized:
            d.name, d.name_certainty = "size", 0.6
    # A line of sizes, each after its system ("USA 8", "US M / UK 38"), beside another
    # size of the same garment is that size in other systems, not a line of words.
    lines = [d for d in decisions if d.variable and not d.source.is_barcode
             and d.name in ("description", "text") and _SIZE_LINE.fullmatch(d.text.strip())
             and all(w.lower() in _SIZE_SYSTEMS for w in _SIZE_PAIR.findall(d.text))]
    if lines and (len(lines) >= 2 or any(d.variable and d.name == "size" for d in decisions)):
        for d in lines:
            d.name, d.name_certainty = "size", 0.6


# A wheel by its place on the car and the depth of its tread in millimetres, as tyre
# stores print them (German "VL 6,4", Dutch "LV6.1", English "FL 7.0", French
# "AVG 5,5", Italian "AS 6,0"), alone or the four in a row.
_WHEEL = r"(?:VL|VR|HL|HR|LV|RV|LA|RA|FL|FR|RL|RR|AVG|AVD|ARG|ARD|AS|AD|PS|PD)"
_TREAD = re.compile(rf"{_WHEEL}:?\s?\d{{1,2}}[.,]\d\s?(?:mm)?"
                    rf"(?:\s+{_WHEEL}:?\s?\d{{1,2}}[.,]\d\s?(?:mm)?){{0,5}}")


# A tyre's load index and speed symbol ("91V", "104/101 R"): no voltage.
_LOAD_INDEX = re.compile(r"\d{2,3}(?:/\d{2,3})?\s?[HJKLMNPQRSTUVWYZ]")


def _tyre_codes(decisions: list[Decision]) -> None:
    """On the label of tyres (it gives their size), a wheel's place and a depth in
    millimetres is the tread depth of that wheel, whatever a unit's caption over it or
    the label's topic guessed; and a load index with its speed symbol is the load
    index, not a voltage."""
    if not any(d.variable and d.name == "tyre_size" for d in decisions):
        return
    for d in decisions:
        value = (d.value or "").strip()
        if not d.variable or d.source.is_barcode:
            continue
        if d.name_certainty <= 0.5 and _TREAD.fullmatch(value):
            d.name, d.name_certainty = "tread_depth", 0.6
        elif d.name == "voltage" and _LOAD_INDEX.fullmatch(value):
            d.name, d.name_certainty = "load_index", 0.6


# "USA 8", "EU 48/50", "US M / UK 38": sizes, each after the system it is in.
_SIZE_PAIR = re.compile(r"([A-Za-z]{2,3})\s+(?:\d{1,3}(?:[.,]5)?(?:/\d{1,3})?|X{0,3}[SML]|XX?L)\b")
_SIZE_LINE = re.compile(rf"{_SIZE_PAIR.pattern}(?:\s*[/|·]\s*{_SIZE_PAIR.pattern})*")


# A carrier's sort code in two or three short groups of capitals and digits, spaced
# apart ("R41 04", "147 MID 063", "0418 - 51", "D0105 RIX-S4").
_GROUPED_SORT_CODE = re.compile(r"[A-Z0-9]{1,6}(?:\s*[ -]\s*[A-Z0-9]{1,6}){1,2}")


def _uncaptioned_sort_codes(decisions: list[Decision]) -> None:
    """On a parcel with a recipient, a short code of groups with digits and no caption,
    left unnamed, is where the carrier sorts the parcel to. Letters that name no town
    (two capitals, "ZB 4712", "HU 1134") make no postcode and town line of it."""
    for d in decisions:
        text = d.text.strip()
        if d.variable and d.name == "text" and not d.source.is_barcode and not d.prefix_len \
                and _GROUPED_SORT_CODE.fullmatch(text) and " " in text and len(text) <= 14 \
                and shapes.has_digits(text, 2) and (not shapes.is_postal_line(text)
                                                    or not re.search(r"[^\W\d_]{3}", text)):
            d.name, d.name_certainty = "routing_code", 0.5


def _notes_to_the_driver(decisions: list[Decision]) -> None:
    """On a parcel with a recipient, a note in words ("Hinweis: Hebebühne", "Note:
    consegnare in orario studio 9-13") tells the driver how to deliver it."""
    for d in decisions:
        value = (d.value or "").strip()
        if d.variable and d.name == "remarks" and not d.source.is_barcode \
                and len(_PROSE.findall(value)) >= 1 and not shapes.has_digits(value, 5):
            d.name = "delivery_instructions"


def _dates_under_barcodes(decisions: list[Decision]) -> None:
    """A date with only its shape to name it, printed next under a barcode whose data
    says which date it holds (ISBT 128's expiry "&>", a GS1 date's identifier), is that
    barcode's printed form, written for people ("22 DEC 2026" under "&>0263562359")."""
    for d in decisions:
        if not d.variable or d.name != "date" or d.source.is_barcode or d.prefix_len:
            continue
        below = [e for e in decisions if e is not d and abs(e.source.rx - d.source.rx) <= 24
                 and 0 < d.source.ry - e.source.ry <= 160]
        if not below:
            continue
        nearest = max(below, key=lambda e: e.source.ry)
        if nearest.source.is_barcode and nearest.variable \
                and (nearest.name or "").endswith("_date") and nearest.name_certainty >= 0.75:
            d.name = nearest.name


# A month and its year, no day: "03/2028", "2028-03".
_MONTH_OF_YEAR = re.compile(r"(?:(0[1-9]|1[0-2])[./](20\d{2})|(20\d{2})-(0[1-9]|1[0-2]))")
# A day, its month and its year: "26.11.2026", "26/11/2026", "2026-11-26".
_DAY_OF_YEAR = re.compile(r"\b\d{1,2}[./-](\d{1,2})[./-](20\d{2})\b|\b(20\d{2})-(\d{2})-\d{2}\b")


def _year_month(match: re.Match[str]) -> tuple[int, int]:
    month, year, year2, month2 = match.groups()
    return int(year or year2), int(month or month2)


def _months_of_expiry(decisions: list[Decision]) -> None:
    """On goods, a month and its year alone, with only its shape to name it, later
    than a day printed on the label, is the month the goods expire in: the day they
    were made, packed or handed out is printed to the day, how long they keep to the
    month ("26.11.2026" given out, "03/2028" after a pharmacy's "Rok:")."""
    days = [_year_month(m) for d in decisions if d.variable and not d.source.is_barcode
            for m in _DAY_OF_YEAR.finditer(d.value or "")]
    for d in decisions:
        month = _MONTH_OF_YEAR.fullmatch((d.value or "").strip())
        if month and d.variable and d.name == "date" and not d.source.is_barcode \
                and not d.prefix_len and d.reason == "data shape date" \
                and any(day < _year_month(month) for day in days):
            d.name = "expiry_date"


# A whole date written with its day or its year first ("26.11.2026", "2026.11.25.",
# "25/11/2026", "2026/11/26"), and one written the American way, month first.
_DAY_OR_YEAR_FIRST = re.compile(r"(?<![\d/.-])(?:\d{4}[./-]\d{1,2}[./-]\d{1,2}|"
                                r"\d{1,2}\.\d{1,2}\.\d{2,4}|(?:1[3-9]|2\d|3[01])[/-]\d{1,2}[/-]\d{2,4})")
_MONTH_FIRST = re.compile(r"(?<![\d/.-])(?:0?[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01])/\d{2,4}")
# A month and a day alone, the American way: "3/14", "11/25".
_MONTH_AND_DAY = re.compile(r"(?:0?[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01])")


def _counts_not_month_days(decisions: list[Decision]) -> None:
    """"3/14" on a label whose dates put their day or year first ("2026.11.25.",
    "26.11.2026") is no 14 March, as an American would write it: it counts, one of
    how many (a pick's line, a carton of the order)."""
    texts = [d.text for d in decisions if d.text]
    if not any(_DAY_OR_YEAR_FIRST.search(t) for t in texts) \
            or any(_MONTH_FIRST.search(t) for t in texts):
        return
    for d in decisions:
        if d.variable and d.name == "date" and _MONTH_AND_DAY.fullmatch((d.value or "").strip()):
            d.name, d.name_certainty = "piece_count", 0.5


# A day and its month's name: "Thu 26 Nov", "27 nov.", "3. Dez".
_DAY_OF_MONTH = re.compile(r"\b\d{1,2}\.?\s?(?:jan|feb|f[ée]v|mar|m[äa]r|apr|avr|abr|may|mai|"
                           r"mag|jun|juin|jul|juil|aug|ao[uû]|ago|sep|set|oct|okt|ott|out|nov|"
                           r"dec|d[ée]c|dez|dic)[^\W\d_]*\.?(?!\w)", re.IGNORECASE)


# A window of hours: "18:00-19:00", "8h/13h", "10h-14h".
_HOURS = r"\d{1,2}(?::\d{2}|h\d{0,2})"
_WINDOW = re.compile(rf"(?<!\d){_HOURS}\s?[-–/]\s?{_HOURS}(?!\d)")


def _days_of_times(decisions: list[Decision]) -> None:
    """A value named for the time of an event ("Delivery slot", "Créneau") that holds a
    day and a window of its hours ("Thu 26 Nov  18:00-19:00", "ven. 27/11 - 8h/13h")
    is that event's date, the hours its slot; a time alone ("14:30") or a moment of a
    day ("25.11.2026 16:40") keeps its name."""
    for d in decisions:
        value = d.value or d.text
        if d.variable and (d.name or "").endswith("_time") and _WINDOW.search(value) \
                and (_day_in_line(value) or _DAY_OF_MONTH.search(value)):
            d.name = (d.name or "")[:-len("_time")] + "_date"


def _times_of_dates(decisions: list[Decision]) -> None:
    """A time of day printed right under a date that its caption named ("EXPIRES" over
    "29 DEC 2026", then "23:59") is the hour of that same event: the expiry time."""
    for d in decisions:
        if not d.variable or d.name != "time" or d.source.is_barcode:
            continue
        s = d.source
        dates = [e for e in decisions if e.variable and not e.source.is_barcode
                 and (e.name or "").endswith("_date") and abs(e.source.rx - s.rx) <= 20
                 and 0 < s.ry - e.source.ry <= 2.5 * e.source.font_height]
        if dates:
            event = max(dates, key=lambda e: e.source.ry).name or ""
            d.name = event.removesuffix("_date") + "_time"


# A day of the last century, its year in full: "14.03.1952", "1952-03-14", "03/14/1952".
# (after the person's sex, as a patient's band prints it: "F  12/07/1961")
_LAST_CENTURY = re.compile(r"(?:[MFWHK]\s+)?"
                           r"(?:\d{1,2}[./-]\d{1,2}[./-]19\d{2}|19\d{2}[./-]\d{1,2}[./-]\d{1,2})")


def _birth_dates(decisions: list[Decision]) -> None:
    """A date no caption named, in a year of the last century, is nobody's shipping,
    packing or expiry: labels print this year's days; it is when someone was born."""
    for d in decisions:
        if d.variable and d.name == "date" and not d.source.is_barcode \
                and _LAST_CENTURY.fullmatch((d.value or "").strip()):
            d.name, d.name_certainty = "date_of_birth", 0.6


def _patients_of_blocks(decisions: list[Decision]) -> None:
    """A block of lines that no caption names a party's, on a label that prints a
    person's date of birth and names no party (a hospital's band or tube, a pharmacy's
    dispensing label), is no address: its first line is the patient's name, and what
    follows (the drug, the patient's numbers) no street or town."""
    if not any(d.variable and d.name == "date_of_birth" for d in decisions) \
            or any(not d.variable and d.text and shapes.address_role(d.text) for d in decisions):
        return
    block = [d for d in decisions if d.variable and d.reason == "ship_to address line"
             and d.name_certainty < 0.8]
    for d in block:
        if d.name == "ship_to_name":
            d.name = "patient_name"
        elif (d.name or "").startswith("ship_to_"):
            d.name = "text"


def _volumes_of_goods(decisions: list[Decision]) -> None:
    """What a jar or a bottle holds ("용량" over "50 mL", "Capacité 75 cl") is its
    volume; a battery's capacity is in ampere-hours."""
    for d in decisions:
        if d.variable and d.name == "capacity" \
                and recognise.ONE_VOLUME.fullmatch((d.value or "").strip()):
            d.name = "volume"


def _parcel_numbers_as_ssccs(decisions: list[Decision]) -> None:
    """A parcel numbered with an SSCC by its carrier ("007 9421 1000 3567 8421 5", NZ
    Post's, Poczta Polska's) carries it as its tracking number, where nothing on the
    label says "SSCC" or prints its (00): a logistics label says which it is."""
    if any("SSCC" in d.text.upper() or "(00)" in d.text.replace(" ", "") for d in decisions):
        return
    for d in decisions:
        if d.variable and d.name == "sscc":
            d.name = "tracking_number"


def _collected_parcels(decisions: list[Decision]) -> None:
    """On a parcel with a recipient, the day the carrier collected it ("Collected
    25-11-2026") is the day it was shipped; a sample's collection date stays its own."""
    for d in decisions:
        if d.variable and d.name == "collection_date" and shapes.has_digits(d.value or "", 2):
            d.name = "ship_date"  # (not "Collected from:" over the sender's name)


# Names only a consignment's data takes: a label that carries one is a shipment's.
_CONSIGNMENT = frozenset({"tracking_number", "sscc", "routing_code", "cod_amount",
                          "declared_value", "insured_value", "weight"})


def _prices_off_parcels(decisions: list[Decision]) -> None:
    """An amount of money by its shape alone, on a label with neither a recipient nor
    a consignment's data (a counter's ticket, a shelf's card), is what the thing costs:
    a declared value only travels with a parcel."""
    if any(d.variable and d.name in _CONSIGNMENT and d.name_certainty >= 0.7
           for d in decisions):
        return  # (a number guessed a parcel's from its digits alone does not say so)
    for d in decisions:
        if d.variable and d.name == "value" and not d.prefix_len \
                and d.reason.startswith("data shape"):
            d.name = "price"


# Names a count printed on a pallet may have been given from its caption or shape.
_COUNTS = frozenset({"piece_count", "quantity", "text", "field", "description", "part_number"})


def _counts_of_trade_items(decisions: list[Decision]) -> None:
    """A number printed as it stands in a GS1 barcode's count of trade items (AI 37,
    or 30) is that quantity, whatever its caption ("ANTAL KOLLI", "CARTONS"): the
    barcode says what it counts; a parcel's "3 of 8" is no such number."""
    counts: set[int] = set()
    for d in decisions:
        if d.source.is_barcode or d.text.lstrip().startswith("("):
            counts.update(int(c) for c in recognise.gs1_counts(d.source.raw if
                          d.source.is_barcode else d.text) if c.isdigit())
    if not counts:
        return
    for d in decisions:
        value = (d.value or "").strip().replace(",", "").replace(".", "").replace(" ", "")
        if d.variable and not d.source.is_barcode and d.name in _COUNTS \
                and value.isdigit() and int(value) in counts:
            d.name = "quantity"


def _delivery_days(decisions: list[Decision]) -> None:
    """On a parcel with a recipient, a date printed with its day of the week and no
    caption ("WED 11/25", "FRI - 21 NOV 10:30A") is the day the carrier promises to
    deliver: a ship date is printed bare, a promise names the day the recipient waits."""
    for d in decisions:
        if not d.variable or d.name != "date" or d.prefix_len or d.source.is_barcode \
                or not d.reason.startswith("data shape"):
            continue
        first = re.split(r"[\s,.-]+", (d.value or "").strip(), maxsplit=1)[0]
        if first and recognise.is_weekday(first):
            d.name = "delivery_date"


def _postal_lines_of_parties(decisions: list[Decision]) -> None:
    """A postcode and town left unnamed ("20540 TURKU") a few fields after a party's
    name or street belongs to that party's block: a block is written line by line, and
    only its street may have been kept as fixed text between the two."""
    for i, d in enumerate(decisions):
        if not d.variable or d.name != "text" or d.name_certainty > 0.3 \
                or not shapes.is_postal_line(d.text):
            continue
        for before in reversed(decisions[max(0, i - 3):i]):
            name = before.name or ""
            if before.variable and name.startswith(_PARTY_LINES):
                d.name, d.name_certainty = _party_of(name) + "_postal_city", 0.5
                break
            if before.variable:
                break  # another value between: no block


# A postcode after "from" on its own line: where the parcel was mailed ("Mailed from ZIP
# 97209", "From 78704", "Shipped from: SW1A 1AA"), a postal indicium's sender's code.
_MAILED_FROM = re.compile(r"(?:(?:mailed|shipped|sent|posted|dispatched)\s+)?from\s*:?\s*"
                          r"(?:(?:zip|postal|post)\s*(?:code)?|postcode|pin)?\s*:?\s*(\S.*)",
                          re.IGNORECASE)


def _postcodes_mailed_from(decisions: list[Decision]) -> None:
    """A line of "from" and a postcode alone is the sender's postcode, whatever block
    the layout put it in: a sender's name has words, and a sender's town has its name."""
    for d in decisions:
        match = _MAILED_FROM.fullmatch(d.text.strip())
        if d.variable and not d.source.is_barcode and match is not None \
                and shapes.POSTAL.fullmatch(match.group(1).upper()):
            d.name, d.name_certainty = "ship_from_postal_code", 0.8


def _marked_postcodes(decisions: list[Decision]) -> None:
    """A marked postcode left unnamed is the postcode of the party whose line is the
    nearest above it (a block's code follows its street), else of the one below it
    (Japan's code heads its block)."""
    for d in decisions:
        if not d.variable or d.name_certainty > 0.3 or d.source.is_barcode \
                or not shapes.MARKED_POSTCODE.fullmatch(d.text.strip()):
            continue
        lines = [x for x in decisions if x.variable and x is not d
                 and x.source.orientation == d.source.orientation
                 and re.match(r"ship_(?:to|from)_", x.name or "")]
        above = [x for x in lines if x.source.ry <= d.source.ry]
        near = max(above, key=lambda x: x.source.ry) if above else min(
            lines, key=lambda x: x.source.ry, default=None)
        if near is not None:
            d.name, d.name_certainty = _party_of(near.name or "") + "_postal_code", 0.5


def _party_of(name: str) -> str:
    """The party a ``ship_to_*`` or ``ship_from_*`` name is of: "ship_to", "ship_from"."""
    return name[:name.index("_", len("ship_"))]


# The lines that open a party's block.
_PARTY_LINES = ("ship_from_name", "ship_from_address", "ship_to_name", "ship_to_address")


def _people_by_initials(decisions: list[Decision]) -> None:
    """A person's initial and surname under or after a caption of no known word
    ("Closed by:", "Verif.:", "Tester:", "Loader") is who did that step: the label's
    operator, for review."""
    parcel = has_recipient(decisions)
    for d in decisions:
        value = _STAFF_TITLE.sub("", (d.value or "").strip())
        if not d.variable or d.source.is_barcode or d.name_certainty > 0.5 \
                or "caption" not in d.reason or not (
                    _INITIALS_NAME.match(value) or _GIVEN_NAME.fullmatch(value)
                    and not shapes.is_country(value.split(" (")[0])
                    or not parcel and _worker_named(d, value)
                    or _STAFF_SIGNATURE.fullmatch(value)):
            continue
        d.name, d.name_certainty = "operator", 0.5


# A title a member of staff is printed with: a nurse's, an engineer's, a doctor's
# ("Inf. L. Colombo", "Ing. Petr Novák", "Dr. A. Weiss").
_STAFF_TITLE = re.compile(r"^(?:(?i:inf|ing|mgr|sr|sra|sig|herr|frau)\.?\s+)+")

# A person's whole name ("Martin Fink"), or a surname and initials ("Schäfer, AV"),
# perhaps with a staff number ("No. emp. 88", "(#118)"); a name of three words only
# with that number ("Mariana López Ortega  No. emp. 88"), as a place's may have three.
_NAME_WORD = r"[A-ZÀ-Ý][a-zß-ÿ'’-]+"
_STAFF_NUMBER = (r"(?:(?i:no|nr|n[°º])\.?\s?(?:[^\W\d_]{2,5}\.?\s?)?#?\d{1,6}"
                 r"|\(#?[A-Z]{0,2}\d{1,6}\))")
_WHOLE_NAME = re.compile(
    rf"(?:{_NAME_WORD}\s+{_NAME_WORD}|{_NAME_WORD},\s?[A-Z]{{1,3}})(?:\s+{_STAFF_NUMBER})?|"
    rf"{_NAME_WORD}(?:\s+{_NAME_WORD}){{2}}\s+{_STAFF_NUMBER}")


# A surname and the initials after it, as staff sign a form ("Schäfer, AV"): no
# recipient is written so, on a parcel's label either.
_STAFF_SIGNATURE = re.compile(rf"{_NAME_WORD},\s?[A-Z]{{2,3}}")


def _worker_named(d: Decision, value: str) -> bool:
    """A person's whole name after a caption of a word unknown (``d``'s name is that
    caption's words) on a label with no recipient ("Käsermeister: Martin Fink",
    "Cerró: Mariana López Ortega  No. emp. 88"): the caption says which step they did,
    the label's operator. A preposition ("Für:", "Dla:") addresses the thing to the
    person instead."""
    return len((d.name or "").replace("_", "")) >= 5 and bool(_WHOLE_NAME.fullmatch(value)) \
        and not shapes.is_country(value) and not shapes.reads_as_caption(value)


def _inspectors(decisions: list[Decision]) -> None:
    """A person ("P. Dvořák") or an inspector's stamp ("QC 07") under or after a caption
    of a check ("Kontrola:", "Control calitate", "QC") is who checked, not the check: a
    check's own value is its result ("PASS", "OK")."""
    for d in decisions:
        value = (d.value or "").strip()
        if d.variable and not d.source.is_barcode and (d.name or "").startswith("inspection") \
                and (_INITIALS_NAME.match(value) or _GIVEN_NAME.fullmatch(value)
                     or _INSPECTOR_STAMP.fullmatch(value)):
            d.name, d.name_certainty = "operator", 0.5


# An inspector's stamp: the mark of quality control and the inspector's number.
_INSPECTOR_STAMP = re.compile(r"(?:QC|QA|QS|QK|INSP)\.?[ -]?\d{1,4}", re.IGNORECASE)


# A day's date inside a line: "24.11.2026", "2026-11-24", "11/25" (not "18.4 LB").
_DAY_IN_LINE = re.compile(r"(?<![\d.,/-])(?:\d{1,2}([./-])\d{1,2}\1\d{2,4}|\d{4}-\d{2}-\d{2}"
                          r"|\d{1,2}/\d{1,2})(?![\d.,/-])")


def _composite_barcodes(decisions: list[Decision]) -> None:
    """A barcode that holds another field's value and more (a parcel number, then the
    postcode and the service: "05401823307144LV1067PICKUP...") is a record of several
    fields, not one number: its data is the barcode's own. One printed again under it
    as a code of its own is a record only where two fields make it up ("CT118WD32611044"
    of trolley "CT-118" and load "WD3-2611-044")."""
    printed = {_record_key(d.value or "") for d in decisions if d.variable
               and not d.source.is_barcode and d.reason.startswith("printed form")}
    values = printed | {_record_key(d.value or "") for d in decisions if d.variable
                        and not d.source.is_barcode and not d.reason.startswith("printed form")}
    values = {v for v in values if len(v) >= 5}
    records: set[str] = set()
    for d in decisions:
        data = _record_key(d.value or "")
        if not d.source.is_barcode or not d.variable or d.name_certainty > 0.8 \
                or d.name not in ("tracking_number", "serial_number", "routing_code"):
            continue
        if re.fullmatch(r"96\d{32}", data) or data in values - printed:
            continue  # (FedEx Ground's 34 digits carry the parcel number by design)
        parts = [v for v in values if v in data and len(data) - len(v) >= 4]
        if parts and (data not in printed or _two_apart(data, parts)):
            d.name, d.name_certainty = "barcode_data", 0.5
            records.add(data)
    _name_printed_forms(decisions, records, _record_key, ("barcode_data", 0.5))


def _two_apart(data: str, parts: list[str]) -> bool:
    """Two of ``parts`` lie side by side in ``data``, neither overlapping the other."""
    spans = sorted((data.index(p), data.index(p) + len(p)) for p in parts)
    return any(end <= start for (_, end) in spans for (start, _) in spans)


def _record_key(value: str) -> str:
    """A value as a barcode holds it, in capitals, without a Code 128 subset switch."""
    return _plain(_CODE128_CODES.sub("", shapes.compact(value))).upper()


# What a carton's number adds to its order's: the carton's place in the count ("02",
# "004", "U000007").
_CARTON_SUFFIX = re.compile(r"[A-Z]{0,2}(\d{1,7})")
# A buyer's order, whose goods go in cartons (a carrier's consignment number, whose
# parcels are numbered the same way, is a parcel's tracking number).
_ORDERS = frozenset({"order_number", "purchase_order"})


def _cartons_of_orders(decisions: list[Decision]) -> None:
    """A barcode whose data is an order's number printed on the label, then which
    carton of the count this is ("4500718263037" on carton "37 / 120" of PO
    4500718263; "B7300248815004" on "BULTO 4 / 11" of order 7300248815), numbers
    the carton: it is its carton id, and so is its printed form."""
    counts = {int(m.group()) for d in decisions if d.variable and d.name == "piece_count"
              and (m := re.search(r"\d+", d.value or "")) is not None}
    orders = {_plain(d.value or "").upper() for d in decisions if d.variable
              and not d.source.is_barcode and d.name in _ORDERS}
    orders = {o for o in orders if len(o) >= 6 and shapes.has_digits(o, 3)}
    if not counts or not orders:
        return
    cartons: set[str] = set()
    for d in decisions:
        data = _plain(_CODE128_CODES.sub("", d.value or "")).upper()
        if not d.source.is_barcode or not d.variable or d.name_certainty >= 0.85:
            continue
        for order in orders:  # (perhaps after a letter of the carton's: "B7300248815004")
            at = data.find(order)
            suffix = _CARTON_SUFFIX.fullmatch(data[at + len(order):]) \
                if at == 0 or 0 < at <= 2 and data[:at].isalpha() else None
            if suffix is not None and int(suffix.group(1)) in counts:
                d.name, d.name_certainty = "carton_id", 0.7
                cartons.add(data)
    _name_printed_forms(decisions, cartons, lambda v: _plain(v).upper(), ("carton_id", 0.7))


# A store, a shop or a branch, in the languages of retailers' carton labels.
_STORE = re.compile(r"\b(?:store|shop|magasin|tienda|loja|negozio|filiale?|filiaal|winkel|"
                    r"sklep|butik|mağaza|prodejna|üzlet|myymälä)\b", re.IGNORECASE)


def _store_numbers(decisions: list[Decision]) -> None:
    """A bare number under or beside a caption that names a store ("STORE / MAGASIN"
    over "0287", "MARK FOR STORE" over "0412") is the store's number: a retailer's
    distribution centre sends its cartons to stores by number, which is no party's
    name, no postcode and no place in the store. A code repeating it is that number."""
    stores: set[str] = set()
    for d in decisions:
        value = (d.value or "").strip()
        if not d.variable or d.source.is_barcode or d.prefix_len or d.name_certainty >= 0.85 \
                and d.name not in ("location", "routing_code") \
                or not re.fullmatch(r"#?\d{2,6}", value):
            continue
        if any(not c.variable and _STORE.search(c.text) and shapes.words_only(c.text)
               and (caption_above(c.source, d.source) or caption_beside(c.source, d.source))
               for c in decisions):
            d.name, d.name_certainty = "store_number", 0.7
            stores.add(value.lstrip("#"))
    for d in decisions:
        if d.variable and d.reason.startswith("repeats part of") \
                and (d.value or "").strip() in stores:
            d.name, d.name_certainty = "store_number", 0.6


def _name_printed_forms(decisions: list[Decision], codes: set[str], key: Callable[[str], str],
                        name: tuple[str, float]) -> None:
    """The printed forms of barcodes just renamed (their values, by ``key``, in
    ``codes``) take the same name."""
    for d in decisions:
        if not d.source.is_barcode and d.variable and d.reason.startswith("printed form") \
                and key(d.value or "") in codes:
            d.name, d.name_certainty = name


# A library's name, in the languages of its labels.
# ("Stadtbibliothek", "kaupunginkirjasto": in a compound too)
_LIBRARY = re.compile(r"\blibrar(?:y|ies)\b|\w*(?:bibliot|kirjasto|knihovn|könyvtár|kütüphane|"
                      r"knjižnic|knygyn)\w*", re.IGNORECASE)


def _library_items(decisions: list[Decision]) -> None:
    """On a library's label, a linear barcode that no format names ("31234001873265")
    is the item's own barcode, which the library sticks on every book it lends: so is
    its printed form."""
    if not any(not d.variable and _LIBRARY.search(d.text) for d in decisions):
        return
    items: set[str] = set()
    for d in decisions:
        if d.source.is_barcode and d.variable and d.source.symbology not in _TWO_D \
                and d.name_certainty <= 0.6 and ((d.name or "").endswith("_data") or d.name in (
                    "serial_number", "tracking_number", "part_number")):
            d.name, d.name_certainty = "item_barcode", 0.6
            items.add(shapes.compact(_CODE128_CODES.sub("", d.value or "")))
    _name_printed_forms(decisions, items, shapes.compact, ("item_barcode", 0.6))
    _call_numbers(decisions)


# A call number's parts as a spine label stacks them: its class (Dewey's "641.5945", or
# a collection's letters, "FIC"), then the author's letters ("HAZ"), the year ("2019")
# and the copy ("c.2").
_CLASS_NUMBER = re.compile(r"\d{3}(?:\.\d{1,8})?")
_CALL_PART = re.compile(r"[A-Z]{1,4}|(?:19|20)\d{2}|[cv]\.\s?\d{1,2}")


def _call_numbers(decisions: list[Decision]) -> None:
    """On a library's label, a class number and the short parts stacked under it in
    its column, or a collection's letters with parts under them, are the item's call
    number, whatever their shapes guessed (a hub's code, a year's postcode)."""
    taken: set[int] = set()
    for top in sorted(decisions, key=lambda d: d.source.ry):
        text = top.text.strip()
        if top.source.is_barcode or top.source.position in taken \
                or not (_CLASS_NUMBER.fullmatch(text) or re.fullmatch(r"[A-Z]{1,4}", text)):
            continue
        stack, last = [top], top
        while (under := line_under(decisions, last, 8, 1.8 * last.source.font_height,
                                   _call_part)) is not None:
            stack.append(under)
            last = under
        if len(stack) == 1 and not _CLASS_NUMBER.fullmatch(text):
            continue  # letters alone are no call number
        for d in stack:
            taken.add(d.source.position)
            if not d.variable:
                _variable(d, "a part of a library's call number", 0.6, leading_spaces(d),
                          ("call_number", 0.6))
            elif d.name_certainty <= 0.6:
                d.name, d.name_certainty = "call_number", 0.6


def _call_part(d: Decision) -> bool:
    """``d`` prints a part of a call number: letters, a year or a copy ("HAZ", "2019",
    "c.2")."""
    return _CALL_PART.fullmatch(d.text.strip()) is not None


# What separates the fields of a record in a 2D symbol's data.
_RECORD_SEPARATORS = re.compile(r"[|;\n\r\x1d\x1e]+|\s{2,}")


def _parts_of_records(decisions: list[Decision]) -> None:
    """A text that prints one field of a 2D symbol's record ("SOF-ML1" beside a QR
    code of "LA,611204873355|SOF-ML1|COD45.96EUR") is data like the record: a new
    label encodes and prints its own."""
    parts: set[str] = set()
    for d in decisions:
        if d.source.is_barcode and d.variable and d.value and d.source.symbology in _TWO_D:
            parts.update(p.strip() for p in _RECORD_SEPARATORS.split(d.value) if p.strip())
    for d in decisions:
        text = d.text.strip()
        if d.variable or d.source.is_barcode or text not in parts or len(text) < 3 \
                or not shapes.has_digits(text, 1) or shapes.is_caption(d.text) \
                or shapes.is_known_caption(d.text):
            continue
        found = recognise.text_value(text) or shapes.shape_name(text)
        if found is None and _SORT_CODE.fullmatch(text) and text == text.upper():
            found = ("routing_code", 0.5)
        _variable(d, "a field of a 2D symbol's record", 0.7, leading_spaces(d),
                  found or ("text", 0.3))


# One or two words at the start of a line, then a value with a digit (after its
# carrier's letters, as in "TRACKING # BC 4471 0928 336", when the caption ends in "#").
_LEAD_CAPTION = re.compile(r"([^\W\d_][\w.'°º-]*(?:\s[^\W\d_][\w.'-]*)?)"
                           r"(?:\s?#\s+(?=(?:[A-Z]{1,3}\s)?\S*\d)|\s?:?\s+(?=\S*\d))")


def _dated_word(text: str) -> bool:
    """A word after the first is a whole date ("Picked 26/11 14:32"), not a house
    number of stair and door ("Kaiserstraße 42/3/14")."""
    return any((recognise.text_value(word) or ("", 0.0))[0] == "date"
               for word in text.split()[1:])


def _day_in_line(text: str) -> bool:
    """The line holds a day's date, not an inch fraction ("3/8") or a decimal."""
    for match in _DAY_IN_LINE.finditer(text):
        parts = [int(p) for p in re.split(r"[./-]", match.group()) if p]
        if len(parts) == 3 or parts[0] <= 31 and parts[1] <= 31 and not (
                parts[1] in (2, 4, 8, 16, 32, 64) and parts[0] < parts[1]):
            return True
    return False


# A code that starts with the abbreviation of what it is: "WO-26-04417", "SO-558102",
# "RMA-2611-0042", "PO4500012345".
_PREFIXED = re.compile(r"([A-Z]{2,4})(?:-\s?|\s)?(?=[\dA-Z-]*\d{4})[A-Z]?\d[\dA-Z-]*")
_PREFIX_NAMES = frozenset({"work_order", "purchase_order", "order_number", "invoice",
                           "rma_number", "serial_number", "part_number", "bill_of_lading",
                           "case_number", "receipt_number", "delivery_note"})


def _prefixed_codes(decisions: list[Decision]) -> None:
    """A code named by nothing but its look (a number in a text, a barcode's data)
    whose first letters abbreviate an identifier of the vocabulary is that identifier,
    for review."""
    for d in decisions:
        value = (d.value or "").strip()
        guessed = d.name in ("text", "field") or (d.name or "").endswith("_data") \
            or d.name in ("serial_number", "tracking_number") and d.name_certainty <= 0.45
        if not d.variable or d.name_certainty > 0.55 or d.prefix_len or not guessed:
            continue
        code = value.removeprefix("MA,").removeprefix("QA,")
        # (or a line that starts with one: "SO-558102  2 CTN  18.4 LB", an order's row)
        match = _PREFIXED.fullmatch(code) or d.name == "text" and _PREFIXED.fullmatch(
            code.split("  ")[0])
        if not match:
            continue
        name, certainty = shapes.caption_name(match.group(1))
        if certainty >= 0.85 and name in _PREFIX_NAMES:
            d.name, d.name_certainty = name, 0.5
