"""Glyphs ready to paste: a font's mask for a character turned to a field's
orientation, its Pillow core and its offset from the pen point.

Layout measures a field's ink with them (``ink``) and raster pastes them; both
ask here, and what is made once serves every later render in the process: a
carrier label has a few hundred characters in a handful of fonts, and turning
or measuring each of them again on every render was a tenth of its time. The
tables are bounded by the bytes of the masks they hold.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from PIL import Image

from .fonts import ScaledFont


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

_MAX_BYTES = 16 * 1024 * 1024  # held over every font's table (all 664 corpus labels: 5.3 MB)
_ROOM = 256  # bytes a glyph costs beyond its mask (a glyph without ink, this alone)
_TABLE_ROOM = 2048  # bytes a table costs empty: the font it is kept by, the dict


class _Tables:
    """Every font's table, by (font, orientation), then by character; the tables
    used longest ago go first once what they hold passes ``max_bytes`` (masks, and
    a little for each table and each glyph, so many fonts or many characters
    without ink are bounded too), and a single table past it is dropped with the
    rest (a huge font is made glyph by glyph)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.held = 0
        self._tables: OrderedDict[tuple[ScaledFont, str], dict[str, Glyph | None]] = (
            OrderedDict())
        self._bytes: dict[tuple[ScaledFont, str], int] = {}
        self._lock = threading.Lock()

    def table(self, font: ScaledFont, orientation: str) -> dict[str, Glyph | None]:
        key = (font, orientation)
        found = self._tables.get(key)
        if found is not None:
            try:  # noqa: SIM105 - as SizedCache.get: a with costs more
                self._tables.move_to_end(key)
            except KeyError:  # dropped by another thread meanwhile: still good to use
                pass
            return found
        with self._lock:
            found = self._tables.get(key)
            if found is None:
                found = self._tables[key] = {}
                self._bytes[key] = 0
                self._charge(key, _TABLE_ROOM)
            return found

    def lookup(self, table: dict[str, Glyph | None], font: ScaledFont, orientation: str,
               char: str) -> Glyph | None:
        """``char``'s glyph from ``table`` (this cache's table of font and
        orientation), made and counted on first sight."""
        if char in table:
            return table[char]
        glyph = table[char] = _turn(font, char, orientation)
        size = _ROOM if glyph is None else glyph.width * glyph.height + _ROOM
        with self._lock:
            self._charge((font, orientation), size)
        return glyph

    def _charge(self, key: tuple[ScaledFont, str], size: int) -> None:
        """``size`` bytes more in the table of ``key``; the lock is held."""
        if key not in self._bytes:
            return  # its table was dropped while the glyph was made
        self._bytes[key] += size
        self.held += size
        while self.held > self.max_bytes and len(self._tables) > 1:
            oldest, _ = self._tables.popitem(last=False)
            self.held -= self._bytes.pop(oldest, 0)
        if self.held > self.max_bytes:  # one table over the bound by itself: it goes
            # too (a render still holding it fills it for itself, uncounted, and
            # lets it go when it ends)
            self._tables.clear()
            self._bytes.clear()
            self.held = 0


_TABLES = _Tables(_MAX_BYTES)


def table(font: ScaledFont, orientation: str) -> dict[str, Glyph | None]:
    """The process's table of glyphs for ``font`` turned to ``orientation``, for
    ``lookup``: a render asks for it once a field and a glyph costs a look-up in a
    small dict (made once a process)."""
    return _TABLES.table(font, orientation)


def lookup(table: dict[str, Glyph | None], font: ScaledFont, orientation: str, char: str
           ) -> Glyph | None:
    """``char``'s glyph from ``table`` (the table of font and orientation), made on
    first sight; None when it has no ink (a space)."""
    return _TABLES.lookup(table, font, orientation, char)


def turned(font: ScaledFont, char: str, orientation: str) -> Glyph | None:
    """The glyph of ``char`` in ``font`` turned to ``orientation``; None when it has
    no ink."""
    return lookup(table(font, orientation), font, orientation, char)


def _turn(font: ScaledFont, char: str, orientation: str) -> Glyph | None:
    mask, left, top = font.glyph(char)
    if mask.width == 0:
        return None
    turn = TURNS.get(orientation)
    if turn is not None:
        transpose, shift = turn
        left, top = shift(left, top, mask.width, mask.height)
        mask = mask.transpose(transpose)
    mask.load()
    return Glyph(mask, mask.im, mask.width, mask.height, left, top)
