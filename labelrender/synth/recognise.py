"""Recognisers that validate: what a value is, checked by its own rules.

A tracking number is named one when a carrier's format and check digit say so
(UPS 1Z, UPU S10, USPS IMpb, FedEx, GS1 SSCC), a GTIN when its check digit holds,
a GS1 element string by its application identifiers (00 SSCC, 01 GTIN, 401/402
consignment, 403 routing, 420/421 ship-to postal code; lot, serial, dates, count,
weight and order when one of those comes first), a phone number when
``phonenumbers`` finds a valid number, a weight or a size by its units. Each answer
comes with how sure it is: a valid check digit is near certain, a shape alone is not.
"""

from __future__ import annotations

import re
from functools import lru_cache

import phonenumbers

from . import shapes

Recognised = tuple[str, float]

# ZPL Code 128 invocation codes in field data (>8 is FNC1).
_FNC1 = re.compile(r">8")
_CODE128_CODES = re.compile(r">[0-9:;<=]")
_REGIONS = ("US", "GB", "DE", "FR", "IT", "ES", "NL", "SE", "PL", "DK", "NO", "CZ", "HU",
            "CA", "AT", "CH", "BE", "FI", "PT", "IE", "TR", "AU")
_UNIT = r"(?:kgs?|lbs?|g|gr|grams?|oz|ounces?|kilos?)"
_NUMBER = r"\d+(?:[.,]\d+)?"
# A number with its thousands set apart by a space, as most of Europe writes it
# ("1 520", "12 500,5"; ISO 80000-1 7.3.1).
_GROUPED_NUMBER = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"
# (the EU's estimated sign "℮" after a pack's weight, often printed as an "e")
WEIGHT = re.compile(rf"^(?:(?:{_GROUPED_NUMBER}|{_NUMBER})\s?{_UNIT}\.?"
                    rf"(?:\s*(?:/|\+)?\s*{_NUMBER}\s?{_UNIT}\.?)*|"
                    rf"{_UNIT}\.?\s?{_NUMBER}|{_NUMBER}(?:\s*/\s*{_NUMBER})*\s?{_UNIT})"
                    r"(?:\s?[e℮])?$", re.IGNORECASE)
_VOLUME_UNIT = r"(?:ml|cl|dl|l|ltr|litres?|liters?|fl\.? ?oz)\.?"
# One volume ("50 mL", "75 cl"), and perhaps a pack of several ("6 x 750 ml").
ONE_VOLUME = re.compile(rf"{_NUMBER}\s?{_VOLUME_UNIT}", re.IGNORECASE)
# The count of a pack and "x", or its units' word and "x" or "à" ("6 botellas × 750 ml",
# "48 pytlů à 25 kg"; "63 à 73 g" alone is a range of weights, no pack).
_PACK_OF = r"\d+\s?(?:[xX×]|[^\W\d_]{2,12}\.?\s[xX×à])\s?"
_VOLUME = re.compile(rf"^(?:{_PACK_OF})?{_NUMBER}\s?{_VOLUME_UNIT}$", re.IGNORECASE)
# A pack of several units, each of a weight or a count ("12 x 900 g", "12 x 80 st.").
_PACK = re.compile(rf"^{_PACK_OF}{_NUMBER}\s?(?:g|kg|gr|st|stk|pcs|pc|ea|un|units?)\.?"
                   rf"(?:\s?=\s?{_NUMBER}\s?(?:g|kg))?$", re.IGNORECASE)  # (and what they weigh)
# A volume in cubic metres ("0.012m³", "1,4 cbm").
_CUBIC = re.compile(rf"^{_NUMBER}\s?(?:m³|m3|cbm)$", re.IGNORECASE)
# A rating with its unit, as plates and lamps print them: "1055 lm", "230 V", "7,5 kW".
_RATING = re.compile(r"^(?:[A-Z][A-Za-z0-9]?\s{1,2}(?=\d))?"  # (a plate's symbol: "P2 1,10 kW")
                     r"(?:[13]\s?[x×~]\s?)?"  # (the phases: "3x400 V", "3~ 400 V")
                     r"(?:\d+(?:[.,]\d+)?\s?(?:-|/|–)\s?)?\d+(?:[.,]\d+)?\s?"
                     r"(m³/h|m3/h|l/min|l/h|"
                     r"lm|lx|k|w|kw|kwh|wh|kcal|kj|mah|ah|v|kv|kva|vac|vdc|v ac|v dc|a|ma|hz|rpm|"
                     r"min-1|1/min|bar|psi|kpa|mpa|nm|db|db\(a\))\b[.~]?(?:\s.*)?$", re.IGNORECASE)
_RATING_NAMES = {"lm": "luminous_flux", "lx": "illuminance", "k": "colour_temperature",
                 "w": "power", "kw": "power", "kwh": "energy", "wh": "capacity",
                 "kcal": "energy", "kj": "energy",  # (a food's energy, per pack or portion)
                 "mah": "capacity", "ah": "capacity", "v": "voltage", "kv": "voltage",
                 "kva": "apparent_power", "vac": "voltage",
                 "vdc": "voltage", "v ac": "voltage", "v dc": "voltage", "a": "current",
                 "ma": "current", "hz": "frequency", "rpm": "speed", "min-1": "speed",
                 "1/min": "speed", "bar": "pressure", "psi": "pressure", "kpa": "pressure",
                 "mpa": "pressure", "nm": "torque", "db": "noise", "db(a)": "noise",
                 "m³/h": "flow_rate", "m3/h": "flow_rate", "l/min": "flow_rate",
                 "l/h": "flow_rate"}
# A count of things with its unit: "2 st", "12 pcs", "100 uds", "4 Stück".
# ("db" is Hungarian "darab", pieces; a decibel is written "dB")
_COUNT_OF = re.compile(r"^\d{1,6}\s?(?:st|stk|stck|stück|pcs|pc|ea|each|uds|ud|szt|ks|kpl|pz|"
                       r"pzs|pezzi|pièces|pce|pces|units|rolls?|bags?|boxes|cartons?|kartons?|"
                       r"(?-i:db)|kos|adet|cs|ctns?)\.?$",
                       re.IGNORECASE)
# Counts of pieces written together: planned and made ("480 / 472 Stk"), or a pack's
# count and what it holds ("6 kpl / 330 g").
_COUNT_UNIT = r"(?:st|stk|stck|stück|pcs|pc|ea|szt|ks|kpl|pz|pzs|pezzi|pce|pces|uds|ud|adet|kos)"
_COUNTS = re.compile(rf"^\d{{1,6}}\s/\s\d{{1,6}}\s?{_COUNT_UNIT}\.?$|"
                     rf"^\d{{1,4}}\s?{_COUNT_UNIT}\.?\s?/\s?{_NUMBER}\s?(?:g|kg|ml|cl|l)$",
                     re.IGNORECASE)
DIMENSIONS = re.compile(rf"^{_NUMBER}\s?[xX*]\s?{_NUMBER}(?:\s?[xX*]\s?{_NUMBER})?"
                        r"\s?(?:cm|mm|in|inch|m)?$", re.IGNORECASE)
_PHONE_WORD = (r"(?:telf|telefon|t[eé]l(?:e?m)?|phone|ph|tlf|tlm|mobile|mob|fon|gsm|puh|cel|"
               r"電話|电话|手机|тел)\.?")
