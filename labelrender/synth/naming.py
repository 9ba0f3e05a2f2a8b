"""Placeholders and their names: one ^FN per field, readable snake_case names.

One value printed by a text and its barcode (or over-printed in place for a bold
effect) gets one placeholder; fields that only happen to hold equal samples get
one each. Names come from the hints when given, else from captions,
address roles, data shapes and symbologies (classify.py), made unique.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .decision import Decision
from .shapes import has_digits, shape_name, snake
from .source import sample_value

# Words that mean the same thing in hint names and derived names.
_SYNONYMS = {
    "zip": "postal", "postcode": "postal", "plz": "postal", "tel": "phone",
    "telephone": "phone", "mobile": "phone", "ref": "reference", "awb": "tracking",
    "trk": "tracking", "consignee": "ship_to", "recipient": "ship_to", "receiver": "ship_to",
    "sender": "ship_from", "shipper": "ship_from", "wt": "weight", "qty": "piece",
}


@dataclass
class Placeholder:
    """One ^FN: the fields that print its value, its name and its sample value."""

    index: int
    value: str
    decisions: list[Decision] = field(default_factory=list)
    name: str = ""
    name_certainty: float = 0.0


# Fields printed within this many dots of each other are one field over-printed
# (a bold or shadow effect), not two fields.
_OVERPRINT = 4


def _same_field(p: Placeholder, d: Decision) -> bool:
    """``d`` prints the value of ``p`` again: a text and its barcode (or the same
    data in two symbologies), or the same text over-printed in place. Two fields
    that merely hold equal samples (the sender's and the recipient's phone, two
    towns) are never one placeholder: the template could not print them apart."""
    if p.value != d.value:
        return False
    if d.source.is_barcode or any(o.source.is_barcode for o in p.decisions):
        return len(p.value) >= 4 and (d.source.is_barcode or has_digits(p.value, 1)
                                      or len(p.value) >= 6)
    return any(abs(o.source.x - d.source.x) <= _OVERPRINT
               and abs(o.source.y - d.source.y) <= _OVERPRINT for o in p.decisions)


def group(decisions: list[Decision]) -> list[Placeholder]:
    """Placeholders in order of first appearance, indexes from 1."""
    placeholders: list[Placeholder] = []
    for d in decisions:
        if not d.variable or d.value is None:
            continue
        shared = next((p for p in placeholders if _same_field(p, d)), None)
        if shared is None:
            shared = Placeholder(len(placeholders) + 1, d.value)
            placeholders.append(shared)
        shared.decisions.append(d)
    _name(placeholders)
    return placeholders


def from_numbers(decisions: list[Decision], numbers: list[int | None]) -> list[Placeholder]:
    """Placeholders of a stored format: its own ``^FN`` numbers, whatever the fields
    look like. A field without a number is static (the format says so); a numbered
    field is variable with its whole data as the value, named as a legacy field
    would be where its data says what it is."""
    placeholders: dict[int, Placeholder] = {}
    for d in decisions:
        number = numbers[d.source.position] if d.source.position < len(numbers) else None
        if number is None:
            if d.variable:
                d.variable, d.value, d.prefix_len = False, None, 0
                d.reason, d.certainty = "static in the stored format", 0.95
            continue
        value = sample_value(d.source, d.source.raw) or ""
        if d.prefix_len:  # the recall sends the caption too: the whole data is the value
            d.name, d.name_certainty = None, 0.0
        if d.name is None:
            shape = shape_name(d.text) if d.text else None
            d.name, d.name_certainty = shape or ("field", 0.3)
        d.variable, d.prefix_len, d.value = True, 0, value
        d.reason, d.certainty = f"^FN{number} of the stored format", 0.95
        placeholders.setdefault(number, Placeholder(number, value)).decisions.append(d)
    ordered = [placeholders[n] for n in sorted(placeholders)]
    _name(ordered)
    return ordered


def _name(placeholders: list[Placeholder]) -> None:
    for p in placeholders:
        # A caption printed by a person outranks what the data looks like, and any
        # meaning outranks a name that only says how the value is printed.
        best = max(p.decisions, key=lambda d: (not _generic(d.name), d.name_certainty
                                               + 0.05 * ("caption" in d.reason),
                                               d.source.is_barcode))
        p.name = snake(best.name or "") or "field"
        p.name_certainty = best.name_certainty


def _generic(name: str | None) -> bool:
    """A name that says how a value is printed, not what it is: "text_4", "code128_data"."""
    return not name or name in ("text", "field") or name.endswith("_data")


def _tokens(name: str) -> set[str]:
    text = name
    for word, same in _SYNONYMS.items():
        text = "_".join(same if part == word else part for part in text.split("_"))
    return {part for part in text.split("_") if part and part not in ("number", "no")}


def apply_hints(placeholders: list[Placeholder], hints: tuple[str, ...]) -> list[str]:
    """Rename placeholders after ``hints``: same name, then shared words, then the
    least certain names in reading order. Returns warnings for unused hints."""
    wanted = [h for h in dict.fromkeys(snake(h) for h in hints) if h]
    free = list(placeholders)
    hinted: set[int] = set()
    left = []
    for hint in wanted:
        match = next((p for p in free if p.name == hint), None)
        if match is None:
            scored = [(len(_tokens(hint) & _tokens(p.name)) / max(1, len(_tokens(hint))), p)
                      for p in free]
            score, best = max(scored, key=lambda s: s[0], default=(0.0, None))
            match = best if score >= 0.5 else None
        if match is None:
            left.append(hint)
            continue
        match.name, match.name_certainty = hint, 1.0 if match.name == hint else 0.9
        free.remove(match)
        hinted.add(match.index)
    unsure = [p for p in free if p.name_certainty < 0.5]
    for hint, p in zip(list(left), unsure, strict=False):
        p.name, p.name_certainty = hint, 0.7
        left.remove(hint)
    return [f"hint_field_names: no field found for {hint!r}" for hint in left]


def make_unique(placeholders: list[Placeholder]) -> None:
    """Generic names get their index; repeated names get _2, _3..."""
    seen: dict[str, int] = {}
    for p in placeholders:
        if p.name in ("text", "field"):
            p.name = f"{p.name}_{p.index}"
        base = p.name
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            p.name = f"{base}_{seen[base]}"
            while p.name in seen:
                seen[base] += 1
                p.name = f"{base}_{seen[base]}"
            seen[p.name] = 1
