"""Text rules taken from Labelary's behaviour: national character sets (^CI 0-12),
upper-case-only fonts B and H, bitmap magnification rounding, the font 0 word space,
bolder reverse text and ^TB clipping under ^FT."""

from __future__ import annotations

import pytest

from labelrender.zpl import render
from labelrender.zpl.fonts import FONT0_RULES, PROFILES, bitmap, scalable

from .conftest import bbox, draw


def same_png(a: str, b: str) -> bool:
    return render(a).png == render(b).png


@pytest.mark.parametrize(
    ("code_page", "typed", "printed"),
    [
        ("^CI0", "A\\B", "A\u00a2B"),  # U.S.A. 1: backslash is a cent sign
        ("", "A\\B", "A\u00a2B"),  # ^CI0 is the default
        ("^CI13", "A\\B", "A\\B"),  # code page 850 proper keeps the backslash
        ("^CI2", "#1", "\u00a31"),  # U.K.: pound sign
        ("^CI6", "[\\]{|}", "\u00c4\u00d6\u00dc\u00e4\u00f6\u00fc"),  # Germany
        ("^CI12", "\\", "\u00a5"),  # Japan: yen sign
        ("^CI28", "A\\B", "A\\B"),  # UTF-8 is not a national set
    ],
)
def test_national_character_sets_replace_ascii(code_page: str, typed: str, printed: str) -> None:
    assert same_png(f"^XA{code_page}^FO10,10^A0N,30,30^FD{typed}^FS^XZ",
                    f"^XA^CI28^FO10,10^A0N,30,30^FD{printed}^FS^XZ")


def test_national_set_applies_to_hex_escapes() -> None:
    assert same_png("^XA^FO10,10^A0N,30,30^FH^FD_5c^FS^XZ",
                    "^XA^CI28^FO10,10^A0N,30,30^FD\u00a2^FS^XZ")


def test_field_block_line_break_survives_national_set() -> None:
    # "\&" is ^FB's line break under every ^CI; a lone backslash is still a cent sign.
    _, two_lines = draw("^XA^FO10,10^A0N,30,30^FB300,3^FDAB\\&CD^FS^XZ")
    box = bbox(two_lines)
    assert box is not None and box[3] - box[1] > 45
    assert same_png("^XA^FO10,10^A0N,30,30^FB300,3^FDA\\B^FS^XZ",
                    "^XA^CI28^FO10,10^A0N,30,30^FB300,3^FDA\u00a2B^FS^XZ")


def test_national_set_leaves_barcode_data_alone() -> None:
    assert same_png("^XA^FO10,10^BCN,50,N^FDA\\B^FS^XZ",
                    "^XA^CI13^FO10,10^BCN,50,N^FDA\\B^FS^XZ")


@pytest.mark.parametrize("font", ["B", "H"])
def test_fonts_b_and_h_print_lower_case_as_capitals(font: str) -> None:
    assert same_png(f"^XA^FO10,10^A{font}N,22^FDHello^FS^XZ",
                    f"^XA^FO10,10^A{font}N,22^FDHELLO^FS^XZ")


def test_other_bitmap_fonts_keep_lower_case() -> None:
    assert not same_png("^XA^FO10,10^ADN,36^FDHello^FS^XZ", "^XA^FO10,10^ADN,36^FDHELLO^FS^XZ")


def test_default_font_b_from_cf_is_upper_case_too() -> None:
    assert same_png("^XA^CFB,40^FO10,10^FDHello^FS^XZ", "^XA^CFB,40^FO10,10^FDHELLO^FS^XZ")


@pytest.mark.parametrize(("width", "magnification"), [(25, 3), (24, 2), (15, 2), (14, 1)])
def test_bitmap_magnification_rounds_halves_up(width: int, magnification: int) -> None:
    # Font D is 10 dots wide plus a 2-dot gap: 2.5 cells round up to 3, as on a printer.
    font = bitmap("D", 18, width, 1.0)
    assert font.fixed_advance == 12 * magnification


