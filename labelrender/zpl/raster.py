"""Raster: paints positioned primitives with Pillow; ``png`` encodes the result.

The canvas holds ink (255 = black) so that ZPL's three ways of drawing map to
three compositing rules: ink (max), paper (^GB...W: subtract) and reverse
(^FR/^LR: difference, i.e. XOR for a black-and-white image).

A shape is drawn into a scratch mask no larger than its part on the canvas, so a
huge box costs no more memory than the label; layout has already charged the work.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageChops, ImageDraw

from . import glyphs, png
from .layout import Ellipse, Frame, GlyphRun, Picture, Polygon, Primitive, Rect, Symbol

# Glyphs and primitives painted between two looks at the clock.
_TICK_GLYPHS = 64
_TICK_PRIMITIVES = 16

Tick = Callable[[], None]


def _no_tick() -> None:
    pass


def paint(primitives: list[Primitive], width: int, height: int,
          tick: Tick = _no_tick) -> np.ndarray:
    """The ink (rows of bytes, 255 = black) of all primitives, in order; ``tick`` (the
    render's time budget) is called every few primitives (each bounded by layout's
    work charge) and every few glyphs."""
    ink = np.zeros((height, width), np.uint8)
    canvas = _drawable(ink)
    draw = ImageDraw.Draw(canvas)
    for count, item in enumerate(primitives):
        if count % _TICK_PRIMITIVES == 0:
            tick()
        match item:
            case Rect():
                _rect(canvas, draw, item)
            case Frame():
                _frame(canvas, item)
            case Ellipse():
                _ellipse(canvas, item)
            case Polygon():
                _polygon(canvas, item)
            case GlyphRun():
                _glyphs(canvas, item, tick)
            case Picture():
                _picture(canvas, item)
            case Symbol():
                _symbol(canvas, draw, item)
    return ink


def _drawable(ink: np.ndarray) -> Image.Image:
    """A Pillow image drawing straight into ``ink``'s memory, so the encoder reads the
    pixels where they are (``Image.tobytes`` copies a 4 x 6 in label in about 1 ms, an
    eighth of its render). ``frombuffer`` shares the buffer for mode L and marks the
    image read-only, which only says Pillow did not allocate it: drawing on it is what
    the buffer is for."""
    height, width = ink.shape
    canvas = Image.frombuffer("L", (width, height), ink, "raw", "L", 0, 1)
    canvas.readonly = 0
    return canvas


def _apply(canvas: Image.Image, mask: Image.Image, x: int, y: int, mode: str) -> None:
    """Composite an ink mask at (x, y) with the given rule, clipped to the canvas."""
    width, height = mask.size
    right, bottom = x + width, y + height
    if x < 0 or y < 0 or right > canvas.width or bottom > canvas.height:
        left, top = max(x, 0), max(y, 0)
        right, bottom = min(right, canvas.width), min(bottom, canvas.height)
        if right <= left or bottom <= top:
            return
        mask = mask.crop((left - x, top - y, right - x, bottom - y))
        x, y = left, top
    box = (x, y, right, bottom)
    if mode == "ink":
        canvas.paste(255, box, mask)
    elif mode == "paper":
        canvas.paste(0, box, mask)
    else:
        canvas.paste(ImageChops.difference(canvas.crop(box), mask), box)


def _window(canvas: Image.Image, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int]:
    """Where a scratch mask for the box (x, y, w, h) goes: the box cut to the canvas,
    as (left, top, width, height); width or height is 0 when nothing of it shows."""
    left, top = max(x, 0), max(y, 0)
    right, bottom = min(x + w, canvas.width), min(y + h, canvas.height)
    return left, top, max(0, right - left), max(0, bottom - top)


def _rect(canvas: Image.Image, draw: ImageDraw.ImageDraw, rect: Rect) -> None:
    if rect.w <= 0 or rect.h <= 0:
        return
    if rect.mode == "xor":
        _apply(canvas, Image.new("L", (rect.w, rect.h), 255), rect.x, rect.y, "xor")
        return
    fill = 255 if rect.mode == "ink" else 0
    draw.rectangle((rect.x, rect.y, rect.x + rect.w - 1, rect.y + rect.h - 1), fill=fill)


def _frame(canvas: Image.Image, frame: Frame) -> None:
    if frame.w <= 0 or frame.h <= 0:
        return
    left, top, w, h = _window(canvas, frame.x, frame.y, frame.w, frame.h)
    if w == 0 or h == 0:
        return
    mask = Image.new("L", (w, h), 0)
    dx, dy = frame.x - left, frame.y - top
    shape = (dx, dy, dx + frame.w - 1, dy + frame.h - 1)
    draw = ImageDraw.Draw(mask)
    filled = 2 * frame.thickness >= min(frame.w, frame.h)
    if frame.radius > 0:
        draw.rounded_rectangle(shape, frame.radius, fill=255 if filled else None,
                               outline=255, width=frame.thickness)
    else:
        draw.rectangle(shape, fill=255 if filled else None, outline=255, width=frame.thickness)
    _apply(canvas, mask, left, top, frame.mode)


def _ellipse(canvas: Image.Image, shape: Ellipse) -> None:
    if shape.w <= 0 or shape.h <= 0:
        return
    left, top, w, h = _window(canvas, shape.x, shape.y, shape.w, shape.h)
    if w == 0 or h == 0:
        return
    mask = Image.new("L", (w, h), 0)
    filled = 2 * shape.thickness >= min(shape.w, shape.h)
    dx, dy = shape.x - left, shape.y - top
    ImageDraw.Draw(mask).ellipse((dx, dy, dx + shape.w - 1, dy + shape.h - 1),
                                 fill=255 if filled else None, outline=255,
                                 width=shape.thickness)
    _apply(canvas, mask, left, top, shape.mode)


def _polygon(canvas: Image.Image, shape: Polygon) -> None:
    xs = [p[0] for p in shape.points]
    ys = [p[1] for p in shape.points]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    w, h = math.ceil(max(xs)) - x0, math.ceil(max(ys)) - y0
    if w <= 0 or h <= 0:
        return
    left, top, w, h = _window(canvas, x0, y0, w, h)
    if w == 0 or h == 0:
        return
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(px - left, py - top) for px, py in shape.points], fill=255)
    _apply(canvas, mask, left, top, shape.mode)


def _glyphs(canvas: Image.Image, run: GlyphRun, tick: Tick) -> None:
    if run.clip is None and run.mode != "xor":
        _paste_run(canvas, run, tick)
        return
    placed = _placed(run, tick)
    if run.clip is None:
        for mask, x, y in placed:
            _apply(canvas, mask, x, y, run.mode)
        return
    # A clipped run (^TB) is drawn into a scratch image and composited once, so that a
    # reversed block inverts each pixel once. The scratch covers only the run's glyphs
    # within the clip: a line of a big block is a strip, not the whole block.
    if not placed:
        return
    x0 = max(run.clip[0], min(x for _, x, _ in placed))
    y0 = max(run.clip[1], min(y for _, _, y in placed))
    x1 = min(run.clip[2], max(x + m.width for m, x, _ in placed))
    y1 = min(run.clip[3], max(y + m.height for m, _, y in placed))
    if x1 <= x0 or y1 <= y0:
        return
    target = Image.new("L", (x1 - x0, y1 - y0), 0)
    mode = "ink" if run.mode == "xor" else run.mode
    for mask, x, y in placed:
        _apply(target, mask, x - x0, y - y0, mode)
    _apply(canvas, target, x0, y0, run.mode)


def _paste_run(canvas: Image.Image, run: GlyphRun, tick: Tick) -> None:
    """An unclipped run in ink or paper: each glyph pasted with its mask, core to
    core when it lies wholly on the canvas (nearly always), else clipped."""
    font, orientation = run.font, run.orientation
    table = glyphs.table(font, orientation)
    core = canvas.im
    fill = 255 if run.mode == "ink" else 0
    width, height = canvas.size
    count = 0
    for char, px, py in run.glyphs:
        count += 1
        if count == _TICK_GLYPHS:
            tick()
            count = 0
        glyph = table.get(char) or glyphs.lookup(table, font, orientation, char)
        if glyph is None:
            continue
        x, y = round(px) + glyph.dx, round(py) + glyph.dy
        right, bottom = x + glyph.width, y + glyph.height
        if x >= 0 and y >= 0 and right <= width and bottom <= height:
            core.paste(fill, (x, y, right, bottom), glyph.core)
        else:
            _apply(canvas, glyph.mask, x, y, run.mode)


def _placed(run: GlyphRun, tick: Tick) -> list[tuple[Image.Image, int, int]]:
    """Each glyph's mask, turned to the run's orientation, and its top-left on the page."""
    font, orientation = run.font, run.orientation
    table = glyphs.table(font, orientation)
    placed = []
    for count, (char, px, py) in enumerate(run.glyphs, 1):
        if count % _TICK_GLYPHS == 0:
            tick()
        glyph = table.get(char) or glyphs.lookup(table, font, orientation, char)
        if glyph is not None:
            placed.append((glyph.mask, round(px) + glyph.dx, round(py) + glyph.dy))
    return placed


def _picture(canvas: Image.Image, picture: Picture) -> None:
    if picture.width <= 0 or picture.height <= 0:
        return
    left, top, w, h = _window(canvas, picture.x, picture.y, picture.width, picture.height)
    if w == 0 or h == 0:
        return
    image = picture.bitmap.to_image()
    if picture.width * picture.height > canvas.width * canvas.height:
        # A picture larger than the label: only its part on the canvas is scaled (Pillow
        # may pick a neighbouring source pixel at the edge of that part; a picture that
        # fits is scaled whole, as before).
        sx, sy = image.width / picture.width, image.height / picture.height
        x0, y0 = (left - picture.x) * sx, (top - picture.y) * sy
        image = image.resize((w, h), Image.Resampling.NEAREST,
                             box=(x0, y0, x0 + w * sx, y0 + h * sy))
        _apply(canvas, image, left, top, picture.mode)
        return
    if image.size != (picture.width, picture.height):
        image = image.resize((picture.width, picture.height), Image.Resampling.NEAREST)
    _apply(canvas, image, picture.x, picture.y, picture.mode)


def _symbol(canvas: Image.Image, draw: ImageDraw.ImageDraw, symbol: Symbol) -> None:
    if symbol.mode == "ink" and not symbol.hexagons and not symbol.rings:
        for r in symbol.rects:
            if r.w > 0 and r.h > 0:
                draw.rectangle((r.x, r.y, r.x + r.w - 1, r.y + r.h - 1), fill=255)
        return
    boxes: list[tuple[float, float, float, float]] = [
        (r.x, r.y, r.x + r.w, r.y + r.h) for r in symbol.rects]
    boxes += [(cx - d, cy - d, cx + d, cy + d) for cx, cy, d in symbol.hexagons]
    boxes += [(cx - r, cy - r, cx + r, cy + r) for cx, cy, r, _ in symbol.rings]
    if not boxes:
        return
    x0 = math.floor(min(b[0] for b in boxes))
    y0 = math.floor(min(b[1] for b in boxes))
    x1 = math.ceil(max(b[2] for b in boxes))
    y1 = math.ceil(max(b[3] for b in boxes))
    x0, y0, w, h = _window(canvas, x0, y0, max(1, x1 - x0), max(1, y1 - y0))
    if w == 0 or h == 0:
        return
    mask = Image.new("L", (w, h), 0)
    mdraw = ImageDraw.Draw(mask)
    for r in symbol.rects:
        if r.w > 0 and r.h > 0:
            mdraw.rectangle((r.x - x0, r.y - y0, r.x - x0 + r.w - 1, r.y - y0 + r.h - 1), fill=255)
    pointy = symbol.orientation in ("N", "I")
    for cx, cy, d in symbol.hexagons:
        mdraw.polygon(_hexagon(cx - x0, cy - y0, d, pointy), fill=255)
    for cx, cy, outer, inner in symbol.rings:
        mdraw.ellipse((cx - x0 - outer, cy - y0 - outer, cx - x0 + outer, cy - y0 + outer),
                      outline=255, width=max(1, round(outer - inner)))
    _apply(canvas, mask, x0, y0, symbol.mode)


def _hexagon(cx: float, cy: float, width: float, pointy: bool) -> list[tuple[float, float]]:
    """A regular hexagon ``width`` across its flats (MaxiCode modules are pointy-top)."""
    radius = width / math.sqrt(3)
    start = 90.0 if pointy else 0.0
    return [(cx + radius * math.cos(math.radians(start + 60 * k)),
             cy + radius * math.sin(math.radians(start + 60 * k))) for k in range(6)]


def finish(ink: np.ndarray, *, mirror: bool, invert: bool, rotation: int) -> np.ndarray:
    """The ink with the whole-label transforms (^PM mirror, ^PO invert, the requested
    rotation, clockwise); views of the same pixels, as the PNG encoder takes them."""
    if mirror:
        ink = ink[:, ::-1]
    if invert:
        ink = ink[::-1, ::-1]
    turns = {90: -1, 180: 2, 270: 1}.get(rotation % 360)  # numpy turns anticlockwise
    if turns is not None:
        ink = np.rot90(ink, turns)
    return ink


def encode_png(ink: np.ndarray, *, threshold: bool) -> bytes:
    """The printed picture (paper white) as PNG: 8-bit grey, or 1-bit when ``threshold``."""
    return png.encode(ink, threshold=threshold)
