"""Barcode symbols: a BarcodeSpec plus field data -> geometry in target pixels.

libzint (zint-bindings) does the symbol encoding; this module turns its module
matrix into bars and text at the size ZPL asks for. It measures nothing about
fonts and paints nothing: layout rotates and places the geometry, raster paints it.

Every size is rounded to whole target pixels before bars are laid out, so that a
module is the same number of pixels everywhere in a symbol and scanners decode it
at any resolution. Quiet zones are not drawn: a Zebra printer does not draw them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import zint

from .elements import BarcodeSpec


@dataclass(frozen=True)
class SymbolText:
    """A piece of interpretation line, in the symbol's own (unrotated) pixel frame."""

    text: str
    x: float  # left edge of the text
    y: float  # top of the text cell (negative: above the field origin)
    font_height: float  # font 0 / A..H size in target pixels, as ^A would take it
    font_width: float
    font: str = "0"
    center_width: float | None = None  # if set, centre the text within [x, x + center_width]


@dataclass(frozen=True)
class SymbolGeometry:
    """Everything a barcode draws, unrotated, with (0, 0) at the field origin (^FO)."""

    width: float
    height: float  # bars plus interpretation line
    rects: tuple[tuple[float, float, float, float], ...]  # x, y, w, h of ink
    hexagons: tuple[tuple[float, float, float], ...] = ()  # MaxiCode: cx, cy, width
    rings: tuple[tuple[float, float, float, float], ...] = ()  # cx, cy, r_outer, r_inner
    texts: tuple[SymbolText, ...] = ()
    baseline: float = 0.0  # y that ^FT anchors to (bottom of the bars)


class SymbolError(ValueError):
    """Data the symbology cannot encode; the field is skipped with a warning."""


# ^FD holds 3072 bytes on a printer; more than this is refused before zint sees it.
MAX_DATA = 4096

Rect = tuple[float, float, float, float]
Z = zint.Symbology


@dataclass
class _Job:
    """One symbol being built: the spec, the target scale and the warnings so far."""

    spec: BarcodeSpec
    scale: float
    warnings: list[str]

    def px(self, dots: float) -> int:
        """Source dots -> whole target pixels, never less than one."""
        return max(1, round(dots * self.scale))

    @property
    def module(self) -> int:
        return self.px(self.spec.module_width)

    def opt(self, key: str, default: str = "") -> str:
        return self.spec.option(key, default)

    def flag(self, key: str, default: bool = False) -> bool:
        return self.spec.option(key, "Y" if default else "N") == "Y"


def build_symbol(spec: BarcodeSpec, data: str, scale: float) -> tuple[SymbolGeometry, list[str]]:
    """The geometry of one barcode field and warnings (check digit added, data trimmed...)."""
    if len(data) > MAX_DATA:
        raise SymbolError(f"barcode data is {len(data)} characters, over the {MAX_DATA} cap")
    builder = _BUILDERS.get(spec.command)
    if builder is None:
        raise SymbolError(f"^{spec.command} is not a supported barcode")
    job = _Job(spec, scale, [])
    return builder(job, data), job.warnings


# -- zint ---------------------------------------------------------------------


def _encode(
    job: _Job,
    symbology: zint.Symbology,
    payload: str | bytes,
    *,
    option_1: int | None = None,
    option_2: int | None = None,
    option_3: int | None = None,
    mode: zint.InputMode | None = None,
    primary: str = "",
    structapp: tuple[int, int] | None = None,
) -> zint.Symbol:
    """Run libzint; its errors become SymbolError, its warnings ours."""
    symbol = zint.Symbol()
    symbol.symbology = symbology
    if structapp is not None:
        symbol.structapp = zint.StructApp(*structapp)
    if mode is not None:
        symbol.input_mode = mode
    for name, value in (("option_1", option_1), ("option_2", option_2), ("option_3", option_3)):
        if value is not None:
            setattr(symbol, name, value)
    if primary:
        symbol.primary = primary
    if payload in ("", b""):
        raise SymbolError("barcode field data is empty")
    try:
        symbol.encode(payload)
    except RuntimeError as exc:
        raise SymbolError(f"^{job.spec.command}: {exc}") from exc
    if symbol.errtxt:
        job.warnings.append(f"^{job.spec.command}: {symbol.errtxt}")
    return symbol


