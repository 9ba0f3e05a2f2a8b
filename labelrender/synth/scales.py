"""Labels that a shop's scale prints: the goods' weight, their price per kilo (or per
100 g) and the price to pay, which is the one times the other. Those sums say which
amount is which, however the label captions them ("Prezzo €/kg", "100g당(원)") and
whatever font or column each sits in. A shop's price printed large, its currency's sign
and its cents in fields of their own ("$" "179" "00"), is found by where they sit."""

from __future__ import annotations

import re
from itertools import permutations

from .decision import Decision, leading_spaces, mark_variable

# An amount alone, with or without its currency: "29,80 €", "12,800", "€ 7,34".
_AMOUNT = re.compile(r"(?:[^\W\d_]{1,3}\.?|[€$£¥₩])?\s?(\d[\d.,' ]*\d|\d)\s?"
                     r"(?:[^\W\d_]{1,3}\.?|[€$£¥₩])?")
# A weight alone: "0,312 kg", "452 g", "0,184" (a scale's kilos, its unit in the caption).
_WEIGHT = re.compile(r"(\d+(?:[.,]\d+)?)\s?(kg|g)?", re.IGNORECASE)
# Names an amount may have been given from its shape or its place before the sum.
_GUESSED = frozenset({"price", "unit_price", "value", "weight", "location", "text", "field",
                      "description"})


def refine(decisions: list[Decision]) -> None:
    """A weight and two amounts where weight times the first is the second: the first
    is the price per unit, the second the price."""
    texts = [d for d in decisions if not d.source.is_barcode and d.text.strip()]
    open_amounts = [(d, _numbers(d.text)) for d in texts if _open(d)]
    for weight in texts:
        kilos = _kilos(weight)
        if not kilos:
            continue
        amounts = [(d, values) for d, values in open_amounts if d is not weight]
        for (per, per_values), (total, totals) in permutations(amounts, 2):
            if any(_product(kilos, a, b) for a in per_values for b in totals):
                _name(weight, "weight")
                _name(per, "unit_price")
                _name(total, "price")
                return


def _open(d: Decision) -> bool:
    """Printed as an amount and not named surely as anything else."""
    return _AMOUNT.fullmatch(d.text.strip()) is not None and (
        not d.variable or d.name in _GUESSED and not d.prefix_len)


def _kilos(d: Decision) -> list[float]:
    """The weights in kilograms a field may print: a weight's name or unit says so."""
    match = _WEIGHT.fullmatch(d.text.strip())
    if match is None or not (d.variable and d.name in ("weight", "location") or match.group(2)):
        return []
    number = float(match.group(1).replace(",", "."))
    unit = (match.group(2) or "").lower()
    if unit == "g" or unit == "" and "." not in match.group(1) and "," not in match.group(1):
        return [number / 1000]  # "452" under "중량(g)": grams
    return [number]


def _numbers(text: str) -> list[float]:
    """The values an amount may print: "12,800" is twelve thousand eight hundred, or
    twelve point eight."""
    match = _AMOUNT.fullmatch(text.strip())
    if match is None:
        return []
    digits = re.sub(r"[' ]", "", match.group(1))
    last = re.search(r"[.,](\d+)$", digits)
    whole = re.sub(r"[.,]", "", digits)
    if last is None:
        return [float(whole)]
    decimal = float(re.sub(r"[.,]", "", digits[:last.start()]) + "." + last.group(1))
    return [decimal, float(whole)] if len(last.group(1)) == 3 else [decimal]


def _product(kilos: list[float], per: float, total: float) -> bool:
    """``total`` is the weight times ``per``, by the kilo or by 100 g, to the cent."""
    return per > 0 and per != total and any(
        abs(k * factor * per - total) <= max(0.006, 0.001 * total)
        for k in kilos for factor in (1, 10))


def _name(d: Decision, name: str) -> None:
    if d.variable:
        d.name, d.name_certainty = name, max(d.name_certainty, 0.7)
    else:
        mark_variable(d, "a sum of a scale's weight and price", 0.7, leading_spaces(d),
                      (name, 0.7))


# A currency's sign printed in a field of its own, beside the price it belongs to.
_SIGN = re.compile(r"[$€£¥₩₹₺₫]|kr\.?|Kč|zł|Ft|lei", re.IGNORECASE)
# A price's number printed apart from its sign: "34,99", "179", "2,", "49", "799,-".
_PRICE_NUMBER = re.compile(r"\d{1,6}(?:[.,](?:\d{2}|-)?)?")


def signed_prices(decisions: list[Decision]) -> None:
    """A number printed large right beside a currency's sign in a field of its own
    ("$" "179" "00", "2," "49" "€", "€" over "34,99") is the price, with the cents
    printed apart on its line: no article number or location by its digits alone."""
    numbers = [d for d in decisions if not d.source.is_barcode
               and _PRICE_NUMBER.fullmatch(d.text.strip())]
    for sign in decisions:
        if sign.source.is_barcode or not _SIGN.fullmatch(sign.text.strip()):
            continue
        near = [d for d in numbers if _beside_sign(sign, d)]
        if not near:
            continue
        price = min(near, key=lambda d: abs(d.source.rx - sign.source.rx)
                    + abs(d.source.ry - sign.source.ry))
        for d in [price] + [d for d in numbers if d is not price and _cents_of(price, d)]:
            if not d.variable or d.name != "price" and d.name_certainty <= _PRICE_GUESS:
                _name(d, "price")


# Names given from a number's digits or place alone, surer than none of them.
_PRICE_GUESS = 0.6


def _beside_sign(sign: Decision, number: Decision) -> bool:
    """``number`` prints larger than ``sign``, and the sign sits on its line just
    before it, over its first digits, or just after its last."""
    s, n = sign.source, number.source
    width = len(number.text.strip()) * n.font_height // 2
    return n.font_height > s.font_height \
        and n.rx - 2 * s.font_height <= s.rx <= n.rx + width + s.font_height \
        and n.ry - n.font_height <= s.ry <= n.ry + 3 * n.font_height // 2


def _cents_of(price: Decision, other: Decision) -> bool:
    """``other`` is printed on the price's line, top to top, close before or after it:
    its whole units or its cents."""
    p, o = price.source, other.source
    height = max(p.font_height, o.font_height)
    return abs(p.ry - o.ry) <= 0.3 * height and abs(p.rx - o.rx) <= 3 * height
