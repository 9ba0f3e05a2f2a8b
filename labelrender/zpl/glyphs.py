"""Glyphs ready to paste: a font's mask for a character turned to a field's
orientation, its Pillow core and its offset from the pen point.

Layout measures a field's ink with them (``ink``) and raster pastes them; both
ask here, and what is made once serves every later render in the process: a
carrier label has a few hundred characters in a handful of fonts, and turning
or measuring each of them again on every render was a tenth of its time. The
cache is bounded by the bytes of the masks it holds (``fonts.SizedCache``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from PIL import Image

from .fonts import ScaledFont, SizedCache


class Glyph(NamedTuple):
    """A glyph's mask turned to its orientation, the mask's Pillow core (pasted
    straight onto the canvas's: ``Image.paste``'s checks cost more than pasting a
    small glyph), its size, and its top-left from the pen point."""

    mask: Image.Image
    core: Any
    width: int
    height: int
    dx: int
    dy: int


Shift = Callable[[int, int, int, int], tuple[int, int]]
# A turned glyph: how its mask turns, and where it goes from the pen point given the
# unturned mask's offset (left, top) and size (w, h).
TURNS: dict[str, tuple[Image.Transpose, Shift]] = {
    "R": (Image.Transpose.ROTATE_270, lambda left, top, w, h: (-(top + h), left)),
    "I": (Image.Transpose.ROTATE_180, lambda left, top, w, h: (-(left + w), -(top + h))),
    "B": (Image.Transpose.ROTATE_90, lambda left, top, w, h: (top, -(left + w))),
}

_NO_INK = Glyph(Image.new("L", (0, 0)), None, 0, 0, 0, 0)
_ready: SizedCache[tuple[ScaledFont, str, str], Glyph] = SizedCache(
    32 * 1024 * 1024, lambda glyph: glyph.width * glyph.height + 256)


def turned(font: ScaledFont, char: str, orientation: str) -> Glyph | None:
    """The glyph of ``char`` in ``font`` turned to ``orientation``; None when it has
    no ink (a space)."""
    glyph = _ready.get((font, orientation, char), lambda: _turn(font, char, orientation))
    return None if glyph is _NO_INK else glyph


def _turn(font: ScaledFont, char: str, orientation: str) -> Glyph:
    mask, left, top = font.glyph(char)
    if mask.width == 0:
        return _NO_INK
    turn = TURNS.get(orientation)
    if turn is not None:
        transpose, shift = turn
        left, top = shift(left, top, mask.width, mask.height)
        mask = mask.transpose(transpose)
    mask.load()
    return Glyph(mask, mask.im, mask.width, mask.height, left, top)


class Tables:
    """One render's glyphs by font and orientation, then by character: the
    process-wide cache is asked once a render for each, and a glyph painted again
    costs a look-up in a small dict."""

    def __init__(self) -> None:
        self._tables: dict[tuple[ScaledFont, str], dict[str, Glyph | None]] = {}

    def table(self, font: ScaledFont, orientation: str) -> dict[str, Glyph | None]:
        found = self._tables.get((font, orientation))
        if found is None:
            found = self._tables[(font, orientation)] = {}
        return found


def lookup(table: dict[str, Glyph | None], font: ScaledFont, orientation: str, char: str
           ) -> Glyph | None:
    """``char``'s glyph from a render's ``table``, asked of the cache on first sight."""
    if char in table:
        return table[char]
    glyph = table[char] = turned(font, char, orientation)
    return glyph
