"""Imported once, in the sandbox's forkserver (``sandbox.PRELOAD``): renders one
small label there, so the fonts, glyph tables and barcode library a render
loads on first use are loaded before any render process is forked. Each render
process renders it once more before it says it is ready (``warm``), touching
what it inherited. The first render a worker takes (the first after
``/readyz`` says ready) is then as fast as the rest."""

from __future__ import annotations

from labelrender.zpl import RenderOptions, render

# Font 0 (the default and most used), a scalable font, and a Code 128 barcode.
WARM_UP_LABEL = (b"^XA^FO20,20^A0N,40^FDWarm up 0123^FS^FO20,80^ADN,18^FDWarm up^FS"
                 b"^FO20,120^BCN,60^FD0123456789^FS^XZ")



def warm() -> None:
    render(WARM_UP_LABEL, RenderOptions())


warm()
