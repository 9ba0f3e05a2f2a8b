"""Retail and postal symbols: EAN-13, EAN-8, UPC-A, UPC-E and their add-ons, then
POSTNET, PLANET and USPS Intelligent Mail."""

from __future__ import annotations

import zint

from .common import (
    Rect,
    SymbolError,
    SymbolGeometry,
    SymbolText,
    Z,
    _digits,
    _encode,
    _interpretation,
    _Job,
    _matrix,
    _mod10,
    _runs,
    _text_font,
)

# -- EAN / UPC ----------------------------------------------------------------

# Guard bar module ranges: these bars reach below the others (GS1 General Specs 5.2).
_GUARDS: dict[str, tuple[tuple[int, int], ...]] = {
    "EAN13": ((0, 3), (45, 50), (92, 95)),
    "EAN8": ((0, 3), (31, 36), (64, 67)),
    "UPCA": ((0, 10), (45, 50), (85, 95)),
    "UPCE": ((0, 3), (45, 51)),
}

# Interpretation line groups as (first digit, last digit + 1, from module, to module);
# negative / past-the-end modules put a digit outside the bars, as Labelary does.
_EAN_TEXT: dict[str, tuple[tuple[int, int, float, float], ...]] = {
    "EAN13": ((0, 1, -13, -6), (1, 7, 3, 45), (7, 13, 50, 92)),
    "EAN8": ((0, 4, 3, 31), (4, 8, 36, 64)),
    "UPCA": ((0, 1, -13, -6), (1, 6, 10, 45), (6, 11, 50, 85), (11, 12, 96, 103)),
    "UPCE": ((0, 1, -13, -6), (1, 7, 3, 45), (7, 8, 54, 61)),
}


def _ean_geometry(job: _Job, kind: str, symbology: zint.Symbology, digits: str,
                  shown: str) -> SymbolGeometry:
    """EAN/UPC bars with guard bars extended and the digits in their groups."""
    symbol = _encode(job, symbology, digits)
    row = _matrix(symbol)[0]
    m = job.module
    height = job.px(job.spec.height)
    descent = job.px(13)  # Labelary: guards reach 13 dots below the bars at any ^BY
    guards = _GUARDS.get(kind, ())
    rects: list[Rect] = []
    for value, start, length in _runs(row):
        if value:
            long = any(lo <= start < hi for lo, hi in guards)
            rects.append((start * m, 0.0, length * m, height + (descent if long else 0)))
    width = len(row) * m
    texts: list[SymbolText] = []
    if job.flag("line"):
        font_h, font_w = _text_font(job)
        y = -font_h - job.px(8) if job.flag("line_above") else height + job.px(6)
        for first, last, lo, hi in _EAN_TEXT.get(kind, ()):
            piece = shown[first:last]
            if piece:
                texts.append(SymbolText(piece, lo * m, y, font_h, font_w, "A",
                                        center_width=(hi - lo) * m))
    # The guard bars and the digits overhang the field box (see SymbolGeometry.height).
    return SymbolGeometry(float(width), float(height), tuple(rects), texts=tuple(texts),
                          baseline=float(height))


def _fit(job: _Job, data: str, length: int) -> str:
    """Zebra pads short EAN/UPC data with leading zeros and drops what is too long."""
    digits = _digits(data)
    if len(digits) != len(data):
        raise SymbolError(f"^{job.spec.command} takes digits only, not {data!r}")
    if len(digits) > length:
        job.warnings.append(f"^{job.spec.command}: data truncated to {length} digits")
    return digits[:length].rjust(length, "0")


def _ean13(job: _Job, data: str) -> SymbolGeometry:
    """^BE - EAN-13: 12 digits; the check digit is always computed and printed."""
    digits = _fit(job, data, 12)
    return _ean_geometry(job, "EAN13", Z.EANX, digits, digits + _mod10(digits))


def _ean8(job: _Job, data: str) -> SymbolGeometry:
    """^B8 - EAN-8: 7 digits plus the computed check digit."""
    digits = _fit(job, data, 7)
    return _ean_geometry(job, "EAN8", Z.EANX, digits, digits + _mod10(digits))


