"""Generated labels for the synthesis evaluation: real layouts, new data, known truth.

A template is a hand-labelled real label (``synthesis_truth.json``, development part
only): its layout, captions, fonts and barcodes stay; every field the truth calls
variable gets new data in one of many locales (Faker), so the truth of each field
is known by construction:

- parties (names, streets, postal code and town in the locale's order, countries,
  phones, e-mail) from Faker, one sender and one recipient per label;
- dates regenerated in the format the field used (``31JAN26``, ``2024-03-06``...);
- every other value (tracking numbers, SSCCs, routing codes, references, weights,
  counts) by a per-label substitution of digits and letters, so a barcode and its
  printed form stay the same value; check digits are then made valid again
  (SSCC / GTIN mod 10, UPS 1Z, UPU S10, USPS IMpb);
- in about a third of the labels the sender's and the recipient's phone and town
  are made equal on purpose: two distinct fields that merely share a value;
- about one label in four is turned a quarter (``turn_label``): each field printed
  rotated 90 degrees, as labels made for a printer that feeds them sideways are,
  so the layout rules must read the blocks in the text's own direction.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from faker import Faker

from labelrender.synth.recognise import gs1_valid
from labelrender.synth.shapes import address_role
from labelrender.synth.source import SourceField, SourceLabel, read_first_label
from labelrender.zpl.lexer import Command, Lexer

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "sv_SE", "pl_PL",
           "da_DK", "no_NO", "cs_CZ", "hu_HU", "en_CA", "de_AT", "fr_CH")
_PARTS = ("name", "contact", "address", "postal_city", "postal_code", "city", "country",
          "phone", "email")
_PARTY = re.compile(rf"^(ship_to|ship_from|mark_for)_({'|'.join(_PARTS)})$")
_BARCODE_PREFIX = re.compile(r"^(?:>[5-9:;]|[HQML][AM],)*")
_DATE_FORMATS = (
    # (year first as Hungary, Korea, Japan and China write it, before the day-first forms
    # that would read its last digits)
    (re.compile(r"20\d{2}\. \d{1,2}\. \d{1,2}\."), "%Y. %m. %d."),
    (re.compile(r"20\d{2}\.\d{2}\.\d{2}(?!\d)"), "%Y.%m.%d"),
    (re.compile(r"20\d{2}/\d{2}/\d{2}(?!\d)"), "%Y/%m/%d"),
    (re.compile(r"20\d{2}年\d{1,2}月\d{1,2}日"), "%Y年%m月%d日"),
    (re.compile(r"(?<!\d)\d{1,2}\. \d{1,2}\. 20\d{2}"), "%d. %m. %Y"),
    (re.compile(r"\d{4}-\d{2}-\d{2}"), "%Y-%m-%d"),
    (re.compile(r"\d{2}/\d{2}/\d{4}"), "%d/%m/%Y"),
    (re.compile(r"\d{2}\.\d{2}\.\d{4}"), "%d.%m.%Y"),
    (re.compile(r"\d{2}-\d{2}-\d{4}"), "%d-%m-%Y"),
    (re.compile(r"\d{2}[A-Z]{3}\d{2}"), "%d%b%y"),
    (re.compile(r"\d{2} [A-Z]{3} \d{4}"), "%d %b %Y"),
    (re.compile(r"(?<!\d)20\d{6}(?!\d)"), "%Y%m%d"),
    (re.compile(r"\d{2}\.\d{2}\.\d{2}(?!\d)"), "%d.%m.%y"),
    (re.compile(r"\d{2}-\d{2}-\d{2}(?!\d)"), "%d-%m-%y"),
    (re.compile(r"\d{2}/\d{2}/\d{2}(?!\d)"), "%d/%m/%y"),
    (re.compile(r"(?<![\d-])20\d{2}-\d{2}(?![\d-])"), "%Y-%m"),
    (re.compile(r"(?<![\d/])\d{2}/20\d{2}(?![\d/])"), "%m/%Y"),
    (re.compile(r"(?<![\d/])\d{1,2}/\d{1,2}(?![\d/])"), "%m/%d"),
)
_COUNTRIES = {"en_US": "UNITED STATES", "en_GB": "United Kingdom", "de_DE": "Deutschland",
              "fr_FR": "France", "it_IT": "Italia", "es_ES": "España", "nl_NL": "Nederland",
              "sv_SE": "Sverige", "pl_PL": "Polska", "da_DK": "Danmark", "no_NO": "Norge",
              "cs_CZ": "Česko", "hu_HU": "Magyarország", "en_CA": "Canada",
              "de_AT": "Österreich", "fr_CH": "Suisse"}


@dataclass
class GeneratedLabel:
    name: str
    zpl: str
    truth: dict[int, str]  # field position -> meaning (variable fields only)
    locale: str


def gs1_check(digits: str) -> str:
    """The GS1 mod-10 check digit for ``digits`` (SSCC, GTIN, USPS IMpb)."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