# One caption or a caption in two languages ("Tél. / Tel.").
# (Chinese and Japanese write the colon full width: "电话：")
_PHONE_CAPTION = re.compile(rf"{_PHONE_WORD}(?:\s?/\s?{_PHONE_WORD})?\s?[:：]?\s*", re.I)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def starts_with_phone(text: str) -> bool:
    """A line that starts with a phone's caption and number, whatever follows it
    ("Tel. +1 734 555 0148  emily@example.com", "Tel. 421 7730 - NIT 901.284.553-7")."""
    stripped = text.strip()
    caption = _PHONE_CAPTION.match(stripped)
    number = re.match(r"\+?[\d ()./-]{6,20}", stripped[caption.end():]) if caption else None
    return number is not None and 6 <= sum(c.isdigit() for c in number.group()) <= 15
# (a day and a month are both 31 or less: "42/3/14" is a flat's door, not a date)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_DATE = re.compile(rf"^{_DAY}[./-]{_DAY}[./-]\d{{2,4}}$|^\d{{4}}[./-]\d{{2}}[./-]\d{{2}}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?$")
# Dates as other countries write them: Hungarian "2026. 11. 26." and "2026.11.25. 14:37",
# a full stop after the year in Croatian, Serbian and Slovene ("26.11.2026."), a space
# after each full stop in Czech and Slovak ("26. 11. 2026"), and the
# units of the year, month and day in Japanese, Chinese and Korean ("2026年11月25日",
# "令和8年11月", "2026년 11월 25일": the units alone say it is a day or a month).
_DATE_OF_COUNTRY = re.compile(
    rf"^(?:(?:19|20)\d{{2}}\.\s?(?:0?[1-9]|1[0-2])\.\s?{_DAY}\.?|{_DAY}\.\s?(?:0?[1-9]|1[0-2])"
    rf"\.\s?(?:19|20)\d{{2}}\.?|(?:令和|平成|民國|民国)?\d{{1,4}}\s?[年년]\s?\d{{1,2}}\s?[月월]"
    rf"(?:\s?\d{{1,2}}\s?[日일])?)(?:,?\s+\d{{1,2}}[:.]\d{{2}}(?::\d{{2}})?)?$")
# A best-before date of Canada's food: the year, then the month by its bilingual symbol
# (Food and Drug Regulations B.01.007: JA FE MR AL MA JN JL AU SE OC NO DE), then the
# day ("2028 AL 12", "27 JA 05"); the year is optional there, but kept here, for "MA 12"
# alone is no sure day.
_CANADIAN_DATE = re.compile(r"^(?:20)?\d{2}\s(?:JA|FE|MR|AL|MA|JN|JL|AU|SE|OC|NO|DE)\s"
                            r"(?:0?[1-9]|[12]\d|3[01])$")
# Month names and abbreviations in the carriers' languages (English, German, French,
# Spanish, Italian, Dutch, Nordic, Polish), for dates such as "Mar 11, 2024",
# "11-MAR-2024", "11. März 2024", "WED - 04 FEB 5:00P".
_MONTH = (r"(?:jan(?:uar[iy]?|vier)?|feb(?:ruar[iy]?)?|f[ée]v(?:r(?:ier)?)?|m[äa]r(?:ch|s|z|zo)?|"
          r"apr(?:il[e]?)?|avr(?:il)?|abr(?:il)?|ma[yij]o?|mei|mag(?:gio)?|june?|juin|jun[ie]?o?|"
          r"giu(?:gno)?|jul[iy]?o?|juil(?:let)?|lug(?:lio)?|aug(?:ust[i]?)?|ao[uû]t|ago(?:sto)?|"
          r"sep(?:t(?:ember|iembre|embre)?)?|set(?:tembre)?|o[ck]t(?:ober|obre|obre)?|ott(?:obre)?|"
          r"nov(?:ember|embre)?|d[eé]c(?:ember|embre)?|de[zc]|dic(?:iembre|embre)?|"
          r"sty|lut|kwi|cze|lip|sie|wrz|pa[zź]|lis|gru)\.?")
_WEEKDAY = r"(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim)\.?"
# A day of the week alone: the day-dot labels of a kitchen's rotation.
_DAY_NAMES = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|"
    r"donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
    r"lunedì|lunedi|martedì|martedi|mercoledì|mercoledi|giovedì|giovedi|venerdì|venerdi|sabato|"
    r"domenica|lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo|"
    r"segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|maandag|dinsdag|"
    r"woensdag|donderdag|vrijdag|zaterdag|zondag|måndag|tisdag|onsdag|torsdag|fredag|lördag|"
    r"söndag|mandag|tirsdag|lørdag|søndag|poniedziałek|wtorek|środa|czwartek|piątek|sobota|"
    r"niedziela)")
_DAY_NAME = re.compile(rf"^{_DAY_NAMES}\.?$", re.IGNORECASE)
_TIME = r"\d{1,2}[:.h]\d{2}(?::\d{2})?\s?(?:[ap]\.?m?\.?)?"
_NAMED_DATE = re.compile(
    rf"^(?:(?:{_WEEKDAY}|{_DAY_NAMES})\s*[-,]?\s*)?(?:\d{{1,2}}\.?[\s-]?{_MONTH}(?:[\s-]?\d{{2,4}})?|"
    rf"{_MONTH}\s\d{{1,2}}(?:st|nd|rd|th)?,?(?:\s\d{{4}})?)(?:,?\s+{_TIME})?$", re.IGNORECASE)
_DATE_AND_TIME = re.compile(
    rf"^(?:\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}[./-]\d{{2}}[./-]\d{{2}}),?\s+"
    rf"(?:(?:à|at|um|alle|ore|a las|om|kl\.?|klo|godz\.?|в)\s+)?{_TIME}$",
    re.IGNORECASE)
# Day and month without a year ("18/03"): a piece count never has more pieces than
# its total, so a first number above the second that fits a day and a month is a date.
_DAY_MONTH = re.compile(r"^(\d{1,2})[./](\d{1,2})\.?$")
# "2026-01" and "03/2028" (a month and its year); a US month and day, "1/28" or
# "01/28 08:30" (a day above 12 says it).
_YEAR_MONTH = re.compile(r"^20\d{2}-(?:0[1-9]|1[0-2])$|^(?:0[1-9]|1[0-2])[./]20\d{2}$")
_MONTH_DAY = re.compile(rf"^(?:[1-9]|0[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01])(?:\s+{_TIME})?$", re.I)
_CURRENCY = (r"(?:[$€£¥₹₩₱₦฿]|R\$|Rp|USD|EUR|GBP|CHF|SEK|NOK|DKK|PLN|CZK|CAD|AUD|NZD|HUF|RON|"
             r"BGN|RSD|TRY|ISK|SAR|AED|EGP|NGN|KES|ZAR|INR|PHP|IDR|MYR|SGD|HKD|CNY|JPY|KRW|THB|"
             r"BRL|MXN|ARS|CLP|COP|PEN|Kč|zł|kr\.?|Fr\.|lei|din|kn|RUB|UAH|KZT|BYN|GEL|"
             r"руб\.?|₽|грн\.?|₴|тг|₸|лв\.?|Ft|TL|₺|₫|đ|Rs\.?|PKR|BDT|Tk|৳|LKR|NPR|"
             r"VND|MAD|DHS?|TWD|QAR|KWD|OMR|BHD|JOD|TND|DZD|UGX|TZS|XOF|XAF|GTQ|UYU|PYG|"
             r"MMK|KHR|ZMW|MUR|ETB)")