def _matrix(symbol: zint.Symbol) -> np.ndarray:
    """The symbol's modules as a rows x width array of 0/1 (zint packs bits LSB first)."""
    packed = np.asarray(symbol.encoded_data)[: symbol.rows]
    bits = np.unpackbits(packed, axis=1, bitorder="little")
    return bits[:, : symbol.width]


def _runs(row: np.ndarray) -> list[tuple[int, int, int]]:
    """(value, start, length) for each run of equal modules in one row."""
    edges = np.flatnonzero(np.diff(row)) + 1
    starts = np.concatenate(([0], edges))
    ends = np.concatenate((edges, [len(row)]))
    return [(int(row[s]), int(s), int(e - s)) for s, e in zip(starts, ends, strict=True)]


# -- linear symbols -----------------------------------------------------------


@dataclass
class _Linear:
    """What a linear command asks zint for, and what its interpretation line says."""

    symbology: zint.Symbology
    payload: str
    text: str
    two_widths: bool = False  # Code 39 family: wide elements follow ^BY's ratio
    option_2: int | None = None
    mode: zint.InputMode | None = None


def _bar_runs(job: _Job, row: np.ndarray, two_widths: bool) -> tuple[list[tuple[int, int]], int]:
    """Bars as (x, width) pixels, and the symbol width, for one row of modules."""
    narrow = job.module
    runs = _runs(row)
    shortest = min(length for _, _, length in runs)
    wide = max(narrow + 1, round(job.spec.ratio * narrow))
    bars: list[tuple[int, int]] = []
    x = 0
    for value, _, length in runs:
        width = (wide if length > shortest else narrow) if two_widths else length * narrow
        if value:
            bars.append((x, width))
        x += width
    return bars, x


def _text_font(job: _Job) -> tuple[float, float]:
    """Interpretation line size: Zebra font A magnified by ^BY w (Labelary: 14 dots at w=2)."""
    mag = max(1, job.spec.module_width)
    return 9 * mag * job.scale, 5 * mag * job.scale


def _interpretation(job: _Job, text: str, width: float, height: float) -> tuple[SymbolText, ...]:
    """One centred interpretation line below the bars, or above the field origin."""
    if not text or not job.flag("line"):
        return ()
    font_h, font_w = _text_font(job)
    y = -font_h - job.px(8) if job.flag("line_above") else height + job.px(6)
    return (SymbolText(text, 0.0, y, font_h, font_w, "A", center_width=width),)


