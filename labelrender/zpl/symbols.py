"""Barcode symbols: a BarcodeSpec plus field data -> geometry in target pixels.

libzint (zint-bindings) does the symbol encoding; this module turns its module
matrix into bars and text at the size ZPL asks for. It measures nothing about
fonts and paints nothing: layout rotates and places the geometry, raster paints it.

Every size is rounded to whole target pixels before bars are laid out, so a
module is the same number of pixels everywhere in a symbol and scanners decode it
at any resolution (ZPL II guide, ^BY: "module width in dots").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import zint

from .elements import BarcodeSpec
from .symbol_data import (
    PreparedData,
    prepare_linear,
)


@dataclass(frozen=True)
class SymbolText:
    """A piece of interpretation line, in the symbol's own (unrotated) pixel frame."""

    text: str
    x: float  # left edge of the text
    y: float  # top of the text cell
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
