"""Imported once, in the sandbox's forkserver (``sandbox.PRELOAD``): renders
there what a render loads or builds on first use, so every render process
forked from it starts with it: fonts, glyph tables, the barcode library, and
font 0's glyphs at the sizes labels use most. Each render process renders the
warm-up label again before it says it is ready (``warm``), touching what it
inherited, and its worker sends it one real job call (``JobHandler.warm_up``).
The first render a worker takes (the first after ``/readyz`` says ready) is
then close to the rest (``benchmarks/first_render.py``)."""

from __future__ import annotations

import string

from labelrender.worker.engine_calls import WARM_UP_LABEL
from labelrender.zpl import RenderOptions, render

# Font 0's most used heights in the corpus of real labels (about two thirds of
# its fields): their glyphs cost a first render about a millisecond each size.
COMMON_FONT0_HEIGHTS = (18, 50, 20, 25, 30, 28, 22, 35, 17, 14, 23, 40)
_COMMON_CHARACTERS = string.ascii_letters + string.digits + " -.,:;/#()&'"
# A few rounds: the interpreter specialises the render path's code as it runs.
_ROUNDS = 3


def common_glyphs_label() -> bytes:
    """One label setting the common characters at every common font 0 height."""
    fields = "".join(f"^FO10,{10 + row * 60}^A0N,{height}^FD{_COMMON_CHARACTERS}^FS"
                     for row, height in enumerate(COMMON_FONT0_HEIGHTS))
    return f"^XA^PW2000^LL{20 + len(COMMON_FONT0_HEIGHTS) * 60}{fields}^XZ".encode()


def warm() -> None:
    for _ in range(_ROUNDS):
        render(WARM_UP_LABEL, RenderOptions())


warm()
render(common_glyphs_label(), RenderOptions())
