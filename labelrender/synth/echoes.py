"""Echoes of an address elsewhere on the label: a sort area's town, postcode or
country code repeats the recipient's, and is that address's data too."""

from __future__ import annotations

import re

from . import shapes
from .addresses import COLUMN_TOLERANCE
from .captions import PARTY
from .decision import Decision, leading_spaces
from .decision import mark_variable as _variable


def echoes(decisions: list[Decision]) -> None:
    """Text that repeats part of an address (a sort area's "LYON", "SW1A" or "BC")
    is that address's data too; a postal code alone elsewhere is a routing code, and
    on a label with no address nor party at all, a number its caption may name."""
    addresses = [d for d in decisions if d.variable and d.name
                 and re.match(PARTY, d.name) and d.value]
    # (a party's caption, "Destination:", with no address under it still routes)
    routed = bool(addresses) or any(not d.variable and shapes.address_role(d.text) is not None
                                    for d in decisions)
    for d in decisions:
        word = d.text.strip(" -").upper()
        lone_postal = d.variable and d.name == "postal_code"
        if (d.variable and not lone_postal) or d.source.is_barcode or len(word) < 2 \
                or shapes.is_caption(d.text) or shapes.is_known_caption(d.text):
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        # A sort area routes to the recipient: its address wins when the sender's
        # holds the same town or code.
        matches = [a for a in addresses if pattern.search((a.value or "").upper())]
        source = min(matches, key=lambda a: not (a.name or "").startswith("ship_to_"),
                     default=None)
        if source is None:
            role = _block_above(decisions, d) if lone_postal else None
            if role is not None:  # "65026" printed large under "Одеська обл."
                d.name, d.name_certainty = f"{role}_postal_code", 0.6
            elif lone_postal and _repeated_code(decisions, d):
                continue  # "Pin 400053" up in the corner, "PIN: 400053" under the town:
                # one postcode, whose party the block beside the other names
            elif lone_postal and routed:
                d.name, d.name_certainty = "routing_code", 0.5
            elif lone_postal:  # "0847" on a label with no address at all: a number of
                d.name, d.name_certainty = "reference", 0.5  # its own, its caption's
            continue
        role = re.match(PARTY, source.name or "").group(1)  # type: ignore[union-attr]
        part = (source.name or "")[len(role) + 1:]
        if shapes.POSTAL.fullmatch(word) or part.startswith("postal_city") \
                and not shapes.words_only(word):
            part = "postal_code"
        elif part.startswith("postal_city"):
            part = "city"
        part = re.sub(r"_\d+$", "", part)
        indent = leading_spaces(d)
        d.variable = False
        _variable(d, f"repeats part of {source.name}", 0.7, indent, (f"{role}_{part}", 0.6))
    _sort_area_country(decisions)
    _sort_line_codes(decisions)


def _repeated_code(decisions: list[Decision], code: Decision) -> bool:
    """Another postcode on the label after its own caption holds the same code."""
    digits = re.sub(r"\W", "", code.value or "")
    return any(d is not code and d.variable and (d.name or "").endswith("postal_code")
               and d.prefix_len and re.sub(r"\W", "", d.value or "") == digits
               for d in decisions)


def _block_above(decisions: list[Decision], code: Decision) -> str | None:
    """The party whose address block ends right above a postcode printed alone (in a
    larger print, a little indented), when that block has no postcode of its own."""
    c = code.source
    above = [a for a in decisions if a.variable and not a.source.is_barcode
             and re.match(PARTY, a.name or "") and 0 < c.ry - a.source.ry
             <= 2.5 * a.source.font_height and abs(c.rx - a.source.rx) <= 40]
    if not above:
        return None
    last = max(above, key=lambda a: a.source.ry)
    role = re.match(PARTY, last.name or "").group(1)  # type: ignore[union-attr]
    if any(d.variable and (d.name or "").startswith(f"{role}_postal") for d in decisions):
        return None
    return role


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
    repeats = [d for d in decisions if d.variable and d.reason.startswith("repeats part of ")]
    for d in decisions:
        code = d.text.strip().upper()
        if d.variable or d.source.is_barcode or len(code) != 2 \
                or not shapes.is_country(code):
            continue
        above = [e for e in repeats if abs(e.source.rx - d.source.rx) <= COLUMN_TOLERANCE
                 and 0 < d.source.ry - e.source.ry <= 2 * max(e.source.font_height, 30)]
        if not above:
            continue
        role = re.match(PARTY, above[0].name or "")
        indent = leading_spaces(d)
        if role:
            _variable(d, f"country code under {above[0].name}", 0.6, indent,
                      (f"{role.group(1)}_country", 0.6))
