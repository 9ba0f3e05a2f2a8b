"""Fonts: the files shipped in the package, the ZPL font rules, metrics and glyph masks.

Font 0 (CG Triumvirate Bold Condensed on a printer) is drawn with the closest
open outline font; the bitmap fonts A-H are drawn with an outline font fitted
into Zebra's character cells and scaled in whole multiples of the cell, as the
ZPL II guide's font matrix table says. Calibration figures: fonts/CALIBRATION.md.

Everything is loaded lazily and cached, so a process pays for a face once.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from PIL import Image, ImageDraw, ImageFont

from . import font0
from .errors import DEFAULT_LIMITS

FONT_DIR = Path(__file__).with_name("fonts")

# Font 0 per profile (ZPL "^A0"). The default is the closest match to Zebra's
# CG Triumvirate Bold Condensed that an open licence allows.
PROFILES: dict[str, str] = {
    "default": "IBMPlexSansCondensed-Bold.ttf",
    "dejavu": "DejaVuSansCondensed-Bold.ttf",
    "inter": "Inter-Bold.otf",
    "plex": "IBMPlexSansCondensed-Bold.ttf",
    "roboto": "RobotoCondensed-Bold.ttf",
}


@dataclass(frozen=True)
class ScalableRule:
    """How an outline font is sized from ^A h,w (all factors of the cell height h)."""

    file: str
    size: float  # FreeType pixel size = size * h
    baseline: float  # baseline sits this far below the cell top, * h
    width: float = 1.0  # horizontal scale = width * w / h
    space: float | None = None  # word-space advance * w (None: the face's own space)


# Calibrated against Labelary's renders of ^A0 glyphs (fonts/CALIBRATION.md).
FONT0_RULES: dict[str, ScalableRule] = {
    "texgyreheroscn-bold.otf": ScalableRule("texgyreheroscn-bold.otf", 1.0, 0.725),
    "DejaVuSansCondensed-Bold.ttf": ScalableRule("DejaVuSansCondensed-Bold.ttf", 0.96, 0.72, 0.9),
    "Inter-Bold.otf": ScalableRule("Inter-Bold.otf", 1.0, 0.73, 0.8),
    # Labelary's font 0 sets words further apart than Plex's own space (0.20 w): a
    # space advances 0.24 w. Swept over the whole corpus (0.20 to 0.32 w): 0.23-0.24
    # is best for each set, e.g. zplab/h50_shipto 0.72 -> 0.89, zplkit/simple_oneline
    # 0.73 -> 0.88, labelize-units/dhlparceluk_dhl_text 0.73 -> 0.88.
    "IBMPlexSansCondensed-Bold.ttf": ScalableRule("IBMPlexSansCondensed-Bold.ttf", 1.04, 0.74, 0.9,
                                                  space=0.24),
    "RobotoCondensed-Bold.ttf": ScalableRule("RobotoCondensed-Bold.ttf", 1.02, 0.74, 0.95),
}


@dataclass(frozen=True)
class BitmapCell:
    """A Zebra bitmap font's base matrix at 8 dots/mm (ZPL II guide, font matrices)."""

    height: int  # cell height, dots
    width: int  # character width, dots
    gap: int  # inter-character gap, dots
    baseline: int  # baseline from the cell top, dots
    file: str
    size: float  # outline font pixel size as a factor of the cell height
    glyph_width: float = 1.0  # outline glyph scale to fill ``width``


