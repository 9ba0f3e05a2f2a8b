"""What a piece of label text looks like: captions, address roles and data shapes.

The word lists (captions, address roles, countries) are in vocabulary.py.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from babel import Locale

from .glossary import GLOSSARY
from .vocabulary import (
    ADDRESS_ROLES,
    CAPTION_NAMES,
    COLON_ROLES,
    COUNTRIES,
    DATE_ABBREVIATIONS,
    DATE_EVENTS,
    DATE_NEXT,
    NATIVE_CAPTIONS,
)

# The number of a form's field in front of its caption: "(9) Bezeichnung".
_FORM_NUMBER = re.compile(r"^\(\d{1,2}\)\s*")


def _caption_key(text: str) -> str:
    text = _FORM_NUMBER.sub("", text.strip())  # "(10) Sach-Nr. Lieferant"
    return snake(text.rstrip(":").strip()).replace("_number", " #").replace("_", " ")


@lru_cache(maxsize=8192)
def is_country(text: str) -> bool:
    """A country line: a name or code of COUNTRIES, or a country's name in one of the
    carriers' languages, alone or as "HU - Magyarország", "United States (USA)" or
    "Belgique / België"."""
    key = re.sub(r"\s+", " ", text.strip().upper().strip("()"))
    countries = _country_names()
    named = re.fullmatch(r"(.+) ([A-Z]{2,3})", key)  # "UNITED STATES US"
    if named and named.group(1) in countries and named.group(2) in COUNTRIES:
        return True
    parts = [key] + [p.strip(" ()") for p in re.split(r" - | / |\(|\)", key) if p.strip(" ()")]
    return bool(key) and len(key) <= 40 and all(p in countries for p in parts[1:] or parts)


# The languages whose names of countries a label prints.
_COUNTRY_LANGUAGES = ("en", "de", "fr", "it", "es", "pt", "nl", "sv", "da", "nb", "fi", "pl",
                      "cs", "sk", "hu", "ro", "tr", "lt", "lv", "et", "hr", "sl", "bg", "el",
                      "ru", "uk", "vi", "id")


@lru_cache(maxsize=1)
def _country_names() -> frozenset[str]:
    """COUNTRIES and every country's name in the carriers' languages (CLDR, through
    Babel): "MARTINIQUE", "UKRAINA", "УКРАЇНА"."""
    names = set(COUNTRIES)
    for language in _COUNTRY_LANGUAGES:
        for code, name in Locale.parse(language).territories.items():
            if len(code) == 2 and code.isalpha() and code not in _NOT_COUNTRIES:
                names.add(name.upper())
    return frozenset(names)


# Territory codes of CLDR that are not a country a parcel goes to: the EU, the
# eurozone, the UN, pseudo-locales and "unknown region".
_NOT_COUNTRIES = frozenset({"EU", "EZ", "UN", "XA", "XB", "ZZ", "QO"})


_MONTHS = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*"
DATE = re.compile(
    rf"\b(?:\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|"
    rf"\d{{1,2}} ?{_MONTHS} ?\d{{2,4}})\b", re.IGNORECASE)
WEIGHT = re.compile(r"\b\d+(?:[.,]\d+)? ?(?:KGS?|LBS?|G|OZ)\b", re.IGNORECASE)
PHONE = re.compile(r"(?:\+|\b00)\d[\d ()/-]{6,}\d|\(\d{2,4}\) ?\d[\d -]{5,}\d")
# A phone number printed with its middle digits masked, as carriers print a
# recipient's ("138****5678", "+420 *** *** 318", "38067***5803"): its prefix and at
# least its last three digits.
MASKED_PHONE = re.compile(r"\+?\d{2,5}(?:[ -]?\*{2,4})+[ -]?\d{3,4}")
# A parcel count, "1/2", "001 OF 003" (not a season, "2026/2027").
_OF = r"(?:OF|VON|DE|VAN|Z|ZE|AV|AF|SUR|DI|OD|IŠ|IZ|FRÅN)"
# "1 of 2", "3 sur 5", "1 of/de 2" (a Canadian label's two languages).
PIECES = re.compile(rf"^(?:0\d{{3}}|\d{{1,3}})\s*(?:{_OF}(?:\s?/\s?{_OF})?|/)\s*"
                    r"(?:0\d{3}|\d{1,3})$", re.IGNORECASE)
# A web address ("loomis-express.com", "www.ups.com/track", "emiratespost.ae"): a
# generic top-level domain in any case, a country's two letters in lower case
# ("Co.KG" and "St.Gallen" are no addresses).
_SITE = re.compile(r"(?i:www\.|https?://|\b[\w-]+\.(?:com|net|org|info|biz|shop|online|co\.uk)\b)|"
                   r"(?<![\w.@])[a-z0-9][a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2}\b(?![.\w])")


def is_site(text: str) -> bool:
    """Text with a web address in it, not an e-mail address."""
    return "@" not in text and _SITE.search(text) is not None


def is_web(text: str) -> bool:
    """Text with a web or an e-mail address in it."""
    return "@" in text or _SITE.search(text) is not None
# Postal codes of the corpus countries: US ZIP(+4), 4-5 digit European (also with
# the country's prefix: "D-12345", "H-3437", "CH-8000", "DK-2500"), Polish,
# Swedish/Czech spaced, Dutch, British and Canadian; six digits after a town (India,
# Singapore, China, Russia), seven (Israel) and Japan's 123-4567.
POSTAL = re.compile(
    r"\b(?:(?:[A-Z]{1,2}-)?(?:\d{5}(?:-\d{4})?|\d{4})|\d{2}-\d{3}|(?:S-)?\d{3} \d{2}|"
    r"\d{4} ?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|"
    r"[A-Z]\d{4}[A-Z]{3}|"  # ... Argentina's CPA "C1425DBP", Ireland's Eircode "D08 K7F3"
    r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W) (?=[0-9A-Z]*\d)(?=[0-9A-Z]*[A-Z])[0-9AC-FHKNPRTV-Y]{4})\b|"
    r"(?<=[A-Z] )(?:\d{6,7}|\d{3}-\d{4})$|(?<=[A-Z] )\d{3} \d{3}(?=,|$)|"  # "CHENNAI 600 017"
    r"(?<=[A-Z] - )\d{6}$")  # India's "New Delhi - 110020"
_WORD = re.compile(r"[^\W\d_]{2,}")
_CAPTION_HEAD = re.compile(r"^\s*[^\W\d_][^\d:]{0,30}?(?:\d{1,2})?\s*$")
_SNAKE = re.compile(r"[^a-z0-9]+")


# Letters that are no accented Latin letter, as a reader spells them in plain letters
# ("MÜŞTERİ ADI" is "musteri adi" once "ı" is an "i").
_LETTERS = str.maketrans({"ø": "o", "ł": "l", "ı": "i", "ß": "ss", "æ": "ae", "đ": "d",
                          "œ": "oe", "þ": "th", "ð": "d", "ə": "e", "ħ": "h",
                          # apostrophes as typesetters print them ("Date d’envoi",
                          # Uzbek "Oʻgʻirlik"): the plain one
                          "’": "'", "‘": "'", "ʻ": "'", "ʼ": "'", "´": "'", "`": "'"})


def snake(text: str) -> str:
    """``SHIP DATE`` -> ``ship_date``; accents kept only as plain letters."""
    plain = text.lower().replace("#", " number ").replace("&", " and ")
    plain = unicodedata.normalize("NFKD", plain.translate(_LETTERS))
    plain = plain.encode("ascii", "ignore").decode()
    return _SNAKE.sub("_", plain).strip("_")


def caption_key(text: str) -> str:
    """A caption as the lookup tables spell it: upper case, no colon or dots, no form
    field number in front ("(1) Warenempfänger")."""
    text = _FORM_NUMBER.sub("", text.strip())
    return re.sub(r"\s+", " ", text.rstrip(":").strip().replace(".", "")).upper()


@lru_cache(maxsize=8192)
def address_role(text: str) -> str | None:
    """The role an address caption gives, also for bilingual "TO / A:" captions."""
    colon = text.strip().endswith(":")
    # "FROM (CUSTOMER)", "SHIP TO (CONSIGNEE)": the role word before a gloss
    key = re.sub(r"\s*\([^()]{1,20}\)$", "", caption_key(text)) or caption_key(text)
    parts = key.split("/")
    for part in parts:
        key = part.strip()
        if colon and key in COLON_ROLES and (len(parts) == 1 or len(key) > 1):  # not "A/C No:"
            return COLON_ROLES[key]
        if key in ADDRESS_ROLES:
            return ADDRESS_ROLES[key]
        words = key.split()
        if 2 <= len(words) <= 4:  # "USPS DELIVER TO": a role phrase after a brand
            for n in (3, 2):
                tail = " ".join(words[-n:])
                if len(words) > n and tail in ADDRESS_ROLES and " " in tail:
                    return ADDRESS_ROLES[tail]
    return _two_scripts_role(key)


def _two_scripts_role(key: str) -> str | None:
    """A caption in two languages printed without a slash, one script after the
    other ("收货人 CONSIGNEE", "받는 분 RECIPIENT"): the role both halves name."""
    words = key.split()
    latin = [bool(re.fullmatch(r"[A-Z0-9À-ÿ'.&-]+", w)) for w in words]
    cut = next((i for i in range(1, len(words)) if latin[i] != latin[i - 1]), None)
    if cut is None or any(latin[i] != latin[cut] for i in range(cut, len(words))):
        return None
    first, second = " ".join(words[:cut]), " ".join(words[cut:])
    role = ADDRESS_ROLES.get(first)
    return role if role is not None and ADDRESS_ROLES.get(second) == role else None


@lru_cache(maxsize=8192)
def is_caption(text: str) -> bool:
    """Static caption text: "SHIP TO:", "TRK#", "TO", a few words ending in a colon."""
    stripped = text.strip()
    if re.fullmatch(r"\(\d{1,2}\)\s*[^\d]{2,60}", stripped):
        return True  # a numbered field of a form: "(9) Bezeichnung Lieferung, Leistung"
    if not stripped or any(c.isdigit() for c in stripped):
        return False
    if address_role(stripped) is not None:
        return True
    words = stripped.split()
    return len(words) <= 5 and (stripped.endswith(":") or stripped.endswith("#")
                                or len(words) >= 2 and bool(_NUMBER_WORD.search(stripped)))


# The last word of a caption of a number: "Seal No.", "Hoja de conteo Nº", "Los-Nr.".
_NUMBER_WORD = re.compile(r"(?:\s|-)(?:no\.|nº|n°|n\.º|nr\.?|number|nummer|numéro|número|numero)$",
                          re.IGNORECASE)


# A caption without a colon before its value: "PRO NUMBER 123456789", "B/L NO 4711".
# Address lines that read like one ("Skrytka pocztowa nr 100", "Suite No 5") are not.
_NUMBER_CAPTION = re.compile(
    r"^(?!(?:P\.? ?O\.? BOX|BOX|POSTFACH|SKRYTKA|BO[IÎ]TE POSTALE|APARTADO|CASELLA POSTALE|"
    r"POSTBUS|POSTBOKS|BOX|SUITE|STE|APT|APARTMENT|UNIT|FLAT|FLOOR|BLDG|BUILDING|PSC|"
    r"LOCAL|PISO|NUM[EÉ]RO|HAUS|HAUSNR)\b)"
    r"([^\W\d_][^\d:]{0,24}?\s(?:NUMBER|NO\.?|NR\.?|#))\s+(?=\S*\d)", re.IGNORECASE)


@lru_cache(maxsize=8192)
def caption_split(text: str) -> int | None:
    """Where the value starts in "Caption: value" text, or None. Chinese and Japanese
    write the colon full width ("订单号：JD2026...")."""
    colon = min((at for at in (text.find(":"), text.find("：")) if at >= 0), default=-1)
    if colon < 0:
        match = _NUMBER_CAPTION.match(text)
        return match.end() if match and len(text.split()) <= 6 else None
    dated = _DATED_VALUE.match(text[colon + 1:].strip()) is not None \
        and re.fullmatch(r"\s*[^\W\d_][^\d:]{0,60}", text[:colon]) is not None \
        and len(text[:colon].split()) <= 8  # a long caption before a date: "Da consumarsi
    # preferibilmente entro il: 31/05/2028"
    words = len(text[:colon].split()) - 2 * text[:colon].count("/")  # "Poids / Weight"
    if not dated and (not _CAPTION_HEAD.match(text[:colon]) or words > 4):
        return None
    rest = text[colon + 1 :]
    if not rest.strip() or rest.startswith("//") or (rest[:1].isdigit()
                                                     and text[colon - 1 : colon].isdigit()) \
            or _DATE_BLANK.fullmatch(rest):
        return None  # nothing after it, a URL, a time of day such as 22:00, or a blank
        # to write a date in by hand ("签收时间：    月    日    时")
    name, certainty = caption_name(text[:colon])
    if len(rest.split()) >= 5 and not any(c.isdigit() for c in rest) \
            and not (name in _PROSE_CAPTIONS and certainty >= 0.85) \
            and not (certainty >= 0.6 and _LISTED.fullmatch(rest.strip())) \
            and not ((certainty >= 0.6 or address_role(text[:colon + 1]) is not None)
                     and _TITLED.fullmatch(rest.strip().replace(",", ""))):
        return None  # prose after a heading ("TOBACCO: FEDERAL LAW REQUIRES ..."), but
        # not after "Ingredients:" or "Description:", nor a list or a name after a known
        # caption ("Allergens: wheat, barley, egg", "Ditta: Studio Tecnico Ferrario")
    return colon + 1 + (len(rest) - len(rest.lstrip()))


# A list of three or more items of a word or two: "wheat, barley, egg, mustard",
# "Plenary - Workshops - Gala dinner".
_LISTED = re.compile(r"[^\W\d_][\w'-]*(?: [\w'-]+)?"
                     r"(?:(?:,| -| ·) [^\W\d_][\w'-]*(?: [\w'-]+)?){2,}")
# Spaces left before the units of a date, to fill in by hand: "    月    日    时".
_DATE_BLANK = re.compile(r"(?:\s{2,}[年月日时時分])+\s*")
# Words each with a capital, or joining ones: a name, not a sentence.
_TITLED = re.compile(r"(?:(?:[A-ZÀ-Þ][\w'’.-]*|&|and|und|et|e|y|of|de|di|da|van|von|der)"
                     r"(?:\s+|$))+")
# A value that starts with a date.
_DATED_VALUE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\d{4}-\d{2}-\d{2}\b|"
                          r"\d{1,2}[./-]\d{4}\b")
# Captions whose value is prose.
_PROSE_CAPTIONS = frozenset({"description", "ingredients", "remarks", "delivery_instructions",
                             "operator"})  # ("By: P. Okonkwo / Chen Lab": who, and where)


def reads_as_caption(text: str) -> bool:
    """Text that is or starts with a caption: "Weight:", "Sendungsnr.", "Ref: 4711"."""
    return is_caption(text) or is_known_caption(text) or caption_split(text) is not None


@lru_cache(maxsize=8192)
def caption_name(caption: str) -> tuple[str, float]:
    """The field name a caption gives the value next to it, and how sure that is: a
    caption of the vocabulary is sure, an unknown one only names the field."""
    if _PER_UNIT.search(caption):
        return "unit_price", 0.85  # "€/kg", "Price £/kg", "$ per lb"
    if re.fullmatch(r"\s*C[óÓ]D\.?\s*:?\s*", caption, re.IGNORECASE):
        return "part_number", 0.85  # "Cód.": "código" with its accent, no cash on delivery
    if re.fullmatch(r"\s*R[éÉ]F\.?\s*:?\s*", caption, re.IGNORECASE):
        return "part_number", 0.85  # "Réf." alone: in French, the article's reference
    if _PACKAGE_NUMBER.search(_caption_key(caption)):
        return "serial_number", 0.85  # "CARTON NO.", "Cartone n.", "Kartonszám": the box's
        # own number, no count of boxes ("3 of 12" under it still is: named_by_value)
    if re.fullmatch(r"\s*sklad\s*:?\s*", caption, re.IGNORECASE):
        return "location", 0.85  # the Czech and Slovak "Sklad", the store the goods are in;
        # the Polish "Skład", with its "ł", is what they are made of
    # "BEST BEFORE (dd.mm.yy)": the gloss in brackets says how, not what
    key = _caption_key(re.sub(r"\s*\([^()]*\)\s*(?=:?\s*$)", "", caption) or caption)
    tries = [key, key.replace(" #", ""), key.replace(" #", " number")]
    joined = re.fullmatch(r"([^\W\d_]{3,}) (?:nr|#)", key)  # "Auftrags-Nr.": "auftragsnr"
    if joined:
        tries += [joined.group(1) + "nr", joined.group(1) + "nummer"]
    # "N.º de série", "Nº de serie", "N. di serie": the number spelled out
    numbered = re.match(r"(?:n o|n|no|nr|nro|num) (?:(de|du|di|del|da|do) )?(.+)", key)
    if numbered:
        tries += [f"numero {numbered.group(1) or 'de'} {numbered.group(2)}",
                  f"numero de {numbered.group(2)}", f"numero {numbered.group(2)}"]
    # ... unless the gloss is the caption in English: "Hinban (Part No.)"
    gloss = _GLOSS.search(caption)
    if gloss:
        tries.append(_caption_key(gloss.group(1)))
    # "BATCH/LOT", "Poids / Weight": either half of a two-part caption, as sure
    halves = caption.split("/")
    if len(halves) == 2 and all(_caption_key(half) for half in halves):
        tries += [_caption_key(half) for half in halves]
    # "À utiliser avant le", "Gedruckt am": the article or preposition that leads to the
    # date is no part of the caption
    bare = _LEADS_TO_DATE.sub("", key)
    if bare != key and len(bare) >= 4:  # (not "op = op": a word, not an abbreviation)
        tries.append(bare)
    short = re.sub(r"(?:\s(?:no|nr|#|number|id|\d+))+$", "", re.sub(r"(?<=[a-z])\d$", "", key))
    words = short.split(" ") if short else [""]
    tries.append(short)
    sure = len(tries)
    # Then parts of a longer caption: "Termin ważności etykiety" holds "termin ważności".
    # ("Data logger" is no date: "data" says "date" only as the whole caption.)
    # (Vietnamese "Số ..." is "the number of", no sales order; Malay and Indonesian
    # "Masa ..." a period, no mass)
    tries += [w for w in (words[-1], words[0], " ".join(words[:2]), " ".join(words[-2:]))
              if w not in ("data", "by") and not (w is words[0] and len(words) >= 2
                                      and w in ("so", "masa"))]
    if len(halves) == 2:  # then the words of each half of a caption in two languages
        # ("Alkup. erä / Ursprungl. sats": "erä", a batch)
        tries += [w for half in halves for w in _caption_key(half).split(" ")[::-1][:1]
                  + _caption_key(half).split(" ")[:1] if w not in ("data", "by")]
    unit = _UNIT_CAPTIONS.get(key) or _UNIT_CAPTIONS.get(caption.strip().rstrip(":").lower())
    measures = {_UNIT_CAPTIONS.get(half.strip().lower()) for half in halves}
    if len(halves) == 2 and len(measures) == 1 and None not in measures:
        unit = measures.pop()  # "kW / HP": one measure in two units
    if unit is not None and not (caption.strip().endswith(":") and key.upper() in COLON_ROLES):
        return unit, 0.6  # "kW" over "7,5" on a rating plate: the power
    names = _names()
    glossary = _glossary()
    for i, attempt in enumerate(tries):
        if i == sure:
            whole = next((glossary[t] for t in tries[:sure] if t in glossary), None)
            if whole is not None:  # the whole caption in another language says more than
                return whole, 0.6  # a word of it ("datum výroby": not just a date)
            if _refers(short):
                return "reference", 0.7  # "AltRef", "Kundenref", "Ref.ª cliente"
        if attempt in names and i == sure - 1 and attempt != key and key in glossary:
            return glossary[key], 0.6  # "Carton ID": the glossary's whole caption, not the
            # vocabulary's "carton" with its "ID" cut off
        if attempt in names:
            name = names[attempt]
            if name == "piece_count" and re.search(r"\bid$", key):
                return "tracking_number", 0.7  # "Piece ID", "Paket-ID": an identifier
            return name, 0.85 if i < sure else 0.7
    if _refers(short):
        return "reference", 0.7
    for attempt in tries[sure:]:  # a word of a caption of another language, in English
        if attempt in glossary:
            return glossary[attempt], 0.5
    native = _native_name(caption)
    if native is not None:
        return native
    plain = re.sub(r"\s*\([A-Z0-9]{1,3}\)\s*:?\s*$", "", _FORM_NUMBER.sub("", caption.strip()))
    # An unknown caption in two languages is named in the one written in plain letters
    # ("Ukeire (Dock)": dock; "Gestartet / Started": started).
    english = [part for part in ([gloss.group(1)] if gloss else []) + plain.split("/")[::-1]
               if part.strip().isascii() and _WORD.search(part)]
    if (gloss or "/" in plain) and english:
        plain = english[0]
    if _FOREIGN_NUMBER.fullmatch(plain.strip().rstrip(":").strip()):
        return "reference", 0.45  # "N° fiche NC", "Begleitschein-Nr.": a number, not words
    return _numbered(snake(plain)) or "field", 0.45


# The number of something unknown, as the languages that write "N°", "Nº", "Nr." before
# it ("N° fiche NC", "N.º tarefa", "Nr skrzyni") or "-Nr.", "nummer", "Nº" after it
# ("Begleitschein-Nr.", "Hoja de conteo Nº"): the value is that thing's reference, and
# the caption's words in their language say nothing an integrator reads. (English writes
# "No." and "#": "Bundle No." is a bundle's number; and one word, then "Nr." apart, or a
# short word before it may be English or an abbreviation: "Cage Nr.", "Set-nr",
# "Prod.nr.".)
_FOREIGN_NUMBER = re.compile(
    r"(?:N\s?[°º]|N\.\s?º|Nr\.?|N\.|Nro\.?|Núm\.?)\s*(?:[^\W\d_][\w'’.-]*\s?){1,3}|"
    r"(?:[^\W\d_][\w'’.]*\s){0,2}[^\W\d_]{4,}(?:-?(?:Nr\.?|nr\.?)|nummer)|"
    r"(?:[^\W\d_][\w'’.]*\s){1,2}[^\W\d_]{4,}\s(?:Nr\.?|nr\.?|N\s?[°º])")


# The last word of a caption that leads to its date ("... avant le", "Prodotto il",
# "Impreso el", "Gedruckt am", "Packed on", "Embalado em", "Verpakt op").
_LEADS_TO_DATE = re.compile(r"(?<=\w) (?:le|la|il|el|am|on|em|op|den|dne|dnia)$")


# A unit printed alone as a caption, as rating plates do: what it measures.
_UNIT_CAPTIONS = {
    "v": "voltage", "kv": "voltage", "vac": "voltage", "vdc": "voltage", "a": "current",
    "ma": "current", "w": "power", "kw": "power", "hp": "power", "kva": "apparent_power",
    "hz": "frequency", "min 1": "speed", "min-1": "speed", "rpm": "speed", "1/min": "speed",
    "u/min": "speed", "r/min": "speed", "cos φ": "power_factor", "cos phi": "power_factor",
    "cosφ": "power_factor", "ip": "protection_class", "nm": "torque", "bar": "pressure",
    "psi": "pressure", "mpa": "pressure", "kpa": "pressure", "ah": "capacity",
    "mah": "capacity", "wh": "energy", "kwh": "energy", "m3/h": "flow", "m³/h": "flow",
    "l/min": "flow", "lm": "luminous_flux", "ia/in": "starting_current_ratio",
}


def is_unit(text: str) -> bool:
    """A unit alone ("A", "kW", "Hz"), a caption only on a rating plate."""
    return text.strip().rstrip(":").lower() in _UNIT_CAPTIONS


def _native_name(caption: str) -> tuple[str, float] | None:
    """The name a caption in another script gives ("Вес:", "Номер заказа ИМ:", "重量"):
    the whole caption, then its first word or two."""
    key = re.sub(r"[\s.:：,;()/]+", " ", _native_key(caption.lower())).strip()
    if not key or key.isascii():
        return None
    words = key.split()
    native = _native_captions()
    for i, attempt in enumerate([key, " ".join(words[:2]), words[0], words[-1]]):
        if attempt in native:
            return native[attempt], 0.85 if i == 0 else 0.7
    if _CJK.search(key) and " " not in key:
        # a compound of Chinese or Japanese ends in what it names: "お客様管理番号" is
        # the customer's "管理番号", "製造ロット番号" a "ロット番号"
        return next(((native[key[i:]], 0.7) for i in range(1, len(key) - 1)
                     if key[i:] in native), None)
    return None


# Chinese characters and kana: words written without spaces between them.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _native_key(text: str) -> str:
    """A caption in one spelling: composed (NFC), without the invisible joiners some
    scripts print or drop ("ප්‍ර" in Sinhala)."""
    return unicodedata.normalize("NFC", text).replace("\u200d", "").replace("\u200c", "")


_NATIVE_BY_KEY: dict[str, str] = {}


def _native_captions() -> dict[str, str]:
    if not _NATIVE_BY_KEY:
        _NATIVE_BY_KEY.update({_native_key(k): v for k, v in NATIVE_CAPTIONS.items()})
    return _NATIVE_BY_KEY


# A caption's gloss in brackets at its end: "Hinban (Part No.)", "BEST BEFORE (dd.mm.yy)".
_GLOSS = re.compile(r"\(([^()]*[^\W\d_][^()]*)\)\s*:?\s*$")


def _refers(short: str) -> bool:
    """A caption of a reference in any language: "AltRef", "Kundenref", "Ref.ª cliente"."""
    last = short.split(" ")[-1] if short else ""
    return last.endswith("ref") or last.endswith("reference") or any(
        w in ("ref", "réf", "rif", "ref a") or w.startswith(("referen", "référen", "riferim"))
        for w in short.split(" "))


# A caption of one carton's or box's number, in a word and a number word or in one
# compound ("Carton No.", "Caja nº", "N° carton", "Kartonszám", "číslo kartonu"); no
# plural, which counts them ("Número de cajas", "No. of cartons").
_BOX = (r"(?:carton|cartone|cartao|karton|kartonu|kartong|caja|caixa|caisse|kiste|krabice|"
        r"doos|koli|box|ctn)")
_NUMBER_OF_BOX = r"(?:no|nr|n|n o|#|number|nummer|numero|numer|szam|cislo)"
_PACKAGE_NUMBER = re.compile(
    rf"^(?:{_BOX} ?{_NUMBER_OF_BOX}|{_NUMBER_OF_BOX} (?:de |di |du )?{_BOX})$")


# A price per unit: "€/kg", "Price £/kg", "$ per lb", "Prix au kg".
_PER_UNIT = re.compile(
    r"(?:[€£$¥]|\b(?:eur|usd|gbp|chf|sek|pln|czk)\b)\s*(?:/|per |pro |au |za )\s*"
    r"(?:kg|g|100 ?g|l|lb|oz|st|stk|pc|unit)\b|\b(?:price|prix|preis|precio|prezzo|cena|pris|"
    r"prijs|preço|preco|pret|preț|hinta|cijena|fiyat|ár)(?: ?/ ?| (?:per|pro|au|al|por|za|je|po) )"
    r"(?:1 ?)?(?:kg|l|lb|100 ?g|litre|liter|litro|kilo)\b", re.I)


def _numbered(name: str) -> str:
    """An unknown caption's name, numbers spelled one way: ``part_no`` -> ``part_number``."""
    return re.sub(r"_(?:no|nr|nbr|num|n)$", "_number", name)


