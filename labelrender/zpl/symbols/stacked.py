"""Stacked symbols: PDF417, MicroPDF417, GS1 DataBar and its composites, Code 49,
CODABLOCK F and TLC39."""

from __future__ import annotations

import math

import zint

from ..elements import BarcodeSpec
from .common import (
    _GS1_MODE,
    Rect,
    SymbolError,
    SymbolGeometry,
    SymbolText,
    Z,
    _bytes,
    _digits,
    _encode,
    _grid,
    _gs1_brackets,
    _Job,
    _matrix,
    _matrix_geometry,
    _text_font,
)
from .linear import _code39

# -- PDF417 and MicroPDF417 ---------------------------------------------------


def _pdf417_columns(job: _Job, symbology: zint.Symbology, payload: bytes,
                    security: int) -> int | None:
    """Zebra's automatic shape (c=0, r=0): the symbol closest to 1:2 height to width.

    The ZPL guide gives "1:2 (row-to-column aspect ratio)" as the default for both
    c and r. Labelary reads it with the height counted at ISO/IEC 15438's nominal
    row height of 3 modules (not ^B7 h) and the width at 17c + 69 modules, taking
    the column count whose height/width comes nearest 0.5. That reproduces every
    automatic ^B7 in the corpus: 1 column for 8-18 codewords (zplab
    barcode_pdf417_auto, auto_ecc; zplkit canonical_pdf417 with 18 rows, and the
    three automatic symbols of zplkit barcode_pdf417), 2 for 35 (zplab long60),
    3 for 45-58 (zplab long120, long90_sec2) - whatever ^B7 h is (4, 8 or 10).
    """
    columns = int(job.opt("columns", "0"))
    if columns or int(job.opt("rows", "0")):
        return columns or None
    best, best_gap = None, math.inf
    for columns in range(1, 31):
        probe = _Job(job.spec, job.scale, [])
        try:
            symbol = _encode(probe, symbology, payload, option_1=security, option_2=columns)
        except SymbolError:
            continue
        if probe.warnings:  # zint had to widen it: over 90 rows at this width
            continue
        ratio = 3 * symbol.rows / (17 * columns + 69)
        if abs(ratio - 0.5) < best_gap:
            best, best_gap = columns, abs(ratio - 0.5)
        if ratio <= 0.5:  # wider only moves further from 1:2
            break
    return best


def _pdf417(job: _Job, data: str) -> SymbolGeometry:
    """^B7 - PDF417: h is each row's height; ^BY w the module width."""
    security = int(job.opt("security", "0"))
    truncate = job.flag("truncate")
    rows = int(job.opt("rows", "0"))
    symbology = Z.PDF417COMP if truncate else Z.PDF417
    payload = _bytes(data)
    columns = _pdf417_columns(job, symbology, payload, security)
    symbol = _encode(job, symbology, payload, option_1=security, option_2=columns,
                     option_3=rows or None)
    row_height = job.px(int(job.opt("row_height", str(job.spec.height))))
    return _matrix_geometry(job, symbol, job.module, [row_height] * symbol.rows)


def _micropdf417(job: _Job, data: str) -> SymbolGeometry:
    """^BF - MicroPDF417: mode 0-33 picks columns (Zebra's table, in four bands)."""
    mode = int(job.opt("mode", "0"))
    columns = 1 if mode <= 5 else 2 if mode <= 12 else 3 if mode <= 22 else 4
    symbol = _encode(job, Z.MICROPDF417, _bytes(data), option_2=columns)
    row_height = job.px(int(job.opt("row_height", str(job.spec.height))))
    return _matrix_geometry(job, symbol, job.module, [row_height] * symbol.rows)


# -- GS1 DataBar (^BR) ----------------------------------------------------------

_DATABAR = {
    1: Z.DBAR_OMN, 2: Z.DBAR_OMN, 3: Z.DBAR_STK, 4: Z.DBAR_OMNSTK, 5: Z.DBAR_LTD,
    6: Z.DBAR_EXP, 7: Z.UPCA, 8: Z.UPCE, 9: Z.EANX, 10: Z.EANX, 11: Z.GS1_128, 12: Z.GS1_128,
}
_DATABAR_CC = {
    7: Z.UPCA_CC, 8: Z.UPCE_CC, 9: Z.EANX_CC, 10: Z.EANX_CC, 11: Z.GS1_128_CC,
    12: Z.GS1_128_CC, 1: Z.DBAR_OMN_CC, 2: Z.DBAR_OMN_CC, 3: Z.DBAR_STK_CC,
    4: Z.DBAR_OMNSTK_CC, 5: Z.DBAR_LTD_CC, 6: Z.DBAR_EXP_CC,
}


# Single-row heights in modules as Labelary draws them (it ignores ^BR e for these).
_DATABAR_HEIGHTS = {1: 33.0, 2: 13.0, 5: 10.0, 6: 34.0}


def _vector_rows(symbol: zint.Symbol) -> list[float]:
    """Row heights in modules, read from zint's vector output (row_height is unreadable)."""
    symbol.buffer_vector()
    vector = symbol.vector
    unit = vector.width / max(1, symbol.width)
    tops = sorted({round(r.y / unit, 3) for r in vector.rectangles})
    bottom = max((r.y + r.height) / unit for r in vector.rectangles)
    if len(tops) != symbol.rows:
        return [bottom / symbol.rows] * symbol.rows
    return [b - t for t, b in zip(tops, [*tops[1:], bottom], strict=True)]


