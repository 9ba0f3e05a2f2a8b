"""Layout: elements -> positioned primitives in target pixels.

Layout measures (font advances, ^FB wrapping, symbol geometry) and rotates;
it never paints. Orientation follows the ZPL II guide: N normal, R 90 degrees
clockwise, I 180 degrees, B 270 degrees (read bottom to top). With ^FO the
rotated field's bounding box has its top-left at the origin; with ^FT the
baseline start (bars' bottom-left for a barcode) sits on the origin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from . import budget as cost
from . import fonts, marks, text
from .budget import Budget
from .elements import (
    BarcodeField,
    Element,
    FontSpec,
    GraphicBox,
    GraphicDiagonal,
    GraphicEllipse,
    GraphicImage,
    Origin,
    TextField,
)
from .errors import LimitExceeded, Warning
from .graphic_data import Bitmap
from .ink import FieldBox, InkLog, add_glyphs, overflow
from .symbols import SymbolError, SymbolGeometry, SymbolText, build_symbol

Point = tuple[float, float]


class Rect(NamedTuple):
    """A filled box (a tuple: a bar code makes thousands, and a tuple is quick to make)."""

    x: int
    y: int
    w: int
    h: int
    mode: str  # "ink", "paper" or "xor"


@dataclass(frozen=True)
class Frame:
    """Border of a ^GB box (rounded or square) with a given line thickness."""

    x: int
    y: int
    w: int
    h: int
    thickness: int
    radius: int
    mode: str


@dataclass(frozen=True)
class Ellipse:
    x: int
    y: int
    w: int
    h: int
    thickness: int
    mode: str


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    mode: str


@dataclass(frozen=True)
class GlyphRun:
    """Glyphs of one line: page position of each pen point on the baseline."""

    font: fonts.ScaledFont
    glyphs: tuple[tuple[str, float, float], ...]
    orientation: str
    mode: str
    clip: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Picture:
    x: int
    y: int
    bitmap: Bitmap
    width: int  # target size after magnification and scaling
    height: int
    mode: str


@dataclass(frozen=True)
class Symbol:
    """A barcode's geometry, placed: rects are already on the page."""

    rects: tuple[Rect, ...]
    hexagons: tuple[tuple[float, float, float], ...]
    rings: tuple[tuple[float, float, float, float], ...]
    orientation: str
    mode: str


Primitive = Rect | Frame | Ellipse | Polygon | GlyphRun | Picture | Symbol


@dataclass
class LayoutContext:
    scale: float
    font0: str
    warnings: list[Warning] = field(default_factory=list)
    last_pen: Point | None = None  # page point after the last ^FT text, for follow-on ^FT
    font_files: dict[str, str] = field(default_factory=dict)  # ^A@/^CW object -> font file
    budget: Budget = field(default_factory=Budget)  # canvas, work and time of this render
    offset_x: float = 0.0  # a label narrower (^PW) than the canvas is centred on it
    # The largest label side in output pixels (Limits.max_side_inches at the
    # output dpi): a text box wider or taller than any label could be is refused.
    max_side_px: float = float("inf")
    ink: InkLog = field(default_factory=InkLog)  # each printed field's ink box


def rotate(orientation: str, du: float, dv: float) -> Point:
    """A local (along, down) offset turned into page axes for an orientation."""
    if orientation == "R":
        return -dv, du
    if orientation == "I":
        return -du, -dv
    if orientation == "B":
        return dv, -du
    return du, dv


def box_offset(orientation: str, width: float, height: float) -> Point:
    """Shift that puts a rotated width x height box's top-left on the origin."""
    return {"R": (height, 0.0), "I": (width, height), "B": (0.0, width)}.get(
        orientation, (0.0, 0.0))


def _mode(reverse: bool, color: str = "B") -> str:
    if reverse:
        return "xor"
    return "paper" if color == "W" else "ink"


def _at(origin: Origin, ctx: LayoutContext) -> Point:
    x, y = origin.x * ctx.scale + ctx.offset_x, origin.y * ctx.scale
    if ctx.last_pen is not None:
        x = ctx.last_pen[0] if origin.follow_x else x
        y = ctx.last_pen[1] if origin.follow_y else y
    return x, y