_PRODUCT_WORDS = frozenset({"product", "produkt", "produit", "prodotto", "producto", "produto"})


def is_product_caption(text: str) -> bool:
    """"Product", "Produkt / Product": a carrier's service on a parcel label, what the
    goods are on a label of goods."""
    halves = [_caption_key(half) for half in text.split("/")]
    return all(half in _PRODUCT_WORDS for half in halves)


def is_date_name(name: str) -> bool:
    """A name that says which date a value is: ``delivery_date``, ``valid_until``."""
    return name.endswith(("_date", "_until")) or name == "date_of_birth"


def event_date(caption: str) -> str | None:
    """The date an event in a caption names: "Entrega estimada" -> ``delivery_date``."""
    words = re.findall(r"[^\W\d_]+", caption.lower())
    if words and words[0] in DATE_ABBREVIATIONS and re.match(
            r"\s*[^\W\d_]+\s*[.:]", caption):  # "Lev. 26.11.2026", "Del: 28/11"
        return DATE_ABBREVIATIONS[words[0]]
    for word in words:
        for start, name in DATE_EVENTS.items():
            if word.startswith(start):
                return name
    for word in words:  # a long word of an event ends a compound too: "Avondlevering",
        for start, name in DATE_EVENTS.items():  # "Anlieferung"
            if len(start) >= _COMPOUND_HEAD and start in word[2:]:
                return name
    return "due_date" if any(word.startswith(DATE_NEXT) for word in words) else None