def _databar_payload(kind: int, linear: str) -> tuple[str, zint.InputMode | None]:
    if kind in (6, 11, 12):
        return _gs1_brackets(linear), _GS1_MODE
    if kind <= 5:
        digits = _digits(linear)
        return (digits[2:] if len(digits) > 14 and digits.startswith("01") else digits), None
    return _digits(linear), None


def _databar(job: _Job, data: str) -> SymbolGeometry:
    """^BR - GS1 DataBar (types 1-6) and the composite-capable linear types 7-12."""
    kind = int(job.opt("type", "1"))
    module = job.px(int(job.opt("magnification", "2")))
    separator = job.px(int(job.opt("separator", "1")) * int(job.opt("magnification", "2")))
    linear, _, composite = data.partition("|")
    payload, mode = _databar_payload(kind, linear)
    segments = int(job.opt("segments", "22"))
    symbology = _DATABAR.get(kind, Z.DBAR_OMN)
    if kind == 6 and segments < 22:
        symbology = Z.DBAR_EXPSTK
    option_2 = segments // 2 if symbology == Z.DBAR_EXPSTK else None
    if composite:
        symbol = _encode(job, _DATABAR_CC[kind], _gs1_brackets(composite), mode=_GS1_MODE,
                         option_1=3 if kind == 12 else None, option_2=option_2, primary=payload)
    else:
        symbol = _encode(job, symbology, payload, mode=mode, option_2=option_2)
    heights = _databar_row_heights(job, symbol, kind, module, separator)
    return _matrix_geometry(job, symbol, module, heights)


def _databar_row_heights(job: _Job, symbol: zint.Symbol, kind: int, module: int,
                         separator: int) -> list[int]:
    if kind >= 7 and symbol.rows == 1:
        return [job.px(job.spec.height)]
    rows = _vector_rows(symbol)
    if kind in _DATABAR_HEIGHTS and len(rows) == 1:
        rows = [_DATABAR_HEIGHTS[kind]]
    return [separator if r <= 1.0 else max(1, round(r * module)) for r in rows]


# -- multi-row linear ---------------------------------------------------------


def _separated(job: _Job, symbol: zint.Symbol, row_height: int, bind: bool) -> SymbolGeometry:
    """Rows with a one-module separator bar between them (and above/below if ``bind``)."""
    bits = _matrix(symbol)
    m = job.module
    rule = m
    rects: list[Rect] = []
    y = rule if bind else 0
    width = bits.shape[1] * m
    for r in range(bits.shape[0]):
        rects += _grid(bits[r : r + 1], m, [row_height], y)
        y += row_height
        if r < bits.shape[0] - 1 or bind:
            rects.append((0.0, float(y), float(width), float(rule)))
            y += rule
    if bind:
        rects.append((0.0, 0.0, float(width), float(rule)))
    return SymbolGeometry(float(width), float(y), tuple(rects), baseline=float(y))


def _code49(job: _Job, data: str) -> SymbolGeometry:
    """^B4 - Code 49: h times the module is each row's height; f N, A(bove) or B(elow)."""
    symbol = _encode(job, Z.CODE49, _bytes(data))
    row_height = job.px(job.spec.height * job.spec.module_width)
    geometry = _separated(job, symbol, row_height, bind=False)
    line = job.opt("line", "N")
    if line not in ("A", "B"):
        return geometry
    font_h, font_w = _text_font(job)
    y = -font_h - job.px(8) if line == "A" else geometry.height + job.px(6)
    text = SymbolText(data, 0.0, y, font_h, font_w, "A", center_width=geometry.width)
    return SymbolGeometry(geometry.width, geometry.height, geometry.rects, texts=(text,),
                          baseline=geometry.baseline)


def _codablock(job: _Job, data: str) -> SymbolGeometry:
    """^BB - CODABLOCK F (modes A and E drawn as F): h is each row's height in dots."""
    columns = int(job.opt("columns", "0"))
    rows = int(job.opt("rows", "0"))
    symbol = _encode(job, Z.CODABLOCKF, _bytes(data), option_1=rows or None,
                     option_2=columns + 5 if columns else None)
    return _separated(job, symbol, job.px(int(job.opt("row_height", "8"))), bind=True)


def _tlc39(job: _Job, data: str) -> SymbolGeometry:
    """^BT - TLC39: Code 39 of the ECI number with a MicroPDF417 of the rest at its top right."""
    eci, _, rest = data.partition(",")
    code39 = BarcodeSpec("B3", job.spec.orientation, int(job.opt("height1", "40")),
                         int(job.opt("width1", "2")), float(job.opt("ratio1", "2.0")),
                         (("line", "N"),))
    first = _code39(_Job(code39, job.scale, job.warnings), eci)
    if not rest:
        return first
    micro = BarcodeSpec("BF", job.spec.orientation, int(job.opt("height2", "4")),
                        int(job.opt("width2", "4")), 2.0, (("mode", "0"),))
    second = _micropdf417(_Job(micro, job.scale, job.warnings), rest)
    x0 = first.width + job.px(int(job.opt("width1", "2")))
    rects = first.rects + tuple((x + x0, y, w, h) for x, y, w, h in second.rects)
    height = max(first.height, second.height)
    return SymbolGeometry(x0 + second.width, height, rects, baseline=first.baseline)