def ups_check(body: str) -> str:
    """The check character of a UPS 1Z number from the 15 characters after ``1Z``."""
    total = 0
    for i, c in enumerate(body):
        value = int(c) if c.isdigit() else (ord(c) - 63) % 10
        total += value * (2 if i % 2 else 1)
    return str((10 - total % 10) % 10)


def s10_check(serial: str) -> str:
    """The UPU S10 check digit of an 8-digit serial number."""
    total = sum(int(d) * w for d, w in zip(serial, (8, 6, 4, 2, 3, 5, 9, 7), strict=True))
    check = 11 - total % 11
    return "0" if check == 10 else "5" if check == 11 else str(check)


def fix_check_digits(code: str, was: str = "") -> str:
    """``code`` (spaces and brackets removed) with a valid check digit where its
    shape says which scheme it follows; otherwise unchanged. A GTIN (8, 12, 13 or 14
    digits) is given one when the value it replaces, ``was``, had one; so is the
    GTIN after a GS1 element string's (01) or (02)."""
    keyed = re.match(r"((?:>[5-9:;])*0[12])(\d{14})", code)
    if keyed and not re.fullmatch(r"\d{18}|00\d{18}", code):  # (no SSCC)
        gtin = keyed.group(2)[:-1] + gs1_check(keyed.group(2)[:-1])
        return keyed.group(1) + gtin + code[keyed.end():]
    if re.fullmatch(r"\d{18}|00\d{18}|\d{22}", code):
        return code[:-1] + gs1_check(code[:-1])
    if re.fullmatch(r"\d{8}|\d{12,14}", code) and gs1_valid(was):
        return code[:-1] + gs1_check(code[:-1])
    if re.fullmatch(r"1Z[0-9A-Z]{16}", code):
        return code[:-1] + ups_check(code[2:-1])
    if re.fullmatch(r"[A-Z]{2}\d{9}[A-Z]{2}", code):
        return code[:10] + s10_check(code[2:10]) + code[11:]
    return code


# Parts of a value that are its structure, not its data: "(420)", a leading GS1 AI
# after a Code 128 FNC1, "2L", "1Z", "JJD", "(J)", a USPS IMpb's "92" (alone, after
# the ZIP's FNC1 or after an escaped one).
_STRUCTURE = re.compile(r"^(?:\(00\)\s?|00)340434|"  # DHL's own SSCCs: its company prefix
                        # Swiss Post's parcels: 99, the product, the customer, the parcel
                        r"(?:^|(?<=,))99(?=\.?\d{2}\.?\d{6}\.?\d{8}$)|"
                        r"\(\d{2,4}\)|^(?:>[5-9:;])*(?:00|0[12]|40[0-3]|42[01])(?=\d{5})|"
                        r"\(?2L\)?|^1Z|\(?J\)?JD|>[5-9:;]|(?:^|(?<=>8)|(?<=_1))9[1-5](?=\d)|"
                        # a data identifier leading a code ("1P", "9D", "4L"); the codes of
                        # GHS pictograms and of hazard and precautionary statements
                        r"^\(?\d{1,2}[A-Z]\)?(?=[0-9A-Z])|\bGHS0\d\b|\b[HP][2-4]\d\d\b")