# How long the word of an event is, at least, to be read inside a compound word.
_COMPOUND_HEAD = 6


# "3 of 5", "2 van 3", "1/2": which package of how many; in Canada's two languages at
# once ("18 of/de 40", "3 DE/OF 12").
_OF_HOW_MANY = r"(?:of|de|di|sur|von|van|af|av|z|ze|od|из|з|iš|is|no|från)"
COUNT = rf"\d{{1,4}}\s*(?:/|{_OF_HOW_MANY}|of/de|de/of)\s*\d{{1,4}}"
# Captions of a package ("Case", "Bak", "Volume" in Portuguese, "Carton No."), or a
# count ("Items"), whose value counts the packages.
_PACKAGES = frozenset({"case_number", "container_id", "volume", "quantity", "serial_number"})
# The freight classes of the NMFC, the only values a "CLASS" on a freight label holds.
_NMFC_CLASSES = frozenset({"50", "55", "60", "65", "70", "77.5", "85", "92.5", "100", "110",
                           "125", "150", "175", "200", "250", "300", "400", "500"})


def named_by_value(name: tuple[str, float], value: str, caption: str = "") -> tuple[str, float]:
    """What a caption's name becomes for the value it has: a package caption over
    "2 of 3" names the count, "CLASS" over "77.5" a freight class, "PIN" over twelve
    digits a parcel's number (Purolator's "parcel identification number"), "Vendor"
    over a code the vendor's number, "Destination" over a country the destination."""
    value = value.strip()
    if name[0] == "routing_code" and caption and _in_a_country(value):
        travel = _TRAVEL_CAPTION.search(_caption_key(caption))
        if travel is not None:  # "DEST: SINGAPORE", "Origen / Origin" over "España -
            # Comunitat Valenciana": where the goods go or come from, no hub's code
            return ("destination" if travel.group(1) else "origin"), name[1]
    if name[0] in _PACKAGES and re.fullmatch(COUNT, value, re.IGNORECASE):
        return "piece_count", min(name[1], 0.8)
    if name[0] == "quantity" and _ITEM_CODE.fullmatch(value) and sum(map(str.isdigit, value)) >= 5:
        return "part_number", min(name[1], 0.7)  # "ITEM" over "4127-0058": the item's code,
        # not how many
    if name[0] == "piece_count" and re.fullmatch(r"0\d{2,}|\d{7,}", value):
        # "CARTON NO." over "0612", "Packstück-Nr." over "105334812": no count starts
        # with a zero or runs to millions; the package's own number
        return "serial_number", min(name[1], 0.7)
    if name[0] == "material" and len(re.findall(r",\s+[^\W\d_]", value)) >= 2 \
            and re.match(r"[^\W\d_]", value):
        return "ingredients", name[1]  # "Skład: mąka żytnia (62%), woda, sól": a list of
        # what food or feed is made of, not a fabric ("97% CO 3% EA")
    if name[0] == "class" and value in _NMFC_CLASSES:
        return "freight_class", 0.8
    if name[0] == "pin" and sum(c.isdigit() for c in value) >= 10:
        return "tracking_number", 0.8
    if name[0] == "pin" and re.fullmatch(r"[1-9]\d{2}\s?\d{3}", value):
        return "postal_code", min(name[1], 0.8)  # India's postal index number: six digits
    if name[0] in ("vendor", "supplier") and len(value.split()) == 1 and has_digits(value, 3):
        return "supplier_number", name[1]  # "Vendor" over "V801223746": the vendor's number
    if name[0] == "cod_amount" and re.search(r"[^\W\d_]{2}.*\d|\d.*[^\W\d_]{2}", value) \
            and not _AMOUNT.fullmatch(value):
        return "part_number", 0.6  # "Cod. VM-RML-214": "código", a code, not cash on delivery
    if name[0] == "container_id" and _FREIGHT_CONTAINER.fullmatch(value):
        return "container_number", max(name[1], 0.8)  # "Contenedor: MSKU 482117 4"
    if name[0] == "container_id" and _LOAD_CARRIER.fullmatch(value):
        return "container_type", name[1]  # "Behälter" over "KLT 6429": which kind of box
    if name[0] in _NUMBERED_THINGS and has_digits(value, 2) and len(value.split()) <= 3 \
            and not re.search(r"[^\W\d_]{4,}", value):
        return f"{name[0]}_number", name[1]  # "Seal" over "0771934": the seal's number
    return name


