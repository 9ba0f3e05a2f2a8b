"""What every symbol module shares: the geometry types, the build job and zint.

SymbolText, SymbolGeometry and SymbolError are the package's public contract and are
re-exported from ``labelrender.zpl.symbols``; the rest are helpers the symbology
modules build on: libzint encoding, module matrices and their runs, the
interpretation line, check digits and GS1 element strings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import zint

from ..elements import BarcodeSpec


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


# -- interpretation line and check digits -------------------------------------


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


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _mod10(digits: str) -> str:
    """GS1 / UCC mod-10 check digit: weights 3,1,3... from the right."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


# -- matrix and stacked symbols ----------------------------------------------


def _grid(bits: np.ndarray, module_x: int, row_heights: list[int], y0: int = 0) -> list[Rect]:
    """One rect per horizontal run of dark modules, rows stacked at their own heights,
    in reading order (found for all rows at once: a big matrix has thousands of runs)."""
    rows, width = bits.shape
    if rows == 0 or width == 0:
        return []
    dark = np.zeros((rows, width + 2), np.int8)
    dark[:, 1:-1] = bits != 0
    edges = np.diff(dark, axis=1)  # 1 where a dark run starts, -1 one past its end
    row, start = np.nonzero(edges == 1)
    end = np.nonzero(edges == -1)[1]  # the same runs, in the same (row-major) order
    heights = [float(h) for h in row_heights]
    tops = [float(y0)]
    for h in row_heights[:-1]:
        tops.append(tops[-1] + h)
    return [(s * module_x, tops[r], (e - s) * module_x, heights[r])
            for r, s, e in zip(row.tolist(), start.tolist(), end.tolist(), strict=True)]


def _matrix_geometry(job: _Job, symbol: zint.Symbol | np.ndarray, module_x: int,
                     row_heights: list[int] | None = None, y0: int = 0) -> SymbolGeometry:
    bits = symbol if isinstance(symbol, np.ndarray) else _matrix(symbol)
    heights = row_heights or [module_x] * bits.shape[0]
    rects = _grid(bits, module_x, heights, y0)
    height = y0 + sum(heights)
    return SymbolGeometry(float(bits.shape[1] * module_x), float(height), tuple(rects),
                          baseline=float(height))


def _bytes(text: str) -> bytes:
    """Field text as zint bytes: latin-1 where it fits (one byte per character)."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


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
