"""What a piece of label text looks like: captions, address roles and data shapes.

The word lists are the captions carriers print in the languages of the corpus
(English, German, French, Dutch, Italian, Spanish, Polish, Nordic, Turkish).
"""

from __future__ import annotations

import re

# Address captions and the role they give the block below or beside them.
ADDRESS_ROLES = {
    **dict.fromkeys(
        ["TO", "SHIP TO", "SHIP-TO", "DELIVER TO", "DELIVERY TO", "DELIVERY ADDRESS",
         "RECIPIENT", "RECEIVER", "CONSIGNEE", "EMPFANGER", "EMPFÄNGER", "AN",
         "DESTINATAIRE", "DESTINATARIO", "GEADRESSEERDE", "ODBIORCA", "MOTTAKER",
         "MOTTAGARE", "ALICI", "ALICI ADRESI", "AAN", "TIL", "DESTINATION"],
        "ship_to"),
    **dict.fromkeys(
        ["FROM", "SHIP FROM", "SENDER", "SHIPPER", "ABSENDER", "EXPEDITEUR", "EXPÉDITEUR",
         "MITTENTE", "REMITENTE", "AFZENDER", "NADAWCA", "AVSENDER", "AVSÄNDARE", "FRA",
         "GONDERICI", "GÖNDERICI", "RETURN TO", "RETURN ADDRESS",
         "IF UNDELIVERED RETURN TO", "RETOUR"],
        "ship_from"),
}

# Short words that are captions only with a colon ("DE:"), not as plain text.
_COLON_ROLES = {"A": "ship_to", "AN": "ship_to", "PARA": "ship_to", "DE": "ship_from",
                "DA": "ship_from", "VON": "ship_from", "VAN": "ship_from"}

# Caption words -> the field name they give the value next to them.
CAPTION_NAMES = {
    "tel": "phone", "tel no": "phone", "phone": "phone", "telephone": "phone", "tlf": "phone",
    "telefon": "phone", "mobile": "phone", "ref": "reference", "reference": "reference",
    "ref no": "reference", "reference no": "reference", "referenz": "reference",
    "referentie": "reference", "wt": "weight", "weight": "weight", "gewicht": "weight",
    "poids": "weight", "peso": "weight", "waga": "weight", "vekt": "weight", "vikt": "weight",
    "act wgt": "weight", "actwgt": "weight", "ship wt": "weight", "date": "date",
    "datum": "date", "data": "date", "ship date": "ship_date", "tracking": "tracking_number",
    "tracking no": "tracking_number", "tracking number": "tracking_number",
    "tracking #": "tracking_number", "trk #": "tracking_number", "trk#": "tracking_number",
    "awb": "tracking_number", "track & trace": "tracking_number", "order": "order_number",
    "order no": "order_number", "order #": "order_number", "po": "purchase_order",
    "inv": "invoice", "dept": "department", "desc": "description", "service": "service",
    "collo": "piece_count", "pcs": "piece_count", "pieces": "piece_count",
    "item": "piece_count", "parcel": "piece_count",
}

_MONTHS = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*"
DATE = re.compile(
    rf"\b(?:\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|"
    rf"\d{{1,2}} ?{_MONTHS} ?\d{{2,4}})\b", re.IGNORECASE)
WEIGHT = re.compile(r"\b\d+(?:[.,]\d+)? ?(?:KGS?|LBS?|G|OZ)\b", re.IGNORECASE)
PHONE = re.compile(r"(?:\+|\b00)\d[\d ()/-]{6,}\d|\(\d{2,4}\) ?\d[\d -]{5,}\d")
PIECES = re.compile(r"^\d+\s*(?:OF|/|VON|DE|VAN|Z|AV|AF)\s*\d+$", re.IGNORECASE)
# Postal codes of the corpus countries: US ZIP(+4), 4-5 digit European, Polish,
# Swedish/Czech spaced, Dutch, British and Canadian.
POSTAL = re.compile(
    r"\b(?:\d{5}(?:-\d{4})?|\d{4}|\d{2}-\d{3}|\d{3} \d{2}|\d{4} ?[A-Z]{2}|"
    r"[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d)\b")
_WORD = re.compile(r"[^\W\d_]{2,}")
_CAPTION_HEAD = re.compile(r"^\s*[^\W\d_][^\d:]{0,30}?(?:\d{1,2})?\s*$")
_SNAKE = re.compile(r"[^a-z0-9]+")


