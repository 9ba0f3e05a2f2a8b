#!/usr/bin/env python3
"""Font 0 advances measured from Labelary's own renders (corpus/labelary/zplab).

Method. Each zplab single-glyph test ``hNN_<name>.zpl`` prints one character
three times (``^FO200,200^A0N,h,w^FDAAA``). On Labelary's PNG (grey,
anti-aliased) the darkness of every column in the field's rows forms a profile
with three identical copies of the glyph; the copies sit one advance apart, so
the advance is the shift at which the profile best matches itself: the
maximum of its autocorrelation (over the shifts that three copies of one
glyph allow: see ``period``), refined to a
fraction of a dot by a parabola through the peak and its neighbours. It is the
mean of the two pen steps, in units of the cell width w. Characters whose
copies join into one line (``_`` and ``¯``) have no peak: there the line's
length is three advances. Where a character is measured at several sizes
(h20, h30, h50, h80) the figure is the mean of its sizes.

The word space cannot be printed alone; it is measured from the two
multi-word tests (``h50_shipto``, ``h30_mixed``): the first ink column of the
second word lies at the field origin plus the advances of the first word and
the space plus the left bearing of its first letter (taken from that letter's
own test at h50); what the table does not account for is the space.

The table is measured on zplab only: zplab's score with it is in-sample, the
other sets (carriers, labelize-units, zplkit) are the honest test.

    python benchmarks/font0_advances.py [--corpus DIR] [--python | --middles]

prints one row per character (advance / w, and each size's figure), or with
``--python`` the table as a Python dict literal for ``labelrender/zpl/font0.py``
(``ADVANCES``), or with ``--middles`` where the middle of each glyph's ink lies
from the pen (/ w; the first copy's ink runs from its first column for the span
less two advances), mean over sizes (``MIDDLES``).
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "labelary" / "zplab"
_FIELD = re.compile(rb"\^FO(\d+),(\d+)\^A0N,(\d+),(\d+)(\^FH)?\^FD(.*?)\^FS", re.S)
# Characters whose three copies print as one unbroken line: the line is three advances.
_JOINED = frozenset("_\u00af\u00b7\u2022")


def field_of(zpl: bytes) -> tuple[int, int, int, int, str] | None:
    """x, y, h, w and the text of a single ^A0 field (hex ^FH and ^CI28 decoded)."""
    found = _FIELD.search(zpl)
    if found is None:
        return None
    x, y, h, w, hexed, raw = found.groups()
    if hexed:
        raw = re.sub(rb"_([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)
    text = raw.decode("utf-8") if b"^CI28" in zpl else raw.decode("latin-1")
    return int(x), int(y), int(h), int(w), text


def darkness(png: Path, y: int, h: int) -> np.ndarray:
    """The ink of the field's rows (a little above and below the cell), 0-255 a dot."""
    grey = np.asarray(Image.open(png).convert("L")).astype(float)
    return 255.0 - grey[max(0, y - h // 2): y + 2 * h]


def period(profile: np.ndarray, span: float) -> float:
    """The shift (dots) at which a column profile of three copies best matches itself.

    The ink spans two advances and one glyph, and a glyph is at most a little
    wider than its advance, so the shift lies between span / 3.2 and span / 2:
    a shorter one that matches a glyph's own strokes (the two stems of ``0``)
    is no candidate.
    """
    lo, hi = max(1, int(span / 3.2)), int(span / 2) + 2
    corr = np.array([float(np.dot(profile[:-a], profile[a:])) for a in range(lo, hi)])
    i = int(np.argmax(corr))
    if 0 < i < len(corr) - 1:
        left, mid, right = corr[i - 1], corr[i], corr[i + 1]
        bend = left - 2 * mid + right
        step = 0.5 * (left - right) / bend if bend else 0.0
        return lo + i + step
    return float(lo + i)


def ink_span(profile: np.ndarray) -> tuple[float, float]:
    """First and last+1 ink column, to a fraction of a dot from the anti-aliasing."""
    cols = profile / max(1.0, float(profile.max()))
    inked = np.nonzero(cols > 0.02)[0]
    first, last = int(inked[0]), int(inked[-1])
    return first + 1.0 - float(cols[first]), last + float(cols[last])


def measure(corpus: Path) -> tuple[dict[str, dict[int, float]], dict[str, float],
                                   dict[str, dict[int, float]]]:
    """Each character's advance / w per size, its left bearing / w at h50, and the
    middle of its ink from the pen / w per size."""
    advances: dict[str, dict[int, float]] = defaultdict(dict)
    bearings: dict[str, float] = {}
    middles: dict[str, dict[int, float]] = defaultdict(dict)
    for zpl_path in sorted(corpus.glob("h*.zpl")):
        found = field_of(zpl_path.read_bytes())
        if found is None:
            continue
        x, y, h, w, text = found
        if len(text) != 3 or len(set(text)) != 1:
            continue
        char = text[0]
        profile = darkness(zpl_path.with_suffix(".png"), y, h).sum(axis=0)
        first, last = ink_span(profile)
        step = (last - first) / 3 if char in _JOINED else period(profile, last - first)
        advances[char][h] = step / w
        if char not in _JOINED:
            # the first copy's ink runs from ``first`` for the span less two advances
            middles[char][h] = (first + (last - first - 2 * step) / 2 - x) / w
        if h == 50:
            bearings[char] = (first - x) / w
    return advances, bearings, middles


def space(corpus: Path, table: dict[str, float], bearings: dict[str, float]) -> list[float]:
    """The word space / w from each multi-word test."""
    found = []
    for name in ("h50_shipto", "h30_mixed"):
        field = field_of((corpus / f"{name}.zpl").read_bytes())
        assert field is not None
        x, y, h, w, text = field
        profile = darkness(corpus / f"{name}.png", y, h).sum(axis=0)
        cols = profile > 0.3 * 255
        first_word = text.split(" ", 1)[0]
        before = text[: len(first_word) + 1]
        # the second word's first ink column: the first ink after a gap wider than any
        # gap inside a word (0.2 w)
        inked = np.nonzero(cols)[0]
        gaps = np.nonzero(np.diff(inked) > 0.2 * w)[0]
        start = float(inked[gaps[0] + 1])
        next_char = text[len(before)]
        known = sum(table[c] for c in before if c != " ")
        found.append(((start - x) / w - bearings[next_char] - known) / before.count(" "))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--python", action="store_true", help="print the table as a dict literal")
    ap.add_argument("--middles", action="store_true",
                    help="print the middle of each character's ink (from the pen, / w) instead")
    args = ap.parse_args()
    advances, bearings, middles = measure(args.corpus)
    table = {c: sum(by.values()) / len(by) for c, by in advances.items()}
    spaces = space(args.corpus, table, bearings)
    table[" "] = sum(spaces) / len(spaces)
    if args.middles:
        mids = sorted((c, sum(by.values()) / len(by)) for c, by in middles.items())
        print("{" + ", ".join(f"{c!r}: {v:.3f}" for c, v in mids) + "}")
        return 0
    if args.python:
        items = sorted(table.items())
        print("{" + ", ".join(f"{c!r}: {v:.3f}" for c, v in items) + "}")
        return 0
    for char, value in sorted(table.items()):
        sizes = " ".join(f"h{h}={v:.3f}" for h, v in sorted(advances.get(char, {}).items()))
        print(f"U+{ord(char):04X} {char!r:6s} {value:.3f}  {sizes}")
    print(f"space from each test: {', '.join(f'{s:.3f}' for s in spaces)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
