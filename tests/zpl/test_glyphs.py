"""The glyph tables kept across renders: what they hold is what the font draws, and
they stay within their bound however many fonts and characters come by."""

from __future__ import annotations

from PIL import Image

from labelrender.zpl import fonts, glyphs
from labelrender.zpl.glyphs import _Tables

FONT = "IBMPlexSansCondensed-Bold.ttf"


def test_a_turned_glyph_is_the_font_mask_turned() -> None:
    font = fonts.scalable(40.0, 40.0, FONT)
    mask, left, top = font.glyph("R")
    upright = glyphs.turned(font, "R", "N")
    assert upright is not None
    assert (upright.dx, upright.dy) == (left, top)
    assert upright.mask.tobytes() == mask.tobytes()
    turned = glyphs.turned(font, "R", "R")
    assert turned is not None
    assert turned.mask.tobytes() == mask.transpose(Image.Transpose.ROTATE_270).tobytes()
    assert (turned.width, turned.height) == (mask.height, mask.width)
    assert glyphs.turned(font, " ", "N") is None  # no ink


def test_the_same_glyph_comes_from_the_table_on_a_later_render() -> None:
    font = fonts.scalable(33.0, 33.0, FONT)
    assert glyphs.turned(font, "Q", "B") is glyphs.turned(font, "Q", "B")


def test_tables_stay_within_their_bound() -> None:
    tables = _Tables(max_bytes=60_000)
    sizes = [30.0 + n for n in range(12)]
    for size in sizes:
        font = fonts.scalable(size, size, FONT)
        table = tables.table(font, "N")
        for char in "ABCDEFGH":
            assert tables.lookup(table, font, "N", char) is not None
            assert tables.held <= tables.max_bytes
    # The fonts used last are still there; the first went first.
    assert tables.table(fonts.scalable(sizes[-1], sizes[-1], FONT), "N")
    assert not tables.table(fonts.scalable(sizes[0], sizes[0], FONT), "N")


def test_one_table_past_the_bound_is_dropped() -> None:
    tables = _Tables(max_bytes=20_000)
    font = fonts.scalable(120.0, 120.0, FONT)  # each glyph several thousand bytes
    table = tables.table(font, "N")
    for char in "ABCDEFGHIJKLMNOP":
        assert tables.lookup(table, font, "N", char) is not None
        assert tables.held <= tables.max_bytes
    fresh = tables.table(font, "N")
    assert fresh is not table and len(fresh) < 16


def test_many_fonts_without_ink_are_bounded_too() -> None:
    """Spaces have no mask, and a table costs little: a stream of labels in new
    font sizes, or of characters without ink, still stays within the bound."""
    tables = _Tables(max_bytes=50_000)
    for n in range(200):
        font = fonts.scalable(20.0 + n / 10, 20.0, FONT)
        table = tables.table(font, "N")
        for char in " \u00a0\u2003":
            assert tables.lookup(table, font, "N", char) is None
        assert tables.held <= tables.max_bytes
    assert tables.held > 0
    assert len(tables._tables) < 50
