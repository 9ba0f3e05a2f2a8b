"""Each printed field's ink box (RenderResult.fields): it must hold every pixel the
field prints, in the image returned, whatever turns the image took."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from labelrender.zpl import FieldBox, RenderOptions, RenderResult, render
from tests.fixtures.corpus import CARRIERS

from .conftest import bbox


def _inside(box: FieldBox, ink_box: tuple[int, int, int, int] | None, slack: int = 0) -> bool:
    """Whether the inclusive ink box lies in the field box (``slack``: how much larger
    than the ink the box may be on any side; -1 for any)."""
    assert ink_box is not None, "the field printed nothing"
    x0, y0, x1, y1 = ink_box
    inside = (box.x <= x0 and box.y <= y0 and x1 < box.x + box.width
              and y1 < box.y + box.height)
    if not inside or slack < 0:
        return inside
    return max(x0 - box.x, y0 - box.y, box.x + box.width - 1 - x1,
               box.y + box.height - 1 - y1) <= slack


# One field alone on a 400 x 300 label: the box holds all its ink and is tight.
ONE_FIELD = [
    ("text ^FO", "^XA^FO40,30^A0N,40^FDHello^FS^XZ", "^FD", 2),
    ("text ^FT baseline", "^XA^FT40,80^A0N,40^FDHgjy^FS^XZ", "^FD", 2),
    ("text turned R", "^XA^FO40,30^A0R,40^FDHello^FS^XZ", "^FD", 2),
    ("text turned I", "^XA^FO40,30^A0I,40^FDHello^FS^XZ", "^FD", 2),
    ("text turned B", "^XA^FO40,30^A0B,40^FDHello^FS^XZ", "^FD", 2),
    ("bitmap font", "^XA^FO20,20^ADN,36,20^FDBitmap 123^FS^XZ", "^FD", 3),
    ("reverse text", "^XA^FO20,20^A0N,50^FR^FDREV^FS^XZ", "^FD", 2),
    ("field block", "^XA^FO20,20^A0N,30^FB200,3,0,C^FDa block of words to wrap^FS^XZ",
     "^FD", 2),
    ("text block clips", "^XA^FO20,20^A0N,40^TBN,120,30^FDclipped text here^FS^XZ", "^FD", 2),
    ("Code 128", "^XA^FO20,20^BY2^BCN,80,Y,N,N^FD12345678^FS^XZ", "^BC", 1),
    ("Code 128 turned", "^XA^FO20,20^BY2^BCR,80,Y,N,N^FD12345678^FS^XZ", "^BC", 1),
    ("QR Code", "^XA^FO20,20^BQN,2,4^FDQA,labelrender^FS^XZ", "^BQ", 1),
    ("MaxiCode", "^XA^FO20,20^BD4^FDHello MaxiCode^FS^XZ", "^BD", 2),
    ("box", "^XA^FO30,40^GB200,100,5^FS^XZ", "^GB", 0),
    ("rounded box", "^XA^FO30,40^GB200,100,5,B,4^FS^XZ", "^GB", 1),
    ("circle", "^XA^FO30,40^GC120,6^FS^XZ", "^GC", 1),
    ("diagonal", "^XA^FO30,40^GD150,100,6,B,L^FS^XZ", "^GD", 1),
    ("graphic field", "^XA^FO30,40^GFA,16,16,2,FFFF8001800180018001800180019999^FS^XZ",
     "^GF", 0),
]


@pytest.mark.parametrize(("name", "zpl", "command", "slack"), ONE_FIELD,
                         ids=[case[0] for case in ONE_FIELD])
def test_one_field_box_holds_its_ink(name: str, zpl: str, command: str, slack: int) -> None:
    result = render(zpl, RenderOptions(width_dots=400, height_dots=300))
    assert len(result.fields) == 1
    box = result.fields[0]
    assert box.command == command
    assert zpl[box.offset:].startswith("^FD" if command[:2] in ("^F", "^B") else command)
    painted = bbox(_grey(result) < 255)
    assert _inside(box, painted, slack), (box, painted)


# The same field with the image turned: the box turns with it.
@pytest.mark.parametrize("zpl", [
    "^XA^FO40,30^A0N,40^FDTurned^FS^FO60,150^BY2^BCN,60,N^FD1234^FS^XZ",
    "^XA^POI^FO40,30^A0N,40^FDUpside down^FS^XZ",
    "^XA^PMY^FO40,30^A0N,40^FDMirrored^FS^XZ",
])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_boxes_follow_the_image_when_it_turns(zpl: str, rotation: int) -> None:
    result = render(zpl, RenderOptions(width_dots=400, height_dots=300, rotation=rotation))
    grey = np.asarray(Image.open(io.BytesIO(result.png)).convert("L"))
    assert (result.width, result.height) == grey.shape[::-1]
    painted = grey < 250
    covered = np.zeros_like(painted)
    for box in result.fields:
        covered[max(0, box.y):box.y + box.height, max(0, box.x):box.x + box.width] = True
    assert painted.any()
    assert not (painted & ~covered).any(), "ink outside every field box"


def test_fields_name_their_fn_number_and_offset() -> None:
    zpl = "^XA^FO20,20^A0N,30^FN7^FDShip to^FS^FO20,80^BCN,50^FN2^FD1234^FS^FO5,5^GB10,10,1^FS^XZ"
    result = render(zpl, RenderOptions(width_dots=400, height_dots=300))
    assert [(f.command, f.fn) for f in result.fields] == [("^FD", 7), ("^BC", 2), ("^GB", None)]
    assert [zpl[f.offset:f.offset + 3] for f in result.fields] == ["^FD", "^FD", "^GB"]


def test_a_field_that_prints_nothing_has_no_box() -> None:
    result = render("^XA^FO20,20^A0N,30^FD   ^FS^FO20,80^BQN,2,4^FD^FS^XZ",
                    RenderOptions(width_dots=400, height_dots=300))
    assert result.fields == ()


def test_a_field_running_off_the_label_has_a_box_past_its_edge() -> None:
    result = render("^XA^FO300,250^A0N,80^FDOFF THE EDGE^FS^XZ",
                    RenderOptions(width_dots=400, height_dots=300))
    box = result.fields[0]
    assert box.x + box.width > 400 and box.y + box.height > 300


# -- corpus: every field of 10 carrier labels, against the pixels --------------------

LABELS = ["amazon", "dhlpaket", "fedex", "ups", "usps", "dpdde", "postnl", "royalmail",
          "auspost", "swisspost"]
_ORIGIN = re.compile(rb"\^F[OT][^^~]*")


def _grey(result: RenderResult) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(result.png)).convert("L")).astype(np.int16)


def _moved_away(zpl: bytes, box: FieldBox) -> bytes | None:
    """The label with this field's ^FO/^FT moved off the canvas (every other command,
    ^BY and ^FB included, kept), or None when the field has no origin of its own."""
    previous_end = zpl.rfind(b"^FS", 0, box.offset)
    start = max(zpl.rfind(b"^FO", 0, box.offset), zpl.rfind(b"^FT", 0, box.offset))
    if start < 0 or start < previous_end:
        return None
    origin = _ORIGIN.match(zpl, start)
    assert origin is not None
    rest = origin.group(0)[3:].split(b",")[2:]
    moved = b",".join([origin.group(0)[:3] + b"32000", b"32000", *rest])
    return zpl[:start] + moved + zpl[origin.end():]


@pytest.mark.skipif(not CARRIERS.is_dir(), reason=f"carrier corpus not found at {CARRIERS}")
@pytest.mark.parametrize("name", LABELS)
def test_corpus_field_boxes_hold_each_fields_ink(name: str) -> None:
    """The pixels that change when one field is moved off the label are its ink: they
    must all lie in its box."""
    zpl = (CARRIERS / f"{name}.zpl").read_bytes()
    options = RenderOptions(width_dots=813, height_dots=1626)
    full = render(zpl, options)
    label = _grey(full)
    assert len(full.fields) >= 10
    checked = 0
    for box in full.fields:
        without = _moved_away(zpl, box)
        assert without is not None, f"field at byte {box.offset} has no ^FO/^FT"
        ys, xs = np.nonzero(label != _grey(render(without, options)))
        if len(xs) == 0:
            continue  # covered by other fields' ink
        checked += 1
        ink_box = (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
        assert _inside(box, ink_box, slack=-1), (box, ink_box)
    assert checked >= len(full.fields) // 2