def layout(elements: list[Element], ctx: LayoutContext) -> list[Primitive]:
    """Primitives for everything that can print on the canvas; the work of painting them
    is charged to ``ctx.budget`` first, so a label over the work cap allocates nothing."""
    out: list[Primitive] = []
    for element in elements:
        if ctx.budget.late():
            ctx.budget.tick(*_site(element))
        match element:
            case TextField():
                out.extend(_text(element, ctx))
            case BarcodeField():
                out.extend(_barcode(element, ctx))
            case GraphicBox():
                out.extend(_box(element, ctx))
            case GraphicEllipse():
                out.extend(_shape(_ellipse(element, ctx), element, ctx))
            case GraphicDiagonal():
                out.extend(_shape(_diagonal(element, ctx), element, ctx))
            case GraphicImage():
                out.extend(_shape(_picture(element, ctx), element, ctx))
        _record_field(element, ctx)
    return out


def _record_field(element: Element, ctx: LayoutContext) -> None:
    """The element's ink box (``ctx.ink.boxes``), and a warning when ink that
    prints (not a white ^GB...W) runs off the canvas."""
    box = ctx.ink.take()
    if box is None:
        return
    match element:
        case TextField():
            offset, command, number = element.offset, "^FD", element.number
            what = repr(element.text[:24] + ("..." if len(element.text) > 24 else ""))
        case BarcodeField():
            offset, command, number = element.offset, "^" + element.spec.command, element.number
            what = f"{command} {element.data[:24]!r}"
        case _:
            (offset, command), number = _site(element), None
            what = command
    x0, y0, x1, y1 = box
    ctx.ink.boxes.append(FieldBox(offset, command, number, x0, y0, x1 - x0, y1 - y0))
    if getattr(element, "color", "B") == "W" and not getattr(element, "reverse", False):
        return  # white on white: nothing of it prints anywhere
    note = overflow(box, ctx.budget.width, ctx.budget.height, ctx.scale, offset, command, what)
    if note is not None:
        ctx.warnings.append(note)


def _check_box(element: TextField, ctx: LayoutContext, site: tuple[int, str]) -> None:
    """A ^TB or ^FB box larger than the largest label the engine renders (the
    canvas per-side cap) describes no label: it is refused, as such a canvas is,
    before any text is measured. Boxes up to that size are clipped to the canvas."""
    sides = [element.block.width] if element.block is not None else []
    if element.text_block is not None:
        sides += [element.text_block.width, element.text_block.height]
    longest = max(sides, default=0) * ctx.scale
    if longest > ctx.max_side_px:
        offset, command = site
        raise LimitExceeded(f"text box of {longest:.0f} px is over the largest label side "
                            f"({ctx.max_side_px:.0f} px)", offset, command, limit="text_block")


def _site(element: Element) -> tuple[int, str]:
    """The byte offset and command an error about ``element`` names."""
    match element:
        case TextField():
            if element.text_block is not None and element.text_block.offset is not None:
                return element.text_block.offset, "^TB"
            if element.block is not None and element.block.offset is not None:
                return element.block.offset, "^FB"
            return element.offset, "^FD"
        case BarcodeField():
            offset = element.spec.offset
            return element.offset if offset is None else offset, "^" + element.spec.command
        case GraphicBox():
            return element.offset, "^GB"
        case GraphicDiagonal():
            return element.offset, "^GD"
        case GraphicEllipse() | GraphicImage():
            return element.offset, element.command


def _bounds(item: Ellipse | Polygon | Picture) -> tuple[float, float, float, float]:
    match item:
        case Polygon():
            xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
            return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
        case Picture():
            return item.x, item.y, item.width, item.height
        case Ellipse():
            return item.x, item.y, item.w, item.h


def _shape(item: Ellipse | Polygon | Picture, element: Element,
           ctx: LayoutContext) -> list[Primitive]:
    """A shape that shows on the canvas, its painting charged; nothing if it is off it."""
    x, y, w, h = _bounds(item)
    if isinstance(item, Polygon):  # raster fills the pixels the outline touches
        ctx.ink.add((math.floor(x), math.floor(y), math.ceil(x + w), math.ceil(y + h)))
    elif isinstance(item, Picture):
        _add_picture_ink(item, ctx)
    else:
        ctx.ink.add_rect(x, y, w, h)
    area = ctx.budget.area(x, y, w, h)
    if area == 0:
        return []
    work = float(area + cost.PRIMITIVE)
    if isinstance(item, Picture):
        work += item.bitmap.width * item.bitmap.height  # the bitmap is unpacked in full
    else:
        work += (w + h) * cost.EDGE
    ctx.budget.charge(work, *_site(element))
    return [item]