# The words of a caption of where goods go (the group) or come from, which carriers'
# labels use for the code of a hub ("DEST SC", "Origin: KHI").
_TRAVEL_CAPTION = re.compile(r"\b(?:(dest|destination|destino|destinazione|destinatie|bestemming|"
                             r"bestimmungsort|bestimmungsland)|origin|orig|origen)\b")


def place_parts(text: str) -> list[str]:
    """A place's parts as a label runs them on one line ("Jeddah, Kingdom of Saudi
    Arabia", "España - Comunitat Valenciana", "HAMBURG / GERMANY")."""
    return [p.strip() for p in re.split(r",|\s-\s|\s/\s", text.strip()) if p.strip()]


def country_named(part: str) -> bool:
    """A part of a place is a country, perhaps after "Kingdom of", "Republic of" or
    "The"."""
    return is_country(re.sub(r"^(?i:kingdom of|republic of|the)\s+", "", part))


def _in_a_country(value: str) -> bool:
    """A country's name, alone or with a region or town ("SAUDI ARABIA", "España -
    Comunitat Valenciana", "Hamburg, Germany"): a place, no code."""
    parts = place_parts(value)
    return 0 < len(parts) <= 3 and all(words_only(p) and len(p.split()) <= 4 for p in parts) \
        and any(country_named(p) and len(p) > 3 for p in parts)