# ("€ 649,-": whole euros; "$ 189.900 COP": the dollar sign, then which dollars or pesos)
_MONEY = re.compile(rf"^(?:{_CURRENCY}\s?\d[\d\s.,']*\d|{_CURRENCY}\s?\d|"
                    rf"\d[\d\s.,']*\d\s?{_CURRENCY}|\d\s?{_CURRENCY}|"
                    rf"{_CURRENCY}\s?\d[\d.']*,-|"
                    rf"(?:[$€£¥₹]|R\$)\s?\d[\d\s.,']*\d\s?{_CURRENCY})$")
# A price for an amount: "1 kg = 11,64 €", "100 g = 1,29 €".
_PER_AMOUNT = re.compile(r"^\d{1,4}\s?(?:kg|g|l|ml|cl|lb|oz|st|stk|m|m2|m²)\s?=\s?(.+)$",
                         re.IGNORECASE)
# A price per unit after its amount: "$1.37 per qt", "2,49 €/kg", "11,64 € je 1 kg".
_PRICE_PER = re.compile(r"^(.+?)\s?(?:per|/|pro|je|le|la|por|al|za|a)\s?(?:1\s?|100\s?|1000\s?)?"
                        r"(?:kg|g|lb|lbs|oz|fl\.? ?oz|qt|pt|gal|l|ltr|ml|cl|ct|count|each|ea|"
                        r"sq\.? ?ft|m|m2|m²|pc|pcs|st|stk|stück|unit|unité|unidad|szt|ks|"
                        r"kilo|litro|litre|liter|litr|lt)\.?$",
                        re.IGNORECASE)
_TIME_SLOT = re.compile(r"^\d{1,2}[:.h]\d{2}\s?[-–]\s?\d{1,2}[:.h]\d{2}$")
# GHS hazard labelling: hazard statements ("H314 Causes severe skin burns...", "EUH208"),
# precautionary statements ("P305+P351+P338 IF IN EYES: ..."), pictogram codes.
_HAZARD_STATEMENT = re.compile(r"^(?:EUH\d{3}|H[234]\d{2}[FfDd]{0,2})(?:\s?\+\s?H[234]\d{2})*"
                               r"(?:\s|[:.,]|$)")
_STATEMENT_P = r"P(?:10[1-3]|[234]\d{2}|50[1-3])"
_PRECAUTION = re.compile(rf"^{_STATEMENT_P}(?:\s?\+\s?{_STATEMENT_P})*(?:\s|[:.,]|$)")
# A UN number alone, or in front of the goods' proper shipping name.
_UN_LINE = re.compile(r"^UN\s?\d{4}(?:$|[\s,]+[^\W\d_]{3,}.*)")
_PICTOGRAMS = re.compile(r"^GHS0[1-9](?:\s*[,/+;]?\s*GHS0[1-9])*$")
# A temperature or a range of them: "+2°C bis +8°C", "260°C", "-18 °C", "2-8 °C".
_DEGREE = r"[<>≤≥+\-−]?\s?\d{1,3}(?:[.,]\d)?"
_TEMPERATURE = re.compile(rf"^(?:[^\W\d_]{{2,12}}\s+)?{_DEGREE}(?:\s?°\s?[CF]?)?"
                          rf"(?:\s?(?:-|–|/|to|bis|à|a|až|do|tot)\s?{_DEGREE})?\s?°\s?[CF]$",
                          re.IGNORECASE)
# A passenger's name as airlines print it: "TREMBLAY/ISABELLE MS".
_PASSENGER = re.compile(r"^[^\W\d_]{2,}(?:[ -][^\W\d_]{2,})?/[^\W\d_]{2,}(?: [^\W\d_]+)?"
                        r" (?:MR|MRS|MS|MISS|MSTR|DR|CHD|INF)$")


def is_weekday(word: str) -> bool:
    """A day of the week, whole or abbreviated ("WED", "Fr.", "jueves"): before a date
    it is part of the date, not a caption."""
    return re.fullmatch(_WEEKDAY, word, re.IGNORECASE) is not None \
        or _DAY_NAME.fullmatch(word) is not None


_ABV = re.compile(r"^\d{1,2}(?:[.,]\d{1,2})?\s?%\s?(?:vol\.?|abv|alc\.?(?:\s?/\s?vol\.?)?)$", re.I)
# A length of time alone: "10 min", "168 hours", "8 Std.".
_DURATION = re.compile(r"^\d{1,4}(?:[.,]\d)?\s?(?:min|mins|minutes?|minuten|h|hrs?|hours?|std|"
                       r"stunden|heures?|ore|horas?|uur|timmar|timer|godz|days?|tage?|jours?|"
                       r"giorni|días|dias|dagen|dagar|dni|weeks?|wochen)\.?$", re.IGNORECASE)
# A date code by year and week: "WK 2647", "KW 47/26", "D/C 2647".
_DATE_CODE = re.compile(r"^(?:WK|KW|CW|DC|D/C|YYWW)\s?:?\s?(?:\d{2}[0-5]\d|[0-5]\d\s?/\s?\d{2})$",
                        re.IGNORECASE)
# A time of day alone: "22:47", "7:05 PM", "14h30" (a point would make it a price).
_CLOCK = re.compile(r"^(?:(?:[01]?\d|2[0-3])[:h][0-5]\d(?::[0-5]\d)?(?:\s?[ap]\.?m\.?)?|"
                    r"(?:[01]?\d|2[0-3])時(?:[0-5]?\d分)?(?:\s?[～〜~\-–]\s?(?:[01]?\d|2[0-3])時"
                    r"(?:[0-5]?\d分)?)?)$", re.I)  # ("14時～16時": a Japanese time slot)
_WEEKDAY_DAY_MONTH = re.compile(rf"^(?:{_WEEKDAY}|{_DAY_NAMES})\s*,?\s*\d{{1,2}}[./-]\d{{1,2}}"
                                rf"(?:\.?|[./-]\d{{2,4}})$", re.I)
# UPS's printed routing code: state or country, three postcode digits, sort
# ("CA 902 1-00", "ID 834 9-01 X", "NL 1011 0-01").
_UPS_ROUTING = re.compile(r"[A-Z]{2} \d{3,4} \d-\d{2}(?: [A-Z])?")
# A tyre's size, load index and speed rating: "235/55 R18 104H XL", "205/55ZR16 91W".
_TYRE = re.compile(r"^(?:P|LT)?\d{3}/\d{2}\s?Z?R\s?\d{2}(?:[.,]5)?(?:\s?\d{2,3}(?:/\d{2,3})?[A-Z])?"
                   r"(?:\s?(?:XL|RF|C|M\+S|RFT))*$")
