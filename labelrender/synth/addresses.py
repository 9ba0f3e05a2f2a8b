"""Address blocks: under their caption in the carriers' languages, or above a
postal-code line without one, each assigned to its party (recipient, sender,
mark-for) and named line by line (name, address, postal_city, country, phone)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence

from . import recognise, shapes
from .captions import PARTY, PARTY_CAPTIONED, caption_values, raw_caption_split
from .decision import Decision, leading_spaces
from .decision import mark_variable as _variable
from .source import SourceField, sample_value
from .vocabulary import COUNTRIES

# In an address block, a line of 7 to 15 digits is a telephone number.
_PHONE_DIGITS = re.compile(r"\+?[\d ()/-]{7,18}")
# Names of data that is never an address line.
_DATA_NAMES = frozenset({"routing_code", "tracking_number", "sscc", "gtin", "date", "weight",
                         "dimensions", "piece_count"})


# The label's lines as each reading direction sees them: orientation -> [(rx, ry,
# length)] (SourceLabel.rules).
Rules = Mapping[str, Sequence[tuple[int, int, int]]]
# How far above or below a caption printed sideways its block may reach.
_SIDE_REACH = 250
# A hub, airport or depot code alone under a destination caption: "ORD", "LYS-2".
_HUB = re.compile(r"[A-Z]{3}(?:[- ][A-Z0-9]{1,4})?")
_HUB_FONT = 40
# Line layout: lines of one block share a column and follow each other closely.
COLUMN_TOLERANCE = 14
_MAX_BLOCK_LINES = 8
# Lines of one address share a print size: one twice as large is a code above it.
_FONT_JUMP = 1.7


_LEADING = 1.5
# Parts of an address a form captions one by one ("CPA:", "Domicilio:", "Localidad:"):
# named after their caption, they are the party's whose block they fall in.
_FORM_PARTS = frozenset({"postal_code", "address", "city"})


def parties(decisions: list[Decision]) -> None:
    """A phone, contact or e-mail outside an address block belongs to the block
    beside it (the block its line falls in), and takes that party's name."""
    blocks: dict[str, list[Decision]] = {}
    for d in decisions:
        match = re.match(PARTY, d.name or "") if d.variable else None
        if match and not d.source.is_barcode:
            blocks.setdefault(match.group(1), []).append(d)
    unplaced = 0  # phones with no block on the label: the recipient's, then the sender's
    for d in decisions:
        if d.variable and d.name in ("contact", "delivery_instructions") and d.prefix_len \
                and recognise.phone(re.split(r"\s+/\s+|,\s", (d.value or "").strip())[0]):
            d.name = "phone"  # "Kontakt: +49 541 90876-0 / ...", "Avis: 02305 97 41 80":
            # the number to call them on
        code_phone = _CODE_THEN_PHONE.fullmatch((d.value or "").strip()) \
            if d.variable and d.name == "routing_code" and d.prefix_len else None
        if code_phone and recognise.phone(code_phone.group("phone")):
            # "ORIGIN ID:SANA  (858) 555-0133": the origin station's code, then the
            # number of the sender it serves (FedEx prints it so)
            origin = re.search(r"\borig", d.text[:d.prefix_len], re.IGNORECASE)
            d.name = "ship_from_phone" if origin else "phone"
        if d.variable and d.name == "ph" and d.prefix_len \
                and 7 <= sum(c.isdigit() for c in d.value or "") <= 15:
            d.name = "phone"  # "Ph: 944 72 452": no acidity has seven digits
        if not d.variable or d.name not in PARTY_CAPTIONED | _FORM_PARTS \
                or d.name == "postal_code" and d.source.is_barcode:
            continue
        caption = next((c for c in decisions if not c.variable and c.text
                        and c.source.orientation == d.source.orientation
                        and abs(c.source.ry - d.source.ry) <= max(6, c.source.font_height // 2)
                        and 0 < d.source.rx - c.source.rx <= 300
                        and shapes.address_role(c.text) in ("ship_to", "ship_from")), None)
        if caption is not None:  # "TO:" beside "ATTN: MAILROOM": that caption's party
            d.name = f"{shapes.address_role(caption.text)}_{d.name}"
            continue
        best: tuple[float, str] | None = None
        # (positions compare only in one reading frame: a block turned down the edge is
        # no neighbour of an upright phone)
        own = {role: lines for role, block in blocks.items() if (lines := [
            x for x in block if x.source.orientation == d.source.orientation])} or blocks
        for role, lines in own.items():
            top = min(x.source.ry for x in lines) - 60
            bottom = max(x.source.ry for x in lines) + 120
            if not top <= d.source.ry <= bottom:
                continue
            distance = min(abs(x.source.ry - d.source.ry) + 0.2 * abs(x.source.rx - d.source.rx)
                           for x in lines)
            if d.source.ry < min(x.source.ry for x in lines):
                distance *= _LEADING  # a contact line follows its block more than it heads one
            if best is None or distance < best[0]:
                best = (distance, role)
        if best is not None:
            d.name, d.name_certainty = f"{best[1]}_{d.name}", min(d.name_certainty, 0.75)
        elif blocks:  # whose phone? the nearest block's, for a person to check
            role = min(own, key=lambda r: min(
                abs(x.source.ry - d.source.ry) + 0.2 * abs(x.source.rx - d.source.rx)
                for x in own[r]))
            d.name, d.name_certainty = f"{role}_{d.name}", min(d.name_certainty, 0.5)
        elif d.name == "phone" and unplaced < 2 and not d.source.is_barcode:
            d.name = ("ship_to_phone", "ship_from_phone")[unplaced]
            d.name_certainty = min(d.name_certainty, 0.5)
            unplaced += 1
        else:
            d.name_certainty = min(d.name_certainty, 0.5)


# A station's code and then a phone number in one value: "SANA  (858) 555-0133" (or
# the number alone).
_CODE_THEN_PHONE = re.compile(r"(?:[A-Z0-9]{2,6}\s+(?=[(+0-9]))?(?P<phone>[\d ()+./-]{7,20})")


def pickup_point_address(decisions: list[Decision]) -> None:
    """The street and town printed under a pickup point's code ("KRA26M" over "ul.
    Mogilska 43" and "31-545 Kraków"), where the recipient's block has none: the
    parcel goes there, so they are the recipient's address. Where the recipient's
    block has its own, they are the pickup point's, named with it."""
    addressed = any(d.variable and re.match(r"ship_to_(?:address|postal|city)", d.name or "")
                    for d in decisions)
    for point in decisions:
        if not point.variable or point.name not in ("pickup_point", "locker_code") \
                or point.source.is_barcode:
            continue
        street = 0
        for line in _block_lines(decisions, point, point.source.ry)[1:4]:
            text = line.text.strip()
            if line.variable and line.name_certainty >= 0.5 or not text:
                break
            if shapes.is_postal_line(text):
                part = "postal_city"
            elif shapes.has_digits(text, 1) and (_street(text) or "," in text):
                street += 1
                part = f"address_{street}"
            else:
                break
            if addressed:  # the recipient has their own: these lines say where the point is
                if not line.variable:
                    _variable(line, "under the pickup point", 0.5, leading_spaces(line),
                              ("pickup_point", 0.5))
                elif line.name in ("text", "field"):
                    line.name, line.name_certainty = "pickup_point", 0.5
                continue
            line.variable = False
            _variable(line, "under the pickup point", 0.6, leading_spaces(line),
                      (f"ship_to_{part}", 0.6))
            if part == "postal_city":
                break


# Words of a caption that names a pickup point's own code ("ID Pickup", "Punt-ID / ID
# point", "Kods", "Piste", "Paštomato kodas"), not the point's name or address.
_POINT_ID = re.compile(r"(?:^|[\W_])(?:id|kods|kodas|kod|code|c[oó]digo|piste|punkt|punt|"
                       r"point|nr|no|tunnus)(?:$|[\W_])", re.IGNORECASE)


def pickup_point_ids(decisions: list[Decision]) -> None:
    """On a parcel sent to a pickup point or a locker, a code under or after a caption
    unknown that says it is a code or an id of a point ("ID Pickup" over "PT13487",
    "Kods" over "9135", "Punt-ID / ID point : 2105473") is the pickup point's id: no
    sort code, no postcode, whatever its print or its shape guessed."""
    if not any(d.variable and d.name == "pickup_point"
               or len(d.text.split()) <= 3 and shapes.caption_name(d.text)[0] == "pickup_point"
               or re.search(r"\b(?:pick-?up|pudo)\b", d.text, re.IGNORECASE)
               for d in decisions):
        return
    for d in decisions:
        value = (d.value or "").strip()
        if not d.variable or d.source.is_barcode or d.name_certainty > 0.7 \
                or re.match(PARTY, d.name or "") \
                or not re.fullmatch(r"[A-Z]{0,3}-?\d[\dA-Z-]{2,9}", value):
            continue
        caption = _caption_of_code(decisions, d)
        if caption is not None and _POINT_ID.search(caption) \
                and shapes.caption_name(caption)[1] < 0.85:
            d.name, d.name_certainty = "pickup_point_id", 0.6


def _caption_of_code(decisions: list[Decision], d: Decision) -> str | None:
    """The caption unknown that named ``d``, or the words right over it."""
    if d.name and not shapes.is_vocabulary_name(d.name):
        return d.name
    if d.name != "routing_code":
        return None
    return next((c.text for c in decisions if not c.variable and not c.source.is_barcode
                 and 0 < d.source.ry - c.source.ry <= 2 * max(c.source.font_height, 12)
                 and abs(d.source.rx - c.source.rx) <= 24), None)


def pickup_point_lines(decisions: list[Decision]) -> None:
    """Under a pickup point's caption in a field of its own ("NOUTOPISTE", "Pickup
    point", "Výdejní místo"), where the recipient's block is elsewhere, the first line
    of words is the point's name ("K-Market Hervanta"), and a line of its street or
    postcode that nothing else named ("Hervannan valtaväylä 10, 33720 Tampere") its
    address: the parcel waits there, a shop or locker chosen per parcel."""
    for caption in decisions:
        if caption.variable or caption.source.is_barcode \
                or not shapes.few_words(caption.text, 3) \
                or shapes.caption_name(caption.text.strip().rstrip(":"))[0] != "pickup_point":
            continue
        c = caption.source
        first = next((d for d in decisions if d.text and not d.source.is_barcode
                      and 0 < d.source.ry - c.ry <= 2.5 * c.font_height
                      and abs(d.source.rx - c.rx) <= 2 * COLUMN_TOLERANCE), None)
        if first is None:
            continue
        text = first.text.strip()
        if first.variable or not shapes.words_only(text) or ":" in text \
                or shapes.is_caption(text) or not shapes.few_words(text, 5) \
                or shapes.caption_name(text)[1] >= 0.6:
            continue  # (no caption under it, "Vekt"; a code or name another rule named)
        _variable(first, "the pickup point's name under its caption", 0.5,
                  leading_spaces(first), ("pickup_point_name", 0.5))
        for line in _block_lines(decisions, first, first.source.ry)[1:3]:
            text = line.text.strip()
            if line.variable and line.name in ("text", "field") and shapes.has_digits(text, 1) \
                    and (shapes.is_postal_line(text) or _street(text.split(",")[0])):
                line.name, line.name_certainty = "pickup_point_address", 0.5


def _stacked_captions(decisions: list[Decision]) -> list[tuple[str, list[Decision]]]:
    """Captions printed a character a line down the block's left edge (Japanese
    "お/届/け/先" beside the recipient's block), with the party each one names."""
    chars = sorted((d for d in decisions if len(d.text.strip()) == 1 and not d.variable
                    and not d.source.is_barcode and d.text.strip().isalpha()),
                   key=lambda d: (d.source.rx, d.source.ry))
    stacks: list[list[Decision]] = []
    for d in chars:
        last = stacks[-1][-1] if stacks else None
        if last is not None and abs(d.source.rx - last.source.rx) <= 4 \
                and 0 < d.source.ry - last.source.ry <= 2 * max(last.source.font_height, 12):
            stacks[-1].append(d)
        else:
            stacks.append([d])
    found = []
    for stack in stacks:
        role = shapes.address_role("".join(d.text.strip() for d in stack)) \
            if len(stack) >= 2 else None
        if role is not None:
            found.append((role, stack))
    return found


def _stacked_blocks(decisions: list[Decision], claimed: set[int], rules: Rules | None) -> None:
    """The block right of each caption printed a character a line (``_stacked_captions``),
    named from the line of its name."""
    for party, stack in _stacked_captions(decisions):
        top, bottom = stack[0].source.ry, stack[-1].source.ry + stack[-1].source.font_height
        right = sorted((d for d in decisions if d.text and not d.source.is_barcode
                        and d.source.orientation == stack[0].source.orientation
                        and 0 < d.source.rx - stack[0].source.rx <= 250
                        and top - 20 <= d.source.ry <= bottom and d not in stack),
                       key=lambda d: (d.source.ry, d.source.rx))
        if not right:
            continue
        lines = [d for d in _block_lines(decisions, right[0], right[0].source.ry, rules)
                 if d.source.ry <= bottom + 20]
        # The name ends with its honorific, in its own field or not ("山田 花子" ... "様")
        honoured = next((i for i, d in enumerate(lines) if _HONORIFIC.search(d.text)
                         or any(_HONORIFIC.fullmatch(o.text.strip()) and _one_line(
                             o.source, d.source) for o in decisions if o is not d)), None)
        if honoured is None and lines and lines[0].text.lstrip().startswith("〒"):
            # no honorific (a sender's block): the postcode and address, then the name
            # over the phone
            honoured = max((i for i, d in enumerate(lines) if i > 0 and not _phone_line(d)),
                           default=None)
        # (no honorific and no postcode mark, as Korean labels print them: the name
        # heads its block, "받/는/분" beside "한지민" over the street)
        _name_block(lines, party, 0.8, claimed, name_at=honoured)


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
              and d.source.orientation == start.source.orientation
              and abs(d.source.rx - start.source.rx) <= COLUMN_TOLERANCE
              and d.source.ry >= first_y]
    column.sort(key=lambda d: (d.source.ry, d.source.rx))
    lines: list[Decision] = []
    previous = start
    for d in column:
        if d is not start and lines and d.source.ry == lines[-1].source.ry:
            continue
        gap = d.source.ry - previous.source.ry
        # (a ^FB block wraps to more lines: the next one starts below all of them)
        wrapped = min(previous.source.block_lines, 4) - 1
        if d is not start and (gap > max(3.0 * previous.source.font_height, 48,
                                         (1.3 * wrapped + 1.6) * previous.source.font_height)
                               or _ruled_between(rules, previous, d)):
            break  # too far below, or a rule drawn between: another block
        if not d.text:
            previous = d if gap > 0 else previous
            continue
        if d is not start and (shapes.is_caption(d.text) or _captioned_data(d)
                               or shapes.is_known_caption(d.text)) or shapes.POSTAGE.search(d.text):
            break  # "SERVICE: EXPRESS", "Weight: 2 kg", "Kontakt", a postage indicia end the
            # address above them
        if d is not start and _inline_role(d) is not None:
            break  # "NADAWCA: Sad Kowalczyk" over "ODBIORCA: Hurtownia Tarczyn": the next
            # party's caption and name start a block of their own
        if len(lines) >= 3 and (_phone_line(lines[-1]) or shapes.is_country(lines[-1].text)) \
                and not (_phone_line(d) or shapes.is_country(d.text)
                         or recognise.EMAIL.search(d.text)
                         or shapes.is_country(lines[-1].text) and _bare_phone(d.text)):
            break  # the phone or the country ends an address: "Delivery Type" under it is
            # the next caption, small print under it a declaration
        lines.append(d)
        previous = d
        if len(lines) >= _MAX_BLOCK_LINES:
            break
    return lines