class _Substitution:
    """One label's consistent replacement of each digit and letter."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.table: dict[str, str] = {}

    def char(self, c: str) -> str:
        if c not in self.table:
            if c.isdigit():
                self.table[c] = str(self.rng.randrange(10))
            elif "A" <= c <= "Z":
                self.table[c] = chr(ord("A") + self.rng.randrange(26))
            elif "a" <= c <= "z":
                self.table[c] = chr(ord("a") + self.rng.randrange(26))
            else:
                self.table[c] = c
        return self.table[c]

    def text(self, value: str) -> str:
        """Digits replaced (letters kept: units, country codes, carrier prefixes);
        GS1 application identifiers and carrier prefixes stay as they are."""
        keep = set()
        for match in _STRUCTURE.finditer(value):
            keep.update(range(match.start(), match.end()))
        out = "".join(c if i in keep or not c.isdigit() else self.char(c)
                      for i, c in enumerate(value))
        return _refit(out, fix_check_digits(re.sub(r"[\s()]", "", out),
                                            re.sub(r"[\s()]", "", value)))


def _refit(spaced: str, compact: str) -> str:
    """``compact`` written back into the spacing of ``spaced``."""
    chars = iter(compact)
    return "".join(c if c in " ()" else next(chars, c) for c in spaced)


class _Party:
    def __init__(self, fake: Faker, locale: str) -> None:
        self.fake, self.locale = fake, locale
        self.values: dict[str, str] = {}

    def value(self, part: str, original: str) -> str:
        key = f"{part}:{original}"
        if key not in self.values:
            self.values[key] = self._make(part, original)
        return self.values[key]

    def echo(self, part: str, original: str) -> str:
        """The party's town, postal code or country code as a sort area repeats it,
        in the case of the original; empty when the party has none yet."""
        if part == "country" and len(original.strip()) == 2:
            value = self.locale.split("_")[1]
        elif part in ("city", "postal_code"):
            self.value("postal_city", original)  # the town and code, made once
            value = self.values.get("town" if part == "city" else "postcode", "")
        else:
            return ""
        head = original[: len(original) - len(original.lstrip(" -"))]
        return head + (value.upper() if original.isupper() else value)

    def _make(self, part: str, original: str) -> str:
        f = self.fake
        if part == "name":
            return str(f.company() if self.fake.random.random() < 0.4 else f.name())
        if part == "contact":
            return str(f.name())
        if part == "address":
            return str(f.street_address()).replace("\n", " ")
        if part in ("postal_city", "postal_code", "city"):
            town = self.values.setdefault("town", str(f.city()))
            code = self.values.setdefault("postcode", str(f.postcode()))
            if part == "postal_code":
                return code
            if part == "city":
                return town
            if self.locale in ("en_US", "en_CA"):
                return f"{town}, {f.state_abbr() if self.locale == 'en_US' else 'ON'} {code}"
            if self.locale == "en_GB":
                return f"{town} {code}"
            return f"{code} {town}"
        if part == "country":  # a code where the label printed one ("DK"), else a name
            if len(original.strip()) == 2 and original.strip().isalpha():
                return self.locale.split("_")[1]
            return _COUNTRIES.get(self.locale, "")
        if part == "phone":
            return str(f.phone_number())
        return str(f.email())


def _date_value(rng: random.Random, original: str) -> str:
    for pattern, fmt in _DATE_FORMATS:
        match = pattern.search(original)
        if match:
            day = date(2024, 1, 1) + timedelta(days=rng.randrange(900))
            text = day.strftime(fmt).upper() if "%b" in fmt else day.strftime(fmt)
            if fmt == "%m/%d":  # "1/28": no leading zeros, a day above 12 as before
                text = f"{day.month}/{max(day.day, 13)}"
            return original[: match.start()] + text + original[match.end():]
    return ""


def _clean(value: str, field: SourceField, ascii_only: bool) -> str:
    for bad in ("^", "~", field.hex_indicator or "^", field.caret, field.tilde, "\\"):
        value = value.replace(bad, " ")
    if ascii_only:
        value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return value


def _field_text(field: SourceField) -> str:
    from labelrender.synth.source import printed_bytes, sample_value

    value = sample_value(field, field.raw)
    return (value if value is not None else printed_bytes(field, field.raw)).strip()


def _new_raw(field: SourceField, meaning: str, text: str, parties: dict[str, _Party],
             subst: _Substitution, rng: random.Random, ascii_only: bool) -> str | None:
    """The field's new data as written in ZPL, or None to keep it."""
    if field.hex_indicator and field.hex_indicator in field.raw:
        return None  # escaped data: keep the template's bytes
    first = meaning.split("|")[0]
    party = _PARTY.match(first)
    echo = next((m for m in map(_PARTY.match, meaning.split("|")[1:]) if m), None)
    if party is None and echo is not None and not field.is_barcode:
        # A sort area's copy of the address ("PARIS", "75002", "FR") follows it.
        value = parties[echo.group(1)].echo(echo.group(2), text)
        if value:
            return _clean(value, field, ascii_only)
    if field.is_barcode:
        prefix = _BARCODE_PREFIX.match(field.raw)
        head = prefix.group(0) if prefix else ""
        data = field.raw[len(head):]
        if "[)>" in data or "{" in data or "|" in data or len(data) > 60:
            return None  # a composite payload keeps its bytes
        return head + subst.text(data)
    if party is not None:
        caption = re.match(r"^[^\d:]{1,25}:\s*", text)
        if caption and party.group(2) == "name" and address_role(caption.group(0)) is None:
            caption = None  # a name with a colon in it, not "From: <name>"
        head = caption.group(0) if caption else ""
        value = parties[party.group(1)].value(party.group(2), text)
        return _clean(head + value, field, ascii_only)
    if any(m == "date" or m.endswith(("_date", "_until")) or m == "date_of_birth"
           for m in meaning.split("|")):  # a day's date, of whichever event: a new valid one
        value = _date_value(rng, text)
        if value:
            return _clean(value, field, ascii_only)
    if first == "piece_count":
        value = _count_value(rng, text)
        if value:
            return _clean(value, field, ascii_only)
    return subst.text(text)