# An ISO 6346 freight container: owner, category letter, serial, check digit.
_FREIGHT_CONTAINER = re.compile(r"[A-Z]{3}[UJZ]\s?\d{6}[\s-]?\d")


# A VDA load carrier's type: "KLT 6429", "RL-KLT 4147", "GLT 1210".
_LOAD_CARRIER = re.compile(r"(?:RL-)?[KG]LT\s?\d{3,4}", re.IGNORECASE)


# A code of digits in groups joined by hyphens, letters among them or not ("4127-0058",
# "AX-2210-04"): no amount is written so.
_ITEM_CODE = re.compile(r"[A-Z]{0,4}\d[\dA-Z]*(?:-[\dA-Z]+)+")


# Things a label names by their number: a code under "Seal", "Tote" or "Coil" is that
# thing's number ("seal_number"), as integrators name such fields.
_NUMBERED_THINGS = frozenset({"seal", "certificate", "mold", "mould", "tool", "permit", "badge",
                              "bag", "tote", "kit", "set", "coil", "heat", "bundle", "drum",
                              "trailer", "pass", "ncr", "roll", "reel", "cage", "trolley",
                              "locker", "cavity", "slot", "box", "carton", "crate", "cylinder",
                              "tank", "vessel", "truck", "wagon", "railcar", "voucher", "claim"})