def _upca(job: _Job, data: str) -> SymbolGeometry:
    """^BU - UPC-A: 11 digits; e says whether the line shows the check digit."""
    digits = _fit(job, data, 11)
    shown = digits + (_mod10(digits) if job.flag("check", True) else "")
    return _ean_geometry(job, "UPCA", Z.UPCA, digits, shown)


def _upce(job: _Job, data: str) -> SymbolGeometry:
    """^B9 - UPC-E: 6 digits (number system 0) or 7 with the number system."""
    digits = _digits(data)
    if len(digits) not in (6, 7):
        digits = _fit(job, data, 6)
    symbol = _encode(job, Z.UPCE, digits)
    full = symbol.text  # zint's text is the number system, six digits and the check
    shown = full if job.flag("check", True) else full[:-1]
    return _ean_geometry(job, "UPCE", Z.UPCE, digits, shown)


def _upc_extension(job: _Job, data: str) -> SymbolGeometry:
    """^BS - UPC/EAN Extensions: a 2 or 5 digit add-on, the line above the bars."""
    digits = _digits(data)
    digits = digits[:2] if len(digits) <= 2 else digits[:5].rjust(5, "0")
    symbol = _encode(job, Z.EANX, digits.rjust(2, "0"))
    row = _matrix(symbol)[0]
    m = job.module
    height = job.px(job.spec.height)
    rects = tuple((s * m, 0.0, n * m, float(height)) for v, s, n in _runs(row) if v)
    texts: tuple[SymbolText, ...] = ()
    if job.flag("line", True):
        font_h, font_w = _text_font(job)
        texts = (SymbolText(digits, 0.0, -font_h - job.px(2), font_h, font_w, "A",
                            center_width=len(row) * m),)
    return SymbolGeometry(float(len(row) * m), float(height), rects, texts=texts,
                          baseline=float(height))


# -- postal -------------------------------------------------------------------


def _postal(job: _Job, symbology: zint.Symbology, data: str) -> SymbolGeometry:
    """Height-modulated bars: zint gives 2 rows (POSTNET) or 3 (Intelligent Mail)."""
    symbol = _encode(job, symbology, data)
    bits = _matrix(symbol)
    bar = job.module
    pitch = bar + max(1, round(job.spec.module_width * 1.5 * job.scale))
    height = job.px(job.spec.height)
    bands: tuple[tuple[int, int], ...]
    if bits.shape[0] == 3:  # ascender, tracker, descender
        tracker = max(1, round(height * 0.34))
        asc = (height - tracker) // 2
        bands = ((0, asc), (asc, tracker), (asc + tracker, height - asc - tracker))
    else:  # tall part, then the part every bar has (short bars are 40 %)
        short = max(1, round(height * 0.4))
        bands = ((0, height - short), (height - short, short))
    rects: list[Rect] = []
    for col in range(0, bits.shape[1], 2):
        rows = [r for r in range(bits.shape[0]) if bits[r, col]]
        if rows:
            top = bands[rows[0]][0]
            bottom = bands[rows[-1]][0] + bands[rows[-1]][1]
            rects.append(((col // 2) * pitch, float(top), float(bar), float(bottom - top)))
    width = ((bits.shape[1] + 1) // 2 - 1) * pitch + bar
    texts = _interpretation(job, data, width, height)
    return SymbolGeometry(float(width), float(height), tuple(rects), texts=texts,
                          baseline=float(height))


_POSTAL_TYPES = {"0": Z.POSTNET, "1": Z.PLANET, "2": Z.USPS_IMAIL, "3": Z.USPS_IMAIL}


def _postnet(job: _Job, data: str) -> SymbolGeometry:
    """^BZ - POSTNET (t=0), PLANET (1) or USPS Intelligent Mail (2, 3)."""
    return _postal(job, _POSTAL_TYPES.get(job.opt("type", "0"), Z.POSTNET), data)


def _planet(job: _Job, data: str) -> SymbolGeometry:
    """^B5 - Planet Code."""
    return _postal(job, Z.PLANET, data)