# glyph_width: Zebra's bitmap glyphs fill their character width, while a monospaced
# outline glyph is narrower than its advance, so the stand-in is widened until it
# covers the cell as Labelary's glyphs do. Swept per font over every corpus label that
# uses it (mean F1 at 1.0 -> fitted): B 0.91 -> 0.96 (17 labels), C 0.94 -> 0.98 (15),
# D (18) as C, E 0.920 -> 0.926 (17), F 0.80 -> 0.96 (13), H 0.83 -> 0.89 (13); A and G
# are best unwidened.
BITMAP_FONTS: dict[str, BitmapCell] = {
    "A": BitmapCell(9, 5, 1, 7, "DejaVuSansMono.ttf", 1.05),
    "B": BitmapCell(11, 7, 2, 11, "DejaVuSansMono-Bold.ttf", 1.35, 1.4),
    "C": BitmapCell(18, 10, 2, 14, "DejaVuSansMono.ttf", 1.1, 1.2),
    "D": BitmapCell(18, 10, 2, 14, "DejaVuSansMono.ttf", 1.1, 1.2),
    "E": BitmapCell(28, 15, 5, 23, "DejaVuSansMono.ttf", 1.0, 1.1),
    "F": BitmapCell(26, 13, 3, 21, "DejaVuSansMono.ttf", 1.15, 1.3),
    "G": BitmapCell(60, 40, 8, 48, "DejaVuSansMono.ttf", 1.15),
    "H": BitmapCell(21, 13, 6, 21, "DejaVuSansMono-Bold.ttf", 1.4, 1.2),
}


_ADVANCES_KEPT = 256  # characters a font remembers the advance of (then: _advance)


@dataclass(frozen=True)
class ScaledFont:
    """A font at one size, in target pixels: what layout measures and raster draws."""

    file: str
    pixel_size: int
    x_scale: float
    height: float  # cell height
    ascent: float  # cell top to baseline
    advance_pad: float = 0.0  # extra advance per character (bitmap gap)
    space_advance: float | None = None  # the word space's advance, if the rule sets one
    fixed_advance: float | None = None  # monospaced cell advance (bitmap fonts)
    cell_width: float | None = None  # glyphs are centred in this width (bitmap fonts)
    # Font 0's cell width w when it is placed on Labelary's advances and bars (``font0``).
    zebra_width: float | None = None
    # Every pixel the outline touches is ink (reverse-print text, see layout._text).
    solid: bool = False

    def __hash__(self) -> int:
        # Computed once: glyph tables are keyed by the font (``glyphs``), and the
        # generated hash would build a tuple of every field on each look-up.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.file, self.pixel_size, self.x_scale, self.height, self.ascent,
                           self.advance_pad, self.space_advance, self.fixed_advance,
                           self.cell_width, self.zebra_width, self.solid))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, object]:
        # A string's hash differs from process to process: never pickle it.
        return {name: value for name, value in self.__dict__.items()
                if name not in ("_hash", "_advances")}

    def advance(self, char: str) -> float:
        if self.fixed_advance is not None:
            return self.fixed_advance
        # Kept per font (a font is made once for its arguments: ``scalable``): text
        # layout asks for every character of every field.
        known: dict[str, float] | None = self.__dict__.get("_advances")
        if known is None:
            known = {}
            object.__setattr__(self, "_advances", known)
        found = known.get(char)
        if found is None:
            if self.zebra_width is not None and (char == " " or char in font0.ADVANCES):
                share = font0.SPACE if char == " " else font0.ADVANCES[char]
                found = share * self.zebra_width + self.advance_pad
            elif char == " " and self.space_advance is not None:
                found = self.space_advance + self.advance_pad
            else:
                found = (_advance(self.file, self.pixel_size, char) * self.x_scale
                         + self.advance_pad)
            if len(known) < _ADVANCES_KEPT:
                known[char] = found
        return found

    def glyph(self, char: str) -> tuple[Image.Image, int, int]:
        """The glyph's ink mask (mode L, ink 255) and its offset from the pen at baseline."""
        if self.zebra_width is not None:
            if char in font0.DRAWN:
                return font0.drawn_glyph(char, self.zebra_width, self.height, self.ascent)
            char = font0.SHAPE_OF.get(char, char)
        x_scale = round(self.x_scale, 4)
        if self.pixel_size <= _SMALL_GLYPH_PX and self.pixel_size * x_scale <= _SMALL_GLYPH_PX:
            mask, left, top = _small_glyph(self.file, self.pixel_size, x_scale, char,
                                           self.cell_width)
        else:
            key = (self.file, self.pixel_size, x_scale, char, self.cell_width)
            mask, left, top = _glyphs.get(key, lambda: _downloaded_or_raise(_glyph, *key))
        if self.zebra_width is not None and mask.width:
            middle = font0.MIDDLES.get(char)
            if middle is not None:
                left = round(middle * self.zebra_width - mask.width / 2)
        if self.solid and mask.width:
            mask = _solid(mask)
        return mask, left, top


