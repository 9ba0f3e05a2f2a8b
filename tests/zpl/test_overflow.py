"""Nothing printed off the label goes unnoticed: a field whose ink runs past the
canvas is a warning naming the field, its byte offset and how far it runs over."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from labelrender.zpl import RenderOptions, render
from tests.fixtures.corpus import CARRIERS

# zpl, expected (command, text in the message) or None for no warning.
CASES = [
    ("^XA^FO700,100^A0N,60^FDWIDE TEXT^FS^XZ", ("^FD", "past the right edge")),
    ("^XA^FO20,1150^A0N,100^FDLOW^FS^XZ", ("^FD", "past the bottom edge")),
    ("^XA^FO20,1100^BY3^BCN,150,Y^FD1234567890^FS^XZ", ("^BC", "past the bottom edge")),
    ("^XA^FO600,20^GB400,100,4^FS^XZ", ("^GB", "188 dots past the right edge")),
    ("^XA^FT-5,100^A0N,40^FDleft^FS^XZ", None),  # ^FT x below 0 is clamped to 0
    ("^XA^LH-40,0^FO0,20^A0N,40^FDshifted^FS^XZ", None),  # ^LH clamps too
    ("^XA^FO0,0^GB812,1218,4^FS^XZ", None),  # a border exactly on the edge
    ("^XA^FO600,20^GB400,100,100,W^FS^XZ", None),  # white prints nothing anywhere
    ("^XA^FO20,20^A0N,60^FDinside^FS^FO20,600^BQN,2,6^FDQA,inside^FS^XZ", None),
    ("^XA^FO20,1150^A0R,100^FDTURNED^FS^XZ", ("^FD", "past the bottom edge")),
]


@pytest.mark.parametrize(("zpl", "expected"), CASES)
def test_overflow_warning(zpl: str, expected: tuple[str, str] | None) -> None:
    result = render(zpl, RenderOptions())  # the default 4 x 6 in canvas at 203 dpi
    notes = [w for w in result.warnings if "overflows the label" in w.message]
    if expected is None:
        assert notes == []
        return
    (note,) = notes
    command, text = expected
    assert note.command == command
    assert text in note.message
    assert "812 x 1218-dot label" in note.message
    # The offset names the field: its ^FD (or the graphic command).
    assert zpl[note.offset:note.offset + 3] == ("^FD" if command[:2] in ("^F", "^B")
                                                else command)


def test_overflow_is_told_in_label_dots_at_any_output_dpi() -> None:
    zpl = "^XA^FO600,20^GB400,100,4^FS^XZ"
    result = render(zpl, RenderOptions(dpi=406, source_dpi=203))
    (note,) = result.warnings
    assert "188 dots past the right edge of the 812 x 1218-dot label" in note.message


# The carrier labels whose ink needs more than 6 in of length (and at most 8): measured
# from the pixels of a 4 x 12 in render (below), not from the field boxes. A ^POI label
# is turned within the canvas, so its length is measured from the other end.
FOUR_BY_EIGHT = ["auspost", "bpost", "canadapost", "correos", "dbs", "dhlpaket", "evri",
                 "icapaket", "inpost", "ontrac", "pnldpd", "porterbuddy", "postnl",
                 "royalmail", "ups", "ups_import_control", "ups_surepost", "usps_apo", "yodel"]
TRUE_SIZE = (813, 1626)  # the corpus renders carriers at 4 x 8 in (index.tsv)
FOUR_BY_SIX = (812, 1218)


def _printed_length(zpl: bytes) -> int:
    tall = render(zpl, RenderOptions(width_dots=813, height_dots=2436))
    rows = np.nonzero((np.asarray(Image.open(io.BytesIO(tall.png)).convert("L")) < 128)
                      .any(axis=1))[0]
    return int(2436 - rows.min()) if b"^POI" in zpl else int(rows.max()) + 1


def _bottom_notes(zpl: bytes, size: tuple[int, int]) -> list[str]:
    result = render(zpl, RenderOptions(width_dots=size[0], height_dots=size[1]))
    return [w.message for w in result.warnings if "past the bottom edge" in w.message]


@pytest.mark.skipif(not CARRIERS.is_dir(), reason=f"carrier corpus not found at {CARRIERS}")
@pytest.mark.parametrize("name", FOUR_BY_EIGHT)
def test_four_by_eight_carrier_warns_at_four_by_six_only(name: str) -> None:
    zpl = (CARRIERS / f"{name}.zpl").read_bytes()
    assert 1218 < _printed_length(zpl) <= 1626, "not a 4 x 8 in label"
    assert _bottom_notes(zpl, FOUR_BY_SIX), "nothing said of what 4 x 6 cuts off"
    assert _bottom_notes(zpl, TRUE_SIZE) == []


# A 16-dot-wide ^GF whose right half is blank (bytes FF 00), at the right edge: its
# bitmap runs past the label, its ink does not (and then it does, one byte further).
GRAPHIC = "^GFA,8,8,2,FF00FF00FF00FF00^FS"


@pytest.mark.parametrize(("x", "past"), [(804, None), (812 - 16, None), (806, 2), (810, 6)])
def test_a_graphic_overflows_by_its_ink_not_its_bitmap(x: int, past: int | None) -> None:
    result = render(f"^XA^FO{x},20{GRAPHIC}^XZ", RenderOptions())
    notes = [w.message for w in result.warnings if "overflows the label" in w.message]
    (box,) = result.fields
    assert (box.x, box.width) == (x, 8)
    if past is None:
        assert notes == []
    else:
        assert notes == [f"field ^GF overflows the label: its ink reaches {past} dots past "
                         "the right edge of the 812 x 1218-dot label, and that part does "
                         f"not print; a label of ^PW{812 + past} fits it (in the ZPL, or "
                         "as the label size the render asks for)"]