def test_font0_word_space_follows_the_width() -> None:
    rule = FONT0_RULES[PROFILES["default"]]
    assert rule.space is not None
    narrow = scalable(50, 30, PROFILES["default"])
    wide = scalable(50, 60, PROFILES["default"])
    assert narrow.advance(" ") == pytest.approx(rule.space * 30)
    assert wide.advance(" ") == pytest.approx(rule.space * 60)


def test_reverse_text_is_bolder_than_plain_text() -> None:
    _, plain = draw("^XA^FO10,10^A0N,28,28^FDGOGREEN^FS^XZ")
    _, reverse = draw("^XA^FO10,10^A0N,28,28^FR^FDGOGREEN^FS^XZ")
    assert reverse.sum() > plain.sum() * 1.15
    # Every plain ink pixel of a glyph is inked in reverse too (one glyph: on Labelary's
    # advances neighbouring reverse glyphs touch, and their shared fringe XORs away).
    _, plain_o = draw("^XA^FO10,10^A0N,28,28^FDO^FS^XZ")
    _, reverse_o = draw("^XA^FO10,10^A0N,28,28^FR^FDO^FS^XZ")
    assert (plain_o & ~reverse_o).sum() == 0


def test_text_block_with_ft_prints_above_the_baseline_point() -> None:
    # ^FT puts a ^TB block's bottom-left on the origin: the text is inside the block
    # above it, not clipped away.
    _, mask = draw("^XA^FT50,250^AGN,60^TBN,250,200^FDMMM MMM^FS^XZ")
    box = bbox(mask)
    assert box is not None
    assert box[1] >= 50 and box[3] <= 250


def _ink_runs(zpl: str) -> list[tuple[int, int]]:
    """The (first column, width) of each run of inked columns of a rendered field."""
    _, inked = draw(zpl)
    columns = inked.any(axis=0).nonzero()[0].tolist()
    runs: list[tuple[int, int]] = []
    for col in columns:
        if runs and col == runs[-1][0] + runs[-1][1]:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((col, 1))
    return runs


def test_font0_digits_step_by_labelarys_advance_at_every_size() -> None:
    # Labelary's digits advance 0.48 w, whatever the face (zplab h20_0 .. h80_0).
    for size in (20, 50, 80):
        one = _ink_runs(f"^XA^FO10,10^A0N,{size},{size}^FD1^FS^XZ")[-1]
        four = _ink_runs(f"^XA^FO10,10^A0N,{size},{size}^FD1111^FS^XZ")[-1]
        step = (sum(four) - sum(one)) / 3  # the last glyph's right edge moved 3 advances
        assert step == pytest.approx(0.48 * size, abs=0.5)


def test_font0_hyphen_is_a_thin_bar_on_a_wide_advance() -> None:
    # zplab h50_minus: three 29-dot bars, 45 dots apart, 6 dots thick at 19-24 below the top.
    runs = _ink_runs("^XA^FO200,200^A0N,50,50^FD---^FS^XZ")
    assert runs == [(208, 29), (253, 29), (298, 29)]
    _, inked = draw("^XA^FO200,200^A0N,50,50^FD---^FS^XZ")
    rows = inked.any(axis=1).nonzero()[0]
    assert (rows.min() - 200, rows.max() - 200) == (19, 24)


def test_font0_underscores_join_into_one_line() -> None:
    assert _ink_runs("^XA^FO200,200^A0N,50,50^FH^FD_5f_5f_5f^FS^XZ") == [(200, 75)]


def test_font0_word_space_is_labelarys() -> None:
    plain = _ink_runs("^XA^FO10,10^A0N,50,50^FDII^FS^XZ")
    spaced = _ink_runs("^XA^FO10,10^A0N,50,50^FDI I^FS^XZ")
    assert spaced[1][0] - plain[1][0] == 15  # 0.30 w