# A CAS registry number, with its caption or without: "CAS 7647-01-0", "CAS No. 67-63-0".
# A CAS number, and the EC number a European label prints after it ("CAS 67-63-0
# EY 200-661-7", in Finnish): one line of the substance's identity.
_CAS = re.compile(r"((?:CAS|CAS[- ]?(?:No|Nr|Nº|#|RN)\.?)\s?:?\s?)?(\d{2,7}-\d{2}-\d)"
                  r"(?:[\s,;/]+(?:EC|EY|EG|CE|WE|EINECS)(?:[- ]?(?:No|Nr)\.?)?\s?:?\s?"
                  r"\d{3}-\d{3}-\d)?", re.I)
_COMPACT = re.compile(r"[\s()]")
# The pronouns a badge prints under its holder's name: "she/her", "they/them".
_PRONOUNS = re.compile(r"\(?(?:she|he|they|ze|xe)\s?/\s?(?:her|him|them|hir|zir|xem)"
                       r"(?:\s?/\s?(?:hers|his|theirs|hirs|zirs|xyrs))?\)?", re.IGNORECASE)
# The trade term of an international shipment, alone or with its place ("DDP", "FCA
# Hamburg"): Incoterms 2020, and DAT and DDU of older ones.
_INCOTERM = re.compile(r"(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP|DAT|DDU)"
                       r"(?:\s+[A-Z][\w .'-]{1,30})?")
# A pickup point's opening hours: days, then hours ("Пн-Вс 10:00-21:00", "Mon-Fri
# 8:00-18:00", "Ma-Vr 09.00-17.00").
_DAY = (r"(?:mon?|tue?|wed?|thu?|fri?|sat?|sun?|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim|"
        r"ma|wo|vr|za|zo|må|ti|on|to|lö|sö|pn|wt|śr|cz|pt|sb|nd|пн|вт|ср|чт|пт|сб|вс|нд)\.?")
_OPENING_HOURS = re.compile(rf"{_DAY}\s?[-–]\s?{_DAY},?\s+\d{{1,2}}[:.]\d{{2}}\s?[-–]\s?"
                            r"\d{1,2}[:.]\d{2}", re.IGNORECASE)
# What the driver is asked to do with this parcel: "DELIVER TO FRONT DESK", "Gate code
# #4410, leave with concierge", "LIFTGATE REQUIRED".
_INSTRUCTION = re.compile(
    r"(?:deliver (?:to|at|by|before)(?!\s*:)|leave (?:at|with|behind) (?:the )?(?:front|back|"
    r"side|rear|door|porch|reception|concierge|neighbou?r|garage|gate|desk|mailroom)|"
    r"please (?:deliver|ring|call|knock)|ring (?:bell|the)|knock\b|buzz(?:er)? \d|"
    r"gate code|door code|"
    r"access code|liftgate (?:required|needed)|inside delivery|call (?:before|on arrival|"
    r"ahead|recipient)|appointment required|do not leave|if not home|if no answer|"
    r"livrer (?:à|au|chez|devant)|déposer (?:chez|devant|au|à)|bitte (?:klingeln|abgeben|"
    r"abstellen)|abgeben bei|abstellen (?:bei|vor|an|im|in der)|entregar en|dejar en|"
    r"consegnare (?:al|alla|a|in|presso)|lasciare (?:al|alla|presso)|afleveren bij|"
    r"bezorgen bij|lämna (?:hos|vid|i)|zostawić (?:u|w|przy)|doručit (?:do|k))",
    re.IGNORECASE)
# A colour by a colour system's code: NCS ("NCS S 3010-G30Y": blackness, chromaticness,
# hue), RAL Classic ("RAL 9016") and Pantone ("Pantone 186 C", "PMS 2945 U"), as paint,
# plastics and print are ordered by.
_COLOUR_CODE = re.compile(r"NCS\s?(?:S\s?)?\d{4}-(?:[YRGB](?:\d{2}[YRGB])?|N)|RAL\s?[1-9]\d{3}|"
                          r"(?:PANTONE|Pantone|PMS)\s?\d{3,4}\s?[CUM]?")
# The production line and the shift that made the goods ("Linea 3 · turno B", "Linka L2 /
# směna B", "Line 4 - Shift C"), in the languages of the plants' labels.
_LINE_AND_SHIFT = re.compile(
    r"(?:line|linie|linea|ligne|línea|linha|lijn|linja|linka|linia|linija)\.?\s?"
    r"[A-Z]?\d{1,2}[A-Z]?\s?[·/,|-]?\s?(?:shift|schicht|turno|équipe|poste|směna|smena|zmiana|"
    r"ploeg|skift|vuoro|műszak|vardiya|smjena|izmena)\.?\s?[A-Z0-9]{1,2}", re.IGNORECASE)
# A bin's stock levels in pieces, cases or packs: the least before it is refilled and
# the most it holds ("MIN 4   MAX 18 CS", "Mini 500 / Maxi 2000", "Max 48 fp").
STOCK_UNIT = r"\s?(?:pcs|pc|st|stk|szt|ks|fp|cs|ea|kpl|uds|ud|un|pz|ctn|box|pk|pkt)\.?"
_MIN_MAX = re.compile(rf"min(?:i|imum)?\.?:?\s?\d{{1,5}}(?:{STOCK_UNIT})?\s*[/|·,-]?\s*"
                      rf"max(?:i|imum)?\.?:?\s?\d{{1,5}}(?:{STOCK_UNIT})?", re.IGNORECASE)
_MAX_COUNT = re.compile(rf"max(?:i|imum)?\.?:?\s?\d{{1,5}}{STOCK_UNIT}", re.IGNORECASE)
# The tunnel restriction code of dangerous goods by road (ADR 1.9.5.2.2, printed in
# brackets: "(D/E)", "(C/E)", "(E)", "(-)"), after its caption in the ADR's languages.
_TUNNEL_CODE = re.compile(
    r"(?:tunnel(?:\s?(?:restriction\s)?code)?|tunnelbeschränkungscode|tunnelcode|"
    r"code(?:\sde\srestriction\sen)?\stunnels?|codice\s(?:di\s)?galleria|"
    r"código\sde\s(?:restricción\sen\s)?túneles?|kod\stunelu|kód\stunelu)"
    r"\s?:?\s?\((?:[BCDE](?:1000C)?(?:/[DE])?|-)\)", re.IGNORECASE)
# A network card's hardware address: six pairs of hex digits ("6C:1A:B3:3E:47:3C").
_MAC = re.compile(r"(?:MAC\s?:?\s?)?[0-9A-F]{2}([:-])(?:[0-9A-F]{2}\1){4}[0-9A-F]{2}", re.I)
# A North American number written the usual way: 614.984.1858, 555-123-4567.
_NANP = re.compile(r"1?[-. ]?\d{3}[-. ]\d{3}[-. ]\d{4}")


# Values a pattern alone names: pictogram codes, temperatures, passengers, weekdays,
# alcohol, lengths of time, date codes, times of day.
_SHAPES = ((_PICTOGRAMS, "pictograms", 0.75), (_TEMPERATURE, "temperature", 0.7),
           (_PASSENGER, "passenger_name", 0.7), (_DAY_NAME, "day_of_week", 0.7),
           (_ABV, "abv", 0.8), (_DURATION, "duration", 0.5), (_DATE_CODE, "date_code", 0.7),
           (_CLOCK, "time", 0.75))