def _add_picture_ink(picture: Picture, ctx: LayoutContext) -> None:
    """Where a picture's ink bits land, not its whole bitmap: ^GF rows are padded to
    whole bytes and logos have blank margins, which print nothing off the label."""
    bounds = picture.bitmap.ink_bounds()
    if bounds is None:
        return
    sx, sy = picture.width / picture.bitmap.width, picture.height / picture.bitmap.height
    left, top, right, bottom = bounds
    ctx.ink.add((picture.x + left * sx, picture.y + top * sy, picture.x + right * sx,
                 picture.y + bottom * sy))


def _rect_on_canvas(rect: Rect, ctx: LayoutContext) -> Rect | None:
    """The part of a rectangle on the canvas (all of it paints the same)."""
    left, top, right, bottom = ctx.budget.visible(rect.x, rect.y, rect.w, rect.h)
    if right <= left or bottom <= top:
        return None
    return Rect(left, top, right - left, bottom - top, rect.mode)


def _box_origin(origin: Origin, ctx: LayoutContext, width: int, height: int) -> tuple[int, int]:
    x, y = _at(origin, ctx)
    if origin.baseline:
        y -= height
    if origin.justification == 1:
        x -= width
    return round(x), round(y)


def _px(value: int, ctx: LayoutContext) -> int:
    return max(1, round(value * ctx.scale)) if value > 0 else 0


def _box(box: GraphicBox, ctx: LayoutContext) -> list[Primitive]:
    w, h, t = _px(box.width, ctx), _px(box.height, ctx), _px(box.thickness, ctx)
    x, y = _box_origin(box.origin, ctx, w, h)
    ctx.ink.add_rect(x, y, w, h)
    mode = _mode(box.reverse, box.color)
    # ZPL II guide ^GB: rounding radius = (r / 8) * (shorter side / 2).
    radius = round(box.rounding / 8 * min(w, h) / 2)
    budget = ctx.budget
    inside = x >= 0 and y >= 0 and x + w <= budget.width and y + h <= budget.height
    shape: Rect | Frame
    if radius == 0 and (2 * t >= w or 2 * t >= h):
        shape = Rect(x, y, w, h, mode)
    elif radius > 0 or inside:
        shape = Frame(x, y, w, h, min(t, w, h), radius, mode)
    else:
        # A square border reaching off the canvas: its four sides, which do not overlap
        # (a reversed one inverts each pixel once), cut to the canvas.
        sides = [Rect(x, y, w, t, mode), Rect(x, y + h - t, w, t, mode),
                 Rect(x, y + t, t, h - 2 * t, mode), Rect(x + w - t, y + t, t, h - 2 * t, mode)]
        out: list[Primitive] = []
        for side in sides:
            clipped = _rect_on_canvas(side, ctx)
            if clipped is not None:
                out.append(clipped)
                budget.charge(clipped.w * clipped.h + cost.PRIMITIVE, *_site(box))
        return out
    if inside:
        budget.charge(w * h + cost.PRIMITIVE, box.offset, "^GB")
        return [shape]
    left, top, right, bottom = budget.visible(x, y, w, h)
    if right <= left or bottom <= top:
        return []
    work = (right - left) * (bottom - top) + cost.PRIMITIVE
    if isinstance(shape, Rect):  # all of it paints the same: only its part on the canvas
        shape = Rect(left, top, right - left, bottom - top, mode)
    else:  # Pillow draws a rounded border along its whole extent
        work += (w + h) * cost.EDGE
    budget.charge(work, *_site(box))
    return [shape]


def _ellipse(shape: GraphicEllipse, ctx: LayoutContext) -> Ellipse:
    w, h, t = _px(shape.width, ctx), _px(shape.height, ctx), _px(shape.thickness, ctx)
    x, y = _box_origin(shape.origin, ctx, w, h)
    return Ellipse(x, y, w, h, t, _mode(shape.reverse, shape.color))