def _linear_geometry(job: _Job, linear: _Linear) -> SymbolGeometry:
    symbol = _encode(job, linear.symbology, linear.payload, option_2=linear.option_2,
                     mode=linear.mode)
    bars, width = _bar_runs(job, _matrix(symbol)[0], linear.two_widths)
    height = job.px(job.spec.height)
    rects = tuple((float(x), 0.0, float(w), float(height)) for x, w in bars)
    texts = _interpretation(job, linear.text, width, height)
    total = height + (sum(t.font_height for t in texts if t.y > 0) + job.px(6) if texts else 0)
    return SymbolGeometry(float(width), float(total), rects, texts=texts, baseline=float(height))


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _mod10(digits: str) -> str:
    """GS1 / UCC mod-10 check digit: weights 3,1,3... from the right."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


# ^BC field data: Zebra's invocation codes (">" + char) -> zint's extra escapes.
_C128_CODES = {
    "9": r"\^A", ":": r"\^B", ";": r"\^C", "7": r"\^A", "6": r"\^B", "5": r"\^C",
    "8": r"\^1", "<": ">", "0": ">", "=": "~",
}


def _code128_normal(data: str) -> tuple[str, str]:
    """Mode N: invocation codes become subset switches; the default start is subset B."""
    payload, text, i = [], [], 0
    while i < len(data):
        ch = data[i]
        code = _C128_CODES.get(data[i + 1 : i + 2]) if ch == ">" else None
        if code is not None:
            payload.append(code)
            text.append(code if code in "<>~" else "")
            i += 2
            continue
        payload.append("\\\\" if ch == "\\" else ch)
        text.append(ch)
        i += 1
    joined = "".join(payload)
    if not joined.startswith("\\^"):
        joined = r"\^B" + joined
    return joined, "".join(text)


def _code128(job: _Job, data: str) -> SymbolGeometry:
    """^BC - Code 128: modes N (invocation codes), U (UCC case), A (automatic), D (UCC/EAN)."""
    mode = job.opt("mode", "N")
    extra = zint.InputMode.EXTRA_ESCAPE
    if mode == "U":
        digits = _digits(data)[:19].rjust(19, "0")
        digits += _mod10(digits)
        linear = _Linear(Z.CODE128, r"\^C\^1" + digits, digits, mode=extra)
    elif mode == "D":
        plain = data.replace(">8", "\x1d").replace("(", "").replace(")", "").replace(" ", "")
        body = plain.replace("\\", "\\\\").replace("\x1d", r"\^1")
        linear = _Linear(Z.CODE128, r"\^1" + body, data.replace(">8", ""), mode=extra)
    elif mode == "A":
        body = data.replace("\\", "\\\\").replace(">8", r"\^1")
        linear = _Linear(Z.CODE128, body, data.replace(">8", ""), mode=zint.InputMode.ESCAPE)
    else:
        payload, text = _code128_normal(data)
        linear = _Linear(Z.CODE128, payload, text, mode=extra)
    # ^BC e (UCC check digit) changes nothing in modes N and A: Labelary draws the same bars.
    return _linear_geometry(job, linear)


def _code39(job: _Job, data: str) -> SymbolGeometry:
    """^B3 - Code 39: optional mod-43 check; the line shows the * start/stop."""
    text = data.upper()
    check = 1 if job.flag("check") else 0
    return _linear_geometry(job, _Linear(Z.CODE39, text, f"*{text}*", True, option_2=check))


def _logmars(job: _Job, data: str) -> SymbolGeometry:
    """^BL - LOGMARS: Code 39 with a mandatory mod-43 check digit, shown in the line."""
    text = data.upper()
    shown = text + _mod43(text)
    return _linear_geometry(job, _Linear(Z.LOGMARS, text, shown, True, option_2=1))


_CODE39_SET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"


def _mod43(text: str) -> str:
    """Code 39 mod-43 check character (ISO/IEC 16388 annex A)."""
    total = sum(_CODE39_SET.index(ch) for ch in text if ch in _CODE39_SET)
    return _CODE39_SET[total % 43]


def _code93(job: _Job, data: str) -> SymbolGeometry:
    """^BA - Code 93: two check characters always; the line shows them only with e=Y."""
    return _linear_geometry(job, _Linear(Z.CODE93, data, data))


def _interleaved(job: _Job, data: str) -> SymbolGeometry:
    """^B2 - Interleaved 2 of 5: optional mod-10 check; an odd count gets a leading zero."""
    digits = _digits(data)
    if job.flag("check"):
        digits += _mod10(digits)
    if len(digits) % 2:
        digits = "0" + digits
    return _linear_geometry(job, _Linear(Z.C25INTER, digits, digits, True))


def _industrial(job: _Job, data: str) -> SymbolGeometry:
    """^BI - Industrial 2 of 5."""
    return _linear_geometry(job, _Linear(Z.C25IND, data, data, True))


def _standard25(job: _Job, data: str) -> SymbolGeometry:
    """^BJ - Standard 2 of 5: Labelary's bars match the IATA start/stop patterns."""
    return _linear_geometry(job, _Linear(Z.C25IATA, data, data, True))


def _codabar(job: _Job, data: str) -> SymbolGeometry:
    """^BK - ANSI Codabar: start and stop characters come from the command."""
    body = data.upper()
    if body[:1] not in ("A", "B", "C", "D"):
        body = job.opt("start", "A") + body
    if body[-1:] not in ("A", "B", "C", "D"):
        body += job.opt("stop", "A")
    check = 1 if job.flag("check") else None
    return _linear_geometry(job, _Linear(Z.CODABAR, body, body, True, option_2=check))


def _code11(job: _Job, data: str) -> SymbolGeometry:
    """^B1 - Code 11: e=Y one check digit, e=N two."""
    option = 1 if job.flag("check") else 0
    return _linear_geometry(job, _Linear(Z.CODE11, data, data, True, option_2=option))


_MSI_CHECKS = {"A": 0, "B": 1, "C": 2, "D": 4}


def _msi(job: _Job, data: str) -> SymbolGeometry:
    """^BM - MSI: check digits A none, B mod 10, C two mod 10, D mod 11 and mod 10."""
    option = _MSI_CHECKS.get(job.opt("check", "B"), 1)
    return _linear_geometry(job, _Linear(Z.MSI_PLESSEY, data[:14], data[:14], True,
                                         option_2=option))