# An amount of money however written: "1,250 Tk", "PKR 2,499", "Rs. 6,850", "38,90 EUR".
_AMOUNT = re.compile(r"(?:[^\W\d_]{1,4}\.?\s?)?\d[\d\s.,']*(?:\s?[^\W\d_]{1,4}\.?)?")


_NAMES_BY_KEY: dict[str, str] = {}
_GLOSSARY_BY_KEY: dict[str, str] = {}
# The glossary's English names that are kinds of the vocabulary under another name.
# (the next inspection, service or calibration is the date it is due, as "Next
# inspection" in English names it)
_GLOSSARY_KINDS = {"product_name": "description", "year_of_manufacture": "manufacture_date",
                   "packer": "operator", "inspector": "operator", "dock": "location",
                   "door": "location", "dosage": "dosage_instructions",
                   "next_inspection": "due_date", "next_maintenance": "due_date",
                   "next_calibration": "due_date"}


def _glossary() -> dict[str, str]:
    if not _GLOSSARY_BY_KEY:
        _GLOSSARY_BY_KEY.update({key: _GLOSSARY_KINDS.get(v, v) for k, v in GLOSSARY.items()
                                 if (key := _caption_key(k))})
    return _GLOSSARY_BY_KEY


def _names() -> dict[str, str]:
    if not _NAMES_BY_KEY:
        # (a caption in a script snake() cannot spell has no key, and names nothing)
        _NAMES_BY_KEY.update({key: v for k, v in CAPTION_NAMES.items()
                              if (key := _caption_key(k))})
    return _NAMES_BY_KEY