def iban(code: str) -> bool:
    """An international bank account number whose ISO 13616 check (mod 97) holds."""
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", code):
        return False
    moved = code[4:] + code[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def gs1_valid(digits: str) -> bool:
    """The GS1 mod-10 check digit (SSCC, GTIN, GSIN, USPS IMpb) holds."""
    if not digits.isdigit() or len(digits) < 2:
        return False
    body, check = digits[:-1], int(digits[-1])
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return (10 - total % 10) % 10 == check


def cas_valid(code: str) -> bool:
    """A CAS registry number's check digit: "7647-01-0" (hydrochloric acid)."""
    match = re.fullmatch(r"(\d{2,7})-(\d{2})-(\d)", code)
    if match is None:
        return False
    digits = (match.group(1) + match.group(2))[::-1]
    return sum(i * int(d) for i, d in enumerate(digits, 1)) % 10 == int(match.group(3))


def container_valid(code: str) -> bool:
    """An ISO 6346 freight container number's check digit: "MSKU 704512 6"."""
    compact = re.sub(r"[\s-]", "", code)
    if not re.fullmatch(r"[A-Z]{3}[UJZ]\d{7}", compact):
        return False
    values = [int(c) if c.isdigit() else _ISO6346[c] for c in compact[:10]]
    return sum(v << i for i, v in enumerate(values)) % 11 % 10 == int(compact[10])


# ISO 6346's values of letters: 10 upwards, skipping the multiples of 11.
_ISO6346 = {c: v for c, v in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                 [v for v in range(10, 39) if v % 11], strict=True)}


def ups_valid(code: str) -> bool:
    """A UPS 1Z number's last character checks the 15 after ``1Z``."""
    if not re.fullmatch(r"1Z[0-9A-Z]{16}", code):
        return False
    total = 0
    for i, c in enumerate(code[2:17]):
        value = int(c) if c.isdigit() else (ord(c) - 63) % 10
        total += value * (2 if i % 2 else 1)
    return str((10 - total % 10) % 10) == code[17]


def s10_valid(code: str) -> bool:
    """A UPU S10 item identifier (two letters, 8 digits, check digit, country)."""
    if not re.fullmatch(r"[A-Z]{2}\d{9}[A-Z]{2}", code):
        return False
    total = sum(int(d) * w for d, w in zip(code[2:10], (8, 6, 4, 2, 3, 5, 9, 7), strict=True))
    check = 11 - total % 11
    return {10: 0, 11: 5}.get(check, check) == int(code[10])


def nfe_key(code: str) -> bool:
    """A Brazilian electronic fiscal document's access key (chave de acesso): 44 digits,
    the document's model (55 NF-e, 57 CT-e, 65 NFC-e, 67 CT-e OS) at 21-22 and a
    modulo 11 check digit (weights 2 to 9 from the right)."""
    if not re.fullmatch(r"\d{44}", code) or code[20:22] not in ("55", "57", "65", "67"):
        return False
    total = sum(int(d) * (2 + i % 8) for i, d in enumerate(reversed(code[:43])))
    remainder = total % 11
    return (0 if remainder < 2 else 11 - remainder) == int(code[43])


def fedex_valid(code: str) -> bool:
    """A 12-digit FedEx Express number (weights 1, 3, 7 mod 11)."""
    if not re.fullmatch(r"\d{12}", code):
        return False
    weights = (3, 1, 7)
    total = sum(int(d) * weights[i % 3] for i, d in enumerate(reversed(code[:11])))
    return total % 11 % 10 == int(code[11])


def _gs1_ais(data: str, marked: bool = False) -> Recognised | None:
    """A GS1 element string: its first application identifier says what it is.

    ``marked`` says the string shows its identifiers (an FNC1, brackets): then 420
    and 421 are what the GS1 General Specifications define, the ship-to postal code;
    bare digits "420..." are a carrier's sort barcode, its routing code.
    """
    data = _FNC1.sub("", data)
    if re.match(r"00\d{18}", data):
        return ("sscc", 0.95) if gs1_valid(data[2:20]) else ("sscc", 0.8)
    if re.match(r"0[12]\d{14}", data) and gs1_valid(data[2:16]):
        # A GTIN with a date or lot after it is a record of several values.
        return ("gtin", 0.9) if len(data) == 16 else ("barcode_data", 0.8)
    if re.match(r"0[12]\d{16}", data):
        return "barcode_data", 0.7  # a GTIN and more, its check digit wrong
    if re.match(r"42[01](?=[0-9A-Z]{0,20}\d)[0-9A-Z]{3,}", data):  # a postcode (Canada's
        # with its letters)
        rest = data[3:]
        if re.search(r"9[1-5]\d{20,}$", rest):  # ZIP then a USPS IMpb: the tracking number
            return "tracking_number", 0.9
        return ("ship_to_postal_code" if marked else "routing_code"), 0.85
    if re.match(r"40[12]\d{8,}", data):
        return "tracking_number", 0.8  # consignment / shipment identification
    if re.match(r"403[0-9A-Z]", data):
        return "routing_code", 0.85
    for pattern, name in _GS1_TRADE_AIS:
        match = re.match(pattern, data)
        if match:
            if _gs1_fixed(data) and len(data) > match.end():
                return "barcode_data", 0.8  # a date or weight, then more values: a record
            return name, 0.85
    return None


# Application identifiers of trade items and logistic units after the first: what
# a GS1-128 symbol or its "(10) L2409" line holds when it does not start with a key.
_GS1_TRADE_AIS = (
    (r"10[!-~]", "lot_number"), (r"21[!-~]", "serial_number"),
    (r"1[57]\d{6}", "expiry_date"), (r"1[13]\d{6}", "manufacture_date"),
    (r"12\d{6}", "date"), (r"37\d", "quantity"), (r"30\d", "quantity"),
    (r"3[1-4]\d{8}", "weight"),
    (r"400[!-~]", "purchase_order"), (r"240[!-~]", "part_number"),
)


# Lengths of the fixed-length application identifiers a label of goods or a pallet
# carries (GS1 General Specifications, figure 5.10.1-2): the rest run to an FNC1.
_GS1_LENGTHS = {"00": 18, "01": 14, "02": 14, "11": 6, "12": 6, "13": 6, "15": 6, "16": 6,
                "17": 6, "20": 2}
_GS1_BRACKETED = re.compile(r"\((\d{2,4})\)\s*([^()]+)")
# A measure's identifier: four digits, then six of its value ("3103" "000450").
_GS1_MEASURE = re.compile(r"3[1-6]\d{2}")


def _gs1_fixed(data: str) -> bool:
    """The element string starts with an identifier of a fixed length, so whatever
    follows its value is another value ("15270518" then "3301006124")."""
    return data[:2] in _GS1_LENGTHS or _GS1_MEASURE.match(data) is not None


