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
    assert (plain & ~reverse).sum() == 0  # every plain ink pixel is inked in reverse too


def test_text_block_with_ft_prints_above_the_baseline_point() -> None:
    # ^FT puts a ^TB block's bottom-left on the origin: the text is inside the block
    # above it, not clipped away.
    _, mask = draw("^XA^FT50,250^AGN,60^TBN,250,200^FDMMM MMM^FS^XZ")
    box = bbox(mask)
    assert box is not None
    assert box[1] >= 50 and box[3] <= 250
