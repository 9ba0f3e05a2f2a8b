"""The work budget of one render: what layout may still lay out and raster still paint.

Layout estimates every piece of work before it is done (a field's characters, a bar
code's data, each primitive's area on the canvas, each glyph) and charges it here;
past ``Limits.max_work_megapixels`` the render stops with ``LimitExceeded("work")``
before anything is allocated for it. The estimate depends only on the input and the
options, so the same label is always refused the same way. Layout and raster also
call ``tick`` between pieces of work, so the time budget holds in every stage.

Work is counted in pixel operations: a primitive costs its area on the canvas, and
each primitive, glyph, character or bar code a fixed amount more, set from how long
this engine takes for it. Measured over the corpus and the engine fuzz, a unit costs
1-3 ns, so the default cap (a billion) is one to three seconds of work.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from . import fonts
from .errors import DEFAULT_LIMITS, LimitExceeded, Limits, check_deadline

# Fixed costs, in pixel operations (measured: a glyph paints in 3-6 us, a field's
# character is wrapped and placed in about 1 us, a QR Code, the slowest symbol, is
# built in 2.5 ms plus about 25 us a character, a shape's mask costs about a
# nanosecond a pixel, a 3,800-pixel glyph about 40 ms).
PRIMITIVE = 2_000
GLYPH = 5_000
# Making a glyph's mask (measured, drawn by FreeType, drawn again by Pillow and scaled;
# a ^GS mark drawn and reduced) costs about four operations a pixel; pasting it again, one.
GLYPH_PIXEL = 4
CHARACTER = 1_000
BARCODE = 2_500_000
BARCODE_CHARACTER = 25_000
RECT = 500
# A shape drawn with Pillow (ellipse, rounded box, diagonal) is scanned along its whole
# extent, even where it falls off the canvas.
EDGE = 50


@dataclass
class Budget:
    """The canvas (target pixels) and what one render has spent of its limits."""

    width: int = 1 << 30
    height: int = 1 << 30
    limits: Limits = DEFAULT_LIMITS
    deadline: float = math.inf
    spent: float = 0.0
    faces: set[tuple[str, int]] = field(default_factory=set)  # font sizes charged so far
    masks: dict[object, set[str]] = field(default_factory=dict)  # font -> glyphs charged

    def late(self) -> bool:
        """Whether the time budget is gone (``tick`` then raises)."""
        return time.monotonic() > self.deadline

    def tick(self, offset: int | None = None, command: str | None = None) -> None:
        """Stop the render once its time budget is gone."""
        check_deadline(self.deadline, self.limits.time_budget_s, offset, command)

    def charge(self, work: float, offset: int | None, command: str | None) -> None:
        """Spend ``work`` pixel operations; over the cap, the field at fault is named."""
        self.spent += work
        if self.spent > self.limits.max_work_megapixels * 1_000_000:
            cap = self.limits.max_work_megapixels * 1_000_000
            raise LimitExceeded(
                f"label needs over {cap / 1e6:g} megapixels of rendering work (the work cap); "
                "this field pushes it over", offset, command, limit="work")

    def face(self, font: fonts.ScaledFont, offset: int | None, command: str | None) -> None:
        """Each size of a face holds its own copy of the font file (a downloaded one may be
        16 MB): a size this render has not used yet costs the file's bytes."""
        if font.file != "GS" and (font.file, font.pixel_size) not in self.faces:
            self.faces.add((font.file, font.pixel_size))
            self.charge(fonts.file_bytes(font.file), offset, command)

    def glyph_work(self, font: fonts.ScaledFont, count: int, chars: str) -> float:
        """Painting ``count`` glyphs of ``chars``: each pastes its whole mask (however little
        of it is on the canvas); a mask this render has not made yet is also made, which
        costs more."""
        area = glyph_area(font) * (2 if font.solid else 1)  # a reverse glyph is made solid
        made = self.masks.setdefault(
            (font.file, font.pixel_size, round(font.x_scale, 4), font.cell_width), set())
        new = set(chars) - made if count else set()
        made |= new
        return count * (GLYPH + area) + len(new) * (GLYPH_PIXEL - 1) * area

    def visible(self, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        """The part of a box on the canvas as (left, top, right, bottom); empty if
        right <= left or bottom <= top."""
        return (max(0, math.floor(x)), max(0, math.floor(y)),
                min(self.width, math.ceil(x + w)), min(self.height, math.ceil(y + h)))

    def area(self, x: float, y: float, w: float, h: float) -> int:
        """Pixels of a box that fall on the canvas."""
        left, top, right, bottom = self.visible(x, y, w, h)
        return max(0, right - left) * max(0, bottom - top)


def glyph_reach(font: fonts.ScaledFont) -> float:
    """How far from its pen point a glyph's ink can reach, generously: a glyph whose
    reach misses the canvas is not painted."""
    return 2.0 * max(font.height, font.pixel_size, font.pixel_size * font.x_scale,
                     font.fixed_advance or 0.0, font.cell_width or 0.0)


def glyph_area(font: fonts.ScaledFont) -> float:
    """A glyph's mask area, at most: the face's em square, widened as the font is."""
    width = max(font.pixel_size * font.x_scale, font.cell_width or 0.0)
    return max(font.height, font.pixel_size) * width