def _plessey(job: _Job, data: str) -> SymbolGeometry:
    """^BP - Plessey: zint adds the CRC check characters."""
    return _linear_geometry(job, _Linear(Z.PLESSEY, data, data, True))


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
    bottom = height  # Labelary lets the guard bars overhang the field box (see ^BER)
    if texts and texts[0].y > 0:
        bottom = max(bottom, int(texts[0].y + texts[0].font_height))
    return SymbolGeometry(float(width), float(bottom), tuple(rects), texts=tuple(texts),
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


# -- matrix and stacked symbols ----------------------------------------------


def _grid(bits: np.ndarray, module_x: int, row_heights: list[int], y0: int = 0) -> list[Rect]:
    """One rect per horizontal run of dark modules, rows stacked at their own heights."""
    rects: list[Rect] = []
    y = y0
    for r in range(bits.shape[0]):
        for value, start, length in _runs(bits[r]):
            if value:
                rects.append((start * module_x, float(y), length * module_x,
                              float(row_heights[r])))
        y += row_heights[r]
    return rects


def _matrix_geometry(job: _Job, symbol: zint.Symbol, module_x: int,
                     row_heights: list[int] | None = None, y0: int = 0) -> SymbolGeometry:
    bits = _matrix(symbol)
    heights = row_heights or [module_x] * bits.shape[0]
    rects = _grid(bits, module_x, heights, y0)
    height = y0 + sum(heights)
    return SymbolGeometry(float(bits.shape[1] * module_x), float(height), tuple(rects),
                          baseline=float(height))


_QR_LEVELS = {"L": 1, "M": 2, "Q": 3, "H": 4}


def _qr_payload(job: _Job, data: str) -> tuple[str, str]:
    """^BQ field data: '<ecc><input mode>,<data>'; manual mode puts a type before the data."""
    ecc = job.opt("ecc", "Q")
    head, sep, body = data.partition(",")
    if not sep or len(head) > 2 or (head[:1].upper() not in "HQML" and head[:1] != ""):
        job.warnings.append("^BQ data should start with '<ecc><mode>,'; all of it is encoded")
        return ecc, data
    ecc = head[:1].upper() or ecc
    if head[1:2].upper() == "M" and body[:1].upper() in ("N", "A", "K"):
        body = body[1:]
    elif head[1:2].upper() == "M" and body[:1].upper() == "B":
        body = body[5:]  # B + a four-digit byte count
    return ecc, body


def _qr(job: _Job, data: str) -> SymbolGeometry:
    """^BQ - QR Code (model 2): magnification is the module size in dots."""
    ecc, body = _qr_payload(job, data)
    # The mask is left to zint's automatic choice: Labelary's output matches that, not ^BQ e.
    symbol = _encode(job, Z.QRCODE, body.encode("utf-8"), option_1=_QR_LEVELS.get(ecc, 3))
    module = job.px(int(job.opt("magnification", "2")))
    # A Zebra printer (and Labelary) sets a QR symbol below the field origin by the
    # ^BY bar code height (10 dots by default).
    return _matrix_geometry(job, symbol, module, y0=job.px(job.spec.height))


# Data Matrix ECC 200 sizes (rows, columns) in zint's option_2 order (ISO/IEC 16022 table 7).
_DM_SIZES = (
    (10, 10), (12, 12), (14, 14), (16, 16), (18, 18), (20, 20), (22, 22), (24, 24), (26, 26),
    (32, 32), (36, 36), (40, 40), (44, 44), (48, 48), (52, 52), (64, 64), (72, 72), (80, 80),
    (88, 88), (96, 96), (104, 104), (120, 120), (132, 132), (144, 144), (8, 18), (8, 32),
    (12, 26), (12, 36), (16, 36), (16, 48),
)


# Data codewords each size holds, in _DM_SIZES order.
_DM_CAPACITY = (
    3, 5, 8, 12, 18, 22, 30, 36, 44, 62, 86, 114, 144, 174, 204, 280, 368, 456, 576, 696, 816,
    1050, 1304, 1558, 5, 10, 16, 22, 32, 49,
)


def _dm_ascii_size(payload: bytes, rectangular: bool) -> int | None:
    """The smallest size that holds ``payload`` in ASCII encodation, as Zebra picks it."""
    count, i = 0, 0
    while i < len(payload):
        pair = payload[i : i + 2]
        step = 2 if len(pair) == 2 and pair.isdigit() else 1
        count += 2 if payload[i] > 127 else 1
        i += step
    candidates = range(24, 30) if rectangular else range(24)
    for index in candidates:
        if _DM_CAPACITY[index] >= count:
            return index + 1
    return None


def _dm_unescape(data: str, escape: str) -> tuple[str, bool]:
    """^BX escape sequences: <e>1 FNC1, <e>dNNN a byte, <e>X a control character."""
    out: list[str] = []
    gs1 = False
    i = 0
    while i < len(data):
        ch, nxt = data[i], data[i + 1 : i + 2]
        if ch != escape or not nxt:
            out.append(ch)
            i += 1
        elif nxt == "1":
            gs1 = gs1 or not out
            out.append("\x1d")
            i += 2
        elif nxt.lower() == "d" and data[i + 2 : i + 5].isdigit():
            out.append(chr(int(data[i + 2 : i + 5]) % 256))
            i += 5
        elif nxt == escape:
            out.append(escape)
            i += 2
        elif "@" <= nxt.upper() <= "_":
            out.append(chr(ord(nxt.upper()) - 64))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out), gs1


