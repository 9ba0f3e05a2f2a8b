"""Text arrangement: lines, ^FB/^TB wrapping and justification, in a local frame.

The local frame has u running along the text and v running down from the top
of the block; each glyph is given as its pen point on the baseline. Layout then
rotates the frame onto the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .elements import TextField
from .fonts import ScaledFont

GlyphPos = tuple[str, float, float]

# ZPL II guide, ^FB: "\&" is a line break inside a field block; "\\" a backslash.
_BREAK = "\\&"

# An endless ^FB (huge text, one char wide) must stay bounded: lines are capped.
MAX_LINES = 2000
# Wrapping calls its ``tick`` (the render's time budget) every so many lines.
_TICK_LINES = 64

Tick = Callable[[], None]


def _no_tick() -> None:
    pass


@dataclass(frozen=True)
class Block:
    lines: tuple[tuple[GlyphPos, ...], ...]
    width: float
    height: float
    anchor_v: float  # the baseline ^FT anchors to
    end: tuple[float, float] | None  # pen after the last glyph
    clip_height: float | None = None


def _advances(text: str, font: ScaledFont, gap: float) -> list[float]:
    return [font.advance(ch) + gap for ch in text]


def arrange(field: TextField, font: ScaledFont, scale: float, tick: Tick = _no_tick) -> Block:
    gap = field.char_gap * scale
    if field.block is not None and field.block.width > 0:
        return _field_block(field, font, scale, gap, tick)
    if field.text_block is not None and field.text_block.width > 0:
        return _text_block(field, font, scale, gap, tick)
    if field.vertical:
        return _vertical(field.text, font, gap)
    text = field.text[::-1] if field.reverse_direction else field.text
    glyphs, width = _line(text, font, gap, 0.0, font.ascent)
    return Block((glyphs,), width, font.height, font.ascent, (width, font.ascent))


def _line(text: str, font: ScaledFont, gap: float, u0: float, v: float,
          space_extra: float = 0.0) -> tuple[tuple[GlyphPos, ...], float]:
    u = u0
    glyphs = []
    for ch, adv in zip(text, _advances(text, font, gap), strict=True):
        glyphs.append((ch, u, v))
        u += adv + (space_extra if ch == " " else 0.0)
    return tuple(glyphs), u - u0


def _vertical(text: str, font: ScaledFont, gap: float) -> Block:
    """^FPV: characters stacked top to bottom, each on its own baseline."""
    glyphs = []
    v = font.ascent
    width = 0.0
    for ch in text:
        glyphs.append((ch, 0.0, v))
        width = max(width, font.advance(ch))
        v += font.height + gap
    height = v - font.ascent
    return Block(tuple((g,) for g in glyphs), width, height, font.ascent, None)


def wrap(text: str, font: ScaledFont, width: float, gap: float, indent: float = 0.0,
         limit: int = MAX_LINES, tick: Tick = _no_tick) -> list[str]:
    """Greedy word wrap at spaces; a word wider than the line breaks where it must.

    One pass over the characters with cached advances, so a hostile block (a
    huge word in a 1-dot-wide ^FB) costs linear time and at most ``limit`` lines.
    """
    return [line for line, _ in wrap_lines(text, font, width, gap, indent, limit, tick)]


def wrap_lines(text: str, font: ScaledFont, width: float, gap: float, indent: float = 0.0,
               limit: int = MAX_LINES, tick: Tick = _no_tick) -> list[tuple[str, bool]]:
    """``wrap``, each line with whether a ``\\&`` break ends it."""
    lines: list[tuple[str, bool]] = []
    paragraphs = text.replace("\\\\", "\\").split(_BREAK)
    for number, paragraph in enumerate(paragraphs):
        broken = number < len(paragraphs) - 1
        if paragraph == "":
            lines.append(("", broken))
        advances = _advances(paragraph, font, gap)
        start = 0
        while start < len(paragraph) and len(lines) < limit:
            avail = width - (indent if lines else 0.0)
            (first, last), start = _next_break(paragraph, advances, start, avail)
            lines.append((paragraph[first:last], broken and start >= len(paragraph)))
            if len(lines) % _TICK_LINES == 0:
                tick()
        if len(lines) >= limit:
            break
    return lines[:limit]


def _next_break(paragraph: str, advances: list[float], start: int,
                avail: float) -> tuple[tuple[int, int], int]:
    """The next line's (start, end) slice and where the line after it starts."""
    end, used, space = start, 0.0, -1
    while end < len(paragraph) and used + advances[end] <= avail + 0.01:
        if paragraph[end] == " ":
            space = end
        used += advances[end]
        end += 1
    if end >= len(paragraph):
        return (start, end), end
    if paragraph[end] == " ":
        return (start, end), end + 1
    if space > start:
        return (start, space), space + 1
    end = max(end, start + 1)
    return (start, end), end


