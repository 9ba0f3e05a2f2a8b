"""Fonts: font 0 sizing, bitmap fonts in whole cell multiples, ^A@ / ^CW, profiles."""

from __future__ import annotations

import pytest

from labelrender.zpl import FONT_PROFILES, RenderOptions, render
from labelrender.zpl.fonts import FONT_DIR

from .conftest import bbox, draw, ink


def extent(zpl: str, **options: object) -> tuple[int, int]:
    _, mask = draw(zpl, **options)
    x0, y0, x1, y1 = bbox(mask)  # type: ignore[misc]
    return x1 - x0 + 1, y1 - y0 + 1


@pytest.mark.parametrize(
    ("size", "stretched"),
    [("^A0N,40,40", "^A0N,40,80"), ("^A0N,30,30", "^A0N,30,60")],
)
def test_font0_width_stretches_horizontally(size: str, stretched: str) -> None:
    w1, h1 = extent(f"^XA^FO10,10{size}^FDHELLO^FS^XZ")
    w2, h2 = extent(f"^XA^FO10,10{stretched}^FDHELLO^FS^XZ")
    assert abs(h1 - h2) <= 1
    assert 1.8 < w2 / w1 < 2.2


def test_font0_width_defaults_to_height() -> None:
    assert extent("^XA^FO10,10^A0N,40^FDHELLO^FS^XZ") == extent(
        "^XA^FO10,10^A0N,40,40^FDHELLO^FS^XZ")


@pytest.mark.parametrize(
    ("font", "asked", "same_as"),
    [
        # Bitmap fonts scale in whole multiples of their cell: 9-dot font A at 13 and 14
        # both round to one or two cells.
        ("A", "13", "9"), ("A", "14", "18"), ("D", "30", "36"), ("E", "30", "28"),
        ("B", "11,14", "11,14"),
    ],
)
def test_bitmap_fonts_snap_to_cell_multiples(font: str, asked: str, same_as: str) -> None:
    a = render(f"^XA^FO10,10^A{font}N,{asked}^FDMW5^FS^XZ").png
    b = render(f"^XA^FO10,10^A{font}N,{same_as}^FDMW5^FS^XZ").png
    assert a == b


def test_bitmap_font_is_monospaced() -> None:
    narrow = extent("^XA^FO10,10^ADN,18,10^FDiiii^FS^XZ")
    wide = extent("^XA^FO10,10^ADN,18,10^FDWWWW^FS^XZ")
    assert abs(wide[0] - narrow[0]) <= 12  # same cell pitch, only the glyph ink differs


def test_font_alias_and_font_by_name_use_font_files() -> None:
    data = (FONT_DIR / "DejaVuSansCondensed-Bold.ttf").read_bytes()
    download = f"~DYE:MYFONT.TTF,B,T,{len(data)},,".encode() + data
    by_alias = render(download + b"^XA^CWQ,E:MYFONT.TTF^FO10,10^AQN,40,40^FDHello^FS^XZ")
    by_name = render(download + b"^XA^FO10,10^A@N,40,40,E:MYFONT.TTF^FDHello^FS^XZ")
    font0 = render(b"^XA^FO10,10^A0N,40,40^FDHello^FS^XZ")
    assert by_alias.png == by_name.png
    assert by_alias.png != font0.png
    assert by_alias.warnings == ()


def test_unknown_font_file_falls_back_to_font0() -> None:
    fallback = render("^XA^FO10,10^A@N,40,40,E:NOPE.TTF^FDHello^FS^XZ")
    font0 = render("^XA^FO10,10^A0N,40,40^FDHello^FS^XZ")
    assert fallback.png == font0.png


def test_corrupt_downloaded_font_warns() -> None:
    result = render(b"~DYE:BAD.TTF,B,T,4,,junk^XA^CWQ,E:BAD.TTF^FO10,10^AQN,40^FDHi^FS^XZ")
    assert any("cannot be read" in w.message for w in result.warnings)
    assert bbox(ink(result)) is not None


@pytest.mark.parametrize("profile", FONT_PROFILES)
def test_font_profiles_change_font0(profile: str) -> None:
    zpl = "^XA^FO10,10^A0N,40,40^FDHamburgefonstiv^FS^XZ"
    default = render(zpl).png
    chosen = render(zpl, RenderOptions(font_profile=profile)).png
    assert chosen.startswith(b"\x89PNG")
    assert (chosen != default) or profile == "plex"  # plex is the default's family


def test_graphic_symbol_prints_marks(messages) -> None:
    result, mask = draw("^XA^FO10,10^GSN,40,40^FDABC^FS^XZ")
    assert bbox(mask) is not None
    assert result.warnings == ()


@pytest.mark.parametrize(
    ("data", "size"),
    # On the 24-dot grid at 3x: (R) and (C) are 45-dot rings, TM 57 x 30, the UL logo
    # fills the 72-dot cell and the CSA logo's C is open on the right.
    [("A", (45, 45)), ("B", (45, 45)), ("C", (57, 30)), ("D", (72, 72)), ("E", (66, 72))],
)
def test_graphic_symbol_marks_fill_their_cell(data: str, size: tuple[int, int]) -> None:
    w, h = extent(f"^XA^CFA,72^FO20,20^GS^FD{data}^FS^XZ")
    assert abs(w - size[0]) <= 2 and abs(h - size[1]) <= 2


def test_graphic_symbol_scales_in_whole_cells_and_advances_one_cell() -> None:
    # The 24-dot cell: 9 (the power-up ^CF height) and 30 both print at 1x.
    assert extent("^XA^FO20,20^GS^FDD^FS^XZ") == extent("^XA^FO20,20^GSN,30,30^FDD^FS^XZ")
    _, one = draw("^XA^FO20,20^GS^FDD^FS^XZ")
    _, two = draw("^XA^FO20,20^GS^FDDD^FS^XZ")
    assert bbox(two)[2] - bbox(one)[2] == 26  # type: ignore[index]


def test_font0_capital_i_is_a_plain_stem() -> None:
    # CG Triumvirate's I has no serifs: every row of it is as wide as its stem.
    _, mask = draw("^XA^FO20,20^A0N,100,100^FDI^FS^XZ")
    x0, y0, x1, y1 = bbox(mask)  # type: ignore[misc]
    widths = {int(row.sum()) for row in mask[y0:y1 + 1]}
    assert max(widths) - min(widths) <= 1
    assert x1 - x0 + 1 < 20


def test_clock_fields_print_their_data() -> None:
    assert render("^XA^FO10,10^A0N,30^FC%,{,#^FD%Y-%m^FS^XZ").png == render(
        "^XA^FO10,10^A0N,30^FD%Y-%m^FS^XZ").png