@lru_cache(maxsize=1)
def _vocabulary_names() -> frozenset[str]:
    return frozenset(_names().values()) | frozenset(_glossary().values())


def is_glossary_caption(text: str) -> bool:
    """The whole caption is one of the glossary's, a caption word of another language
    ("Departamento", "Anfitrião"), not only a word of it."""
    return _caption_key(text.strip().rstrip(":")) in _glossary()


def is_vocabulary_name(name: str) -> bool:
    """A name the vocabulary or the glossary gives, not an unknown caption's own words
    ("hoja_de_conteo_number")."""
    return re.sub(r"_\d+$", "", name) in _vocabulary_names()


@lru_cache(maxsize=8192)
def is_known_caption(text: str) -> bool:
    """Caption text of the vocabulary: "Weight:", "Phone", "Sendungsnr.", "Ref1:" ..."""
    # "Ref1", "Ref 2:", "Ref. 1" (not "Operador 7": a word and its value)
    words = re.sub(r"(?<=[^\W\d_])(?:\.?\d(?=\s*:?\s*$)|\s\d(?=\s*:\s*$)|\.\s\d(?=\s*:?\s*$))",
                   "", text)  # and "Ref. 1"
    words = re.sub(r"(?<=[^\W\d_])\s*\(\d{2,4}\)\s*:?\s*$", "", words)  # "GTIN (02)": its AI
    return bool(words.strip()) and not any(c.isdigit() for c in words) and \
        caption_name(text)[1] >= 0.85 \
        and all(len(half.split()) <= 4 for half in text.split(" / ")) \
        and not (words != text and len(words.strip()) <= 2)  # ("BY3" is a code, not "By")


def compact(text: str) -> str:
    return re.sub(r"[\s()]", "", text)


def is_sscc(text: str) -> bool:
    digits = compact(text)
    return digits.isdigit() and (len(digits) == 18 or (len(digits) == 20
                                                       and digits.startswith("00")))


