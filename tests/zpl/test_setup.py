"""Label setup commands: canvas, home, shifts, orientation, defaults, code pages."""

from __future__ import annotations

import pytest

from labelrender.zpl import RenderOptions, ZplError, render

from .conftest import bbox, draw, ink

BOX = "^FO{x},{y}^GB20,10,10^FS"


@pytest.mark.parametrize(
    ("zpl", "size"),
    [
        ("^XA^PW300^LL200" + BOX.format(x=0, y=0) + "^XZ", (300, 200)),
        ("^XA" + BOX.format(x=0, y=0) + "^XZ", (812, 1218)),  # 4 x 6 in at 203 dpi
        ("^XA^PW1^LL1" + BOX.format(x=0, y=0) + "^XZ", (2, 1)),  # ^PW minimum is 2
    ],
)
def test_canvas_size_from_pw_ll(zpl: str, size: tuple[int, int]) -> None:
    result = render(zpl)
    assert (result.width, result.height) == size


def test_explicit_canvas_wins_and_scales_to_target_dpi() -> None:
    zpl = "^XA^PW300^LL200" + BOX.format(x=10, y=10) + "^XZ"
    result = render(zpl, RenderOptions(dpi=406, source_dpi=203, width_dots=100, height_dots=50))
    assert (result.width, result.height) == (200, 100)
    assert bbox(ink(result)) == (20, 20, 59, 39)


@pytest.mark.parametrize(
    ("setup", "where"),
    [
        ("", (10, 10)),
        ("^LH30,40", (40, 50)),
        ("^LT20", (10, 30)),
        ("^LT-5", (10, 5)),
        ("^LS5", (5, 10)),
        ("^LH30,40^LT10", (40, 60)),
    ],
)
def test_home_top_and_shift_move_fields(setup: str, where: tuple[int, int]) -> None:
    _, mask = draw("^XA" + setup + BOX.format(x=10, y=10) + "^XZ")
    x0, y0, x1, y1 = bbox(mask)  # type: ignore[misc]
    assert (x0, y0) == where
    assert (x1 - x0, y1 - y0) == (19, 9)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("^POI", (370, 280)),  # turned 180 degrees in the whole canvas
        ("^PON", (10, 10)),
        ("^PMY", (400 - 10 - 20, 10)),  # mirrored left to right
        ("^PMN", (10, 10)),
    ],
)
def test_print_orientation_and_mirror(command: str, expected: tuple[int, int]) -> None:
    _, mask = draw("^XA" + command + BOX.format(x=10, y=10) + "^XZ")
    x0, y0, _, _ = bbox(mask)  # type: ignore[misc]
    assert (x0, y0) == expected


@pytest.mark.parametrize(
    ("zpl", "fragment"),
    [
        ("^XA^BY20^XZ", "out of range 1-10"),
        ("^XA^BY2,9^XZ", "out of range 2-3"),
        ("^XA^BY2,3,x^XZ", "not a number"),
        ("^XA^POX^XZ", "not one of N, I"),
        ("^XA^LT500^XZ", "out of range -120-120"),
        ("^XA^QQ^XZ", "unknown command ^QQ"),
    ],
)
def test_bad_parameters_warn_and_fall_back(zpl: str, fragment: str, messages) -> None:
    result = render(zpl)
    assert any(fragment in m for m in messages(result)), messages(result)


@pytest.mark.parametrize(
    "command", ["^MD10", "~SD15", "^PR4", "^PQ2", "^MNY", "^MTD", "^MMT", "^JMA", "^PA0",
                "~TA000", "~JSN", "^JUS", "^MCY", "^LRN"],
)
def test_printer_commands_are_silent(command: str) -> None:
    result = render("^XA" + command + BOX.format(x=0, y=0) + "^XZ")
    assert result.warnings == ()


def test_labels_by_index() -> None:
    zpl = "^XA" + BOX.format(x=0, y=0) + "^XZ^XA" + BOX.format(x=100, y=0) + "^XZ"
    first = render(zpl, RenderOptions(width_dots=200, height_dots=50))
    second = render(zpl, RenderOptions(width_dots=200, height_dots=50, index=1))
    assert first.label_count == second.label_count == 2
    assert bbox(ink(first))[0] == 0  # type: ignore[index]
    assert bbox(ink(second))[0] == 100  # type: ignore[index]
    with pytest.raises(ZplError, match="out of range"):
        render(zpl, RenderOptions(index=2))


def test_setup_only_formats_are_not_labels() -> None:
    result = render("^XA^MCY^XZ^XA" + BOX.format(x=5, y=5) + "^XZ",
                    RenderOptions(width_dots=100, height_dots=50))
    assert result.label_count == 1
    assert bbox(ink(result))[:2] == (5, 5)  # type: ignore[index]


def test_field_orientation_default_rotates_text() -> None:
    _, upright = draw("^XA^FO50,50^A0,40,40^FDWIDE TEXT^FS^XZ")
    _, turned = draw("^XA^FWR^FO50,50^A0,40,40^FDWIDE TEXT^FS^XZ")
    ux0, uy0, ux1, uy1 = bbox(upright)  # type: ignore[misc]
    tx0, ty0, tx1, ty1 = bbox(turned)  # type: ignore[misc]
    assert ux1 - ux0 > uy1 - uy0
    assert ty1 - ty0 > tx1 - tx0