def _diagonal(line: GraphicDiagonal, ctx: LayoutContext) -> Polygon:
    w, h, t = _px(line.width, ctx), _px(line.height, ctx), _px(line.thickness, ctx)
    x, y = _box_origin(line.origin, ctx, w, h)
    # The stroke is t dots wide horizontally; its far end starts at x + w, so the
    # line covers w + t dots across, as Labelary draws it.
    if line.lean == "L":
        points = ((x, y), (x + t, y), (x + w + t, y + h), (x + w, y + h))
    else:
        points = ((x, y + h), (x + t, y + h), (x + w + t, y), (x + w, y))
    return Polygon(tuple((float(a), float(b)) for a, b in points), _mode(line.reverse, line.color))


def _picture(image: GraphicImage, ctx: LayoutContext) -> Picture:
    w = _px(image.bitmap.width * image.mag_x, ctx)
    h = _px(image.bitmap.height * image.mag_y, ctx)
    x, y = _box_origin(image.origin, ctx, w, h)
    return Picture(x, y, image.bitmap, w, h, _mode(image.reverse))


def _text(element: TextField, ctx: LayoutContext) -> list[Primitive]:
    site = _site(element)
    _check_box(element, ctx, site)
    ctx.budget.charge(len(element.text) * cost.CHARACTER, *site)
    font = resolve_font(element.font, ctx, element.offset)
    block = text.arrange(element, font, ctx.scale, lambda: ctx.budget.tick(*site))
    x, y = _at(element.origin, ctx)
    o = element.orientation
    if element.origin.baseline:
        anchor_v = block.anchor_v
        off = (0.0, 0.0)
    else:
        anchor_v = 0.0
        off = box_offset(o, block.width, block.height)
    if element.origin.justification == 1 and o == "N":
        x -= block.width
    runs: list[Primitive] = []
    mode = _mode(element.reverse)
    if mode == "xor":
        # Labelary draws reverse (^FR/^LR) text bolder: every pixel a glyph's outline
        # touches is inverted, not only those it half covers. Its ^A0N,,28^FR "GOGREEN"
        # (labelize-units/text_fo_* and text_ft_*) has 5-dot stems where plain text of
        # that size has 4, and the rule lifts those eight labels (0.88-0.90 -> 0.94-0.96)
        # and carriers/glsdk_return (reverse text from 20 to 100 dots; 0.913 -> 0.926)
        # while leaving labelize-units/reverse and carriers/dhlpaket as they were.
        font = replace(font, solid=True)
    clip = None
    frame_box: tuple[float, float, float, float] | None = None  # the ^TB box, uncut
    offcut: tuple[tuple[text.GlyphPos, ...], ...] = ()  # lines of a ^TB off the canvas
    work = 0.0
    if block.clip_height is not None:
        # The clip box is the block's own frame: its top-left sits anchor_v above a
        # baseline (^FT) origin, so a ^TB placed with ^FT clips around the text it holds
        # (zplab/fG_tb_ft and h84_tb_ft print their block above the ^FT point; the clip
        # used to sit below it and hid all the text: F1 0.0 -> 0.99 and 0.40).
        tu, tv = rotate(o, 0.0, -anchor_v)
        cx0, cy0 = x + off[0] + tu, y + off[1] + tv
        ex, ey = rotate(o, block.width, block.clip_height)
        # A box larger than the label prints only what falls on the label: the clip
        # (raster's scratch image) is cut to the canvas.
        frame = (round(min(cx0, cx0 + ex)), round(min(cy0, cy0 + ey)),
                 abs(round(cx0 + ex) - round(cx0)), abs(round(cy0 + ey) - round(cy0)))
        clip = ctx.budget.visible(*frame)
        frame_box = (frame[0], frame[1], frame[0] + frame[2], frame[1] + frame[3])
        if clip[2] <= clip[0] or clip[3] <= clip[1]:
            offcut = block.lines
            block = replace(block, lines=())
        else:
            work += (clip[2] - clip[0]) * (clip[3] - clip[1]) + cost.PRIMITIVE
    pen: Point = (x, y)
    reach = cost.glyph_reach(font)
    right, bottom = ctx.budget.width + reach, ctx.budget.height + reach
    # A block well inside the canvas keeps every glyph; a larger one loses those whose
    # ink cannot reach the canvas (keeping one too many only costs work it is charged).
    extent = block.width + block.height + anchor_v  # the rotated block, from its origin
    cx, cy = x + off[0], y + off[1]
    inside = cx - extent > -reach and cx + extent < right and cy - extent > -reach and (
        cy + extent < bottom)
    painted = 0
    dropped: list[tuple[str, float, float]] = []  # glyphs whose ink cannot reach the canvas
    for line in block.lines:
        if inside and o == "N":  # the common case, without a turn per glyph
            glyphs = [(char, cx + u, cy + (v - anchor_v)) for char, u, v in line]
        else:
            glyphs = []
            for char, u, v in line:
                du, dv = rotate(o, u, v - anchor_v)
                gx, gy = cx + du, cy + dv
                if inside or (-reach < gx < right and -reach < gy < bottom):
                    glyphs.append((char, gx, gy))
                else:
                    dropped.append((char, gx, gy))
        if glyphs:
            painted += len(glyphs)
            runs.append(GlyphRun(font, tuple(glyphs), o, mode, clip))
    # Charged once the field is laid out: its characters (already charged) bound the lines.
    ctx.budget.charge(work + ctx.budget.glyph_work(font, painted, element.text), *site)
    for run in runs:  # charged: the masks measured here are the ones raster pastes
        assert isinstance(run, GlyphRun)
        add_glyphs(ctx.ink, font, run.glyphs, o, frame_box)
    add_glyphs(ctx.ink, font, tuple(dropped), o, frame_box, cells=True)
    for line in offcut:
        add_glyphs(ctx.ink, font, _on_page(line, o, cx, cy - anchor_v), o, frame_box, cells=True)
    if block.end is not None:
        du, dv = rotate(o, block.end[0], block.end[1] - anchor_v)
        pen = (x + off[0] + du, y + off[1] + dv)
    if element.origin.baseline:
        ctx.last_pen = pen
    return runs