def _phone_line(d: Decision) -> bool:
    """A line of a phone number, with its caption or without."""
    found = recognise.text_value(d.text)
    return recognise.phone(d.text) or found is not None and found[0] == "phone"


def _bare_phone(text: str) -> bool:
    """Nine to thirteen digits in groups, no caption ("505 638 133"): under a block's
    country, its phone."""
    digits = sum(c.isdigit() for c in text)
    return bool(re.fullmatch(r"\+?\d{2,4}(?:[ .-]\d{2,4}){2,4}", text.strip())) \
        and 9 <= digits <= 13


def _captioned_data(d: Decision) -> bool:
    """A "Caption: value" line whose caption is not one of an address's own."""
    split = raw_caption_split(d.source)
    if split is None:
        return False
    name = shapes.caption_name(sample_value(d.source, d.source.raw[:split]) or "")
    return name[0] not in PARTY_CAPTIONED and name[1] >= 0.7 \
        and not _TURKISH_HOUSE.match(d.text.strip())  # "Atatürk Cad. No: 88": a street


def _first_line(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The first address line for ``caption``: beside it on the same line, or below."""
    c = caption.source
    upright = _dominant(decisions)
    line = max(6, min(16, c.font_height // 2))
    if c.orientation != upright and not any(_own_line(d, caption, line) for d in decisions):
        over = _column_over(decisions, caption)
        if over is not None:
            return over
        side = _side_first_line(decisions, caption, upright)  # a caption turned down the
        if side is not None:  # label's edge beside an upright block, alone in its direction
            return side
    # A bigger first line beside a small caption starts a little higher.
    near = [d for d in decisions if d is not caption and not d.source.is_barcode and d.text
            and not shapes.is_caption(d.text)
            and c.rx - 40 <= d.source.rx <= c.rx + 420
            and c.ry - line <= d.source.ry <= c.ry + max(3 * c.font_height, 60)]
    # An address starts with a name: a number beside the caption is a value of its own.
    beside = [d for d in near if abs(d.source.ry - c.ry) <= line and d.source.rx > c.rx
              and shapes.has_letters(d.text)]
    below = [d for d in near if d.source.ry > c.ry + line and d.source.rx <= c.rx + 80]
    # A column under the caption wins over a value far to its right ("FROM:  phone"),
    # unless that column is more captions of a form (see _form_column).
    far = not beside or min(d.source.rx for d in beside) - c.rx > 120
    form = bool(beside) and _form_column(below, caption)
    pick = below if below and far and not form else beside
    return min(pick, key=lambda d: (d.source.ry, d.source.rx)) if pick else None


def _own_line(d: Decision, caption: Decision, line: int) -> bool:
    """A line turned like ``caption``, below it or beside it on its line (not another
    caption): the caption's own block."""
    c = caption.source
    if d is caption or d.source.orientation != c.orientation or d.source.is_barcode:
        return False
    return abs(d.source.rx - c.rx) <= 120 and 0 <= d.source.ry - c.ry <= 3 * c.font_height + 60 \
        or abs(d.source.ry - c.ry) <= line and 0 < d.source.rx - c.rx <= 420 \
        and not shapes.is_caption(d.text) and shapes.address_role(d.text) is None


def _column_over(decisions: list[Decision], caption: Decision) -> Decision | None:
    """The top of a column turned like its caption that ends at the caption: a block
    turned down the label's edge whose caption was printed after its lines (the upright
    block beside it has a caption of its own)."""
    c = caption.source
    column = sorted((d for d in decisions if d is not caption and d.text
                     and d.source.orientation == c.orientation and not d.source.is_barcode
                     and abs(d.source.rx - c.rx) <= COLUMN_TOLERANCE and d.source.ry < c.ry),
                    key=lambda d: -d.source.ry)
    top = None
    for d in column:
        if (top or caption).source.ry - d.source.ry > 3 * d.source.font_height:
            break
        top = d
    return top


def _form_column(below: list[Decision], caption: Decision) -> bool:
    """The lines under a caption are more captions of a form, in the caption's own
    print ("Lieferant" over "Entscheid" and "Gesperrt von", each with its value to the
    right): the caption's value is the one line beside it."""
    c = caption.source
    return bool(below) and all(
        abs(d.source.rx - c.rx) <= 4 and abs(d.source.font_height - c.font_height) <= 2
        and shapes.words_only(d.text) and len(d.text.split()) <= 3 for d in below)


def _dominant(decisions: list[Decision]) -> str:
    """The orientation most text of the label reads in."""
    counts: dict[str, int] = {}
    for d in decisions:
        if not d.source.is_barcode and d.text:
            counts[d.source.orientation] = counts.get(d.source.orientation, 0) + 1
    return max(counts, key=lambda o: counts[o]) if counts else "N"


def _side_first_line(decisions: list[Decision], caption: Decision,
                     upright: str) -> Decision | None:
    """The first line of the upright block a caption printed sideways labels: the
    column of lines just right of it nearest its height, followed up to its top
    ("Modtager" turned down the left edge, level with the recipient's town)."""
    c = caption.source
    right = [d for d in decisions if d is not caption and not d.source.is_barcode and d.text
             and d.source.orientation == upright and not shapes.is_caption(d.text)
             and 0 < d.source.x - c.x <= c.font_height + 150
             and abs(d.source.y - c.y) <= _SIDE_REACH]
    if not right:
        return None
    line = min(right, key=lambda d: abs(d.source.y - c.y))
    column = sorted((d for d in right if abs(d.source.x - line.source.x) <= COLUMN_TOLERANCE),
                    key=lambda d: d.source.y)
    for above in reversed(column[:column.index(line)]):
        if line.source.y - above.source.y > 2 * max(above.source.font_height, 20):
            break
        line = above
    return line


def address_blocks(decisions: list[Decision], rules: Rules | None = None) -> None:
    """Lines under an address caption, or above a postal-code line, are an address."""
    claimed: set[int] = set()
    returning = _return_is_recipient(decisions)
    _stacked_blocks(decisions, claimed, rules)
    for caption in decisions:
        role = shapes.address_role(caption.text)
        if returning and _RETURN_TO.fullmatch(shapes.caption_key(caption.text)):
            role = "ship_to"
        first = _first_line(decisions, caption) if role and not caption.variable else None
        if role is None or first is None:
            continue
        if len(caption.text.strip()) <= 3 and caption.text.strip().isupper() \
                and caption.source.font_height >= 2 * first.source.font_height:
            continue  # "FRA" printed large over small print: Frankfurt, not "from"
        form = first.source.ry - caption.source.ry <= 8 and _form_column(
            [d for d in decisions if d is not caption and 0 < d.source.ry - caption.source.ry
             <= 3 * caption.source.font_height and abs(d.source.rx - caption.source.rx) <= 4
             and d.text], caption)
        if form:  # a form's caption and its value on one line: the value alone
            if not _travel_place([first], role, claimed):
                _name_block([first], role, 0.7, claimed)
            continue
        first = _block_top(decisions, caption, first, claimed)
        _caption_line_phone(decisions, caption, role)
        lines = _block_lines(decisions, first, first.source.ry, rules)
        if first.source.orientation == caption.source.orientation != _dominant(decisions) \
                and first.source.ry + first.source.font_height <= caption.source.ry:
            lines.reverse()  # a block turned down the edge, stacked away from its caption
            # after it: it reads from the caption outward
        # (the next party's caption ends the block on its own line: a name printed
        # larger beside it starts a little above it)
        stop = min((d.source.ry - d.source.font_height // 2 for d in decisions
                    if d is not caption and _starts_party(d) and d.source.ry > first.source.ry
                    and abs(d.source.rx - first.source.rx) <= 80), default=None)
        lines = [d for d in lines if stop is None or d.source.ry < stop]
        if caption.source.orientation != first.source.orientation:
            # a caption turned down the edge: its block ends where the next one starts
            side = min((d.source.y for d in decisions if d is not caption
                        and d.source.orientation == caption.source.orientation
                        and shapes.address_role(d.text) and d.source.y > caption.source.y
                        and abs(d.source.x - caption.source.x) <= 40), default=None)
            lines = [d for d in lines if side is None or d.source.y < side - 10]
        if _travel_place(lines, role, claimed):
            continue
        if len(lines) == 1 and _HUB.fullmatch(first.text) and not first.variable \
                and first.source.font_height >= _HUB_FONT:
            # "DESTINATION" over "ORD" printed large: where it is routed, not an address
            claimed.add(first.source.position)
            _variable(first, "a destination code under its caption", 0.8, 0,
                      ("routing_code", 0.75))
            continue
        if len(lines) == 1 and _PLACE_CODE.search(first.text) \
                and recognise.text_value(first.text) == ("location", 0.7):
            # "FROM (reserve)" over "R-22-14-D": a move between bins, no party
            claimed.add(first.source.position)
            first.variable = False
            _variable(first, "a place under a from or to caption", 0.8, 0, ("location", 0.7))
            continue
        if len(lines) == 1 and _ADDRESS_WORD.search(caption.text) \
                and shapes.has_digits(first.text, 1) and not recognise.phone(first.text):
            # "Return Address:" over one line with a number ("Kaveri Home Essentials,
            # Unit 3, Plot 41, ...", "Grangränd 903"): the caption says it is the address
            claimed.add(first.source.position)
            first.variable = False
            _variable(first, f"{role} address on one line", 0.8, 0, (f"{role}_address", 0.8))
            continue
        _name_block(lines, role, 0.8, claimed)
        _same_line_town(decisions, lines, role, 0.8, claimed)
    _inline_caption_blocks(decisions, claimed, rules)
    # Values beside or below their own captions ("Ref:", "Weight:") are no address:
    # they are named first, and a column of them never makes a block.
    caption_values(decisions)
    for d in decisions:
        if d.variable and d.name and "caption" in d.reason:
            claimed.add(d.source.position)
    captioned = {m.group(1) for d in decisions if d.variable and "address line" in d.reason
                 and (m := re.match(PARTY, d.name or ""))}
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
        if any(_goods_line(d.text) for d in [*above, anchor]):
            continue  # "£4.25", "Aisle 7 Bay 3", "Code 0481 2276": a shelf's, no address
        if 2 * sum(_caption_left(decisions, d) for d in [*above, anchor]) > len(above) + 1:
            continue  # a column of values, each beside its caption ("Colour  0873 Navy Ink")
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
    blocks += _blocks_at_phones(decisions, claimed, lambda anchor: _over_phone(
        decisions, anchor, claimed, rules))
    blocks += _blocks_at_phones(decisions, claimed, lambda anchor: _under_name(
        decisions, anchor, claimed, rules))
    for block, (role, sure) in zip(blocks, _block_roles(blocks, captioned, ship_to_y),
                                   strict=True):
        claimed.difference_update(d.source.position for d in block)
        if role == "address" and len(block) >= 2 and _PICKUP_CAPTION.search(block[0].text) \
                and not shapes.has_digits(block[0].text, 1):
            _pickup_block(block, claimed)
            continue
        heading = _pickup_heading(decisions, block[0]) if role != "ship_to" else None
        if heading is not None:  # "Collect at locker:" over a block placed as the sender's
            _pickup_block([heading, *block], claimed)  # is where the recipient collects
            continue
        _name_block(block, role, sure, claimed)
        _same_line_town(decisions, block, role, sure, claimed)


# A caption over the place a parcel waits for its recipient: a parcel shop, a locker,
# a post office ("À retirer au", "PAKIAUTOMAAT", "Офис на Спиди за получаване").
_PICKUP_CAPTION = re.compile(
    r"(?:pick[- ]?up|parcel ?shop|paket ?shop|pakkeshop|packstation|locker|relais|"
    r"retirer|retiro|ritiro|afhaal|ophaal|af te halen|postpunt|point poste|pudo|"
    r"paczkomat|automa[at]|automaatti|noutopiste|výdejní|odbioru|sucursal|"
    r"офис|відділення|отделени|поштомат|постамат)", re.IGNORECASE)


def _pickup_block(block: list[Decision], claimed: set[int]) -> None:
    """A block under a pickup caption: the caption is layout; the lines name the
    place (its name, street, town and number) where the recipient collects."""
    caption, *lines = block
    caption.variable, caption.value, caption.prefix_len, caption.name = False, None, 0, None
    caption.reason, caption.certainty = "a pickup point's caption", 0.7
    for line in lines:
        claimed.add(line.source.position)
        line.variable = False
        _variable(line, "a line of the pickup point", 0.6, leading_spaces(line),
                  ("pickup_point", 0.55))


# "RETURN TO" on its own: where a parcel goes back to, the sender's address, unless
# the sender has a caption of its own: then the label sends a return to that address.
_RETURN_TO = re.compile(r"(?:PLEASE )?RETURN TO|RETOURNER [AÀ]|ZURÜCK AN|DEVOLVER A|"
                        r"RETURNERA TILL|RETURNERES TIL|ZWROT DO|RESTITUIRE A")


def _return_is_recipient(decisions: list[Decision]) -> bool:
    """A label with a "RETURN TO" caption, another sender's caption and no recipient's:
    a return label, whose "RETURN TO" block is where the parcel goes."""
    keys = [shapes.caption_key(d.text) for d in decisions
            if not d.variable and d.text and shapes.address_role(d.text)]
    roles = [shapes.address_role(key) for key in keys]
    return "ship_to" not in roles and any(_RETURN_TO.fullmatch(key) for key in keys) \
        and any(role == "ship_from" and not _RETURN_TO.fullmatch(key)
                for key, role in zip(keys, roles, strict=True))


def _pickup_heading(decisions: list[Decision], top: Decision) -> Decision | None:
    """A pickup caption of words right over a block's first line."""
    return next((d for d in _right_over(decisions, top) if not d.variable
                 and shapes.words_only(d.text) and _PICKUP_CAPTION.search(d.text)), None)


def _right_over(decisions: list[Decision], d: Decision) -> Iterator[Decision]:
    """The fields printed like ``d`` in its column, within two lines over it."""
    s = d.source
    return (o for o in decisions if o is not d and o.source.orientation == s.orientation
            and abs(o.source.rx - s.rx) <= COLUMN_TOLERANCE
            and 0 < s.ry - o.source.ry <= 2 * max(o.source.font_height, s.font_height))


def _blocks_at_phones(decisions: list[Decision], claimed: set[int],
                      block_at: Callable[[Decision], list[Decision] | None]
                      ) -> list[list[Decision]]:
    """Blocks without a caption or a postcode, found from a phone number in them:
    ``block_at`` gives the block around an unclaimed phone line, or None."""
    blocks: list[list[Decision]] = []
    for anchor in decisions:
        if anchor.source.position in claimed or anchor.source.is_barcode \
                or not recognise.phone(anchor.text):
            continue
        block = block_at(anchor)
        if block is not None:
            claimed.update(d.source.position for d in block)
            blocks.append(block)
    return blocks


def _over_phone(decisions: list[Decision], anchor: Decision, claimed: set[int],
                rules: Rules | None) -> list[Decision] | None:
    """A name, a street and a town right above a phone number in their column
    (Pakistan, Bangladesh, the Gulf)."""
    above = _lines_above(decisions, anchor, claimed, rules)
    if len(above) < 3 or any(d.variable or shapes.reads_as_caption(d.text)
                             or shapes.is_site(d.text) for d in above) \
            or not shapes.words_only(above[-1].text) or shapes.has_digits(above[0].text, 1):
        return None
    return [*above, anchor]


def _under_name(decisions: list[Decision], anchor: Decision, claimed: set[int],
                rules: Rules | None) -> list[Decision] | None:
    """The phone right under the name, then the street and the town below (Bangladesh,
    India)."""
    above = _lines_above(decisions, anchor, claimed, rules)[-1:]
    below = _block_lines(decisions, anchor, anchor.source.ry, rules)[1:4]
    if not above or len(below) < 2 or not _person_or_company(above[0]) \
            or any(d.source.position in claimed or d.prefix_len or shapes.is_site(d.text)
                   or d.variable and d.name_certainty >= 0.5 for d in below) \
            or not shapes.has_letters(below[0].text) or not shapes.words_only(below[-1].text):
        return None
    return [above[0], anchor, *below]


def _person_or_company(d: Decision) -> bool:
    """A line that can be a party's name: two to five words, no digits, no caption."""
    return not d.variable and shapes.words_only(d.text) and 2 <= len(d.text.split()) <= 5 \
        and not shapes.reads_as_caption(d.text)


def _caption_left(decisions: list[Decision], d: Decision) -> bool:
    """A caption printed on ``d``'s line, to its left: one of the vocabulary, or a
    single word of print ("Legering", "Ytbeh.") that a column of captions is made of."""
    line = max(10, int(0.6 * d.source.font_height))
    return any(not c.source.is_barcode and abs(c.source.ry - d.source.ry) <= line
               and 0 < d.source.rx - c.source.rx <= 300 and (
                   shapes.is_known_caption(c.text) or not c.variable
                   and _ONE_WORD.fullmatch(c.text.strip()) is not None)
               for c in decisions)


_ONE_WORD = re.compile(r"[^\W\d_]{2,14}\.?:?")


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


def _inline_role(d: Decision) -> tuple[str, int] | None:
    """The party a "From: Acme Corp" field's own caption names, and where its value
    starts in the raw data."""
    split = raw_caption_split(d.source)
    if d.source.is_barcode or split is None:
        return None
    role = shapes.address_role(sample_value(d.source, d.source.raw[:split]) or "")
    return None if role is None else (role, split)


def _starts_party(d: Decision) -> bool:
    """A caption of a party, alone ("SHIP TO") or before its name ("MARK FOR: Store 9")."""
    return shapes.address_role(d.text) is not None or _inline_role(d) is not None


def _inline_caption_blocks(decisions: list[Decision], claimed: set[int],
                           rules: Rules | None = None) -> None:
    """A party's name printed after its caption in one field ("From: Acme Corp",
    "SHIP TO: Jane Doe") starts that party's block: the lines below are its address."""
    for d in decisions:
        found = None if d.source.position in claimed else _inline_role(d)
        if found is None:
            continue
        role, split = found
        caption = sample_value(d.source, d.source.raw[:split]) or ""
        value = d.text[len(caption):].strip()
        if _PLACE_CODE.search(value) and len(value.split()) <= 5:
            claimed.add(d.source.position)  # "From: SW-01 Port 24", "To: Rack B-12": a
            d.variable = False  # place on a cable or in a warehouse, no party
            _variable(d, "a place after a from or to caption", 0.7, split, ("location", 0.7))
            continue
        lines = _block_lines(decisions, d, d.source.ry, rules)
        if role in _PLACE_NAMES and _place(value) and all(_starts_party(x) for x in lines[1:2]):
            claimed.add(d.source.position)  # "Destination: Jeddah, Saudi Arabia"
            d.variable = False
            _variable(d, PLACE_REASON, 0.7, split, _place_name(value, role))
            continue
        if not shapes.has_letters(value):
            continue  # "Dostawca: 004512": the party's number, no name (a caption names it)
        claimed.add(d.source.position)
        d.variable = False
        part = "address" if _street_in(value) else "name"
        _variable(d, f"{role} {part} after its caption", 0.8, split, (f"{role}_{part}", 0.8))
        _name_block(lines[1:], role, 0.8, claimed, named=True)
        _same_line_town(decisions, lines, role, 0.8, claimed)


def _street_in(value: str) -> bool:
    """A value after a party's caption that holds the street ("Abs.: Teeladen
    Sonnenblick, Lindenstr. 1, 79098 Freiburg", "From: Parkvägen 689"): the party's
    address on one line, not only its name."""
    if recognise.phone(value) or not shapes.has_digits(value, 1):
        return False
    return _street_line(value) or any(_street(part.strip()) for part in value.split(","))


# A street named by its kind at the end of its name or as a word of its own, then the
# house number ("Lindenstr. 1", "Parkvägen 689", "Nørregade 12", "Keizersgracht 612-III",
# "Kossuth u. 12.", "Ozo g. 25", "Erlaaer Straße 71/4/12": stair and door after the house).
# The kinds joined to the name may be written apart too ("Lange Straße"); some are only
# ever written apart ("Kossuth u.", "Atatürk cad.").
_JOINED_KINDS = ("str\\.?", "straße", "strasse", "weg", "gasse", "platz", "allee", "ring",
                 "damm", "ufer", "gatan", "vägen", "väg", "gata", "vej", "veien", "vei", "gade",
                 "laan", "straat", "plein", "kade", "gracht", "tie", "katu")
_APART_KINDS = ("utca", "u\\.", "út", "krt\\.", "körút", "tér", "iela", "gatvė", "g\\.", "tänav",
                "sokak", "sk\\.", "cad\\.")
_NAMED_STREET = re.compile(
    r"(?:[^\W\d_][\w'-]*\s)?(?:[^\W\d_][\w'-]*(?:" + "|".join(_JOINED_KINDS) + r")|"
    r"[^\W\d_][\w'-]*\s(?:" + "|".join(_APART_KINDS + _JOINED_KINDS) + r"))"
    r"\s\d{1,5}(?:\s?[a-zA-Z]|(?:[-/]\w{1,4}){1,2}|\.)?",
    re.IGNORECASE)


# A code of a place: letters and digits joined by a hyphen ("SW-01", "B-12", "01-045-2").
# Why a line under a party's caption is a place: the parcel or bag travels between
# places, so a code on it is a parcel's number (see classify._codes_off_parcels).
PLACE_REASON = "the place a from or to caption names"
# What a place under a party's caption is, by the party.
_PLACE_NAMES = {"ship_to": "destination", "ship_from": "origin"}
# A postal exchange office: its country, the airport or town, a letter ("DEFRAA").
_OFFICE = re.compile(r"([A-Z]{2})([A-Z]{3})[A-Z]")


def _place(text: str) -> bool:
    """A town or port with its country ("HAMBURG - GERMANY", "Jeddah, Kingdom of Saudi
    Arabia", "Shanghai, China - Cont. ..."), a country alone, or a town with its
    exchange office's code ("FRANKFURT DEFRAA", "PARIS CDG FRCDGA"): a place, where no
    addressee is."""
    parts = shapes.place_parts(text)
    for i, part in enumerate(parts[:3]):
        if shapes.words_only(part) and shapes.country_named(part):
            return all(shapes.words_only(p) and len(p.split()) <= 3 for p in parts[:i]) \
                and (i >= 1 or len(parts) == 1 and len(part) > 3)  # ("SAUDI ARABIA"
            # alone, no "USA": a hub's code as well)
    words = text.split()
    office = _OFFICE.fullmatch(words[-1]) if len(words) >= 2 else None
    return office is not None and office.group(1) in COUNTRIES and any(
        w.startswith(office.group(2)) for w in words[:-1]) and text.isupper()


def _travel_place(lines: list[Decision], role: str, claimed: set[int]) -> bool:
    """A party's caption over one line that is a place ("FROM" beside "LYS",
    "DESTINATION" over "HAMBURG - GERMANY"), with at most data beside it ("19 KG"):
    where the goods go or come from, not a party's address. Names it."""
    own = [d for d in lines if not (d.variable and d.name in _DATA_NAMES
                                    and d.name_certainty >= 0.8)]
    if len(own) != 1 or role not in _PLACE_NAMES \
            or not (_place(own[0].text) or _HUB.fullmatch(own[0].text)):
        return False
    claimed.add(own[0].source.position)
    own[0].variable = False
    _variable(own[0], PLACE_REASON, 0.7, 0, _place_name(own[0].text, role))
    return True


def _place_name(text: str, role: str) -> tuple[str, float]:
    """A code of a hub or airport is its routing code; a town, the place itself."""
    return ("routing_code", 0.7) if _HUB.fullmatch(text.strip()) else (_PLACE_NAMES[role], 0.7)


_PLACE_CODE = re.compile(r"^(?:[^\W\d_]+\s)?(?:[A-Z]{1,4}|\d{1,3})-\d{1,3}(?:-\w{1,3})*\b")


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
                 and abs(d.source.rx - top.source.rx) <= COLUMN_TOLERANCE
                 and 0 < top.source.ry - d.source.ry <= 1.6 * top.source.font_height
                 and d.source.ry >= c.ry - 2.5 * c.font_height
                 and not shapes.is_caption(d.text) and not d.prefix_len
                 and d.source.font_height <= _FONT_JUMP * top.source.font_height]
        if not above:
            break
        top = max(above, key=lambda d: d.source.ry)
    return top


