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
    # The box a rotation turns about: the bars (or modules) only. Labelary keeps a
    # rotated linear symbol's bars on the field origin and lets its interpretation line
    # and EAN guard bars hang outside: ^BCI,200,Y puts the bars at ^FO y..y+200 and the
    # digits above them (labelize-units/barcode128_rotated), ^BER,80,Y keeps the bars at
    # ^FO x with the digits to their left, ^BEI,320,Y the same upside down
    # (labelize-units/ean13).
    height: float
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
    return SymbolGeometry(float(width), float(height), rects, texts=texts, baseline=float(height))


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _mod10(digits: str) -> str:
    """GS1 / UCC mod-10 check digit: weights 3,1,3... from the right."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


# ^BC field data: Zebra's invocation codes (">" + char). >9 >: >; start a subset; >5 >6 >7
# are the code values 99-101, whose meaning depends on the subset in use (ZPL II guide,
# table "Code 128 Invocation Characters"): CODE C from A or B, CODE B from A or C, CODE A
# from B or C; >6 in B and >7 in A are FNC4, which zint places itself.
_C128_STARTS = {"9": "A", ":": "B", ";": "C"}
_C128_SWITCHES = {"5": {"A": "C", "B": "C"}, "6": {"A": "B", "C": "B"},
                  "7": {"B": "A", "C": "A"}}
_C128_LITERALS = {"8": r"\^1", "<": ">", "0": ">", "=": "~"}


def _code128_subset_a(data: str, i: int) -> tuple[str, str, int]:
    """One subset A character from digit pairs at ``data[i]``: (payload, text, next i).

    The ZPL II guide: "Subsets A and C are programmed in pairs of digits, 00 to 99 ... In
    Subset A, each pair of digits results in a single character being encoded". A
    non-digit before a pair is ignored, one after a digit voids the pair, and a digit
    left unpaired before a code shift is dropped. Labelary does the same: ">7" then
    "52375152" prints TEST (labelize-units/barcode128_mode_n_cba_sets).
    """
    if not data[i].isdigit():
        return "", "", i + 1
    second = data[i + 1 : i + 2]
    if not second.isdigit():
        return "", "", i + 1 if second in ("", ">") else i + 2
    value = int(data[i : i + 2])
    if value < 64:
        char = chr(value + 32)
        return ("\\\\" if char == "\\" else char), char, i + 2
    if value < 96:  # NUL..US
        return ("\\0" if value == 64 else chr(value - 64)), "", i + 2
    return "", "", i + 2  # FNC3, FNC2, SHIFT, CODE C: not data


def _code128_normal(data: str) -> tuple[str, str]:
    """Mode N: invocation codes become subset switches; the default start is subset B."""
    payload, text, i = [r"\^B"], [], 0
    subset = "B"
    while i < len(data):
        ch, nxt = data[i], data[i + 1 : i + 2]
        if ch == ">" and nxt in _C128_STARTS:
            subset = _C128_STARTS[nxt]
            if i == 0:
                payload = []
            payload.append("\\^" + subset)
            i += 2
        elif ch == ">" and nxt in _C128_SWITCHES:
            target = _C128_SWITCHES[nxt].get(subset)
            if target is not None:
                subset = target
                payload.append("\\^" + subset)
            i += 2
        elif ch == ">" and nxt in _C128_LITERALS:
            literal = _C128_LITERALS[nxt]
            payload.append(literal)
            text.append(literal if literal in "<>~" else "")
            i += 2
        elif subset == "A":
            code, shown, i = _code128_subset_a(data, i)
            payload.append(code)
            text.append(shown)
        else:
            payload.append("\\\\" if ch == "\\" else ch)
            text.append(ch)
            i += 1
    return "".join(payload), "".join(text)


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


def _matrix_geometry(job: _Job, symbol: zint.Symbol | np.ndarray, module_x: int,
                     row_heights: list[int] | None = None, y0: int = 0) -> SymbolGeometry:
    bits = symbol if isinstance(symbol, np.ndarray) else _matrix(symbol)
    heights = row_heights or [module_x] * bits.shape[0]
    rects = _grid(bits, module_x, heights, y0)
    height = y0 + sum(heights)
    return SymbolGeometry(float(bits.shape[1] * module_x), float(height), tuple(rects),
                          baseline=float(height))


_QR_LEVELS = {"L": 1, "M": 2, "Q": 3, "H": 4}


def _qr_payload(job: _Job, data: str) -> tuple[str, str]:
    """^BQ field data '<ecc><input mode>,<data>', read the way Labelary reads it.

    The first character is the error correction level (^BQ d when it is not one of
    H, Q, M, L) and the second the input mode; a third character - the comma - is
    skipped only after a letter. So "EXAMPLE CODE" encodes "MPLE CODE"
    (labelize-units/qr_code_offset). In manual mode (M) a character mode follows:
    B and a four-digit count, or N/A/K, whose data loses its '|' separators
    ("MM,A3SPOST...|2514EE|..." encodes "3SPOST...2514EE...": labelize-units/
    postnl_qr, carriers auspost, royalmail, inpost). The modes only say what the
    data is: the segments are chosen by the encoder either way.
    """
    ecc = job.opt("ecc", "Q")
    if data[:1].upper() in _QR_LEVELS:
        ecc = data[0].upper()
    mode = data[1:2]
    if data[2:3] != "," or data[:1].upper() not in _QR_LEVELS or mode.upper() not in "AM":
        job.warnings.append("^BQ data should start with '<ecc><mode>,'; its head is dropped")
    body = data[3:] if mode.isalpha() else data[2:]
    if mode.upper() == "M":
        kind = body[:1].upper()
        if kind == "B":
            body = body[5:]  # B + a four-digit byte count
        elif kind in ("N", "A", "K"):
            body = body[1:].replace("|", "")
    return ecc, body


def _qr_symbol(job: _Job, payload: bytes, level: int, version: int, mask: int) -> zint.Symbol:
    return _encode(_Job(job.spec, job.scale, []), Z.QRCODE, payload, option_1=level,
                   option_2=version, option_3=(mask + 1) << 8)


def _qr_format_cells(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the 2 x 15 format information modules (ISO/IEC 18004 7.9)."""
    cells = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
    cells += [(8, 5 - i) for i in range(6)] + [(8, size - 1 - i) for i in range(8)]
    cells += [(size - 7 + i, 8) for i in range(7)]
    rows, cols = zip(*cells, strict=True)
    return np.array(rows), np.array(cols)