def gs1_counts(data: str) -> list[str]:
    """The counts a GS1 element string carries: of trade items in a logistic unit (37)
    or of a variable measure (30). ``data`` is barcode data with its FNC1s (">8") or
    a printed form with the identifiers in brackets ("(02)...(37)48(10)...")."""
    bracketed = _GS1_BRACKETED.findall(data)
    if bracketed:
        return [value.strip() for ai, value in bracketed if ai in ("30", "37")]
    data = _CODE128_CODES.sub(lambda m: "\x1d" if m.group(0) == ">8" else "", data)
    if not data.startswith("\x1d"):
        return []
    counts: list[str] = []
    rest = data.lstrip("\x1d")
    while len(rest) >= 2:
        ai = rest[:2]
        if ai in _GS1_LENGTHS:
            rest = rest[2 + _GS1_LENGTHS[ai]:]
        elif _GS1_MEASURE.match(rest):
            rest = rest[10:]  # a measure: four digits of identifier, six of value
        elif ai in ("10", "21", "30", "37"):
            value, _, rest = rest[2:].partition("\x1d")
            if ai in ("30", "37"):
                counts.append(value)
        else:
            break  # an identifier this reading does not know: its length is unknown
        rest = rest.lstrip("\x1d")
    return counts


def tracking(code: str) -> Recognised | None:
    """A carrier's tracking or parcel number, validated where it has a check digit."""
    if ups_valid(code) or s10_valid(code):
        return "tracking_number", 0.95
    if re.fullmatch(r"1Z[0-9A-Z]{16}", code) or re.fullmatch(r"[A-Z]{2}\d{9}[A-Z]{2}", code):
        return "tracking_number", 0.8
    if re.fullmatch(r"9[1-5]\d{20}|9[1-5]\d{24}", code):
        # USPS IMpb; its shape alone is rarer than a check digit that fails to hold
        return "tracking_number", 0.95 if gs1_valid(code) else 0.75
    if fedex_valid(code) or re.fullmatch(r"96\d{20}|96\d{32}|\d{15}", code) and gs1_valid(code):
        return "tracking_number", 0.85
    if re.fullmatch(r"J?JD\d{10,}", code):
        return "tracking_number", 0.9  # ISO 15459 licence plate (DHL)
    if _CARRIER_SSCC.fullmatch(code):
        return "tracking_number", 0.9
    if re.fullmatch(r"99\.?\d{2}\.?\d{6}\.?\d{8}", code):
        return "tracking_number", 0.8  # Swiss Post: 99, the product, the parcel
    if re.fullmatch(r"3S[A-Z]{4}\d{7,13}", code):
        return "tracking_number", 0.9  # PostNL: 3S, the customer's code, the parcel
    return None


# An SSCC that is a carrier's parcel number: DHL Paket numbers its parcels under its
# own GS1 company prefix ("00340434161094027318").
_CARRIER_SSCC = re.compile(r"(?:\(00\)|00)340434\d{12}")
# A UPU S9 receptacle identifier (a mail bag's): the offices of origin and destination
# (six letters each), mail category (A-D), subclass, year's last digit, dispatch number,
# receptacle serial, the flags of the last receptacle and of registered mail, and the
# weight in hectograms (29 characters).
_RECEPTACLE = re.compile(r"[A-Z]{6}[A-Z]{6}[A-D][A-Z]{2}\d{14}")
# A carton sent to an Amazon fulfilment centre: its shipment's id ("FBA" and eight to
# ten letters and digits), "U" and the carton's number in six digits, as the box
# labels of "Fulfillment by Amazon" print it ("FBA18K7Q2WZLU000007").
_FBA_CARTON = re.compile(r"FBA[0-9A-Z]{8,10}U\d{6}")
# A license plate of ANSI MH10.8.2 (the transport unit's own number on AIAG B-10, Odette
# and Global Transport Labels): data identifier "J", "1J", "5J" or "6J", the issuing
# agency "UN" with the maker's nine-digit DUNS number, then the maker's serial.
_LICENSE_PLATE = re.compile(r"[1-6]?JUN\d{9}[0-9A-Z]{1,20}")
# Those three codes, known by their whole form, in barcodes and in print alike.
_CODE_SHAPES = ((_RECEPTACLE, "receptacle_id", 0.85), (_FBA_CARTON, "carton_id", 0.85),
                (_LICENSE_PLATE, "package_id", 0.85))


# ISBT 128, the blood and tissue labels' Code 128: a two-character data identifier
# says what the data is.
_ISBT128 = {"=%": "blood_group", "=<": "product_code", "=>": "expiry_date",
            "&>": "expiry_date", "=*": "collection_date", "&*": "collection_date",
            "=}": "production_date", "&}": "production_date", "&(": "special_testing",
            "={": "special_testing", "=)": "container_number", "&)": "container_lot"}


@lru_cache(maxsize=8192)
def barcode_data(data: str, symbology: str) -> Recognised | None:
    """What the data of a barcode is, from its symbology and contents."""
    code = _CODE128_CODES.sub("", data) if symbology == "BC" else data
    code = _COMPACT.sub("", code)
    if symbology in ("BE", "B8", "BU", "B9"):
        return ("gtin", 0.9) if gs1_valid(code) else ("gtin", 0.7)
    if symbology == "B2" and re.fullmatch(r"\d{14}", code) and gs1_valid(code):
        return "gtin", 0.85  # ITF-14: a case's GTIN
    if symbology == "B2" and re.fullmatch(r"\d{14}", code):
        return "routing_code", 0.55  # 14 digits that are no GTIN: DHL's Leitcode
    if symbology == "B2" and re.fullmatch(r"\d{10,13}", code):
        return "tracking_number", 0.55  # a bag tag's or DHL's Identcode: a parcel's number
    if _CARRIER_SSCC.fullmatch(code):
        return "tracking_number", 0.9
    bracketed = re.sub(r"\s", "", _CODE128_CODES.sub("", data))
    if symbology == "BC" and re.fullmatch(r"(?:\(\d{2,4}\)[^()]+)+", bracketed):
        # GS1-128 data in UCC/EAN mode with its AIs in brackets: "(01)150...(15)280531"
        found = _gs1_ais(code, marked=True)
        if bracketed.count("(") >= 2 and (found is None or found[0] != "sscc"):
            return "barcode_data", 0.8  # several values in one symbol: a record
        if found is not None:
            return found
    if data.startswith(">;>8") or data.startswith(">8") or symbology == "BC" and re.match(
            r"(?:00\d{18}|42[01](?:\d|[A-Z]\d[A-Z]\d[A-Z]\d$)|403)", code):
        found = _gs1_ais(code, marked=">8" in data[:4])
        if found is not None:
            return found
    if symbology == "BC" and data[:2] in _ISBT128:  # (">" is no invocation code here)
        return _ISBT128[data[:2]], 0.8
    if symbology == "BC" and re.fullmatch(r"=[A-NP-Z1-9]\d{4}\d{2}\d{6}[\dA-Z*]{0,2}", code):
        return "donation_number", 0.8  # ISBT 128: the donation's identification number
    if re.fullmatch(r"2L[A-Z]{2}[0-9A-Z]+(?:\+\d+)?", code):
        return "routing_code", 0.85  # DHL routing: 2L, country, postal code
    if container_valid(code):
        return "container_number", 0.9
    for pattern, name, sure in _CODE_SHAPES:
        if pattern.fullmatch(code):
            return name, sure
    if nfe_key(code):
        return "access_key", 0.9  # a DANFE's bars: the invoice's key, no parcel number
    if _MAC.fullmatch(code):
        return "mac_address", 0.9
    found = tracking(code)
    if found is not None:
        return found
    if re.fullmatch(r"\d{18}", code) and gs1_valid(code):
        # No "00" in front: an SSCC or a carrier's 18-digit parcel number that happens
        # to check (one in ten does); a person should look.
        return "sscc", 0.6
    return None