def _on_page(line: tuple[text.GlyphPos, ...], orientation: str, x: float, y: float
             ) -> tuple[text.GlyphPos, ...]:
    """A line's glyphs at page positions, its block's origin at (x, y)."""
    out = []
    for char, u, v in line:
        du, dv = rotate(orientation, u, v)
        out.append((char, x + du, y + dv))
    return tuple(out)


def resolve_font(spec: FontSpec, ctx: LayoutContext, field_offset: int = 0) -> fonts.ScaledFont:
    """The drawable font for an ^A spec, with ZPL's defaults for missing sizes; a size
    over ``Limits.max_font_px`` is refused before any face of it is made."""
    offset, command = spec.offset, spec.command
    if offset is None:
        offset, command = field_offset, "^FD"
    try:
        font = _font(spec, ctx)
    except fonts.FontTooLarge as exc:
        raise LimitExceeded(str(exc), offset, command, limit="font_size") from None
    ctx.budget.face(font, offset, command)
    return font


def _font(spec: FontSpec, ctx: LayoutContext) -> fonts.ScaledFont:
    name = spec.name
    max_px = ctx.budget.limits.max_font_px
    if name == "GS":
        return marks.symbol_font(spec.height, spec.width, ctx.scale, max_px)
    if name in fonts.BITMAP_FONTS and spec.path is None:
        return fonts.bitmap(name, spec.height, spec.width, ctx.scale, max_px)
    height = spec.height or spec.width or 15
    width = spec.width or height
    file = ctx.font0
    if spec.path is not None:
        file = ctx.font_files.get(spec.path, ctx.font0)
    elif name != "0" and name not in fonts.BITMAP_FONTS:
        file = ctx.font0  # resident fonts beyond A-H map to font 0's face
    return fonts.scalable(height * ctx.scale, width * ctx.scale, file, max_px,
                          zebra=file == ctx.font0)


def _barcode(element: BarcodeField, ctx: LayoutContext) -> list[Primitive]:
    ctx.budget.charge(cost.BARCODE + len(element.data) * cost.BARCODE_CHARACTER, *_site(element))
    try:
        geometry, notes = build_symbol(element.spec, element.data, ctx.scale)
    except SymbolError as exc:
        ctx.warnings.append(Warning(element.offset, "^" + element.spec.command, str(exc)))
        return []
    for note in notes:
        ctx.warnings.append(Warning(element.offset, "^" + element.spec.command, note))
    return _place_symbol(element, geometry, ctx)