def _datamatrix(job: _Job, data: str) -> SymbolGeometry:
    """^BX - Data Matrix ECC 200: h is the module size; columns/rows pick a size."""
    if job.opt("quality", "200") != "200":
        job.warnings.append("^BX: only ECC 200 is supported; quality 200 used")
    text, gs1 = _dm_unescape(data, job.opt("escape", "~") or "~")
    size = (int(job.opt("rows", "0")), int(job.opt("columns", "0")))
    rectangular = job.opt("aspect", "1") == "2"
    if gs1:
        payload, mode = _gs1_brackets(text.lstrip("\x1d")), _GS1_MODE | zint.InputMode.FAST
    else:
        payload, mode = text, zint.InputMode.FAST
    asked = _DM_SIZES.index(size) + 1 if size in _DM_SIZES else None
    option_2 = asked or _dm_ascii_size(_bytes(text), rectangular)
    try:
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), option_2=option_2, mode=mode)
    except SymbolError:
        if option_2 is None:
            raise
        if asked:
            job.warnings.append("^BX: data does not fit the requested size; size chosen")
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), mode=mode,
                         option_3=None if rectangular else 100)
    module = int(job.opt("module", "0"))
    if module <= 0:  # h omitted: ^BY height is the approximate symbol height
        module = max(1, job.spec.height // max(1, symbol.rows))
    return _matrix_geometry(job, symbol, job.px(module))


def _bytes(text: str) -> bytes:
    """Field text as zint bytes: latin-1 where it fits (one byte per character)."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


def _pdf417_columns(job: _Job, symbology: zint.Symbology, payload: bytes,
                    security: int) -> int | None:
    """Zebra's automatic shape (c=0): floor(sqrt(codewords) / 2) columns, fitted to Labelary."""
    columns = int(job.opt("columns", "0"))
    if columns or int(job.opt("rows", "0")):
        return columns or None
    try:
        codewords = _encode(_Job(job.spec, job.scale, []), symbology, payload,
                            option_1=security, option_2=1).rows
    except SymbolError:  # over 90 codewords: estimate from a four-column symbol
        codewords = 4 * _encode(_Job(job.spec, job.scale, []), symbology, payload,
                                option_1=security, option_2=4).rows
    return max(1, min(30, math.isqrt(codewords) // 2))


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


def _aztec_options(job: _Job) -> tuple[int | None, int | None]:
    """^BO d: 1-99 error correction percent, 101-104 compact, 201-232 full-range layers."""
    code = int(job.opt("size", "0"))
    if 1 <= code <= 99:
        return (1 if code <= 10 else 2 if code <= 23 else 3 if code <= 36 else 4), None
    if 101 <= code <= 104:
        return None, code - 100
    if 201 <= code <= 232:
        return None, code - 200 + 4
    return None, None


def _aztec(job: _Job, data: str) -> SymbolGeometry:
    """^BO / ^B0 - Aztec: magnification is the module size; d sets ECC or layers."""
    module = job.px(int(job.opt("magnification", "2")))
    if job.opt("size") == "300":
        digits = _digits(data)[:3] or "0"
        return _matrix_geometry(job, _encode(job, Z.AZRUNE, digits), module)
    ecc, layers = _aztec_options(job)
    try:
        symbol = _encode(job, Z.AZTEC, _bytes(data), option_1=ecc, option_2=layers)
    except SymbolError:
        if layers is None:
            raise
        job.warnings.append("^BO: data does not fit the requested layers; size chosen")
        symbol = _encode(job, Z.AZTEC, _bytes(data), option_1=ecc)
    return _matrix_geometry(job, symbol, module)


# -- MaxiCode -----------------------------------------------------------------

# Labelary draws MaxiCode 200 dots wide at 8 dots/mm (30 columns of hexagons).
_MAXI_WIDTH = 200.0


def _maxicode_primary(job: _Job, data: str, mode: int) -> tuple[str, str]:
    """Modes 2/3: the high priority message is class, country and postcode, then the rest."""
    if mode not in (2, 3):
        return "", data
    length = 15 if mode == 2 else 12
    hpm, rest = data[:length], data[length:]
    if len(hpm) < length:
        raise SymbolError(f"^BD mode {mode} needs a {length}-character primary message")
    service, country, postcode = hpm[:3], hpm[3:6], hpm[6:]
    if mode == 2:
        postcode = postcode.rstrip()
    return postcode + country + service, rest


def _maxicode(job: _Job, data: str) -> SymbolGeometry:
    """^BD - MaxiCode modes 2-6; modes 2 and 3 carry a structured carrier message."""
    mode = int(job.opt("mode", "2"))
    primary, secondary = _maxicode_primary(job, data, mode)
    total = int(job.opt("total", "1"))
    structapp = (min(int(job.opt("number", "1")), total), total) if total > 1 else None
    symbol = _encode(job, Z.MAXICODE, _bytes(secondary) if secondary else b" ",
                     option_1=mode, primary=primary, structapp=structapp)
    symbol.buffer_vector()
    vector = symbol.vector
    unit = _MAXI_WIDTH * job.scale / vector.width
    pitch = unit * vector.width / symbol.width
    hexagons = tuple((h.x * unit, h.y * unit, pitch * 0.9) for h in vector.hexagons)
    rings = tuple(
        (c.x * unit, c.y * unit, (c.diameter + c.width) / 2 * unit,
         (c.diameter - c.width) / 2 * unit)
        for c in vector.circles
    )
    height = vector.height * unit
    return SymbolGeometry(vector.width * unit, height, (), hexagons, rings, baseline=height)


# -- GS1 ----------------------------------------------------------------------

_GS1_MODE = zint.InputMode.GS1 | zint.InputMode.GS1NOCHECK

# Element strings of predefined length, by the AI's first two digits (GS1 General
# Specifications, figure 7.8.4-2); the length counts the AI itself.
_GS1_FIXED = {
    "00": 20, "01": 16, "02": 16, "03": 16, "04": 18, "11": 8, "12": 8, "13": 8, "14": 8,
    "15": 8, "16": 8, "17": 8, "18": 8, "19": 8, "20": 4, "31": 10, "32": 10, "33": 10,
    "34": 10, "35": 10, "36": 10, "41": 16,
}


def _ai_length(digits: str) -> int:
    """How many digits the AI at the start of ``digits`` has."""
    head = digits[:2]
    if head in ("23", "24", "25", "71") or "40" <= head <= "49":
        return 3
    if "31" <= head <= "36" or head in ("39", "70", "72", "80", "81", "82"):
        return 4
    return 2


def _gs1_brackets(text: str) -> str:
    """'0112345678901231' or '(01)...' -> zint's '[01]...'; GS or FNC1 ends a variable field."""
    if text.startswith("("):
        return text.replace("(", "[").replace(")", "]").replace("\x1d", "")
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1d":
            i += 1
            continue
        ai_len = _ai_length(text[i:])
        end = i + _GS1_FIXED[text[i : i + 2]] if text[i : i + 2] in _GS1_FIXED else -1
        if end < 0:
            gs = text.find("\x1d", i)
            end = len(text) if gs < 0 else gs
        out.append(f"[{text[i : i + ai_len]}]{text[i + ai_len : end]}")
        i = end
    return "".join(out)


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


_BUILDERS: dict[str, Callable[[_Job, str], SymbolGeometry]] = {
    "BC": _code128, "B3": _code39, "BL": _logmars, "BA": _code93, "B2": _interleaved,
    "BI": _industrial, "BJ": _standard25, "BK": _codabar, "B1": _code11, "BM": _msi,
    "BP": _plessey, "BE": _ean13, "B8": _ean8, "BU": _upca, "B9": _upce, "BS": _upc_extension,
    "BZ": _postnet, "B5": _planet, "BQ": _qr, "BX": _datamatrix, "B7": _pdf417,
    "BF": _micropdf417, "BO": _aztec, "B0": _aztec, "BD": _maxicode, "BR": _databar,
    "B4": _code49, "BB": _codablock, "BT": _tlc39,
}
