"""Graphic commands: ^GB ^GC ^GE ^GD ^GF ~DG ^XG ^IM ^IL ~DY."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from .conftest import bbox, draw


@pytest.mark.parametrize(
    ("zpl", "box", "filled"),
    [
        ("^GB100,50,2", (20, 30, 119, 79), False),
        ("^GB100,50,50", (20, 30, 119, 79), True),
        ("^GB100,0,3", (20, 30, 119, 32), True),  # a line: height defaults up to t
        ("^GB0,60,4", (20, 30, 23, 89), True),
        ("^GB", (20, 30, 20, 30), True),  # all defaults: a 1x1 dot
    ],
)
def test_graphic_box(zpl: str, box: tuple[int, int, int, int], filled: bool) -> None:
    _, mask = draw(f"^XA^FO20,30{zpl}^FS^XZ")
    assert bbox(mask) == box
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    assert bool(mask[cy, cx]) == filled


def test_graphic_box_rounding_cuts_corners() -> None:
    _, square = draw("^XA^FO20,30^GB100,100,100,B,0^FS^XZ")
    _, round_ = draw("^XA^FO20,30^GB100,100,100,B,8^FS^XZ")
    assert square[30, 20] and not round_[30, 20]
    assert round_[80, 70]


def test_white_box_erases() -> None:
    _, mask = draw("^XA^FO0,0^GB100,100,100^FS^FO25,25^GB50,50,50,W^FS^XZ")
    assert mask[10, 10] and not mask[50, 50]


@pytest.mark.parametrize(
    ("zpl", "size"),
    # A diagonal's stroke is t dots across, so it spans w + t dots (as Labelary draws it).
    [("^GC100,3", (100, 100)), ("^GE150,80,3", (150, 80)), ("^GD100,50,5,B,R", (105, 50)),
     ("^GD100,50,5,B,L", (105, 50))],
)
def test_circle_ellipse_diagonal_size(zpl: str, size: tuple[int, int]) -> None:
    _, mask = draw(f"^XA^FO50,40{zpl}^FS^XZ")
    x0, y0, x1, y1 = bbox(mask)  # type: ignore[misc]
    assert abs(x0 - 50) <= 2 and y0 == 40
    assert abs((x1 - x0 + 1) - size[0]) <= 2 and abs((y1 - y0 + 1) - size[1]) <= 1
    assert not mask[40 + size[1] // 2, 50 + size[0] // 2] or "GD" in zpl


def test_diagonal_direction() -> None:
    _, right = draw("^XA^FO0,0^GD100,100,5,B,R^FS^XZ")
    _, left = draw("^XA^FO0,0^GD100,100,5,B,L^FS^XZ")
    assert right[98, 4] and not right[2, 2]
    assert left[2, 2] and not left[98, 4]


SQUARE_HEX = "FF" * 16  # 8 x 16 dots of ink: 1 byte per row, 16 rows


@pytest.mark.parametrize(
    "zpl",
    [
        f"^FO30,40^GFA,16,16,1,{SQUARE_HEX}^FS",
        "^FO30,40^GFA,16,16,1,P!:::::::::::::::^FS".replace("P!", "FF"),
        f"~DGR:SQ.GRF,16,1,{SQUARE_HEX}^FO30,40^XGR:SQ.GRF,1,1^FS",
        f"~DGR:SQ.GRF,16,1,{SQUARE_HEX}^FO30,40^IMR:SQ.GRF^FS",
    ],
)
def test_bitmaps_land_at_the_field_origin(zpl: str) -> None:
    _, mask = draw("^XA" + zpl + "^XZ" if not zpl.startswith("~") else
                   zpl.split("^FO")[0] + "^XA^FO" + zpl.split("^FO")[1] + "^XZ")
    assert bbox(mask) == (30, 40, 37, 55)


def test_recall_graphic_magnifies() -> None:
    _, mask = draw(f"~DGR:SQ.GRF,16,1,{SQUARE_HEX}^XA^FO30,40^XGR:SQ.GRF,2,3^FS^XZ")
    assert bbox(mask) == (30, 40, 45, 87)


def test_image_load_draws_at_label_origin() -> None:
    _, mask = draw(f"~DGR:SQ.GRF,16,1,{SQUARE_HEX}^XA^ILR:SQ.GRF^FO100,100^GB5,5,5^FS^XZ")
    assert mask[0, 0] and mask[15, 7]


def test_download_object_png() -> None:
    picture = Image.new("L", (16, 8), 255)
    picture.paste(0, (0, 0, 8, 8))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    data = out.getvalue()
    zpl = (f"~DYR:LOGO,B,P,{len(data)},2,".encode() + data
           + b"^XA^FO10,10^IMR:LOGO.PNG^FS^XZ")
    _, mask = draw(zpl)
    assert bbox(mask) == (10, 10, 17, 17)


def test_missing_graphic_warns(messages) -> None:
    result, mask = draw("^XA^FO10,10^XGR:NONE.GRF,1,1^FS^XZ")
    assert bbox(mask) is None
    assert any("not in memory" in m for m in messages(result))


def test_z64_graphic_field() -> None:
    import zlib

    payload = base64.b64encode(zlib.compress(b"\xff" * 16)).decode()
    _, mask = draw(f"^XA^FO30,40^GFA,16,16,1,:Z64:{payload}^FS^XZ")
    assert bbox(mask) == (30, 40, 37, 55)


def test_binary_graphic_field_past_its_fs_ends_the_field() -> None:
    # carriers/usps_intl: "^FO631,6^GFB,323,323,17,^FS" takes the next 323 bytes as its
    # bitmap; the text field after them has lost the ^GF's origin and prints at home.
    zpl = b"^XA^FO300,300^GFB,8,8,1,^FS\n^FT200,100^A0N,30,30^FDHI^FS^XZ"
    _, inked = draw(zpl)
    x0, y0, _, _ = bbox(inked[:, :250])  # type: ignore[misc]
    assert x0 < 10 and y0 < 10