def _qr_run_penalty(lines: np.ndarray) -> int:
    """Rule 1 as Labelary scores it: a run past 5 modules costs 3 + (length - 5), where
    every run after a line's first is counted one module short."""
    total = 0
    for line in lines:
        edges = np.flatnonzero(np.diff(line)) + 1
        lengths = np.diff(np.concatenate(([0], edges, [len(line)])))
        lengths[1:] -= 1
        long = lengths[lengths > 5]
        total += int((long - 2).sum())
    return total


_QR_FINDER = np.array([1, 0, 1, 1, 1, 0, 1], dtype=np.uint8)


def _qr_finder_penalty(lines: np.ndarray) -> int:
    """Rule 3: 40 for each 1:1:3:1:1 run with 4 light modules (or the edge) on one side.

    Patterns that start in the last 7 modules of a line are not looked at."""
    n = lines.shape[1]
    if n < 8:
        return 0
    padded = np.pad(lines, ((0, 0), (4, 4)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, 15, axis=1)[:, : n - 7]
    found = (windows[:, :, 4:11] == _QR_FINDER).all(axis=2)
    clear = ~windows[:, :, :4].any(axis=2) | ~windows[:, :, 11:].any(axis=2)
    return 40 * int((found & clear).sum())


def _qr_penalty(bits: np.ndarray, mask: int, version: int) -> int:
    """The mask score Labelary's QR encoder minimises (lowest wins, ties to the lower mask).

    It follows ISO/IEC 18004 7.8.3 rules 1-3 with an older encoder's quirks (the one
    zint once had): the format information is scored only for mask 0 - every other
    mask sees those modules light - the version information is always light, runs
    are counted as above and rule 4 adds the same to every mask. This picks
    Labelary's mask in 33 of the 37 corpus QR symbols whose codewords match ours
    (zplkit qr_equipment, qr_label, microqr, the shop_*, bin_* and shipping_*
    labels...); the ISO scoring zint uses picks 23.
    """
    grid = bits.astype(np.uint8)
    size = grid.shape[0]
    if mask:
        grid[_qr_format_cells(size)] = 0
    if version >= 7:
        grid[size - 11 : size - 8, :6] = 0
        grid[:6, size - 11 : size - 8] = 0
    same = grid[:-1, :-1] == grid[1:, :-1]
    same &= grid[:-1, :-1] == grid[:-1, 1:]
    same &= grid[:-1, :-1] == grid[1:, 1:]
    return (_qr_run_penalty(grid) + _qr_run_penalty(grid.T) + 3 * int(same.sum())
            + _qr_finder_penalty(grid) + _qr_finder_penalty(grid.T))


def _qr(job: _Job, data: str) -> SymbolGeometry:
    """^BQ - QR Code (model 2): magnification is the module size in dots.

    The level asked for picks the version; then, as in Labelary, the level is raised
    to the highest that still fits that version: "MA,HELLO WORLD" prints at Q
    (labelize-units/qr_ft_*), "MA,LOC-A-01" at H (zplkit warehouse_bin, bin_storage),
    inpost's "MM,..." at Q: every M request in the corpus whose data zint segments as
    Labelary does (royalmail's does not). ^BQ e (mask) is ignored: Labelary chooses
    the mask itself (see _qr_penalty).
    """
    ecc, body = _qr_payload(job, data)
    payload = body.encode("utf-8")
    first = _encode(job, Z.QRCODE, payload, option_1=_QR_LEVELS.get(ecc, 3))
    version = (first.width - 17) // 4
    level = _QR_LEVELS.get(ecc, 3)
    for higher in range(level + 1, 5):
        try:
            _qr_symbol(job, payload, higher, version, 0)
        except SymbolError:
            break
        level = higher
    symbols = [_qr_symbol(job, payload, level, version, mask) for mask in range(8)]
    scores = [_qr_penalty(_matrix(symbol), mask, version) for mask, symbol in enumerate(symbols)]
    symbol = symbols[scores.index(min(scores))]
    module = job.px(int(job.opt("magnification", "2")))
    # A Zebra printer (and Labelary) sets a QR symbol below the field origin by the
    # ^BY bar code height (10 dots by default).
    top = job.px(job.spec.height)
    geometry = _matrix_geometry(job, symbol, module, y0=top)
    # With ^FT the symbol's bottom sits above the given y, by 4 * version - 1 modules:
    # 3 modules for version 1 (15 dots at magnification 5: labelize-units/qr_ft_test,
    # qr_ft_600, qr_ft_by100 - whatever ^BY h is), 7 for version 2 (70 dots at 10:
    # qr_code_ft_manual, where it lands on the label's rule at y=430).
    lift = (4 * version - 1) * module
    return SymbolGeometry(geometry.width, geometry.height, geometry.rects,
                          baseline=geometry.height + lift)


# Data Matrix ECC 200 sizes (rows, columns) in zint's option_2 order (ISO/IEC 16022 table 7).
_DM_SIZES = (
    (10, 10), (12, 12), (14, 14), (16, 16), (18, 18), (20, 20), (22, 22), (24, 24), (26, 26),
    (32, 32), (36, 36), (40, 40), (44, 44), (48, 48), (52, 52), (64, 64), (72, 72), (80, 80),
    (88, 88), (96, 96), (104, 104), (120, 120), (132, 132), (144, 144), (8, 18), (8, 32),
    (12, 26), (12, 36), (16, 36), (16, 48),
)


# Per size, in _DM_SIZES order: data codewords, error correction codewords, Reed-Solomon
# blocks, and data regions down and across (ISO/IEC 16022 table 7).
_DM_LAYOUT = (
    (3, 5, 1, 1, 1), (5, 7, 1, 1, 1), (8, 10, 1, 1, 1), (12, 12, 1, 1, 1), (18, 14, 1, 1, 1),
    (22, 18, 1, 1, 1), (30, 20, 1, 1, 1), (36, 24, 1, 1, 1), (44, 28, 1, 1, 1),
    (62, 36, 1, 2, 2), (86, 42, 1, 2, 2), (114, 48, 1, 2, 2), (144, 56, 1, 2, 2),
    (174, 68, 1, 2, 2), (204, 84, 2, 2, 2), (280, 112, 2, 4, 4), (368, 144, 4, 4, 4),
    (456, 192, 4, 4, 4), (576, 224, 4, 4, 4), (696, 272, 4, 4, 4), (816, 336, 6, 4, 4),
    (1050, 408, 6, 6, 6), (1304, 496, 8, 6, 6), (1558, 620, 10, 6, 6),
    (5, 7, 1, 1, 1), (10, 11, 1, 1, 2), (16, 14, 1, 1, 1), (22, 18, 1, 1, 2),
    (32, 24, 1, 1, 2), (49, 28, 1, 1, 2),
)


def _dm_placement(nrow: int, ncol: int) -> list[list[tuple[int, int]]]:
    """Module (row, column) of each codeword's bits, most significant first, in the
    mapping matrix (ISO/IEC 16022 annex F)."""
    taken = np.zeros((nrow, ncol), dtype=bool)
    cells: list[list[tuple[int, int]]] = []

    def put(spots: list[tuple[int, int]]) -> None:
        placed = []
        for row, col in spots:
            if row < 0:
                row, col = row + nrow, col + 4 - ((nrow + 4) % 8)
            if col < 0:
                row, col = row + 4 - ((ncol + 4) % 8), col + ncol
            taken[row, col] = True
            placed.append((row, col))
        cells.append(placed)

    def utah(r: int, c: int) -> None:
        put([(r - 2, c - 2), (r - 2, c - 1), (r - 1, c - 2), (r - 1, c - 1), (r - 1, c),
             (r, c - 2), (r, c - 1), (r, c)])

    n, m = nrow, ncol
    corners = (
        [(n - 1, 0), (n - 1, 1), (n - 1, 2), (0, m - 2), (0, m - 1), (1, m - 1), (2, m - 1),
         (3, m - 1)],
        [(n - 3, 0), (n - 2, 0), (n - 1, 0), (0, m - 4), (0, m - 3), (0, m - 2), (0, m - 1),
         (1, m - 1)],
        [(n - 3, 0), (n - 2, 0), (n - 1, 0), (0, m - 2), (0, m - 1), (1, m - 1), (2, m - 1),
         (3, m - 1)],
        [(n - 1, 0), (n - 1, m - 1), (0, m - 3), (0, m - 2), (0, m - 1), (1, m - 3),
         (1, m - 2), (1, m - 1)],
    )
    row, col = 4, 0
    while row < nrow or col < ncol:
        if row == nrow and col == 0:
            put(corners[0])
        if row == nrow - 2 and col == 0 and ncol % 4:
            put(corners[1])
        if row == nrow - 2 and col == 0 and ncol % 8 == 4:
            put(corners[2])
        if row == nrow + 4 and col == 2 and ncol % 8 == 0:
            put(corners[3])
        while True:  # up and to the right
            if row < nrow and col >= 0 and not taken[row, col]:
                utah(row, col)
            row, col = row - 2, col + 2
            if not (row >= 0 and col < ncol):
                break
        row, col = row + 1, col + 3
        while True:  # down and to the left
            if row >= 0 and col < ncol and not taken[row, col]:
                utah(row, col)
            row, col = row + 2, col - 2
            if not (row < nrow and col >= 0):
                break
        row, col = row + 3, col + 1
    return cells


def _gf256_tables() -> tuple[list[int], list[int]]:
    """Exponent and log tables of GF(256) with Data Matrix's polynomial 0x12D."""
    exp, log = [0] * 512, [0] * 256
    value = 1
    for i in range(255):
        exp[i], log[value] = value, i
        value <<= 1
        if value & 0x100:
            value ^= 0x12D
    for i in range(255, 512):
        exp[i] = exp[i - 255]
    return exp, log


_GF_EXP, _GF_LOG = _gf256_tables()


def _dm_check_words(data: list[int], count: int) -> list[int]:
    """Reed-Solomon check codewords with generator roots alpha^1..alpha^count."""
    gen = [1]
    for i in range(1, count + 1):
        nxt = [0] * (len(gen) + 1)
        for j, coef in enumerate(gen):
            nxt[j] ^= coef
            if coef:
                nxt[j + 1] ^= _GF_EXP[_GF_LOG[coef] + i]
        gen = nxt
    rest = [0] * count
    for value in data:
        factor = value ^ rest[0]
        rest = rest[1:] + [0]
        if factor:
            for j in range(count):
                if gen[j + 1]:
                    rest[j] ^= _GF_EXP[_GF_LOG[factor] + _GF_LOG[gen[j + 1]]]
    return rest


_DM_C40_BASIC = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DM_TEXT_BASIC = " 0123456789abcdefghijklmnopqrstuvwxyz"


def _dm_short_tail(data: list[int]) -> list[int] | None:
    """Labelary's end of a C40/Text run with two characters left, or None if it differs.

    Where zint unlatches and writes the last two characters as ASCII, Labelary keeps
    them in the run as one triple padded with Shift 1 (the ISO/IEC 16022 end-of-data
    option), then unlatches: the same three codewords, different bits. Seen in
    "DataMatrixTest" (zplab barcode_datamatrix_standard and _rot_R), carriers
    colissimo ("...DUPONT") and dhlecommercetr ("...A6J"); every other ^BX in the
    corpus matches zint's codewords as they are.
    """
    basic, i = "", 0
    while i < len(data):
        word = data[i]
        if basic:
            if word != 254:
                i += 2
                continue
            tail = data[i + 1 : i + 3]
            rest = data[i + 3 : i + 4]
            chars = "".join(chr(w - 1) for w in tail if 1 <= w <= 128)
            if len(chars) == 2 and rest in ([], [129]) and all(c in basic for c in chars):
                # C40/Text values: space 3, digits 4-13, letters 14-39; Shift 1 is 0.
                first, second = (basic.index(c) + 3 for c in chars)
                value = 1600 * first + 40 * second + 1
                return [*data[:i], value >> 8, value & 0xFF, 254, *data[i + 3 :]]
            basic, i = "", i + 1
        elif word == 129:
            return None
        elif word in (230, 239):  # latch to C40 or Text
            basic, i = (_DM_C40_BASIC if word == 230 else _DM_TEXT_BASIC), i + 1
        elif word == 235:
            i += 2
        elif word > 229 and word != 232:
            return None  # Base 256, X12, EDIFACT, ECI...: left to zint
        else:
            i += 1
    return None


def _dm_labelary_bits(symbol: zint.Symbol) -> np.ndarray:
    """The symbol's modules, with its codewords rewritten where Labelary's differ."""
    bits = _matrix(symbol).copy()
    size = (symbol.rows, symbol.width)
    if size not in _DM_SIZES:
        return bits
    data_n, check_n, blocks, down, across = _DM_LAYOUT[_DM_SIZES.index(size)]
    if data_n % blocks or check_n % blocks:
        return bits
    rh, rw = size[0] // down - 2, size[1] // across - 2
    cells = [[((r // rh) * (rh + 2) + 1 + r % rh, (c // rw) * (rw + 2) + 1 + c % rw)
              for r, c in spots] for spots in _dm_placement(rh * down, rw * across)]
    words = [sum(int(bits[r, c]) << (7 - b) for b, (r, c) in enumerate(spots))
             for spots in cells[: data_n + check_n]]

    def with_checks(data: list[int]) -> list[int]:
        stream = data + [0] * check_n
        for block in range(blocks):
            checks = _dm_check_words(data[block::blocks], check_n // blocks)
            for k, word in enumerate(checks):
                stream[data_n + k * blocks + block] = word
        return stream

    if with_checks(words[:data_n]) != words:  # not read back as laid out: leave it
        return bits
    tail = _dm_short_tail(words[:data_n])
    if tail is None:
        return bits
    for spots, word in zip(cells, with_checks(tail), strict=False):
        for b, (r, c) in enumerate(spots):
            bits[r, c] = (word >> (7 - b)) & 1
    return bits


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
    # Without c and r the size is the smallest that holds the data as zint's FAST
    # (ISO/IEC 16022 look-ahead) encodation packs it, as Labelary's are: 18x18 for
    # "DataMatrixTest" (zplab barcode_datamatrix_*), 20x20 for purolator's 32 mixed
    # characters, 18x18 for dhlecommercetr's 19 capitals, 36x36 for glsdk_return.
    asked = _DM_SIZES.index(size) + 1 if size in _DM_SIZES else None
    shape = None if rectangular else 100
    try:
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), option_2=asked, mode=mode,
                         option_3=None if asked else shape)
    except SymbolError:
        if asked is None:
            raise
        job.warnings.append("^BX: data does not fit the requested size; size chosen")
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), mode=mode, option_3=shape)
    module = int(job.opt("module", "0"))
    if module <= 0:  # h omitted: ^BY height is the approximate symbol height
        module = max(1, job.spec.height // max(1, symbol.rows))
    return _matrix_geometry(job, _dm_labelary_bits(symbol), job.px(module))


def _bytes(text: str) -> bytes:
    """Field text as zint bytes: latin-1 where it fits (one byte per character)."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


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


def _aztec_options(job: _Job) -> int | None:
    """^BO d: 101-104 compact, 201-232 full-range layers, as zint's option_2."""
    code = int(job.opt("size", "0"))
    if 101 <= code <= 104:
        return code - 100
    if 201 <= code <= 232:
        return code - 200 + 4
    return None


def _aztec_layers(option_2: int) -> tuple[bool, int]:
    """zint's option_2 -> (compact, layers)."""
    return (True, option_2) if option_2 <= 4 else (False, option_2 - 4)


def _aztec_codewords(compact: bool, layers: int) -> tuple[int, int]:
    """(codeword size in bits, codewords in the symbol) - ISO/IEC 24778 table 1."""
    word = 6 if layers <= 2 else 8 if layers <= 8 else 10 if layers <= 22 else 12
    return word, ((88 if compact else 112) + 16 * layers) * layers // word


def _aztec_data_words(symbol: zint.Symbol, compact: bool) -> int:
    """Data codewords in a symbol, read back from its mode message (ISO/IEC 24778 7.2)."""
    bits = _matrix(symbol)
    c = bits.shape[0] // 2
    if compact:  # 7 bits along the top of the core, then down its right side
        cells = [(c - 5, c - 3 + i) for i in range(7)] + [(c - 3 + i, c + 5) for i in range(7)]
        head = [int(bits[y, x]) for y, x in cells][:8]
        return int("".join(map(str, head[2:8])), 2) + 1
    steps = [i + i // 5 for i in range(10)]  # the full-range core skips its centre line
    cells = [(c - 7, c - 5 + d) for d in steps] + [(c - 5 + d, c + 7) for d in steps]
    head = [int(bits[y, x]) for y, x in cells][:16]
    return int("".join(map(str, head[5:16])), 2) + 1


def _aztec_for_ecc(job: _Job, payload: bytes, percent: int) -> zint.Symbol:
    """^BO d 1-99: the smallest symbol whose check words are at least d% of its codewords.

    Labelary treats d as ISO/IEC 24778's error correction percentage of the whole
    symbol: it takes the smallest size (compact 1-4, then full range) where the data
    codewords plus floor(total * d / 100) check words fit. That picks exactly the
    sizes of its references for "Part:123;..." (labelize-units/aztec_ec*): d=23 ->
    compact 3 layers (23 modules), 45 -> compact 4 (27), 70 -> full 5 (37), 95 ->
    full 15 (79, where 501 of 528 words are checks: 94.9 %, and 14 layers fall
    short), and zplkit/barcode_aztec's d=50 -> compact 2. zint's own four levels
    (10/23/36/50 % + 3 words) top out at half the symbol, so the size is chosen here
    and zint fills every codeword past the data with checks.
    """
    sizes = [*range(1, 5), *range(8, 37)]  # zint option_2: compact 1-4, full 4-32
    data_words: dict[int, int] = {}  # by codeword size: the data's length in words
    for option_2 in sizes:
        compact, layers = _aztec_layers(option_2)
        word, total = _aztec_codewords(compact, layers)
        known = data_words.get(word)
        if known is not None and known + total * percent // 100 > total:
            continue
        try:
            symbol = _encode(_Job(job.spec, job.scale, []), Z.AZTEC, payload, option_2=option_2)
        except SymbolError:
            continue
        words = _aztec_data_words(symbol, compact)
        data_words.setdefault(word, words)
        if words + total * percent // 100 <= total:
            return symbol
    job.warnings.append(f"^BO: no symbol has {percent}% error correction; largest used")
    return _encode(job, Z.AZTEC, payload)


def _aztec(job: _Job, data: str) -> SymbolGeometry:
    """^BO / ^B0 - Aztec: magnification is the module size; d sets ECC or layers."""
    module = job.px(int(job.opt("magnification", "2")))
    if job.opt("size") == "300":
        digits = _digits(data)[:3] or "0"
        return _matrix_geometry(job, _encode(job, Z.AZRUNE, digits), module)
    percent = int(job.opt("size", "0"))
    if 1 <= percent <= 99:
        return _matrix_geometry(job, _aztec_for_ecc(job, _bytes(data), percent), module)
    layers = _aztec_options(job)
    try:
        symbol = _encode(job, Z.AZTEC, _bytes(data), option_2=layers)
    except SymbolError:
        if layers is None:
            raise
        job.warnings.append("^BO: data does not fit the requested layers; size chosen")
        symbol = _encode(job, Z.AZTEC, _bytes(data))
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
