"""Field commands: origins, data, hex, reverse, blocks, stored formats."""

from __future__ import annotations

import pytest

from labelrender.zpl import render

from .conftest import bbox, draw


def test_fo_is_top_left_and_ft_is_baseline() -> None:
    _, fo = draw("^XA^FO50,100^A0N,40,40^FDHELLO^FS^XZ")
    _, ft = draw("^XA^FT50,100^A0N,40,40^FDHELLO^FS^XZ")
    assert abs(bbox(fo)[1] - 100) <= 4  # type: ignore[index]
    assert abs(bbox(ft)[3] - 100) <= 2  # capital letters sit on the baseline  # type: ignore[index]


def test_ft_without_position_follows_previous_field() -> None:
    _, both = draw("^XA^FT20,100^A0N,40,40^FDAB^FS^FT^A0N,40,40^FDCD^FS^XZ")
    _, one = draw("^XA^FT20,100^A0N,40,40^FDABCD^FS^XZ")
    assert abs(bbox(both)[2] - bbox(one)[2]) <= 2  # type: ignore[index]


@pytest.mark.parametrize("orientation", ["N", "R", "I", "B"])
def test_fo_keeps_rotated_text_inside_its_box(orientation: str) -> None:
    _, mask = draw(f"^XA^FO100,100^A0{orientation},40,40^FDROTATE^FS^XZ")
    x0, y0, _, _ = bbox(mask)  # type: ignore[misc]
    assert 98 <= x0 <= 112 and 98 <= y0 <= 112


def test_field_reverse_inverts_what_is_under_it() -> None:
    _, mask = draw("^XA^FO0,0^GB200,100,100^FS^FO20,20^FR^GB50,50,50^FS^XZ")
    assert not mask[40, 40] and mask[90, 90]


def test_field_block_wraps_and_justifies() -> None:
    text = "one two three four five six seven"
    _, one_line = draw(f"^XA^FO10,10^A0N,30,30^FD{text}^FS^XZ", width_dots=2000)
    _, block = draw(f"^XA^FO10,10^A0N,30,30^FB200,5,0,L^FD{text}^FS^XZ")
    assert bbox(block)[2] <= 210  # type: ignore[index]
    assert bbox(block)[3] - bbox(block)[1] > 2 * (bbox(one_line)[3] - bbox(one_line)[1])  # type: ignore[index]
    _, right = draw("^XA^FO10,10^A0N,30,30^FB300,1,0,R^FDEND^FS^XZ")
    _, centre = draw("^XA^FO10,10^A0N,30,30^FB300,1,0,C^FDEND^FS^XZ")
    assert 300 <= bbox(right)[2] <= 310  # type: ignore[index]
    # Labelary centres a line as if a space (0.30 w) followed it: half a space left of
    # the middle (carriers/amazonshipping, usps; labelize-units/usps_priority_mail) ...
    assert abs((bbox(centre)[0] + bbox(centre)[2]) / 2 - (160 - 4.5)) <= 2  # type: ignore[index]
    # ... unless a \& break ends the line (labelize-units/text_multiline).
    _, broken = draw("^XA^FO10,10^A0N,30,30^FB300,1,0,C^FDEND\\&^FS^XZ")
    assert abs((bbox(broken)[0] + bbox(broken)[2]) / 2 - 160) <= 2  # type: ignore[index]


def test_field_block_line_break_and_max_lines() -> None:
    _, two = draw("^XA^FO10,10^A0N,30,30^FB380,3,0,L^FDTOP\\&BOTTOM^FS^XZ")
    _, capped = draw("^XA^FO10,10^A0N,30,30^FB380,1,0,L^FDTOP\\&BOTTOM^FS^XZ")
    assert bbox(two)[3] > 60  # type: ignore[index]
    assert bbox(capped)[3] < 45  # extra lines overprint the last line  # type: ignore[index]


def test_text_block_clips() -> None:
    _, mask = draw("^XA^FO10,10^A0N,30,30^TBN,100,35^FDSOME LONG WORDS TO CLIP^FS^XZ")
    assert bbox(mask)[3] <= 45 and bbox(mask)[2] <= 110  # type: ignore[index]


def test_stored_format_with_field_numbers() -> None:
    stored = ("^XA^DFR:LABEL.ZPL^FS^FO20,20^A0N,40,40^FN1^FDdefault^FS"
              "^FO20,80^A0N,40,40^FN2^FS^XZ")
    recalled = render(stored + "^XA^XFR:LABEL.ZPL^FS^FN1^FDHELLO^FS^FN2^FDWORLD^FS^XZ")
    direct = render("^XA^FO20,20^A0N,40,40^FDHELLO^FS^FO20,80^A0N,40,40^FDWORLD^FS^XZ")
    assert recalled.png == direct.png
    assert recalled.label_count == 1


def test_serialization_prints_first_value() -> None:
    assert render("^XA^FO10,10^A0N,30^SN001,1,Y^FS^XZ").png == render(
        "^XA^FO10,10^A0N,30^FD001^FS^XZ").png


def test_vertical_field_parameter_stacks_characters() -> None:
    _, mask = draw("^XA^FO10,10^A0N,30,30^FPV^FDABC^FS^XZ")
    x0, y0, x1, y1 = bbox(mask)  # type: ignore[misc]
    assert y1 - y0 > 2 * (x1 - x0)


def test_field_without_fs_at_end_of_format_still_prints() -> None:
    _, mask = draw("^XA^FO10,10^A0N,30,30^FDTAIL^XZ")
    assert bbox(mask) is not None


def test_empty_field_prints_nothing() -> None:
    result, mask = draw("^XA^FO10,10^A0N,30,30^FD^FS^XZ")
    assert bbox(mask) is None


@pytest.mark.parametrize(
    ("with_tilde", "same_as"),
    [
        # The control prefix does not print in a text field (ZPL II guide, ^FD) ...
        ("^XA^FO10,10^A0N,40^FDA~B^FS^XZ", "^XA^FO10,10^A0N,40^FDAB^FS^XZ"),
        # ... nor a changed one, while the old prefix is text again.
        ("^XA~CT#^FO10,10^A0N,40^FDA#~^FS^XZ", "^XA^FO10,10^A0N,40^FH^FDA_7E^FS^XZ"),
    ],
)
def test_text_field_drops_the_control_prefix(with_tilde: str, same_as: str) -> None:
    assert render(with_tilde).png == render(same_as).png


def test_hex_escape_prints_a_tilde() -> None:
    _, plain = draw("^XA^FO10,10^A0N,40^FDA^FS^XZ")
    _, tilde = draw("^XA^FO10,10^A0N,40^FH^FDA_7E^FS^XZ")
    assert bbox(tilde)[2] > bbox(plain)[2] + 5  # type: ignore[index]


def test_bar_code_data_keeps_the_tilde_for_data_matrix_escapes() -> None:
    assert render("^XA^FO10,10^BXN,5,200^FD~1AB^FS^XZ").png != render(
        "^XA^FO10,10^BXN,5,200^FD1AB^FS^XZ").png