def _place_symbol(element: BarcodeField, g: SymbolGeometry, ctx: LayoutContext) -> list[Primitive]:
    o = element.spec.orientation
    x, y = _at(element.origin, ctx)
    if element.origin.baseline:
        anchor = -g.baseline
        off = (0.0, 0.0)
    else:
        anchor = 0.0
        off = box_offset(o, g.width, g.height)
    bx, by = x + off[0], y + off[1]

    def page(u: float, v: float) -> Point:
        du, dv = rotate(o, u, v + anchor)
        return bx + du, by + dv

    mode = _mode(element.reverse)
    rects = []
    if o == "N" and all(rw >= 0 and rh >= 0 for _, _, rw, rh in g.rects):
        # Unturned (most symbols, and a matrix has thousands of runs): page() inlined.
        for rx, ry, rw, rh in g.rects:
            left, top = round(bx + rx), round(by + (ry + anchor))
            rects.append(Rect(left, top, round(bx + (rx + rw)) - left,
                              round(by + (ry + rh + anchor)) - top, mode))
    else:
        for rx, ry, rw, rh in g.rects:
            (ax, ay), (cx, cy) = page(rx, ry), page(rx + rw, ry + rh)
            left, top = round(min(ax, cx)), round(min(ay, cy))
            rects.append(Rect(left, top, round(max(ax, cx)) - left, round(max(ay, cy)) - top,
                              mode))
    hexagons = tuple((*page(cx, cy), d) for cx, cy, d in g.hexagons)
    rings = tuple((*page(cx, cy), r1, r2) for cx, cy, r1, r2 in g.rings)
    # The bars are painted within the symbol's box (or through a mask over it): the
    # box's part on the canvas bounds their area.
    xs, ys = zip(*(page(u, v) for u in (0.0, g.width) for v in (0.0, g.height)), strict=True)
    work = len(rects) * cost.RECT + (len(hexagons) + len(rings)) * cost.PRIMITIVE
    work += ctx.budget.area(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    ctx.budget.charge(work, *_site(element))
    _symbol_ink(ctx, rects, hexagons, rings)
    out: list[Primitive] = [Symbol(tuple(rects), hexagons, rings, o, mode)]
    for piece in g.texts:
        font = _symbol_font(piece, ctx, element)
        u = piece.x
        if piece.center_width is not None:
            u += (piece.center_width - sum(font.advance(c) for c in piece.text)) / 2
        glyphs = []
        for char in piece.text:
            gx, gy = page(u, piece.y + font.ascent)
            glyphs.append((char, gx, gy))
            u += font.advance(char)
        ctx.budget.charge(ctx.budget.glyph_work(font, len(glyphs), piece.text), *_site(element))
        add_glyphs(ctx.ink, font, tuple(glyphs), o)
        out.append(GlyphRun(font, tuple(glyphs), o, mode))
    return out


def _symbol_ink(ctx: LayoutContext, rects: list[Rect],
                hexagons: tuple[tuple[float, float, float], ...],
                rings: tuple[tuple[float, float, float, float], ...]) -> None:
    """A symbol's modules, as raster paints them (hexagons and rings by their radius)."""
    drawn = [r for r in rects if r.w > 0 and r.h > 0]
    if drawn:
        ctx.ink.add((min(r.x for r in drawn), min(r.y for r in drawn),
                     max(r.x + r.w for r in drawn), max(r.y + r.h for r in drawn)))
    for cx, cy, d in hexagons:  # d across the flats: the corners are d / sqrt(3) out
        reach = d / math.sqrt(3) + 1
        ctx.ink.add((math.floor(cx - reach), math.floor(cy - reach), math.ceil(cx + reach),
                     math.ceil(cy + reach)))
    for cx, cy, outer, _ in rings:
        ctx.ink.add((math.floor(cx - outer), math.floor(cy - outer), math.ceil(cx + outer) + 1,
                     math.ceil(cy + outer) + 1))


def _symbol_font(piece: SymbolText, ctx: LayoutContext,
                 element: BarcodeField) -> fonts.ScaledFont:
    """The interpretation line's font; sizes in SymbolText are already target pixels."""
    max_px = ctx.budget.limits.max_font_px
    try:
        if piece.font in fonts.BITMAP_FONTS:
            return fonts.bitmap(piece.font, round(piece.font_height / ctx.scale),
                                round(piece.font_width / ctx.scale), ctx.scale, max_px)
        return fonts.scalable(piece.font_height, piece.font_width, ctx.font0, max_px)
    except fonts.FontTooLarge as exc:
        raise LimitExceeded(f"interpretation line: {exc}", *_site(element),
                            limit="font_size") from None