class FontTooLarge(ValueError):
    """A font size over the cap, found before FreeType is asked for a face of it."""


# FreeType refuses a pixel size of 65536 or more; a face is never asked for one near it.
MAX_FACE_PX = 16384

K = TypeVar("K")
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    """A least-recently-used cache bounded by the bytes its values hold, so that the
    faces and glyph masks of big fonts cannot grow a long-lived process without end."""

    def __init__(self, max_bytes: int, size_of: Callable[[V], int]) -> None:
        self.max_bytes = max_bytes
        self.size_of = size_of
        self.held = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        item = self._items.get(key)
        if item is not None:
            try:  # noqa: SIM105 - every glyph painted passes here; a with costs more
                self._items.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile: still a good value
                pass
            return item[0]
        value = make()
        size = self.size_of(value)
        if size <= self.max_bytes // 2:  # one huge value never empties the cache
            with self._lock:
                if key not in self._items:
                    self._items[key] = (value, size)
                    self.held += size
                while self.held > self.max_bytes:
                    _, (_, dropped) = self._items.popitem(last=False)
                    self.held -= dropped
        return value


_lock = threading.Lock()


def _font_bytes(file: str) -> bytes:
    if file.startswith("mem:"):
        return _memory_fonts[file]
    return _shipped_font(file)


@functools.lru_cache(maxsize=16)
def _shipped_font(file: str) -> bytes:
    return (FONT_DIR / file).read_bytes()


# A face holds its own copy of the font file, and FreeType keeps the last glyph it drew
# (up to the pixel size squared), so the cache is bounded by both.
_faces: SizedCache[tuple[str, int], ImageFont.FreeTypeFont] = SizedCache(
    48 * 1024 * 1024, lambda font: len(font.font_bytes) + int(font.size) ** 2 + 4096)


def face(file: str, pixel_size: int) -> ImageFont.FreeTypeFont:
    """A FreeType face at a pixel size; basic layout, so no kerning, as on a printer."""
    if pixel_size > MAX_FACE_PX:
        raise FontTooLarge(f"font of {pixel_size} px is over the {MAX_FACE_PX} px face cap")

    def make() -> ImageFont.FreeTypeFont:
        with _lock:
            return ImageFont.truetype(io.BytesIO(_font_bytes(file)), max(1, pixel_size),
                                      layout_engine=ImageFont.Layout.BASIC)

    return _faces.get((file, pixel_size), make)


def file_bytes(file: str) -> int:
    """The size of a font file: what each face made of it holds."""
    return len(_font_bytes(file))


def check_size(max_px: int, *sizes: float) -> None:
    """Refuse a font whose cell or face (in output pixels) is over ``max_px``; called
    before any face of that size is made."""
    largest = max(sizes)
    if largest > max_px:
        raise FontTooLarge(f"font of {largest:.0f} px is over the {max_px} px cap")


def register_font_file(name: str, data: bytes) -> str | None:
    """Make a downloaded font (~DY/~DU) usable; its cache key, or None if it is not a font
    FreeType can read."""
    key = "mem:" + hashlib.sha256(data).hexdigest()
    if key not in _memory_fonts:
        try:
            ImageFont.truetype(io.BytesIO(data), 12)
        except OSError:
            return None
        with _lock:
            while _memory_fonts and (len(_memory_fonts) >= _MAX_MEMORY_FONTS or sum(
                    map(len, _memory_fonts.values())) + len(data) > _MAX_MEMORY_FONT_BYTES):
                _memory_fonts.pop(next(iter(_memory_fonts)))
            _memory_fonts[key] = data
    return key


# Downloaded fonts are keyed by content, so a font sent with every label is parsed once.
_MAX_MEMORY_FONTS = 64
_MAX_MEMORY_FONT_BYTES = 64 * 1024 * 1024


_memory_fonts: dict[str, bytes] = {}