def _measure(text: str, font: ScaledFont, gap: float) -> float:
    return sum(_advances(text, font, gap))


def _field_block(field: TextField, font: ScaledFont, scale: float, gap: float,
                 tick: Tick) -> Block:
    fb = field.block
    assert fb is not None
    width = fb.width * scale
    indent = fb.hanging_indent * scale
    line_height = font.height + fb.line_spacing * scale
    texts = wrap_lines(field.text, font, width, gap, indent,
                       limit=max(fb.max_lines, 1) + MAX_LINES, tick=tick)
    lines = []
    end = None
    for i, (content, broken) in enumerate(texts):
        # ZPL II guide ^FB: text beyond the last line overwrites the last line.
        row = min(i, fb.max_lines - 1)
        v = row * line_height + font.ascent
        u0 = indent if i > 0 and row == i else 0.0
        glyphs, end = _justified(content, font, width - u0, gap, fb.justify, u0, v,
                                 last=i == len(texts) - 1, broken=broken)
        lines.append(glyphs)
    height = fb.max_lines * line_height - fb.line_spacing * scale
    anchor = (fb.max_lines - 1) * line_height + font.ascent
    return Block(tuple(lines), width, max(height, font.height), anchor, end)


def _justified(content: str, font: ScaledFont, width: float, gap: float, justify: str,
               u0: float, v: float, last: bool, broken: bool = False
               ) -> tuple[tuple[GlyphPos, ...], tuple[float, float]]:
    measured = _measure(content, font, gap)
    extra = 0.0
    if justify == "C" and not broken:
        # Labelary centres a line as if a space followed it, unless a \& break ends it:
        # ^FB ...,C lines stand half a space left of the middle (carriers/amazonshipping
        # "CYCLE_1" 11 dots at h 59, dhlparceluk, dpdpl, pnldpd, usps; labelize-units/
        # usps_priority_mail), while labelize-units/text_multiline's "...\&" lines
        # are centred on their own width. Right-justified lines are not moved
        # (carriers/porterbuddy, fedex).
        measured += font.advance(" ") + gap
    if justify == "C":
        u0 += (width - measured) / 2
    elif justify == "R":
        u0 += width - measured
    elif justify == "J" and not last and content.count(" "):
        extra = (width - measured) / content.count(" ")
    glyphs, used = _line(content, font, gap, u0, v, extra)
    return glyphs, (u0 + used, v)


def _text_block(field: TextField, font: ScaledFont, scale: float, gap: float,
                tick: Tick) -> Block:
    """^TB: wrap within the width; lines that do not fit the height are clipped."""
    tb = field.text_block
    assert tb is not None
    width, height = tb.width * scale, tb.height * scale
    room = max(1, int(height // font.height)) if tb.height else MAX_LINES
    texts = wrap(field.text, font, width, gap, limit=min(room, MAX_LINES), tick=tick)
    lines = []
    end = None
    for i, content in enumerate(texts):
        glyphs, end = _justified(content, font, width, gap, "L", 0.0,
                                 i * font.height + font.ascent, last=True)
        lines.append(glyphs)
    h = height or len(texts) * font.height
    # With ^FT the origin is the block's bottom-left corner (as Labelary places it).
    return Block(tuple(lines), width, h, h, end, clip_height=h)