def snake(text: str) -> str:
    """``SHIP DATE`` -> ``ship_date``; accents kept only as plain letters."""
    plain = text.lower().replace("#", " number ").replace("&", " and ")
    plain = plain.encode("ascii", "ignore").decode()
    return _SNAKE.sub("_", plain).strip("_")


def caption_key(text: str) -> str:
    """A caption as the lookup tables spell it: upper case, no colon or dots."""
    return re.sub(r"\s+", " ", text.strip().rstrip(":").strip().replace(".", "")).upper()


def address_role(text: str) -> str | None:
    """The role an address caption gives, also for bilingual "TO / A:" captions."""
    colon = text.strip().endswith(":")
    for part in caption_key(text).split("/"):
        key = part.strip()
        if colon and key in _COLON_ROLES:
            return _COLON_ROLES[key]
        if key in ADDRESS_ROLES:
            return ADDRESS_ROLES[key]
    return None


def is_caption(text: str) -> bool:
    """Static caption text: "SHIP TO:", "TRK#", "TO", a few words ending in a colon."""
    stripped = text.strip()
    if not stripped or any(c.isdigit() for c in stripped):
        return False
    if address_role(stripped) is not None:
        return True
    words = stripped.split()
    return len(words) <= 5 and (stripped.endswith(":") or stripped.endswith("#"))


def caption_split(text: str) -> int | None:
    """Where the value starts in "Caption: value" text, or None."""
    colon = text.find(":")
    if colon < 0 or not _CAPTION_HEAD.match(text[:colon]) or len(text[:colon].split()) > 4:
        return None
    rest = text[colon + 1 :]
    if not rest.strip() or rest.startswith("//") or (rest[:1].isdigit()
                                                     and text[colon - 1 : colon].isdigit()):
        return None  # nothing after it, a URL, or a time of day such as 22:00
    return colon + 1 + (len(rest) - len(rest.lstrip()))


def caption_name(caption: str) -> str:
    key = snake(caption.rstrip(": ")).replace("_number", " #").replace("_", " ")
    return CAPTION_NAMES.get(key, CAPTION_NAMES.get(key.replace(" #", ""), snake(caption)))


def compact(text: str) -> str:
    return re.sub(r"[\s()]", "", text)


def is_sscc(text: str) -> bool:
    digits = compact(text)
    return digits.isdigit() and (len(digits) == 18 or (len(digits) == 20
                                                       and digits.startswith("00")))


def is_tracking(text: str) -> bool:
    """A long code of letters and digits: a tracking or parcel number."""
    code = compact(text).replace("-", "")
    wordy = any(len(word) >= 4 and word.isalpha() for word in text.split())
    return (len(code) >= 10 and code.isalnum() and sum(c.isdigit() for c in code) >= 6
            and len(text.split()) <= 8 and not wordy)


def is_postal_line(text: str) -> bool:
    """A line with a postal code and a place name, such as "1015 CS Amsterdam"."""
    return bool(POSTAL.search(text.upper())) and bool(_WORD.search(text)) \
        and len(text.split()) <= 6


_TIMES = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b24/7\b|\b\d{1,2} ?[AP]M\b", re.IGNORECASE)


def has_digits(text: str, count: int) -> bool:
    return sum(c.isdigit() for c in text) >= count


def data_digits(text: str, count: int) -> bool:
    """At least ``count`` digits outside times of day ("BY 10:30 AM", "24/7"), which
    describe a service, not a shipment."""
    return has_digits(_TIMES.sub("", text), count)


def words_only(text: str) -> bool:
    return not any(c.isdigit() for c in text)


def shape_name(text: str) -> tuple[str, float] | None:
    """A name from what the data looks like, with how sure it is."""
    if _TIMES.fullmatch(text.strip()):
        return None
    if is_sscc(text):
        return "sscc", 0.85
    if PIECES.match(text.strip()):
        return "piece_count", 0.8
    if WEIGHT.fullmatch(text.strip()):
        return "weight", 0.85
    if DATE.fullmatch(text.strip()):
        return "date", 0.85
    if PHONE.fullmatch(text.strip()):
        return "phone", 0.75
    if is_tracking(text):
        return "tracking_number", 0.7
    if POSTAL.fullmatch(text.strip().upper()):
        return "postal_code", 0.7
    return None
