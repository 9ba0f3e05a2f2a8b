"""Where each printed field's ink falls: its box in output pixels, and a warning when
the ink reaches past the canvas.

Layout knows where every primitive of a field goes before anything is clipped to the
canvas, so the box is measured there, from the primitives, never by scanning pixels:
a graphic's or a bar code's shapes, and each glyph's mask where raster will paste it.
A glyph layout drops because its ink cannot reach the canvas is counted by its
character cell instead (its mask is never made), which is enough to say how far the
field runs off the label.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from . import fonts, glyphs
from .errors import Warning

Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass(frozen=True)
class FieldBox:
    """One printed field: where its ink is, in output pixels of the image returned
    (after rotation), which may reach past the image when the field runs off it.

    ``offset`` and ``command`` name the field: the byte offset of its ``^FD`` and
    ``^FD`` for text, the bar code command (``^BC``) for a bar code, the command
    itself for a graphic (``^GB``, ``^GF`` ...). ``fn`` is its ``^FN`` number."""

    offset: int
    command: str
    fn: int | None
    x: int
    y: int
    width: int
    height: int


@dataclass
class InkLog:
    """The ink box of the field being laid out, grown by each piece placed."""

    left: float = math.inf
    top: float = math.inf
    right: float = -math.inf
    bottom: float = -math.inf
    boxes: list[FieldBox] = field(default_factory=list)

    def add(self, box: Box) -> None:
        left, top, right, bottom = box
        if right <= left or bottom <= top:
            return
        self.left, self.top = min(self.left, left), min(self.top, top)
        self.right, self.bottom = max(self.right, right), max(self.bottom, bottom)

    def add_rect(self, x: float, y: float, w: float, h: float) -> None:
        self.add((x, y, x + w, y + h))

    def take(self) -> tuple[int, int, int, int] | None:
        """The box of the field laid out since the last call, whole pixels; then reset."""
        found = None
        if self.right > self.left and self.bottom > self.top:
            found = (math.floor(self.left), math.floor(self.top), math.ceil(self.right),
                     math.ceil(self.bottom))
        self.left = self.top = math.inf
        self.right = self.bottom = -math.inf
        return found


def glyph_box(font: fonts.ScaledFont, char: str, px: float, py: float,
              orientation: str) -> Box | None:
    """Where raster pastes the glyph's mask for the pen point (px, py)."""
    glyph = glyphs.turned(font, char, orientation)
    if glyph is None:
        return None
    x, y = round(px) + glyph.dx, round(py) + glyph.dy
    return x, y, x + glyph.width, y + glyph.height


def cell_box(font: fonts.ScaledFont, char: str, px: float, py: float,
             orientation: str) -> Box:
    """A glyph's character cell (advance by cell height) from its pen point: the box of
    a glyph whose mask is never made."""
    from .layout import rotate  # layout imports this module

    ascent = font.ascent
    corners = [rotate(orientation, u, v) for u in (0.0, font.advance(char))
               for v in (-ascent, font.height - ascent)]
    xs = [px + du for du, _ in corners]
    ys = [py + dv for _, dv in corners]
    return min(xs), min(ys), max(xs), max(ys)


def add_glyphs(log: InkLog, font: fonts.ScaledFont,
               glyphs_at: tuple[tuple[str, float, float], ...], orientation: str,
               clip: Box | None = None, *, cells: bool = False) -> None:
    """The glyphs' boxes (their cells with ``cells``), each cut to ``clip``."""
    if not glyphs_at:
        return
    if font.solid:  # a solid mask has the plain one's size; no need to make it
        font = replace(font, solid=False)
    if cells or clip is not None:
        for char, px, py in glyphs_at:
            box = (cell_box(font, char, px, py, orientation) if cells
                   else glyph_box(font, char, px, py, orientation))
            if box is not None:
                log.add(box if clip is None else _cut(box, clip))
        return
    # Unclipped: one box around them all.
    table = glyphs.table(font, orientation)
    left = top = math.inf
    right = bottom = -math.inf
    for char, px, py in glyphs_at:
        glyph = table.get(char) or glyphs.lookup(table, font, orientation, char)
        if glyph is None:
            continue
        x, y = round(px) + glyph.dx, round(py) + glyph.dy
        left, top = min(left, x), min(top, y)
        right, bottom = max(right, x + glyph.width), max(bottom, y + glyph.height)
    if right > left:
        log.add((left, top, right, bottom))


def _cut(box: Box, clip: Box) -> Box:
    return (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]),
            min(box[3], clip[3]))


def overflow(box: tuple[int, int, int, int], width: int, height: int, scale: float,
             offset: int, command: str, what: str) -> Warning | None:
    """A warning naming the field and how far (in label dots) its ink runs past each
    edge of the width x height canvas, or None when it stays on it."""
    left, top, right, bottom = box
    past = {"left": -left, "top": -top, "right": right - width, "bottom": bottom - height}
    sides = [f"{round(pixels / scale)} dots past the {side} edge"
             for side, pixels in past.items() if pixels > 0 and round(pixels / scale) > 0]
    if not sides:
        return None
    size = f"{round(width / scale)} x {round(height / scale)}"
    return Warning(offset, command, f"field {what} overflows the label: its ink reaches "
                                    f"{' and '.join(sides)} of the {size}-dot label, "
                                    "and that part does not print; "
                                    + _fix(past, width, height, scale))


def _fix(past: dict[str, int], width: int, height: int, scale: float) -> str:
    """What makes room: a larger label (in the ZPL, or the size the render asks
    for), or, past the top or left edge, a field moved with ^FO."""
    fixes = []
    if past["right"] > 0:
        fixes.append(f"^PW{math.ceil((width + past['right']) / scale)}")
    if past["bottom"] > 0:
        fixes.append(f"^LL{math.ceil((height + past['bottom']) / scale)}")
    if not fixes:
        return "move the field with ^FO"
    return (f"a label of {' and '.join(fixes)} fits it (in the ZPL, or as the label "
            "size the render asks for)")


def turned(box: FieldBox, width: int, height: int, *, mirror: bool, invert: bool,
           rotation: int) -> FieldBox:
    """A box on the width x height canvas, moved as ``raster.finish`` moves the image:
    mirrored (^PMY), turned 180 degrees (^POI), then rotated clockwise."""
    x, y, w, h = box.x, box.y, box.width, box.height
    if mirror:
        x = width - (x + w)
    if invert:
        x, y = width - (x + w), height - (y + h)
    turn = rotation % 360
    if turn == 90:
        x, y, w, h = height - (y + h), x, h, w
    elif turn == 180:
        x, y = width - (x + w), height - (y + h)
    elif turn == 270:
        x, y, w, h = y, width - (x + w), h, w
    return replace(box, x=x, y=y, width=w, height=h)
