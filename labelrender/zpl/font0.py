"""Font 0's metrics as Labelary prints them: its advance table and the glyphs it
draws as plain bars.

Labelary does not place font 0 on the advances of an outline face: every
character steps by its own fraction of the cell width w (``^A0`` width), the
same at every size (digits 0.48 w at h 20, 30, 50 and 80), and a few symbols are
thin bars on wide advances (the hyphen is a 0.58 w bar on a 0.9 w advance).
The figures were measured from Labelary's PNGs of the zplab corpus set, every
``hNN_<char>`` test, by ``benchmarks/font0_advances.py`` (its docstring gives
the method); characters it has no figure for keep the outline face's advance.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

# Advance / w, from ``python benchmarks/font0_advances.py --python``.
ADVANCES: dict[str, float] = {
    '!': 0.290, '"': 0.480, '#': 0.480, '$': 0.480, '%': 0.900, '&': 0.610, "'": 0.290,
    '(': 0.290, ')': 0.290, '*': 0.480, '+': 0.900, ',': 0.290, '-': 0.902, '.': 0.296,
    '/': 0.290, '0': 0.480, '1': 0.480, '2': 0.480, '3': 0.480, '4': 0.480, '5': 0.480,
    '6': 0.480, '7': 0.480, '8': 0.480, '9': 0.480, ':': 0.290, ';': 0.290, '<': 1.000,
    '=': 0.902, '>': 1.000, '?': 0.440, '@': 0.900, 'A': 0.551, 'B': 0.550, 'C': 0.530,
    'D': 0.590, 'E': 0.500, 'F': 0.500, 'G': 0.590, 'H': 0.610, 'I': 0.280, 'J': 0.440,
    'K': 0.550, 'L': 0.480, 'M': 0.754, 'N': 0.610, 'O': 0.570, 'P': 0.550, 'Q': 0.570,
    'R': 0.590, 'S': 0.530, 'T': 0.500, 'U': 0.610, 'V': 0.530, 'W': 0.810, 'X': 0.550,
    'Y': 0.550, 'Z': 0.500, '[': 0.290, '\\': 0.480, ']': 0.290, '^': 0.500, '_': 0.499,
    '`': 0.290, 'a': 0.460, 'b': 0.500, 'c': 0.440, 'd': 0.500, 'e': 0.480, 'f': 0.280,
    'g': 0.500, 'h': 0.500, 'i': 0.254, 'j': 0.260, 'k': 0.440, 'l': 0.260, 'm': 0.760,
    'n': 0.500, 'o': 0.480, 'p': 0.500, 'q': 0.500, 'r': 0.330, 's': 0.420, 't': 0.280,
    'u': 0.500, 'v': 0.440, 'w': 0.660, 'x': 0.440, 'y': 0.440, 'z': 0.390, '{': 0.500,
    '|': 0.500, '}': 0.500, '~': 1.000, "\u00a1": 0.290, "\u00a2": 0.480, "\u00a3": 0.480,
    "\u00a4": 0.476, "\u00a5": 0.480, "\u00a6": 0.500, "\u00a7": 0.480, "\u00a8": 0.480,
    "\u00a9": 0.500, "\u00aa": 0.370, "\u00ab": 0.410, "\u00ac": 0.900, "\u00ae": 0.500,
    "\u00af": 0.499, "\u00b0": 0.480, "\u00b1": 0.900, "\u00b2": 0.370, "\u00b3": 0.370,
    "\u00b4": 0.480, "\u00b5": 0.585, "\u00b6": 0.480, "\u00b7": 0.103, "\u00b8": 0.480,
    "\u00b9": 0.370, "\u00ba": 0.370, "\u00bb": 0.410, "\u00bc": 0.900, "\u00bd": 0.900,
    "\u00be": 0.900, "\u00bf": 0.440, "\u00c0": 0.550, "\u00c1": 0.550, "\u00c2": 0.550,
    "\u00c3": 0.550, "\u00c4": 0.550, "\u00c5": 0.550, "\u00c6": 0.870, "\u00c7": 0.530,
    "\u00c8": 0.500, "\u00c9": 0.500, "\u00ca": 0.500, "\u00cb": 0.500, "\u00cc": 0.280,
    "\u00cd": 0.280, "\u00ce": 0.280, "\u00cf": 0.280, "\u00d0": 0.590, "\u00d1": 0.610,
    "\u00d2": 0.570, "\u00d3": 0.570, "\u00d4": 0.570, "\u00d5": 0.570, "\u00d6": 0.570,
    "\u00d7": 0.900, "\u00d8": 0.570, "\u00d9": 0.610, "\u00da": 0.610, "\u00db": 0.610,
    "\u00dc": 0.610, "\u00dd": 0.550, "\u00de": 0.550, "\u00df": 0.520, "\u00e0": 0.460,
    "\u00e1": 0.460, "\u00e2": 0.460, "\u00e3": 0.460, "\u00e4": 0.460, "\u00e5": 0.460,
    "\u00e6": 0.720, "\u00e7": 0.440, "\u00e8": 0.480, "\u00e9": 0.480, "\u00ea": 0.480,
    "\u00eb": 0.480, "\u00ec": 0.260, "\u00ed": 0.260, "\u00ee": 0.260, "\u00ef": 0.260,
    "\u00f0": 0.480, "\u00f1": 0.500, "\u00f2": 0.480, "\u00f3": 0.480, "\u00f4": 0.480,
    "\u00f5": 0.480, "\u00f6": 0.480, "\u00f7": 0.900, "\u00f8": 0.480, "\u00f9": 0.500,
    "\u00fa": 0.500, "\u00fb": 0.500, "\u00fc": 0.500, "\u00fd": 0.440, "\u00fe": 0.500,
    "\u00ff": 0.440, "\u2013": 0.900, "\u2014": 0.900, "\u2018": 0.290, "\u2019": 0.290,
    "\u201a": 0.290, "\u201c": 0.420, "\u201d": 0.420, "\u201e": 0.420, "\u2022": 0.103,
    "\u2026": 0.900, "\u2030": 1.270, "\u20ac": 0.480, "\u2122": 0.610,
}

# The middle of each glyph's ink, from the pen / w: Labelary's glyphs do not sit
# where the stand-in face's side bearings put them (``python
# benchmarks/font0_advances.py --middles``). Each glyph is placed so that its ink is
# centred there. Over the corpus: carriers 0.9768 -> 0.9773, labelize-units 0.9573 ->
# 0.9579, zplkit 0.9769 -> 0.9776, zplab 0.9544 -> 0.9633 (zplab in-sample).
MIDDLES: dict[str, float] = {
    '!': 0.149, '"': 0.238, '#': 0.240, '$': 0.240, '%': 0.452, '&': 0.309, "'": 0.157,
    '(': 0.179, ')': 0.122, '*': 0.249, '+': 0.451, ',': 0.157, '-': 0.454, '.': 0.159,
    '/': 0.150, '0': 0.235, '1': 0.220, '2': 0.233, '3': 0.240, '4': 0.240, '5': 0.249,
    '6': 0.246, '7': 0.240, '8': 0.240, '9': 0.242, ':': 0.150, ';': 0.154, '<': 0.504,
    '=': 0.454, '>': 0.493, '?': 0.221, '@': 0.451, 'A': 0.280, 'B': 0.287, 'C': 0.268,
    'D': 0.305, 'E': 0.265, 'F': 0.265, 'G': 0.291, 'H': 0.306, 'I': 0.139, 'J': 0.214,
    'K': 0.295, 'L': 0.266, 'M': 0.378, 'N': 0.306, 'O': 0.287, 'P': 0.296, 'Q': 0.296,
    'R': 0.305, 'S': 0.269, 'T': 0.259, 'U': 0.307, 'V': 0.270, 'W': 0.415, 'X': 0.280,
    'Y': 0.280, 'Z': 0.250, '[': 0.156, '\\': 0.241, ']': 0.142, '^': 0.252, '`': 0.143,
    'a': 0.233, 'b': 0.256, 'c': 0.219, 'd': 0.248, 'e': 0.239, 'f': 0.149, 'g': 0.245,
    'h': 0.254, 'i': 0.130, 'j': 0.121, 'k': 0.242, 'l': 0.130, 'm': 0.380, 'n': 0.253,
    'o': 0.241, 'p': 0.256, 'q': 0.249, 'r': 0.193, 's': 0.220, 't': 0.132, 'u': 0.253,
    'v': 0.211, 'w': 0.339, 'x': 0.229, 'y': 0.229, 'z': 0.197, '{': 0.260, '|': 0.251,
    '}': 0.239, '~': 0.511, "\u00a1": 0.149, "\u00a2": 0.241, "\u00a3": 0.250,
    "\u00a4": 0.245, "\u00a5": 0.230, "\u00a6": 0.251, "\u00a7": 0.250, "\u00a8": 0.241,
    "\u00a9": 0.271, "\u00aa": 0.189, "\u00ab": 0.207, "\u00ac": 0.458, "\u00ae": 0.270,
    "\u00b0": 0.240, "\u00b1": 0.451, "\u00b2": 0.180, "\u00b3": 0.173, "\u00b4": 0.268,
    "\u00b5": 0.266, "\u00b6": 0.249, "\u00b8": 0.233, "\u00b9": 0.166, "\u00ba": 0.185,
    "\u00bb": 0.207, "\u00bc": 0.440, "\u00bd": 0.432, "\u00be": 0.450, "\u00bf": 0.220,
    "\u00c0": 0.280, "\u00c1": 0.280, "\u00c2": 0.280, "\u00c3": 0.280, "\u00c4": 0.280,
    "\u00c5": 0.280, "\u00c6": 0.421, "\u00c7": 0.268, "\u00c8": 0.265, "\u00c9": 0.265,
    "\u00ca": 0.266, "\u00cb": 0.266, "\u00cc": 0.134, "\u00cd": 0.145, "\u00ce": 0.140,
    "\u00cf": 0.140, "\u00d0": 0.280, "\u00d1": 0.307, "\u00d2": 0.287, "\u00d3": 0.287,
    "\u00d4": 0.287, "\u00d5": 0.287, "\u00d6": 0.287, "\u00d7": 0.450, "\u00d8": 0.291,
    "\u00d9": 0.307, "\u00da": 0.307, "\u00db": 0.307, "\u00dc": 0.307, "\u00dd": 0.280,
    "\u00de": 0.296, "\u00df": 0.267, "\u00e0": 0.230, "\u00e1": 0.230, "\u00e2": 0.238,
    "\u00e3": 0.230, "\u00e4": 0.230, "\u00e5": 0.230, "\u00e6": 0.351, "\u00e7": 0.219,
    "\u00e8": 0.239, "\u00e9": 0.239, "\u00ea": 0.239, "\u00eb": 0.239, "\u00ec": 0.116,
    "\u00ed": 0.144, "\u00ee": 0.130, "\u00ef": 0.130, "\u00f0": 0.240, "\u00f1": 0.254,
    "\u00f2": 0.241, "\u00f3": 0.241, "\u00f4": 0.241, "\u00f5": 0.241, "\u00f6": 0.241,
    "\u00f7": 0.449, "\u00f8": 0.248, "\u00f9": 0.253, "\u00fa": 0.253, "\u00fb": 0.254,
    "\u00fc": 0.254, "\u00fd": 0.229, "\u00fe": 0.255, "\u00ff": 0.230, "\u2013": 0.454,
    "\u2014": 0.449, "\u2018": 0.143, "\u2019": 0.157, "\u201a": 0.155, "\u201c": 0.210,
    "\u201d": 0.215, "\u201e": 0.215, "\u2026": 0.447, "\u2030": 0.632, "\u20ac": 0.242,
    "\u2122": 0.310,
}

# The word space / w. The script measures 0.273 and 0.278 w between the first two
# words of zplab's h50_shipto and h30_mixed; over the whole corpus 0.30 w scores best
# on every set (carriers 0.967 at 0.275, 0.971 at 0.29, 0.972 at 0.30, 0.970 at 0.31,
# 0.967 at 0.32), as the reference's gaps in longer lines of small text say.
SPACE = 0.30

# left and right in w from the pen; top and bottom in h from the cell top
Box = tuple[float, float, float, float]

# Glyphs Labelary draws as bars (zplab h20/h30/h50/h80 tests, ink boxes at grey 128):
# the dashes at mid height, ``_`` and ``¯`` as one line per advance (so a run joins),
# the middle dot as a short bar, ``|`` and ``¦`` as a thin full-height stem, and the
# wide symbols ``+ = ± ÷ ¬`` with thin strokes in the same 0.58 w box as the hyphen.
_DASH = (0.16, 0.74, 0.385, 0.5)
BARS: dict[str, tuple[Box, ...]] = {
    "-": (_DASH,),
    "\u2013": (_DASH,),
    "\u2014": ((0.04, 0.84, 0.4, 0.5),),
    "_": ((0.0, ADVANCES["_"], 0.94, 0.98),),
    "\u00af": ((0.0, ADVANCES["\u00af"], -0.06, 0.0),),
    "\u00b7": ((-0.02, ADVANCES["\u00b7"], 0.28, 0.4),),
    "\u2022": ((-0.02, ADVANCES["\u2022"], 0.28, 0.4),),
    "|": ((0.22, 0.28, 0.0, 0.98),),
    "\u00a6": ((0.22, 0.28, 0.0, 0.98),),
    "+": (_DASH, (0.40, 0.50, 0.12, 0.76)),
    "=": ((0.16, 0.74, 0.28, 0.38), (0.16, 0.74, 0.5, 0.6)),
    "\u00b1": ((0.16, 0.74, 0.4, 0.5), (0.40, 0.52, 0.12, 0.76), (0.16, 0.74, 0.8, 0.9)),
    "\u00f7": ((0.16, 0.74, 0.4, 0.52), (0.38, 0.52, 0.16, 0.28), (0.38, 0.52, 0.62, 0.74)),
    "\u00ac": ((0.16, 0.74, 0.28, 0.38), (0.62, 0.74, 0.38, 0.64)),
}

Point = tuple[float, float]  # x in w from the pen, y in h from the cell top
# Glyphs Labelary draws as thin strokes: each a polyline and its stroke width in w.
STROKES: dict[str, tuple[tuple[tuple[Point, ...], ...], float]] = {
    "<": ((((0.78, 0.16), (0.22, 0.44), (0.78, 0.72)),), 0.1),
    ">": ((((0.22, 0.16), (0.78, 0.44), (0.22, 0.72)),), 0.1),
    "\u00d7": ((((0.19, 0.19), (0.71, 0.70)), ((0.71, 0.19), (0.19, 0.70))), 0.11),
}

DRAWN = frozenset(BARS) | frozenset(STROKES)

# Characters Labelary draws with another character's shape: the grave accent as a
# curly opening quote (zplab h50_backtick).
SHAPE_OF: dict[str, str] = {"`": "\u2018"}


@functools.lru_cache(maxsize=1024)
def drawn_glyph(char: str, width: float, height: float,
                ascent: float) -> tuple[Image.Image, int, int]:
    """``char`` (one of ``DRAWN``) for a cell of ``width`` x ``height`` pixels: the mask
    (ink 255) and its offset from the pen point on the baseline (``ascent`` below the
    top)."""
    margin = round(0.2 * max(width, height)) + 2  # room left of the pen and above the top
    canvas = Image.new("L", (round(1.4 * width) + 2 * margin, round(1.2 * height) + 2 * margin))
    draw = ImageDraw.Draw(canvas)
    for left, right, top, bottom in BARS.get(char, ()):
        x0, x1 = round(left * width) + margin, round(right * width) + margin
        y0 = round(top * height) + margin
        y1 = max(y0 + 1, round(bottom * height) + margin)
        draw.rectangle((x0, y0, max(x0, x1 - 1), y1 - 1), fill=255)
    lines, stroke = STROKES.get(char, ((), 0.0))
    for line in lines:
        points = [(x * width + margin, y * height + margin) for x, y in line]
        draw.line(points, fill=255, width=max(1, round(stroke * width)), joint="curve")
    box = canvas.getbbox()
    if box is None:
        return Image.new("L", (0, 0)), 0, 0
    return canvas.crop(box), box[0] - margin, box[1] - margin - round(ascent)