# "1/2", "001 OF 003", "Parça: 4/5", "BAG 2 OF 2": a piece and how many there are.
_PIECE_OF = re.compile(r"(\d+)(\s*(?:/|of|de|von|van|z|sur|di|av|af)\s*)(\d+)", re.IGNORECASE)


def _count_value(rng: random.Random, text: str) -> str | None:
    """A new count of pieces in the form of ``text``: a piece no later than the last."""
    match = _PIECE_OF.search(text)
    if match is None:
        return None
    width_of, width_total = len(match.group(1)), len(match.group(3))
    total = rng.randint(1, min(99, 10 ** width_total - 1))
    piece = rng.randint(1, min(total, 10 ** width_of - 1))
    zeros = match.group(1).startswith("0") or match.group(3).startswith("0")
    new = (f"{piece:0{width_of}d}" if zeros else str(piece)) + match.group(2) \
        + (f"{total:0{width_total}d}" if zeros else str(total))
    return text[:match.start()] + new + text[match.end():]


def _ascii_only(label: SourceLabel) -> bool:
    return not re.search(r"\^CI(?:28|29|30)", label.text)


_FAKERS: dict[str, Faker] = {}


def _faker(locale: str) -> Faker:
    if locale not in _FAKERS:
        fake = Faker(locale)
        for provider in fake.providers:
            # Faker builds some lists from a set (it_IT's towns), in an order that changes
            # with each process's hash seed; sorted, one seed makes one label everywhere
            cities = getattr(provider, "cities", None)
            if isinstance(cities, list):
                provider.cities = sorted(cities)
        _FAKERS[locale] = fake
    return _FAKERS[locale]


def generate_one(template_name: str, zpl: str, truth: dict[int, str], seed: int
                 ) -> GeneratedLabel:
    rng = random.Random(seed)
    locale = LOCALES[seed % len(LOCALES)]
    fake = _faker(locale)
    fake.seed_instance(seed)
    text = zpl.encode("utf-8").decode("latin-1")
    label = read_first_label(text)
    parties = {role: _Party(fake, locale) for role in ("ship_to", "ship_from", "mark_for")}
    if rng.random() < 0.35:  # equal on purpose: distinct fields sharing a value
        town, code = str(fake.city()), str(fake.postcode())
        for role in ("ship_to", "ship_from"):
            parties[role].values.update(town=town, postcode=code)
        shared_phone = str(fake.phone_number())
        for role in ("ship_to", "ship_from"):
            parties[role].values["shared_phone"] = shared_phone
    subst = _Substitution(rng)
    ascii_only = _ascii_only(label)
    edits: list[tuple[int, int, str]] = []
    for field in label.fields:
        meaning = truth.get(field.position)
        if meaning is None:
            continue
        raw = _new_raw(field, meaning, _field_text(field), parties, subst, rng, ascii_only)
        if raw is None:
            continue
        raw = _equal_phones(raw, meaning, parties)
        start = field.data_span[0] + 3  # caret + FD
        if text[start:start + len(field.raw)] != field.raw:
            continue
        edits.append((start, start + len(field.raw),
                      raw.encode("utf-8").decode("latin-1")))
    out, pos = [], 0
    for start, end, new in sorted(edits):
        out += [text[pos:start], new]
        pos = end
    out.append(text[pos:])
    zpl_out = "".join(out).encode("latin-1").decode("utf-8", errors="replace")
    if random.Random(f"turn {seed}").random() < 0.25:
        return GeneratedLabel(f"{template_name}#{seed}R", turn_label(zpl_out), dict(truth),
                              locale)
    return GeneratedLabel(f"{template_name}#{seed}", zpl_out, dict(truth), locale)


