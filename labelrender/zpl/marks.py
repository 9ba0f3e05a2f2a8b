"""The Graphic Symbol font (^GS): the five marks, drawn as shapes inside their cell.

ZPL II guide, ^GS: field data A-E print the registered mark (R), the copyright
mark (C), the trademark TM and the UL and CSA logos. The font matrix table gives
the Graphic Symbol font a 24 x 24-dot cell at 8 dots/mm, and it is magnified in
whole multiples of that cell, as the bitmap fonts are.

Each mark is described on that 24-unit grid, measured from Labelary's render of
labelize-units/gs.zpl (^CFA,72, so one unit is 3 dots): (R) and (C) are 15-unit
rings, TM fills the top 10 units, the UL logo is a 24-unit ring and the CSA logo
a 24-unit C open on the right. Letters come from the package's outline faces,
stretched to the box the mark gives them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .errors import DEFAULT_LIMITS
from .fonts import ScaledFont, SizedCache, check_size, face

GRID = 24  # design units per cell side (ZPL II guide, font matrices: GS is 24 x 24)
# The pen moves 26 units per character: Labelary's gs.zpl "^FD    EEEE" at 3x starts
# its mark 4 x 78 dots in, and in text_ft_auto_pos a 1x ^GS "C" moves the ^FT pen
# about 26 dots, so the cell has a 2-unit gap after it as the bitmap fonts do.
ADVANCE = 26
_SUPERSAMPLE = 4
# A big mark is drawn at less supersampling: its edges need it less, and a 4096 px cell
# at 4x would be a 268 MB image.
_MAX_SUPERSAMPLED_SIDE = 2048
_REGULAR = "DejaVuSansMono.ttf"
_BOLD = "DejaVuSansCondensed-Bold.ttf"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Ring:
    box: Box
    width: float
    gap: float = 0.0  # degrees left open either side of 3 o'clock (the CSA "C")


@dataclass(frozen=True)
class Letter:
    char: str
    box: Box
    bold: bool = False


Part = Ring | Letter

_REGISTERED = (Ring((0, 0, 15, 15), 1.25), Letter("R", (4.33, 3.33, 11.33, 11.67)))
_COPYRIGHT = (Ring((0, 0, 15, 15), 1.25), Letter("C", (3, 3, 10.33, 12)))
_SMALL_REGISTERED = (Ring((0, 0, 3.3, 3.3), 0.4), Letter("R", (1, 0.8, 2.4, 2.5)))


def _shifted(parts: tuple[Part, ...], du: float, dv: float) -> tuple[Part, ...]:
    def move(b: Box) -> Box:
        return (b[0] + du, b[1] + dv, b[2] + du, b[3] + dv)

    return tuple(Ring(move(p.box), p.width, p.gap) if isinstance(p, Ring)
                 else Letter(p.char, move(p.box), p.bold) for p in parts)


MARKS: dict[str, tuple[Part, ...]] = {
    "A": _REGISTERED,
    "B": _COPYRIGHT,
    "C": (Letter("T", (0, 0, 7.33, 10), True), Letter("M", (8.67, 0, 19, 10), True)),
    "D": (Ring((0, 0, 24, 24), 2), Letter("U", (5.33, 5, 12.33, 17), True),
          Letter("L", (13.33, 7, 19.33, 18.67), True)) + _shifted(_SMALL_REGISTERED, 7.3, 17.6),
    "E": (Ring((0, 0, 24, 24), 3, gap=40), Letter("S", (4.67, 4.67, 11, 19.67), True),
          Letter("A", (13, 4.67, 19.67, 19.67), True)) + _shifted(_SMALL_REGISTERED, 19, 15),
}


@dataclass(frozen=True)
class SymbolFont(ScaledFont):
    """The ^GS font at one magnification: a fixed advance and drawn marks."""

    def advance(self, char: str) -> float:
        return self.fixed_advance or 0.0

    def glyph(self, char: str) -> tuple[Image.Image, int, int]:
        """The mark's mask and its offset from the pen: the cell's bottom is the baseline."""
        parts = MARKS.get(char)
        if parts is None or self.cell_width is None:
            return Image.new("L", (0, 0)), 0, 0
        size = (round(self.cell_width), round(self.height))
        mask = _drawn.get((parts, *size), lambda: _draw(parts, *size))
        if self.solid:
            mask = mask.point([0] + [255] * 255)
        return mask, 0, -round(self.ascent)


def symbol_font(height: int, width: int, scale: float,
                max_px: int = DEFAULT_LIMITS.max_font_px) -> SymbolFont:
    """^GS h,w: the 24-dot cell magnified to the nearest whole multiple (at least 1x);
    ``FontTooLarge`` past ``max_px``.

    labelize-units/text_ft_auto_pos prints a ^GS with no size (the power-up ^CF
    height, 9 dots) as 24-dot marks, and gs.zpl's ^CFA,72 as 72-dot ones.
    """
    mag_y = max(1, math.floor(height / GRID + 0.5)) if height else 0
    mag_x = max(1, math.floor(width / GRID + 0.5)) if width else 0
    mag_y = mag_y or mag_x or 1
    mag_x = mag_x or mag_y
    cell_h, cell_w = GRID * mag_y * scale, GRID * mag_x * scale
    check_size(max_px, cell_h, cell_w)
    return SymbolFont("GS", round(cell_h), mag_x / mag_y, cell_h, cell_h,
                      fixed_advance=ADVANCE * mag_x * scale, cell_width=cell_w)


_drawn: SizedCache[tuple[object, ...], Image.Image] = SizedCache(
    8 * 1024 * 1024, lambda mask: mask.width * mask.height + 256)


def _draw(parts: tuple[Part, ...], width: int, height: int) -> Image.Image:
    """Paint the parts at ``_SUPERSAMPLE`` times the cell and reduce, for smooth edges."""
    k = max(1, min(_SUPERSAMPLE, _MAX_SUPERSAMPLED_SIDE // max(width, height, 1)))
    sx, sy = width * k / GRID, height * k / GRID
    big = Image.new("L", (max(1, width * k), max(1, height * k)), 0)
    draw = ImageDraw.Draw(big)
    for part in parts:
        box = (part.box[0] * sx, part.box[1] * sy, part.box[2] * sx, part.box[3] * sy)
        if isinstance(part, Ring):
            stroke = max(k, round(part.width * min(sx, sy)))
            shape = (box[0], box[1], box[2] - 1, box[3] - 1)
            if part.gap:
                draw.arc(shape, part.gap, 360 - part.gap, fill=255, width=stroke)
            else:
                draw.ellipse(shape, outline=255, width=stroke)
        else:
            _letter(big, part, box)
    return big.resize((max(1, width), max(1, height)), Image.Resampling.BOX)


def _letter(target: Image.Image, letter: Letter, box: Box) -> None:
    """Draw one letter stretched so its ink fills ``box``."""
    w, h = max(1, round(box[2] - box[0])), max(1, round(box[3] - box[1]))
    font = face(_BOLD if letter.bold else _REGULAR, h * 2)
    left, top, right, bottom = (round(v) for v in font.getbbox(letter.char))
    glyph = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(glyph).text((-left, -top), letter.char, font=font, fill=255)
    ink = glyph.getbbox()  # the pen's side bearings are not part of the letter
    if ink is None:
        return
    glyph = glyph.crop(ink).resize((w, h), Image.Resampling.BILINEAR)
    target.paste(255, (round(box[0]), round(box[1])), glyph)