# A place in a warehouse: an aisle's letter (and number), then numbers of bay,
# level and position: "B-14-03-2", "A07-12-3" (a part number has letters further on).
_RACK_LOCATION = re.compile(r"(?=(?:.*\d){3})(?:[A-Z]{1,2}\d{0,3}|\d{1,3})"
                            r"(?:-(?:\d{1,3}|[A-Z])){2,3}")  # (and "12-031-D", "R-22-14-D")
# A place spelled out in the words of a warehouse: "Gang 4 / Regal 12 / Fach 3",
# "Aisle 14 Bay 03 Level B", "Pasillo 3 - Estante 12".
_PLACE_WORD = (r"(?:aisle|rack|bay|level|shelf|bin|row|slot|position|pos|gang|regal|fach|"
               r"ebene|platz|pasillo|estante|nivel|hueco|allée|allee|travée|travee|niveau|"
               r"alvéole|corsia|scaffale|ripiano|campata|gangpad|stelling|vak|rząd|rzad|regał|"
               r"regal|półka|polka|ulička|ulicka|regál|police|gång|hylla|sektion|corredor|"
               r"prateleira|pad|plank|zone|zona|zóna|strefa|hylly|hylde|hylle|polica|raft|"
               r"raion|sor|rek|cel)")
# One place word and its number: "CÁMARA 3", "Kas 3", "Dock 12", "Lane C-06".
_PLACE = re.compile(rf"(?:{_PLACE_WORD}|dock|door|gate|hall|halle|hal|lane|cámara|camara|"
                    r"kammer|kühlraum|kas|room|ward|bed|cama|letto|bett|tor|porte|puerta|"
                    r"muelle|quai|baia|doca|locker|spind|casier|taquilla|armadietto)(?:\.\s*|\s+)(?:[A-Z]?\d{1,3}[A-Z]?|[A-Z]\d?(?:-\d{1,3}){0,2}|"
                    r"\d{1,3}(?:-\d{1,3}){1,3}|"
                    r"[A-Z]\d{0,2}-\d{1,3})", re.IGNORECASE)
# A department or ward, its word abbreviated as such labels print it: "Oddz. Chir.",
# "Avd. Inköp, Hus 211", "Abt. Einkauf".
_DEPARTMENT = re.compile(r"^(?:oddz|oddział|oddzial|oddělení|oddeleni|avd|avdelning|abt|"
                         r"abteilung|dept|afd|afdeling|osasto|reparto)\.?\s+[^\W\d_].{0,40}$",
                         re.IGNORECASE)
_WORDED_LOCATION = re.compile(rf"(?:{_PLACE_WORD}\.?\s*[A-Z0-9]{{1,4}}\s*[-/·,|]?\s*){{2,}}",
                              re.IGNORECASE)


# A GTIN-14 as printed under its ITF-14: "1 50 12345 00012 8".
_GTIN14_PRINTED = re.compile(r"\d \d{2} \d{5} \d{5} \d")


def _rated(text: str, unit: str) -> bool:
    """Not a code that only ends like a rating: "3 A", "75-2A", and no colour is "2 K"."""
    text = re.sub(r"^[13]\s?[x×~]\s?", "", text)  # (after the phases: "3x400 V")
    digits = re.search(r"\d+", text)  # (after a plate's symbol: "U 400 V")
    number = int(digits.group(0)) if digits else 0
    span = re.match(r"(\d+)\s?[-/–]\s?(\d+)(?![.,\d])", text)
    if span and int(span.group(1)) > int(span.group(2)) and "/" not in span.group(0):
        return False  # "75-2A" runs downwards: a sort code, no range of ratings
    return not (len(unit) == 1 and number < 10 or unit == "k" and number < 1000)


# A Swedish personal identity number: the birth date, a hyphen, four digits
# ("19580314-2746"), born in the last century or this one's first years (an order
# number dated today is no birth); on a label, a patient's record. (Its twelve digits
# may pass a parcel number's check by chance.)
_PERSONAL_NUMBER = re.compile(r"(19\d\d|20[01]\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])-\d{4}")


# An airline's issue stamp on a bag tag or a cargo label: a station or a word, the
# day in the airlines' form with its year, the time in four digits, then perhaps the
# agent ("LYS 25NOV26 0942 AGT 3317", "LABEL 25NOV26 1512").
_ISSUE_STAMP = re.compile(r"[A-Z]{3,6}\s+\d{2}(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)"
                          r"\d{2}\s+(?:[01]\d|2[0-3])[0-5]\d(?:\s+[A-Z]{2,4}\s*\d{1,5}|\s+[A-Z]\d)?")


# Codes known by their whole form once spaces and dashes are gone, and what they are.
_COMPACT_SHAPES = ((_CARRIER_SSCC, "tracking_number", 0.9), *_CODE_SHAPES)
# Values known by their whole printed form (after the codes with check digits).
_WHOLE_SHAPES = ((_COLOUR_CODE, "colour_code", 0.85), (_LINE_AND_SHIFT, "production_line", 0.7),
                 (_TUNNEL_CODE, "tunnel_code", 0.85), (_MIN_MAX, "min_max", 0.7),
                 (_MAX_COUNT, "max_quantity", 0.6))