def is_tracking(text: str) -> bool:
    """A long code of letters and digits: a tracking or parcel number."""
    code = compact(text).replace("-", "")
    # (a word, hyphenated too: "AMOXICILLIN-CLAV 875-125 MG TAB" is a drug, no parcel)
    wordy = any(len(word) >= 4 and word.replace("-", "").isalpha() for word in text.split())
    return (len(code) >= 10 and code.isalnum() and sum(c.isdigit() for c in code) >= 6
            and len(text.split()) <= 8 and not wordy and not _MEASURED.search(text))


# A number with its unit of a rating or a size ("3x400 V  50 Hz", "2 x 35 mm"): a measure,
# no code.
_MEASURED = re.compile(r"\d\s?(?:V|Hz|kW|kVA|VA|mA|mm|cm|kg|ml)\b")


# The one-letter country codes of European cars, printed before a postcode ("D-80331").
_VEHICLE_CODES = frozenset("ABDEFHILNPS")


_DAY_MONTH_YEAR = re.compile(r"\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b")


@lru_cache(maxsize=8192)
def is_postal_line(text: str) -> bool:
    """A line with a postal code and a place name, such as "1015 CS Amsterdam"."""
    match = POSTAL.search(text.upper())
    if match is None or not _WORD.search(text) or not 2 <= len(text.split()) <= 6 \
            or is_web(text):
        return False  # (a code such as "EHT-00913" is one word, no town)
    before, after = text[:match.start()].rstrip(), text[match.end():].lstrip()
    if _DAY_MONTH_YEAR.search(text) or before.endswith("*") \
            or re.search(r"(?=\w*[^\W\d_])\w*\d\w*-$", text[:match.start()]):
        return False  # "Depositato 26/11/2026 09:12", "CC ****4172", "CCS26-04418": a
        # date, a masked number, the end of a code, not a town
    if before.endswith("(") and after.startswith(")") \
            or re.search(r"(?:\bnr|\bno|\bn[º°o]|#)\.?$", before, re.IGNORECASE) \
            or re.search(r"[a-z]\s+ID:?$", before):
        return False  # "... GmbH (70233)", "Kd.-Nr. 44721", "Pakkeshop ID 95131": a
        # number, not a town's code (but "IDAHO FALLS ID 83402" is Idaho's)
    if re.search(r"[^\W\d_]-$", before) and not (
            re.fullmatch(r"[A-Z]{1,2}-", before)
            and (before[:-1] in _VEHICLE_CODES or is_country(before[:-1]))):
        return False  # "PES-0417 Merluza filete": the end of an article's code (not a
        # country's letters before the code, "PL-00-950 Warszawa", "SE-111 22 Stockholm")
    # Six or seven digits after a caption are its value ("Order 123456"), not a town's code
    # ("Tel Aviv-Yafo 6688112" only starts like a phone caption).
    name, certainty = caption_name(text[:match.start()])
    return len(match.group(0)) < 6 or certainty < 0.7 or name == "phone" and certainty < 0.85


# The words of a postage indicia, a mail class or a permit: the carrier's box, printed
# alike on every label of an account (not an address, not data).
POSTAGE = re.compile(r"\b(?:postage|fees paid|mailer id|e-?postage|media mail|"
                     r"parcel select|priority mail|first[- ]class|mail innovations|"
                     r"electronic rate approved|ps form|ppi|cn ?2[23]|cp ?7[12]|port payé|"
                     r"porto betaald|"
                     r"entgelt bezahlt|taxe perçue|tassa pagata|porte pagado|porto pagat)\b",
                     re.IGNORECASE)
# A caption of an emergency or poison-centre number: the maker's own, on every label.
EMERGENCY = re.compile(r"\b(?:emergency|notruf|giftnotruf|notfall\w*|urgence|emergencia|"
                       r"emergenza|noodnummer|nödnummer|poison|antiveleno|toxicolog\w*|"
                       r"chemtrec)\b(?=.*\d{3})", re.IGNORECASE)  # (with its number)
_TIMES = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b24/7\b|\b\d{1,2} ?[AP]M\b", re.IGNORECASE)


# A postcode marked as one on a line of its own: in brackets after the street (Korea's
# "(06236)") or after the postal mark (Japan's "〒150-0012").
MARKED_POSTCODE = re.compile(r"[(\[]\d{5}[)\]]|〒\s?\d{3}-?\d{4}")


def has_digits(text: str, count: int) -> bool:
    return sum(c.isdigit() for c in text) >= count


def data_digits(text: str, count: int) -> bool:
    """At least ``count`` digits outside times of day ("BY 10:30 AM", "24/7"), which
    describe a service, not a shipment."""
    return has_digits(_TIMES.sub("", text), count)


def has_letters(text: str) -> bool:
    return bool(_WORD.search(text))


def few_words(text: str, most: int) -> bool:
    """No more than ``most`` words, in each language of a caption printed in two
    ("Delivery terminal / Terminal de livraison")."""
    return max(len(half.split()) for half in text.split(" / ")) <= most


def words_only(text: str) -> bool:
    return not any(c.isdigit() for c in text)


@lru_cache(maxsize=8192)
def shape_name(text: str) -> tuple[str, float] | None:
    """A name from what the data looks like, with how sure it is."""
    if _TIMES.fullmatch(text.strip()):
        return None
    if is_sscc(text):  # with its "(00)" sure; 18 digits alone may be a parcel number
        return "sscc", 0.85 if len(compact(text)) == 20 or "(00)" in text else 0.6
    if PIECES.match(text.strip()):
        return "piece_count", 0.8
    if WEIGHT.fullmatch(text.strip()):
        return "weight", 0.85
    if DATE.fullmatch(text.strip()):
        return "date", 0.85
    if PHONE.fullmatch(text.strip()) or MASKED_PHONE.fullmatch(text.strip()):
        return "phone", 0.65
    if is_tracking(text):
        return "tracking_number", 0.7
    if POSTAL.fullmatch(text.strip().upper()):
        return "postal_code", 0.7
    return None