# What a line's shape says of goods or of a day, never of an address.
_GOODS_KINDS = frozenset({"value", "price", "unit_price", "location", "quantity", "weight",
                          "volume", "date"})


def _goods_line(text: str) -> bool:
    """A price, a place on a shelf, a measure, a date, or a code after its word: no
    line of an address ("1000 mL" is no postcode and its town, "24-FEB-2027" no street)."""
    found = recognise.text_value(text)
    return found is not None and found[0] in _GOODS_KINDS \
        or re.match(r"(?:code|item|art|article|sku|plu)\b\.?\s*\d", text.strip(),
                    re.IGNORECASE) is not None


def _lone_postcode(d: Decision) -> bool:
    return bool(shapes.POSTAL.fullmatch(d.text.strip().upper())) and not d.prefix_len


def _country_prefix(decisions: list[Decision], anchor: Decision, claimed: set[int]
                    ) -> Decision | None:
    """A country code printed in a field of its own just left of a postal line
    ("DK" | "2500 Copenhagen"): the block's column is the code's."""
    left = [d for d in decisions if d.source.position not in claimed and d is not anchor
            and not d.source.is_barcode and not d.variable
            and _one_line(d.source, anchor.source)
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
        # One block and a captioned recipient: the other party on a parcel is its
        # sender, above the recipient or in smaller print below it.
        alone = len(blocks) == 1 and "ship_from" not in captioned
        return [("ship_from", 0.75) if ship_to_y is not None and b[0].source.ry < ship_to_y
                and "ship_from" not in captioned else ("ship_from", 0.5) if alone
                else ("address", 0.4) for b in blocks]
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
        name = line.name or ""
        if name.endswith("_city") and not name.endswith("_postal_city"):
            _same_line_state_and_code(decisions, line, role, certainty, claimed)
        if name.endswith(("_postal_city", "_postal_code", "_city")):
            _same_line_country(decisions, line, role, certainty, claimed)
        if not name.endswith(("_postal_code", "_country")):
            continue
        code = _nearest_right(decisions, line, claimed, 200, lambda d: (
            shapes.POSTAL.fullmatch(d.text.strip().upper()) is not None)) \
            if name.endswith("_country") else None
        if code is not None:
            _claim_line(code, role, "postal_code", certainty, claimed)
        town = _nearest_right(decisions, line, claimed, 500, lambda d: (
            bool(d.text) and shapes.words_only(d.text) and not shapes.is_caption(d.text)
            and not shapes.is_country(d.text) and not d.prefix_len  # ("Att: Réception":
            and not _CONTACT_START.match(d.text.strip())))  # whom to hand it to)
        if town is not None:
            _claim_line(town, role, "city", certainty, claimed)


def _same_line_state_and_code(decisions: list[Decision], line: Decision, role: str,
                              certainty: float, claimed: set[int]) -> None:
    """A postal code in a field of its own right of the town ("DENVER" "CO" "80205") is
    the block's postal code, and a state's code between them its state."""
    code = _nearest_right(decisions, line, claimed, 500, lambda d: (
        shapes.POSTAL.fullmatch(d.text.strip().upper()) is not None
        and shapes.has_digits(d.text, 3)))
    if code is None:
        return
    state = _nearest_right(decisions, line, claimed, code.source.rx - line.source.rx - 1,
                           lambda d: re.fullmatch(r"[A-Z]{2,3}", d.text.strip()) is not None)
    if state is not None:
        _claim_line(state, role, "state", certainty, claimed)
    _claim_line(code, role, "postal_code", certainty, claimed)


def _nearest_right(decisions: list[Decision], line: Decision, claimed: set[int], reach: int,
                   fits: Callable[[Decision], bool]) -> Decision | None:
    """The nearest unclaimed text right of ``line`` on its line that ``fits``."""
    found = [d for d in decisions if d.source.position not in claimed
             and not d.source.is_barcode and _one_line(d.source, line.source)
             and 0 < d.source.rx - line.source.rx <= reach and fits(d)]
    return min(found, key=lambda d: d.source.rx) if found else None


def _under_a_line(decisions: list[Decision], d: Decision) -> bool:
    """A field right under another line of its column: the last line of a block of
    its own (the other party's "US" level with this party's town)."""
    return any(o.text and not o.source.is_barcode for o in _right_over(decisions, d))


def _one_line(a: SourceField, b: SourceField) -> bool:
    """Two fields printed on one line: their tops level, or, in two print sizes, their
    feet ("C1425DBP" and "CIUDAD AUTÓNOMA DE BUENOS AIRES" on one baseline)."""
    return abs(a.ry - b.ry) <= 4 or abs(a.ry + a.font_height - b.ry - b.font_height) <= 4


def _claim_line(d: Decision, role: str, part: str, certainty: float, claimed: set[int]) -> None:
    claimed.add(d.source.position)
    d.variable = False
    _variable(d, f"{role} address line", certainty, 0, (f"{role}_{part}", certainty))


def _same_line_country(decisions: list[Decision], line: Decision, role: str,
                       certainty: float, claimed: set[int]) -> None:
    """A country printed in a field of its own right of the town line ("Des Moines
    WA 11111" ... "(US)") is the block's country."""
    beside = [d for d in decisions if d.source.position not in claimed and not d.variable
              and not d.source.is_barcode and shapes.is_country(d.text)
              and _one_line(d.source, line.source)
              and 0 < d.source.rx - line.source.rx <= 800 and not _under_a_line(decisions, d)]
    if beside:
        country = min(beside, key=lambda d: d.source.rx)
        claimed.add(country.source.position)
        _variable(country, f"{role} address line", certainty, 0, (f"{role}_country", certainty))


def _lines_above(decisions: list[Decision], anchor: Decision, claimed: set[int],
                 rules: Rules | None = None) -> list[Decision]:
    """Up to four lines right above a postal line in its column (name, street...),
    six above a postcode printed alone (a British name, flat, building, street, town
    and county over it)."""
    most = 6 if _lone_postcode(anchor) else 4
    column = sorted((d for d in decisions if not d.source.is_barcode and d.text
                     and abs(d.source.rx - anchor.source.rx) <= COLUMN_TOLERANCE
                     and d.source.ry < anchor.source.ry and d.source.position not in claimed),
                    key=lambda d: -d.source.ry)
    lines: list[Decision] = []
    below = anchor
    for d in column:
        if below.source.ry - d.source.ry > max(3.0 * d.source.font_height, 48) \
                or shapes.is_caption(d.text) or len(lines) == most \
                or shapes.POSTAGE.search(d.text) \
                or d.source.font_height > _FONT_JUMP * below.source.font_height \
                and not (lines and _person_or_company(d)) \
                or _ruled_between(rules, d, below):
            break  # a code printed much larger above a block (or ruled off) is no line of it
            # (the name may be: "MARIA GONZALEZ" in large print over her street)
        lines.append(d)
        below = d
    return list(reversed(lines))


# A street line whose house number looks like a postcode: "Av. Insurgentes Sur 1602,
# Int. 4B", "Pasaje Los Aromos 2245, Depto 31", "Via Roma 1200".
_STREET_START = re.compile(
    r"^(?:av|avda|avenida|avenue|calle|carrera|cra|rua|via|viale|piazza|strada|pasaje|"
    r"psje|jr|jirón|rue|boulevard|blvd|chemin|ul|ulica|aleja|str|camino|travessa|alameda|"
    r"rambla|paseo|plaza|praça|largo|sokak|cadde|jalan|jl|soi|plot|house|no|flat|apt|"
    r"apartment|suite|unit|villa|office|building|bldg|block|blk)\b\.?\s|^(?:al|os|pl)\.\s?"
    r"[^\W\d_]", re.IGNORECASE)  # "Plot 1127, Aminu Kano Cres." (Nigeria, India), "Flat
# 1204, ...", and Polish avenues, estates and squares ("al. Jerozolimskie 54", "os.
# Tysiąclecia 12", "pl. Wolności 3") with their dot.
# A US street line: a house number, the street's name and its kind ("2744 Larimer St
# Apt 608"), whose number looks like a postcode.
_NUMBERED_STREET = re.compile(
    r"^\d{1,6}\s+(?:[^\W\d_][\w'.-]*\s+){1,4}(?:st|street|ave|avenue|rd|road|blvd|dr|drive|"
    r"ln|lane|way|ct|court|pl|place|pkwy|parkway|hwy|highway|ter|terrace|cir|circle|"
    r"trl|trail|creek|pines?|unions?|crossing|ridges?|loop|run|path|walks?|views?|vista|"
    r"estates?|meadows?|mills?|orchard|oval|pike|ranch|shoals?|shores?|spur|summit|trace|"
    r"turnpike|bend|bluffs?|branch|brooks?|bypass|canyon|causeway|cliffs?|commons?|"
    r"corners?|cove|crescent|crest|curve|dale|expressway|extension|ferry|forks?|freeway|"
    r"gardens?|glens?|greens?|grove|harbor|haven|hollow|junction|knolls?|lodge|manor|"
    r"overpass|passage|plains?|point|prairie|rapids|route|row|skyway|square|sq|stream|"
    r"tunnel|underpass|viaduct|ville|wells?|island|isle|keys?|locks|mall|neck|squares|"
    r"throughway|trafficway|fields?|flats?|falls?|ports?|"
    r"alley|annex|arcade|bayou|beach|bottom|burgs?|camp|cape|centers?|club|course|dam|"
    r"divide|fords?|forest|forges?|fort|gateway|harbors|heights|hills?|inlet|islands|"
    r"junctions|lakes?|landing|lights?|mission|motorway|mount|mountains?|pass|radial|"
    r"ramp|rest|rivers?|springs?|station|stravenue|track|valleys?|villages?|wall|ways)"
    r"\b\.?", re.IGNORECASE)
_UNIT_AFTER = re.compile(r",\s*(?:int|interior|depto|dpto|dept|apto|apt|piso|of|casa|"
                         r"local|bloco|bl|sala|suite|ste|unit|flat|esc|puerta|lok)\b\.?",
                         re.IGNORECASE)
# A house number first and a flat or a suite last, the American way: "2064 Walsh Rapid
# Apt. 659", "88 MAPLE RIDGE DR APT 3B" (a street, though it starts like "1015 Amsterdam").
_UNIT_LAST = re.compile(r"\d{1,6}\s+[^\d,]+\s(?:apt|apartment|suite|ste|unit)\.?\s*#?\d+[a-z]?",
                        re.IGNORECASE)
_CAPTIONED_POSTCODE = re.compile(r"(?:C\.\s?P\.|CP|CEP|C\.A\.P\.|CAP|PLZ|ZIP|PSČ|PSC|PIN|PIN code|"
                                 r"Pincode|Postcode|Post code|Código postal|Codigo postal|"
                                 r"C[óo]d\.\s?postal|Cod po[sș]tal|Kod pocztowy)"
                                 r"\s*:?\s*\d{4,7}(?:-\d{3,4})?", re.IGNORECASE)
# A contact person's line in a block: "z. Hd. Frau Dr. Vossberg", "c.a. Dott.ssa
# Benedetti", "A/A Sr. Pérez", the owner "Inh. Dr. M. Assmann".
_CONTACT_START = re.compile(r"(?:attn|att|inh|z\.?\s?hd|z\.\s?h|c\.a|a/a|t\.a\.v|"
                            r"à l'attention de|a l'attention de|ref\. persona)"
                            r"\.?:?\s+\S", re.IGNORECASE)

# "Care of" another's premises ("c/o Praxis Dr. Heller", "c/o Northgate Storage Unit 4"):
# where the parcel is left, a line of the address as the postal services write it, not a
# person to ask for.
_CARE_OF = re.compile(r"(?:c/o|care of)\.?:?\s+\S", re.IGNORECASE)


# A quarter of a town named by its kind ("Barrio Chicó Norte", "Vila Olímpia", "Col.
# Americana", "Kec. Sukomanunggal", "Quartier Bellevue"): a line of the address, no town.
_DISTRICT = re.compile(r"(?:barrio|bairro|colonia|col\.|fracc\.|fraccionamiento|urb\.|"
                       r"urbanizaci[oó]n|vila|jardim|quartier|kec\.|kecamatan|kel\.|"
                       r"kelurahan|mah\.|mahallesi|barangay|brgy\.|phường)\s+\w",
                       re.IGNORECASE)


# The mark of a town in Ukrainian, Russian and Belarusian addresses.
_TOWN_MARK = re.compile(r"(?:м|г|гор|смт|пгт|с|пос|горад)\.\s*[^\W\d_]", re.IGNORECASE)
# A company's legal form or trade word: "KESSLER & HART LLP", "VÉLO DU FJORD ENR.".
COMPANY = re.compile(
    r"\b(?:llp|llc|inc|ltd|limited|gmbh|ag|kg|enr|sa|sas|sarl|srl|spa|sl|bv|nv|ab|a/s|oy|"
    r"kft|zrt|sro|s\.r\.o|d\.o\.o|corp|corporation|company|plc|pty|co|s\.a|s\.l|s\.p\.a|"
    r"snc|s\.n\.c|s\.c|sp\. ?z ?o\.o|sp\. ?j|sp\. ?k|bt|nyrt|aps|ohg|ug|gbr|kgaa|e\.k|"
    r"oü|uab|sia|ltda|pte|bhd|sdn|a\.s|k\.s|v\.o\.s|farmacia|apotheke|apotek|pharmacie|"
    r"farmácia|farmacie|apteka|lékárna|lekáreň|lekaren|gyógyszertár|ljekarna|lekarna|"
    r"eczane|eczanesi|apteek|vaistinė|aptieka|"
    r"supply|supplies|clinic|hospital|pharmacy|store|shop|warehouse|logistics|services|"
    r"solutions|industries|trading|manufacturing)\b\.?", re.IGNORECASE)


# A firm named by its partners, joined by an ampersand or listed ("Andersson & Johansson",
# "Weber & Associés", "Foster, Harris and Meyers"); a couple ("Mr & Mrs Kent") is people.
_PARTNERS = re.compile(
    r"\s*&\s*(?!mrs?\b|frau\b|mme\b|fr\.)\S"
    r"|^[A-ZÀ-Ý][\w'’-]+, [A-ZÀ-Ý][\w'’-]+,? (?:and|und|et|og|och|en) [A-ZÀ-Ý]",
    re.IGNORECASE)


def _company(text: str) -> bool:
    """A company's name by its legal form or trade word, or by its partners' names."""
    return bool(COMPANY.search(text) or _PARTNERS.search(text.strip()))


# A street ending with its house number: "Am Stedtfelder Weg 2", "Pärnu mnt 139c".
_NUMBER_LAST = re.compile(r"[^\W\d_][^\d,]*\s\d{1,5}[^\W\d_]?(?:[-/]\w{1,4})?")


def _whole_address(text: str) -> bool:
    """A street, a comma, then the postcode and town on one line ("Fabrikstrasse 8,
    3012 Bern"): the whole address, no town line."""
    head, comma, tail = text.partition(",")
    return bool(comma) and shapes.is_postal_line(tail.strip()) and (
        _street(head.strip()) or bool(_NUMBER_LAST.fullmatch(head.strip())))


# A house number the Turkish way, "No:" and its number after the street's kind ("Atatürk
# Cad. No: 88", "Bağdat Cad. No: 312 Kat: 4 D: 7", "7. Sk. No:3"), or alone on its line
# with the flat's ("No:17 Daire:4").
_TURKISH_HOUSE = re.compile(
    r"(?:.*\b(?:cad|cd|caddesi|sk|sok|sokak|sokağı|mah|mh|mahallesi|bulv|blv|bulvarı)\.?\s+)?"
    r"no\s?:\s?\d+[a-z]?\b", re.IGNORECASE)
# The quarter's or the street's kind abbreviated, which no name holds: "Alipaşa Mah. Kışla
# Cad. Güneş Apt." is a street with no number yet.
_TURKISH_KIND = re.compile(r"\b(?:mah|mh|cad|cd|sk|sok|bulv|blv)\.(?=\s|$)", re.IGNORECASE)


def _street_line(text: str) -> bool:
    return bool(_STREET_START.match(text) or _UNIT_AFTER.search(text)
                or _NUMBERED_STREET.match(text) or _TURKISH_HOUSE.match(text.strip())
                or _UNIT_LAST.fullmatch(text.strip())
                or _TURKISH_KIND.search(text))


def _street(text: str) -> bool:
    """A street line by its start, its kind after a house number, or its kind at the
    end of its name ("Keizersgracht 612-III")."""
    return _street_line(text) or bool(_NAMED_STREET.fullmatch(text.strip()))


def _town_like(text: str) -> bool:
    return shapes.words_only(text) and not shapes.is_country(text) \
        and not recognise.phone(text)


# A salutation printed on a line of its own above the name (German, Austrian forms).
_SALUTATION = re.compile(r"(?:frau|herr|firma|familie|fam\.?|mr\.?|mrs\.?|ms\.?|miss|mme|m\.|"
                         r"mlle|sig\.?|sig\.ra|sr\.?|sra\.?|pan|pani|hr\.?|fr\.?)", re.IGNORECASE)


# A county printed on a line of its own between the town and the postcode (Ireland,
# Britain): "Co. Kildare", "County Cork", "West Yorkshire", "Greater Manchester".
_COUNTY = re.compile(r"(?:Co\.?|County|Contae)\s+[A-ZÁÉÍÓÚ][\w'-]+|[A-Z][\w-]*shire|"
                     r"(?:West|East|North|South)\s+(?:Yorkshire|Sussex|Midlands|Lothian|Ayrshire)|"
                     r"Greater\s+(?:London|Manchester)|Merseyside|Tyne and Wear|Cornwall|Devon|"
                     r"Kent|Essex|Surrey|Norfolk|Suffolk|Cumbria|Somerset|Dorset", re.IGNORECASE)


_HONORIFIC = re.compile(r"(?:様|御中|殿|先生|女士|小姐|(?<=\s)(?:sama|dono|onchu|onchū))\s*$",
                        re.IGNORECASE)
# A person named with a salutation: "Mme Laure Castagnier", "Herr Jan Kühn".
_SALUTED = re.compile(rf"{_SALUTATION.pattern}\s+[^\W\d_]", re.IGNORECASE)


# A whole date ("21/09/1952", "2026-11-27") or a day with its hour ("11/27 13:30"):
# no address line holds one ("2-14-10 Nishi-Shinjuku" is a Japanese street number).
_DATED_LINE = re.compile(r"(?<![\d/.-])(?:\d{1,2}([./])\d{1,2}\1(?:\d{4}|\d{2})"
                         r"|\d{1,2}-\d{1,2}-\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}\s+\d{1,2}:\d{2})"
                         r"(?![\d/.-])")


def _captioned_number(text: str) -> bool:
    """A number after a caption of the vocabulary other than a phone's or a mail's."""
    match = re.match(r"([^\W\d_][^\d:]{0,30}?)[\s:.#]+\d", text.strip())
    if match is None:
        return False
    name, sure = shapes.caption_name(match.group(1))
    return sure >= 0.85 and name not in PARTY_CAPTIONED


# A tax or identity number's caption and the number after it, alone on its line.
_IDENTITY_LINE = re.compile(r"([^\W\d_][^\W\d_.]{1,5}\.?)[\s:.]+(\d[\d ./-]{5,20}\d)")


def _identity_number(text: str) -> str | None:
    """The part of a block a line of a tax number is ("RUC 20548712336", "CPF
    418.275.936-28" in Latin America, "OIB 48120736617" in Croatia): the party's tax
    id. A national identity card's number ("DNI 33.481.905") names the person, no
    party. Neither is a line of the address."""
    match = _IDENTITY_LINE.fullmatch(text.strip())
    if match is None:
        return None
    name, sure = shapes.caption_name(match.group(1))
    if name == "tax_id" and sure >= 0.6:
        return "tax_id"
    return "dni" if name == "dni" else None


def _phone_caption_line(text: str) -> bool:
    """A few words, no digits, that caption a phone number ("Saaja telefon")."""
    if shapes.has_digits(text, 1) or len(text.split()) > 3:
        return False
    name, sure = shapes.caption_name(text)
    return name == "phone" and sure >= 0.7


_EIRCODE = re.compile(r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W) [0-9AC-FHKNPRTV-Y]{4}$")


# A caption that names an address, not a party alone: "Return Address", "Adresse de
# retour", "Rücksendeadresse", "Dirección de entrega", "Indirizzo", "Endereço".
_ADDRESS_WORD = re.compile(r"addr|adress|adres|direcci[oó]n|indirizzo|endere[cç]o|osoite|"
                           r"adresa|\bcím", re.IGNORECASE)


# A post office box and its number, with its postcode after a hyphen (Kenya), and no
# town: "P.O. Box 4417-40100", "PO Box 61600", "Postfach 10 12 34".
_BOX_ALONE = re.compile(r"(?:P\.?\s?O\.?\s?Box|Post\s?Box|Postfach|Apartado|Caixa Postal|B\.?P\.?)"
                        r"\s*:?\s*\d[\d ]*(?:-\d{3,6})?", re.IGNORECASE)


def _name_block(lines: list[Decision], role: str, certainty: float, claimed: set[int],
                named: bool = False, name_at: int | None = None) -> None:
    """Name an address block's lines: name, address_n, postal_city, country, phone
    (``named``: the name was printed before these lines, after its caption; ``name_at``:
    the line of the name, where its honorific stands in a field of its own)."""
    postal = max((i for i, d in enumerate(lines) if shapes.is_postal_line(d.text)
                  and not d.prefix_len and not _street(d.text) and not _whole_address(d.text)
                  and not recognise.starts_with_phone(d.text) and d.name != "phone"),
                 default=None)  # "REF: PO-1234", "Tel. 514-555-0273" are no town
    # A postcode on a line of its own under the town (British, Australian forms):
    # the town line, then the code.
    lone = [i for i, d in enumerate(lines) if i >= 2 and not d.prefix_len
            and (shapes.POSTAL.fullmatch(d.text.strip().upper())
                 or re.fullmatch(r"\d{6,7}", d.text.strip()))  # (Romania, India, Russia;
            # Israel, Chile)
            and (shapes.words_only(lines[i - 1].text)  # (or Dublin's district over its
                 or _EIRCODE.match(d.text.strip())  # Eircode: "Dublin 8" / "D08 K7F3")
                 and re.fullmatch(r"[^\W\d_]+ \d{1,2}W?", lines[i - 1].text.strip()))
            and not shapes.is_country(lines[i - 1].text)]
    # A lone code below a line that only looks like a town ("78580 Gonzalez Island" is
    # a street with its house number first) is the block's code.
    if postal is None or lone and lone[-1] >= postal:
        postal = lone[-1] if lone else postal
    town = postal - 1 if lone and postal == lone[-1] else None
    lone_code = postal if town is not None else None
    # "C.P. 03940" on a line of its own (Mexico, Spain, Italy): the code, and the
    # town on the line after it (or before it).
    captioned = [i for i, d in enumerate(lines) if i >= 2 and _CAPTIONED_POSTCODE.fullmatch(
        d.text.strip())]
    if captioned:
        postal = captioned[-1]
        after = [postal + 1] if postal + 1 < len(lines) else []
        town = next((i for i in after + [postal - 1] if _town_like(lines[i].text)), None)
    if postal is not None and postal + 1 < len(lines) and _BOX_ALONE.fullmatch(
            lines[postal].text.strip()) and _town_like(lines[postal + 1].text) \
            and not shapes.POSTAL.search(lines[postal + 1].text.upper()):
        town, postal = postal + 1, None  # "P.O. Box 4417-40100" over "KISUMU": the box,
        # with its postcode in Kenya, is a line of the address and the town comes under it
    if postal is None and town is None and len(lines) >= 3:
        # No postcode (Gulf states, Hong Kong, Chile, Nigeria...): the last line of words
        # above the country is the town, "Dubai", "Kadıköy / İSTANBUL"; the phone ends the
        # address (what follows it is the next caption's: "Service Centre", "Ref.: ...").
        end = next((i for i, d in enumerate(lines) if i >= 2 and (
            recognise.phone(d.text) or _bare_phone(d.text)
            or _PHONE_DIGITS.fullmatch(d.text) and shapes.has_digits(d.text, 8))),
                   len(lines))  # (or bare: "7659 0833" under "Rødekro")
        rest = [i for i, d in enumerate(lines[:end]) if i >= 2 and shapes.words_only(d.text)
                and not shapes.is_country(d.text) and not _DISTRICT.match(d.text.strip())]
        town = rest[-1] if rest and all(shapes.is_country(x.text)
                                        or recognise.EMAIL.fullmatch(x.text.strip())
                                        or x.variable and x.prefix_len  # "Fono: +56 9 ..."
                                        for x in lines[rest[-1] + 1:end]) else None
    code_alone = [i for i, d in enumerate(lines) if i >= 3 and not d.prefix_len
                  and re.fullmatch(r"\d{4,5}", d.text.strip())]
    if town is None and code_alone and (postal is None or postal == code_alone[-1]) \
            and re.fullmatch(r"[A-ZÀ-Ý][^\W\d_]+(?:-[^\W\d_]+)?", lines[1].text.strip()) \
            and shapes.has_digits(lines[2].text, 1):
        town = 1  # name, town, street, then the postcode alone (Hungary: "Budapest" /
        # "Váci út 47/B." / "1134")
    if town is not None and town >= 2 and _COUNTY.fullmatch(lines[town].text.strip()) \
            and shapes.words_only(lines[town - 1].text):
        town -= 1  # "Hebden Bridge" / "West Yorkshire" / "HX7 8AA": the town is above its
        # county, and the county an address line
    # A Japanese or Chinese name ends with its honorific ("松本 彩花 様") and may come
    # after the address.
    honoured = name_at if name_at is not None else next(
        (i for i, d in enumerate(lines) if _HONORIFIC.search(d.text)), None)
    street = 0
    name_line: Decision | None = None
    for i, d in enumerate(lines):
        if d.source.position in claimed:
            continue
        claimed.add(d.source.position)
        marked = d.text.lstrip().startswith("〒")
        if d.variable and d.name in _DATA_NAMES and (d.name_certainty >= 0.8 or d.name == "sscc"):
            continue  # a routing code or a date in the column is no address line
        if d.variable and d.reason == "data shape value":
            claimed.discard(d.source.position)  # a sum of money ("385.000 VND") under a
            continue  # caption that names a party ("Tiền thu Người nhận": to collect from
            # the recipient) is what is paid, no line of an address
        if _phone_caption_line(d.text):
            continue  # "Saaja telefon" over the number: a caption inside the block
        if postal is not None and i > postal and _captioned_number(d.text):
            claimed.discard(d.source.position)  # "Kunden-Nr. 204 771", "GLN 76010...":
            continue  # a number under its caption after the town, for the captions to name
        if _DATED_LINE.search(d.text) and not shapes.is_postal_line(d.text) \
                and not _street(d.text):  # ("Erlaaer Straße 71/4/12": house, stair, door)
            claimed.discard(d.source.position)  # "nata il 21/09/1952", "APPT 11/27 13:30":
            continue  # a date of birth or an appointment, for the captions to name
        if i == lone_code:
            part = "postal_code"  # "7526518" under "ראשון לציון": Israel's code, no phone
        elif recognise.phone(d.text) or d.name in ("phone", "ship_to_phone", "ship_from_phone") \
                or _PHONE_DIGITS.fullmatch(d.text) and not shapes.is_postal_line(d.text) \
                and shapes.has_digits(d.text, 7) \
                or recognise.starts_with_phone(d.text):
            part = "phone"
        elif recognise.EMAIL.fullmatch(d.text.strip()):
            part = "email"
        elif i > 0 and (identity := _identity_number(d.text)) is not None:
            part = identity  # "NIT 901.245.778-3", "OIB 48120736617" under the name
        elif named and _CARE_OF.match(d.text.strip()):
            street += 1
            part = f"address_{street}"
        elif not named and _SALUTATION.fullmatch(d.text.strip()):
            d.reason, d.certainty = "a salutation on a line of its own", 0.7
            continue  # "Frau" above "Annika Weißenborn": the name is the next line
        elif not named and i == 0 and postal == 1 and _street(d.text):
            street, named = 1, True  # a block of a street and a town, no name
            part = "address_1"  # ("Keizersgracht 612-III" / "1017 EK Amsterdam")
        elif i == honoured or not named and honoured is None and not marked:
            part, named, name_line = "name", True, d
        elif marked:  # Japan: the postcode mark starts its line
            after_code = re.sub(r"^\d{3}-?\d{4}", "", d.text.lstrip("〒 ").strip())
            if shapes.has_digits(after_code, 1):  # the whole address after its code, down to
                street += 1  # its block and house ("〒812-0011 福岡県福岡市博多区博多駅前3-25-21")
                part = f"address_{street}"
            else:
                part = "postal_city" if after_code.strip() else "postal_code"
        elif shapes.MARKED_POSTCODE.fullmatch(d.text.strip()):
            part = "postal_code"  # Korea's code in brackets under the street: "(06236)"
        elif street == 0 and _SALUTED.match(d.text.strip()) and shapes.words_only(d.text) \
                or _CONTACT_START.match(d.text.strip()):
            part = "contact"  # "Mme Laure Castagnier" under the company's name
        elif i == town or _TOWN_MARK.match(d.text.strip()):
            part = "city"  # (a town marked as one: "м. Одеса", "г. Москва")
        elif i == postal:
            part = "postal_code" if town is not None \
                or shapes.POSTAL.fullmatch(d.text.strip().upper()) else "postal_city"
        elif shapes.is_country(d.text) or postal is not None and i == postal + 1 \
                and shapes.words_only(d.text) and (
                    i == len(lines) - 1 and d.text.isupper()
                    or shapes.is_country(d.text.rsplit(",", 1)[-1])):
            part = "country"  # a country the list lacks ends a block, in capitals; a
            # state after the town ("Selangor") is an address line
        elif i > 0 and shapes.POSTAL.fullmatch(d.text.strip().upper()):
            part = "postal_code"  # the town follows on the same line, in a field of its own
        elif street == 0 and name_line is not None and _company(d.text) \
                and not _company(name_line.text) and not shapes.has_digits(d.text, 1):
            part = "name"  # a person, then the company ("PRIYA RAMAN" ... "NORTHSIDE
            # KITCHEN SUPPLY", as UPS prints them): both name the party
            name_line = None
        elif street == 0 and name_line is not None and _company(name_line.text) \
                and _PERSON.fullmatch(d.text.strip()) and not _company(d.text) \
                and not _street(d.text) and not _STREET_WORD.search(d.text):
            part = "contact"  # a company, then a person over the street ("Vormann GmbH" /
            # "Jens Albers"): the person to hand the parcel to
        elif street == 0 and name_line is not None and _second_name(lines, i, postal):
            part = "name"  # a person, then the company or the name in another script
            # ("Tomasz Wieczorek" / "Hyde Park Physiotherapy" / "42 Headingley Lane")
            name_line = None
        else:
            street += 1
            part = f"address_{street}"
        if d.variable and d.prefix_len:
            if part.startswith("address") and (
                    d.name_certainty < 0.5 and _STREET_START.match(d.text)
                    or _TURKISH_HOUSE.match(d.text.strip())):
                _variable(d, f"{role} address line", certainty, leading_spaces(d),
                          (f"{role}_{part}", certainty))  # "Str. Avram Iancu nr. 14": a
                continue  # street with "nr." before its number, not a caption and a value
            if part.startswith("address") and postal is not None and i < postal \
                    and d.name_certainty < 0.5:
                # "Bairro: Sumaré", "Short Address: RAKA4381" between the street and the
                # town: a caption of no known field, so a part of the address
                d.name, d.name_certainty = f"{role}_{part}", min(certainty, 0.6)
            continue  # "Tel: ..." keeps its caption and caption name
        indent = leading_spaces(d)
        name = part if part == "dni" else f"{role}_{part}"
        _variable(d, f"{role} address line", certainty, indent, (name, certainty))


# A person by given names and surname, each with a capital, a title or salutation
# before them: "Dr. P. Nagy Csilla", "Fru Malene Nissen", "Franck Benard de la Marchal".
# A name's word may join two with a hyphen, each with its capital ("Green-Briggs").
_NAME_WORD = r"[A-ZÀ-Ý][a-zß-ÿ'’]+(?:-[A-ZÀ-Ýa-zß-ÿ][a-zß-ÿ'’]+)*"
_PERSON = re.compile(
    r"(?:(?i:dr|prof|ing|mgr|herr|frau|fru|hr|fr|mr|mrs|ms|mme|m|sr|sra|sig|pan|pani)\.?\s+)*"
    rf"(?:[A-ZÀ-Ý]\.\s?)?{_NAME_WORD}(?:\s+(?:(?:da|de|do|dos|das|del|di|van|von|der|"
    rf"den|la|le|du)\s+)*{_NAME_WORD}){{1,3}}")


# A street's kind in its name, which no person's name holds: "Main Street", "Oak Lane",
# "Kastanienallee", "Bredgade".
_STREET_WORD = re.compile(
    r"(?i:\b(?:street|st|road|rd|lane|ln|avenue|ave|way|drive|dr|close|place|square|row|"
    r"terrace|crescent|gardens|court|walk|quay|parade|grove|mews)\.?$)|"
    r"(?i:stra(?:ss|ß)e|gasse|weg|platz|allee|gade|vej|gatan|gata|veien|katu|straat|laan|"
    r"plein|utca|ulica)\b")


# A department or a building under the name is part of the address, not a second
# name: "SHIPPING DEPT", "Research Finance Office", "Dun Roamin Cottage".
_DEPARTMENT = re.compile(r"\b(?:dept|department|office|abteilung|wareneingang|warenannahme|"
                         r"receiving|shipping|mailroom|poststelle)\b", re.IGNORECASE)
_PREMISES = re.compile(r"(?:cottage|house|farm|park|building|centre|center|court|hall|"
                       r"tower|lodge|manor|estate|campus)\.?$", re.IGNORECASE)


def _second_name(lines: list[Decision], at: int, postal: int | None) -> bool:
    """A line of words right under the block's name, over its street: the block's
    second name, as the street is its first line with a number."""
    text = lines[at].text.strip()
    if not shapes.words_only(text) or shapes.is_country(text) or _DEPARTMENT.search(text) \
            or _PREMISES.search(text) or text.lower().startswith("c/") or _street(text):
        return False
    if any(re.fullmatch(r"\d{4,5}", d.text.strip()) for d in lines[at + 1:]):
        return False  # a postcode alone, and the town over the street ("Budapest")
    below = next((i for i in range(at + 1, len(lines)) if not recognise.phone(lines[i].text)
                  and not shapes.words_only(lines[i].text)), None)
    return below is not None and below != postal and (
        _street(lines[below].text) or not shapes.is_postal_line(lines[below].text))


# Names that say only that a field is data, not what it is.
NAMELESS = (None, "text", "description")


def stray_street_lines(decisions: list[Decision]) -> None:
    """A line that no block or caption claimed but that reads as a street ("Hagenstraße
    57", "Av. de Cataluña 241, 50014 Zaragoza"): a street word makes it an address in
    any language. It is the recipient's where no recipient's address was found, else
    the sender's where no sender's was."""
    for d in decisions:
        if not d.variable or d.name not in NAMELESS or d.source.is_barcode:
            continue
        if not _stray_street(d.text.strip()):
            continue
        role = next((r for r in ("ship_to", "ship_from") if not _has_address(decisions, r)),
                    None)
        if role is not None:
            d.name, d.name_certainty = f"{role}_address", 0.6


def towns_under_streets(decisions: list[Decision]) -> None:
    """A postcode and town no block claimed ("69002 Lyon", "170 00 Praha 7") right under
    a street line that no caption claimed ("14 quai Jean Moulin", "Trafika U Mostu,
    Bubenská 1482/12") closes an address with it, in any language: both lines are that
    party's, the street's if it has one, else the recipient's where no recipient's
    address was found, else the sender's."""
    for d in decisions:
        if not d.variable or d.name not in NAMELESS or d.source.is_barcode \
                or d.name_certainty > 0.5 or not shapes.is_postal_line(d.text):
            continue
        street = _street_above(decisions, d)
        if street is None:
            continue
        role = _role_of_street(decisions, street)
        if role is None:
            continue
        if not street.variable or street.name in NAMELESS:
            street.variable = False
            _variable(street, "a street over its town", 0.6, leading_spaces(street),
                      (f"{role}_address", 0.6))
        d.name, d.name_certainty = f"{role}_postal_city", 0.6


def _street_above(decisions: list[Decision], town: Decision) -> Decision | None:
    """The line printed right above ``town`` in its column, if it reads as a street."""
    src = town.source
    above = [o for o in decisions if not o.source.is_barcode and abs(o.source.x - src.x) <= 12
             and 0 < src.y - o.source.y <= 2 * max(src.font_height, 10)]
    if not above:
        return None
    street = max(above, key=lambda o: o.source.y)
    text = street.text.strip()
    named = (street.name or "").startswith(("ship_to_address", "ship_from_address"))
    unclaimed = not street.variable or street.name in NAMELESS
    last = text.split(",")[-1].strip()  # (a shop's name may come first)
    if named or unclaimed and (_stray_street(text) or _stray_street(last)
                               or bool(_NUMBER_LAST.fullmatch(last))):
        return street  # (over a town, a name and a house number is a street: "Bubenská 1482/12")
    return None


def _role_of_street(decisions: list[Decision], street: Decision) -> str | None:
    name = street.name or ""
    if street.variable and name.startswith(("ship_to_address", "ship_from_address")):
        return name[:name.index("_address")]
    return next((r for r in ("ship_to", "ship_from") if not _has_address(decisions, r)), None)


def _stray_street(text: str) -> bool:
    """A street by its word and its house number: a unit alone ("Edifício B, Piso 2")
    is a room of a building, and words alone ("VIA VALENCIA") are a route."""
    if not shapes.has_digits(text, 1):
        return False
    return bool(_STREET_START.match(text) or _NUMBERED_STREET.match(text)
                or _NAMED_STREET.fullmatch(text) or _SCRIPT_ADDRESS.search(text)
                or _FRENCH_STREET.match(text)) or _whole_address(text)


# A French street: the house number, perhaps "bis" or "ter", then the street's kind
# ("14 quai Jean Moulin", "3 PLACE DU CONCERT", "8 bis rue des Lilas", "27, allée
# Verte"), as France, Belgium and Switzerland write it.
_FRENCH_STREET = re.compile(
    r"\d{1,4}(?:\s?(?:bis|ter|[a-d])\b)?,?\s+(?:rue|avenue|av|bd|boulevard|quai|place|"
    r"allée|allee|impasse|chemin|ch|cours|route|rte|square|passage|faubourg|fbg|voie|"
    r"sentier|esplanade|promenade|parvis|cité|cite|hameau|lieu-dit|résidence)\b\.?\s+\S",
    re.IGNORECASE)


# Addresses in scripts without Latin street words: a Japanese prefecture and its town
# ("埼玉県加須市豊野台2-810-1"), a Chinese road and house number ("张江路88号"), a Korean
# road, floor or unit ("테헤란로 152", "12층 1204호"), a Hebrew street or boulevard
# ("רחוב הרצל 118").
_SCRIPT_ADDRESS = re.compile(
    r"^(?:東京都|北海道|(?:京都|大阪)府|\w{2,3}県)\w*?[市区町村郡]|[路街道]\s?\d+\s?号|"
    r"[로길]\s?\d+|\d+\s?층|\d+\s?호(?!\w)|^(?:רחוב|שדרות|שד'|רח'|דרך)\s")


def _has_address(decisions: list[Decision], role: str) -> bool:
    return any(o.variable and (o.name or "").startswith(f"{role}_address") for o in decisions)