@lru_cache(maxsize=8192)
def text_value(text: str) -> Recognised | None:
    """What a printed value is: GS1 human-readable, tracking number, weight, size,
    date and time, phone number."""
    stripped = text.strip()
    compact = _COMPACT.sub("", stripped)
    for pattern, name, sure in _COMPACT_SHAPES:
        if pattern.fullmatch(compact):
            return name, sure
    if nfe_key(compact):
        return "access_key", 0.9
    if re.match(r"^\((?:00|01|02|1[01357]|21|240|3[0-7]\d{0,2}|40[0-3]|42[01])\)", stripped):
        found = _gs1_ais(compact, marked=True)
        if found is not None:
            return found
    if re.fullmatch(r"\(2L\)[A-Z]{2}[0-9A-Z]+(?:\+\d+)?", stripped):
        return "routing_code", 0.85
    if iban(compact):
        return "account_number", 0.9  # "AT75 2011 1824 7360 5122": a bank account, with
        # its check digits (named as the glossary names its caption "IBAN")
    if _UPS_ROUTING.fullmatch(stripped):
        return "routing_code", 0.85
    if re.fullmatch(r"\(J\)JD\d{10,}", stripped):
        return "tracking_number", 0.9
    if container_valid(stripped):
        return "container_number", 0.9
    if _MAC.fullmatch(stripped):
        return "mac_address", 0.9
    for pattern, name, sure in _WHOLE_SHAPES:
        if pattern.fullmatch(stripped):
            return name, sure
    cas = _CAS.fullmatch(stripped)
    if cas and cas_valid(cas.group(2)):
        return "cas_number", 0.9 if cas.group(1) else 0.7
    if _PERSONAL_NUMBER.fullmatch(stripped):
        return "patient_id", 0.6
    if _ISSUE_STAMP.fullmatch(stripped):
        return "print_date", 0.6
    found = tracking(compact.replace("-", ""))
    if found is not None and found[1] >= 0.85:
        return found
    if WEIGHT.fullmatch(stripped):
        return "weight", 0.85
    if _VOLUME.fullmatch(stripped) or _PACK.fullmatch(stripped):
        return "quantity", 0.7  # "50 ml", "6 x 750 ml", "12 x 900 g": the content of a pack
    if _CUBIC.fullmatch(stripped):
        return "volume", 0.7  # "0.012m³", "1,4 cbm": a consignment's volume
    if _COUNT_OF.fullmatch(stripped):
        return "quantity", 0.8
    if _COUNTS.fullmatch(stripped):
        return "quantity", 0.7
    rating = _RATING.fullmatch(stripped)
    if rating and len(stripped.split()) <= 5 and _rated(stripped, rating.group(1).lower()) \
            and rating.group(1) != "db":
        return _RATING_NAMES[rating.group(1).lower()], 0.7  # "1055 lm", "220-240 V AC"
    if DIMENSIONS.fullmatch(stripped):
        return "dimensions", 0.85
    if _TYRE.fullmatch(stripped):
        return "tyre_size", 0.8
    if _DATETIME.fullmatch(stripped) or _DATE.fullmatch(stripped) \
            or _DATE_AND_TIME.fullmatch(stripped) or _NAMED_DATE.fullmatch(stripped) \
            or _DATE_OF_COUNTRY.fullmatch(stripped) or _CANADIAN_DATE.fullmatch(stripped):
        return "date", 0.85
    if _MONEY.fullmatch(stripped):
        return "value", 0.7  # an amount of money: a price on goods, a value on parcels
    per_unit = _PER_AMOUNT.fullmatch(stripped) or _PRICE_PER.fullmatch(stripped)
    if per_unit and (_MONEY.fullmatch(per_unit.group(1).strip())
                     or re.fullmatch(r"\d{1,3}p", per_unit.group(1).strip())):  # ("70p per 100g")
        return "unit_price", 0.85  # "1 kg = 11,64 €", "$1.37 per qt"
    if _YEAR_MONTH.fullmatch(stripped) or _MONTH_DAY.fullmatch(stripped):
        return "date", 0.7
    if _TIME_SLOT.fullmatch(stripped):
        return "time_slot", 0.7  # "14:00-16:00": a delivery window, chosen per parcel
    if _HAZARD_STATEMENT.match(stripped) and _statement_words(stripped):
        return "hazard_statements", 0.8
    if _PRECAUTION.match(stripped) and _statement_words(stripped):
        return "precautionary_statements", 0.8
    if _INCOTERM.fullmatch(stripped):
        return "incoterm", 0.7
    if _OPENING_HOURS.fullmatch(stripped):
        return "opening_hours", 0.7
    if _INSTRUCTION.match(stripped) and len(stripped.split()) <= 12:
        return "delivery_instructions", 0.6
    if _UN_LINE.fullmatch(stripped):
        return ("un_number", 0.8) if len(stripped) <= 7 else ("proper_shipping_name", 0.7)
    for pattern, name, certainty in _SHAPES:
        if pattern.fullmatch(stripped):
            return name, certainty
    if _WEEKDAY_DAY_MONTH.fullmatch(stripped):
        return "date", 0.8  # "di 25-11", "Mon 03/02": a day of the week says it is a date
    day_month = _DAY_MONTH.fullmatch(stripped)
    if day_month and 12 >= int(day_month.group(2)) >= 1 \
            and 31 >= int(day_month.group(1)) > int(day_month.group(2)) \
            and not re.fullmatch(r"\d+\.\d", stripped):  # ("7.5" is a number: kilograms)
        return "date", 0.7
    captioned = _PHONE_CAPTION.match(stripped)
    if captioned and 6 <= sum(c.isdigit() for c in stripped) <= 15 \
            and not re.search(r"[^\d\s()+./-]", stripped[captioned.end():]):
        return "phone", 0.75  # "tel. 000000000": the caption says what it is
    if _PRONOUNS.fullmatch(stripped):
        return "pronouns", 0.8
    if EMAIL.fullmatch(stripped):
        return "email", 0.8
    if _GTIN14_PRINTED.fullmatch(stripped) and gs1_valid(compact):
        return "gtin", 0.85
    if _RACK_LOCATION.fullmatch(stripped) and not phone(stripped) \
            and not re.fullmatch(r"\d{2,7}-\d{2}-\d", stripped):  # (a CAS number's shape)
        return "location", 0.7  # "B-14-03-2": aisle, bay, level and position (a number
        # valid in a numbering plan, "22-123-45-67", is a phone)
    if _WORDED_LOCATION.fullmatch(stripped):
        return "location", 0.8  # "Gang 4 / Regal 12 / Fach 3"
    if _DEPARTMENT.fullmatch(stripped):
        return "department", 0.6
    if _PLACE.fullmatch(stripped):
        return "location", 0.6  # "CÁMARA 3", "Dock 12"
    if phone(stripped):  # with its country code it is sure, a national number less so
        return ("phone", 0.8) if stripped.lstrip("(").startswith(("+", "00")) else ("phone", 0.65)
    return found


def _statement_words(text: str) -> bool:
    """A statement's code is followed by words, or stands alone ("H225")."""
    rest = text.split(None, 1)[1:] or [""]
    return not rest[0] or re.search(r"[^\W\d_]{3,}", rest[0]) is not None


@lru_cache(maxsize=4096)
def phone(text: str) -> bool:
    """A telephone number: international (``+``/``00``) and valid, or national with
    a trunk ``0`` or US-style brackets and valid in one of the regions carriers use."""
    value = re.sub(r"^(?:tel|phone|telefon|tlf)\.?:?\s*", "", text.strip(), flags=re.I)
    value = re.sub(r"\s*(?:x|ext\.?|extension)\s*\d{1,5}$", "", value, flags=re.I)
    if shapes.MASKED_PHONE.fullmatch(value):
        return True
    digits = sum(c.isdigit() for c in value)
    if not 7 <= digits <= 15 or re.search(r"[^\d\s()+./-]", value) or _DATE.match(value) \
            or len(set(re.sub(r"\D", "", value))) == 1:
        return False  # "0000000000", "000000/000000": a sample, no number
    if value.startswith(("+", "00")):
        try:
            number = phonenumbers.parse("+" + value.lstrip("+").removeprefix("00")
                                        if value.startswith("00") else value, None)
        except phonenumbers.NumberParseException:
            return False
        return bool(phonenumbers.is_possible_number(number))
    if not (value.startswith("0") or value.startswith("(") or _NANP.fullmatch(value)):
        return False
    for region in _REGIONS:
        try:
            if phonenumbers.is_valid_number(phonenumbers.parse(value, region)):
                return True
        except phonenumbers.NumberParseException:
            continue
    return False


@lru_cache(maxsize=4096)
def international_digits(text: str) -> bool:
    """Digits alone that are a valid number once read with a leading ``+``
    ("46737671317": a Swedish mobile written without its plus sign)."""
    digits = text.strip()
    if not digits.isdigit() or not 10 <= len(digits) <= 15 or digits.startswith("0"):
        return False
    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse("+" + digits, None)))
    except phonenumbers.NumberParseException:
        return False