_TURN = {"N": "R", "R": "I", "I": "B", "B": "N"}
_BARCODES = re.compile(r"B[0-9A-Z]")


def _turned_params(name: str, params: str, height: int, width: int, size: int
                   ) -> str | None:
    """The parameters of one command on the label turned a quarter clockwise, or None
    to keep them: a field ``size`` dots high at (x, y) moves to (height - y - size, x),
    text and barcodes read R."""
    parts = params.split(",")
    if name in ("FO", "FT") and len(parts) >= 2 and parts[0].strip().isdigit() \
            and parts[1].strip().isdigit():
        return ",".join([str(max(0, height - int(parts[1]) - size)), parts[0], *parts[2:]])
    if name == "A" and params[1:2].upper() in _TURN:
        return params[0] + _TURN[params[1].upper()] + params[2:]
    if name == "FW" and params[:1].upper() in _TURN:
        return _TURN[params[0].upper()] + params[1:]
    if name == "GB" and len(parts) >= 2:
        return ",".join([parts[1], parts[0], *parts[2:]])
    if name == "PW":
        return str(height)
    if name == "LL":
        return str(width)
    if _BARCODES.fullmatch(name) and name != "BY" and params[:1].upper() in _TURN:
        return _TURN[params[0].upper()] + params[1:]
    return None


def _field_size(after: list[Command]) -> int:
    """How many dots high the field that starts here prints: its font, its barcode
    or its box (30 when it says none)."""
    for command in after:
        parts = command.params.split(",")
        if command.name in ("FS", "FO", "FT", "XZ"):
            break
        if command.name == "A" and len(parts) > 1 and parts[1].strip().isdigit():
            return int(parts[1])
        if command.name == "GB" and len(parts) > 1 and parts[1].strip().isdigit():
            return int(parts[1])
        if _BARCODES.fullmatch(command.name) and command.name != "BY" and len(parts) > 1 \
                and parts[1].strip().isdigit():
            return int(parts[1])
    return 30


def turn_label(zpl: str) -> str:
    """``zpl`` with its first label turned a quarter clockwise (``^FWR`` for fields
    that name no orientation of their own). Only positions and orientations change:
    the fields, their order and their data stay, so the truth by position holds."""
    text = zpl.encode("utf-8").decode("latin-1")
    label = read_first_label(text)
    width = label.width or max((f.x for f in label.fields), default=0) + 100
    height = label.length or max((f.y for f in label.fields), default=0) + 100
    edits: list[tuple[int, int, str]] = []
    commands = [c for c in Lexer(text.encode("latin-1")) if c.offset < len(label.text)]
    started = False
    for i, command in enumerate(commands):
        start = command.offset + 1 + len(command.name)
        if command.name == "XA" and not started:
            started = True
            edits.append((start, start, text[command.offset] + "FWR"))
            continue
        size = _field_size(commands[i + 1:]) if command.name in ("FO", "FT") else 0
        new = _turned_params(command.name, command.params, height, width, size)
        if new is not None and text[start:start + len(command.params)] == command.params:
            edits.append((start, start + len(command.params), new))
    out, pos = [], 0
    for start, end, new in sorted(edits):
        out += [text[pos:start], new]
        pos = end
    out.append(text[pos:])
    return "".join(out).encode("latin-1").decode("utf-8", errors="replace")


def _equal_phones(raw: str, meaning: str, parties: dict[str, _Party]) -> str:
    shared = parties["ship_to"].values.get("shared_phone")
    if shared and meaning.split("|")[0] in ("ship_to_phone", "ship_from_phone"):
        caption = re.match(r"^[^\d+(]{1,25}", raw)
        return (caption.group(0) if caption else "") + shared
    return raw


def generate(templates: list[tuple[str, str, dict[int, str]]], count: int
             ) -> Iterator[GeneratedLabel]:
    """``count`` labels, spread evenly over ``templates`` (name, zpl, truth)."""
    for i in range(count):
        name, zpl, truth = templates[i % len(templates)]
        yield generate_one(name, zpl, truth, seed=i)