# Zebra's font 0 (CG Triumvirate) draws the capital I as a plain stem, as Labelary
# does (labelize-units/usps_priority_mail "PRIORITY MAIL": 8-dot stems, no serifs,
# about 15 dots of advance at ^CF0,65,55). IBM Plex Sans, the default stand-in,
# gives its I slab serifs and a wider advance. For that face the I (and its
# accented forms) is redrawn as Plex's own stem, without the serifs, with the side
# bearings of Plex's H, so weight and height stay the face's.
_PLAIN_I_FACES = frozenset({"IBMPlexSansCondensed-Bold.ttf"})
_PLAIN_I = frozenset("I\u00cc\u00cd\u00ce\u00cf")


_Drawn = tuple[Image.Image, int, int]


@functools.lru_cache(maxsize=65536)
def _advance(file: str, pixel_size: int, char: str) -> float:
    """The pen advance of a character; 0 where FreeType cannot measure a downloaded font."""
    if file.startswith("mem:"):
        try:
            return float(face(file, pixel_size).getlength(char))
        except OSError:
            return 0.0
    if file in _PLAIN_I_FACES and char in _PLAIN_I:
        lsb, stem, rsb, _ = _stem_metrics(file, pixel_size)
        return float(lsb + stem + rsb)
    return float(face(file, pixel_size).getlength(char))


def _downloaded_or_raise(draw: Callable[..., _Drawn], file: str, *args: object) -> _Drawn:
    """A glyph of a downloaded font, or a blank one where FreeType cannot draw it (a
    damaged ~DU/~DY font fails inside FreeType, "execution context too long"): as a
    printer prints what it can. The shipped fonts have no such excuse."""
    try:
        return draw(file, *args)
    except OSError:
        if not file.startswith("mem:"):
            raise
        return Image.new("L", (0, 0)), 0, 0


def _outline(file: str, pixel_size: int, char: str) -> tuple[Image.Image, int, int]:
    """The glyph's mask as the face draws it and its offset from the pen at baseline."""
    font = face(file, pixel_size)
    left, top, right, bottom = (round(v) for v in font.getbbox(char, anchor="ls"))
    if right <= left or bottom <= top:
        return Image.new("L", (0, 0)), 0, 0
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), char, font=font, fill=255, anchor="ls")
    return mask, left, top


def _ink_columns(mask: Image.Image, row: int | None = None) -> tuple[int, int]:
    """First and last+1 ink column of the mask (or of one row of it)."""
    if row is not None:
        mask = mask.crop((0, row, mask.width, row + 1))
    box = mask.point(lambda v: 255 if v >= 128 else 0).getbbox()
    return (box[0], box[2]) if box else (0, 0)