def test_field_orientation_after_the_font_turns_that_field() -> None:
    # carriers/fedex_ground: "^A0N,13,18^FWB^FD..." prints turned in Labelary.
    _, late = draw("^XA^FO50,50^A0N,40,40^FWB^FDWIDE TEXT^FS^XZ")
    _, turned = draw("^XA^FO50,50^A0B,40,40^FDWIDE TEXT^FS^XZ")
    assert bbox(late) == bbox(turned)
    _, early = draw("^XA^FWB^FO50,50^A0N,40,40^FDWIDE TEXT^FS^XZ")  # ^A's own N wins
    x0, y0, x1, y1 = bbox(early)  # type: ignore[misc]
    assert x1 - x0 > y1 - y0


def test_change_font_default_applies_to_fields() -> None:
    _, small = draw("^XA^CF0,20^FO10,10^FDHELLO^FS^XZ")
    _, large = draw("^XA^CF0,60^FO10,10^FDHELLO^FS^XZ")
    assert bbox(large)[3] - bbox(large)[1] > 2 * (bbox(small)[3] - bbox(small)[1])  # type: ignore[index]


def test_change_font_default_height_alone_drops_the_earlier_width() -> None:
    # Labelary: ^CF0,40 after ^CF0,20,80 prints font 0 as wide as high (carriers/usps).
    _, after_wide = draw("^XA^CF0,20,80^CF0,40^FO10,10^FDHELLO^FS^XZ")
    _, plain = draw("^XA^CF0,40^FO10,10^FDHELLO^FS^XZ")
    assert bbox(after_wide) == bbox(plain)


@pytest.mark.parametrize(
    ("zpl", "same_as"),
    [
        # UTF-8 with ^CI28 and code page 850 by default give the same e-acute.
        ("^XA^CI28^FO10,10^A0,40^FD\u00e9\u00e9^FS^XZ".encode(),
         b"^XA^FO10,10^A0,40^FD\x82\x82^FS^XZ"),
        # ^FH hex escapes, with any indicator.
        (b"^XA^FO10,10^A0,40^FH^FD_41_42^FS^XZ", b"^XA^FO10,10^A0,40^FDAB^FS^XZ"),
        (b"^XA^FO10,10^A0,40^FH#^FD#41#42^FS^XZ", b"^XA^FO10,10^A0,40^FDAB^FS^XZ"),
        (b"^XA^CI28^FO10,10^A0,40^FH^FD_C3_A9^FS^XZ", b"^XA^FO10,10^A0,40^FD\x82^FS^XZ"),
        # Changed delimiter and prefixes.
        (b"^XA^CD;^FO10;10^A0;40^FDAB^FS^XZ", b"^XA^FO10,10^A0,40^FDAB^FS^XZ"),
        (b"^XA^CC!!FO10,10!A0,40!FDAB!FS!XZ", b"^XA^FO10,10^A0,40^FDAB^FS^XZ"),
    ],
)
def test_encodings_and_prefixes(zpl: bytes, same_as: bytes) -> None:
    assert render(zpl).png == render(same_as).png


def test_label_reverse_inverts_fields() -> None:
    _, mask = draw("^XA^FO0,0^GB100,100,100^FS^LRY^FO50,50^GB100,100,100^FS^XZ")
    assert mask[25, 25] and not mask[75, 75] and mask[125, 125]


def test_threshold_gives_pure_black_and_white() -> None:
    import io

    import numpy as np
    from PIL import Image

    zpl = "^XA^FO10,10^A0N,40^FDSmooth text^FS^XZ"
    grey = np.asarray(Image.open(io.BytesIO(render(zpl).png)).convert("L"))
    hard = np.asarray(Image.open(io.BytesIO(
        render(zpl, RenderOptions(threshold=True)).png)).convert("L"))
    assert set(np.unique(hard)) <= {0, 255}
    assert len(np.unique(grey)) > 2


@pytest.mark.parametrize(("rotation", "size"), [(0, (300, 100)), (90, (100, 300)),
                                                (180, (300, 100)), (270, (100, 300))])
def test_output_rotation(rotation: int, size: tuple[int, int]) -> None:
    result = render("^XA^FO0,0^GB50,20,20^FS^XZ",
                    RenderOptions(width_dots=300, height_dots=100, rotation=rotation))
    assert (result.width, result.height) == size
    corner = {0: (0, 0), 90: (80, 0), 180: (250, 80), 270: (0, 250)}[rotation]
    assert bbox(ink(result))[:2] == corner  # type: ignore[index]


def test_narrow_label_is_centred_on_a_wider_canvas() -> None:
    result = render("^XA^PW200^FO0,0^GB10,10,10^FS^XZ",
                    RenderOptions(width_dots=400, height_dots=50))
    assert bbox(ink(result))[:2] == (100, 0)  # type: ignore[index]


def test_settings_persist_into_the_next_format() -> None:
    zpl = "^XA^LH50,20^CI28^XZ^XA^FO0,0^GB10,10,10^FS^XZ"
    result = render(zpl, RenderOptions(width_dots=200, height_dots=100))
    assert result.label_count == 1
    assert bbox(ink(result))[:2] == (50, 20)  # type: ignore[index]