@functools.lru_cache(maxsize=1024)
def _stem_metrics(file: str, pixel_size: int) -> tuple[int, int, int, int]:
    """H's left bearing, I's stem width, H's right bearing and the cap-height row."""
    h_mask, h_left, h_top = _outline(file, pixel_size, "H")
    h_first, h_last = _ink_columns(h_mask)
    advance = face(file, pixel_size).getlength("H")
    i_mask, _, i_top = _outline(file, pixel_size, "I")
    stem_first, stem_last = _ink_columns(i_mask, i_mask.height // 2)
    rsb = round(advance) - (h_left + h_last)
    return h_left + h_first, stem_last - stem_first, rsb, max(h_top, i_top)


def _plain_stem(file: str, pixel_size: int, char: str) -> tuple[Image.Image, int, int]:
    """The I without serifs: its stem below cap height, anything above (an accent) kept."""
    mask, left, top = _outline(file, pixel_size, char)
    lsb, _, _, cap_top = _stem_metrics(file, pixel_size)
    body = max(0, cap_top - top)  # first row of the letter's body in the mask
    first, last = _ink_columns(mask, body + (mask.height - body) // 2)
    out = Image.new("L", mask.size, 0)
    out.paste(mask.crop((0, 0, mask.width, body)), (0, 0))
    out.paste(mask.crop((first, body, last, mask.height)), (first, body))
    return out, lsb - first, top


# Glyph masks, bounded by their pixels: a 4096 px glyph is 16 MB, half the cache, so it
# is drawn each time and never held. Text at label sizes (up to 64 px, about 6 KB a mask)
# has its own faster cache: 8,192 masks, at most about 50 MB.
_SMALL_GLYPH_PX = 64


@functools.lru_cache(maxsize=8192)
def _small_glyph(file: str, pixel_size: int, x_scale: float, char: str,
                 cell: float | None) -> _Drawn:
    return _downloaded_or_raise(_glyph, file, pixel_size, x_scale, char, cell)


_glyphs: SizedCache[tuple[str, int, float, str, float | None], tuple[Image.Image, int, int]] = (
    SizedCache(32 * 1024 * 1024, lambda item: item[0].width * item[0].height + 256))


def _glyph(file: str, pixel_size: int, x_scale: float, char: str,
           cell: float | None) -> tuple[Image.Image, int, int]:
    if file in _PLAIN_I_FACES and char in _PLAIN_I:
        mask, left, top = _plain_stem(file, pixel_size, char)
    else:
        mask, left, top = _outline(file, pixel_size, char)
    if mask.width == 0:
        return mask, 0, 0
    if cell is not None:
        # Bitmap-font stand-in: centre the glyph in the character cell (the gap follows).
        left = round((cell - mask.width * x_scale) / 2 / x_scale)
    if abs(x_scale - 1.0) > 1e-3:
        width = max(1, round(mask.width * x_scale))
        mask = mask.resize((width, mask.height), Image.Resampling.BILINEAR)
        left = round(left * x_scale)
    return mask, left, top


_SOLID = [0] + [255] * 255


def _solid(mask: Image.Image) -> Image.Image:
    return mask.point(_SOLID)


# A label names the same few fonts field after field: the same arguments give the
# same ScaledFont object, so the glyph tables keyed by it (``glyphs``) find it by
# identity instead of comparing its fields.
@functools.lru_cache(maxsize=256)
def scalable(height: float, width: float, file: str,
             max_px: int = DEFAULT_LIMITS.max_font_px, zebra: bool = False) -> ScaledFont:
    """Font 0 (or an ^A@ / ^CW outline font) for a cell of ``height`` x ``width`` pixels;
    ``FontTooLarge`` past ``max_px``. ``zebra``: placed on Labelary's font 0 advances
    and bars (``font0``), whatever the face."""
    rule = FONT0_RULES.get(file, ScalableRule(file, 1.0, 0.8))
    pixel_size = max(1, round(rule.size * height))
    x_scale = rule.width * width / height if height else 1.0
    check_size(max_px, height, pixel_size, pixel_size * x_scale)
    space = rule.space * width if rule.space is not None else None
    return ScaledFont(file, pixel_size, x_scale, height, rule.baseline * height,
                      space_advance=space, zebra_width=width if zebra else None)


def _half_up(value: float) -> int:
    return math.floor(value + 0.5)


@functools.lru_cache(maxsize=256)
def bitmap(name: str, height: int, width: int, scale: float,
           max_px: int = DEFAULT_LIMITS.max_font_px) -> ScaledFont:
    """A bitmap font (A-H) scaled in whole multiples of its base cell; ``FontTooLarge``
    past ``max_px``, before a face is made."""
    cell = BITMAP_FONTS[name]
    # The magnification is the nearest whole multiple, halves rounding up as on a
    # printer: carriers/dpdpl ^ADN,70,25 (25 / 10 = 2.5) prints 36-dot cells, i.e. 3x.
    mag_y = max(1, _half_up(height / cell.height)) if height else 0
    mag_x = max(1, _half_up(width / cell.width)) if width else 0
    mag_y = mag_y or mag_x or 1
    mag_x = mag_x or mag_y
    cell_h = cell.height * mag_y * scale
    advance = (cell.width + cell.gap) * mag_x * scale
    pixel_size = max(1, round(cell.size * cell.height * mag_y * scale))
    check_size(max_px, cell_h, pixel_size, advance)
    natural = _advance(cell.file, pixel_size, "M") or 1.0
    x_scale = cell.glyph_width * cell.width * mag_x * scale / natural
    check_size(max_px, pixel_size * x_scale)
    return ScaledFont(cell.file, pixel_size, x_scale, cell_h, cell.baseline * mag_y * scale,
                      fixed_advance=advance, cell_width=cell.width * mag_x * scale)


def profile_file(profile: str | None) -> str:
    """The font 0 file of a profile; unknown names raise KeyError for the caller to report."""
    return PROFILES[profile or "default"]
