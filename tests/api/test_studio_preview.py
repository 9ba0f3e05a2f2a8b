"""What the studio draws on a label: the draft preview's filled placeholders, and the
field boxes, both checked against the pixels."""

from __future__ import annotations

import io
import json
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from labelrender.synth.fill import placeholder_indexes
from labelrender.zpl import FieldBox, RenderOptions, render
from tests.fixtures.browser import Service, browser, page, pro_key, service
from tests.synth.test_fill import FILLS
from tests.synth.test_heuristic import synthesize
from tests.zpl.test_fields import _grey, _inside, _moved_away

__all__ = ["browser", "page", "pro_key", "service"]

ROOT = Path(__file__).resolve().parents[2]
# Six carrier labels of the synthesis tests and four more copied from the corpus.
BOXED = [*sorted((ROOT / "tests" / "synth" / "data").glob("*.zpl")),
         *sorted((ROOT / "tests" / "api" / "data" / "carriers").glob("*.zpl"))]


# -- the draft preview fills placeholders as the service does ------------------------

def js_fill(page: Any, body: str, field_map: dict[str, int], values: dict[str, str]) -> str:
    page.goto("/studio")
    return str(page.evaluate("([body, map, values]) => fillBody(body, map, values)",
                             [body, field_map, values]))


def label_pixels(zpl: str | bytes) -> bytes:
    return Image.open(io.BytesIO(render(zpl).png)).convert("L").tobytes()


@pytest.mark.parametrize(("body", "field_map", "values", "reference"), FILLS)
def test_the_preview_fills_values_as_the_service_does(
        page: Any, body: str, field_map: dict[str, int], values: dict[str, str],
        reference: str) -> None:
    """The service's fill table (tests/synth/test_fill.py): hostile values included.
    The ^FN stays (a printer ignores it outside a stored format) so that each field
    box names its placeholder."""
    filled = js_fill(page, body, field_map, values)
    assert placeholder_indexes(filled) == placeholder_indexes(body)
    assert label_pixels(filled) == label_pixels(reference)


@pytest.mark.parametrize("path", BOXED, ids=lambda path: path.stem)
def test_the_preview_of_a_carrier_draft_prints_the_input(page: Any, path: Path) -> None:
    zpl = path.read_text(encoding="utf-8")
    draft = synthesize(zpl).draft
    filled = js_fill(page, draft.body, draft.field_map, draft.values)
    assert label_pixels(filled) == label_pixels(zpl)


# -- the boxes the studio draws, against the pixels ---------------------------------

CANVAS = {"width_dots": 813, "height_dots": 1626}


def api_render(service: Service, key: str, body: dict[str, Any]) -> tuple[Any, np.ndarray]:
    """POST /v1/labels as the studio does: the JSON answer and the PNG it points at."""
    request = urllib.request.Request(
        service.base + "/v1/labels", data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.load(response)
    with urllib.request.urlopen(answer["url"], timeout=60) as response:
        png = response.read()
    return answer, np.asarray(Image.open(io.BytesIO(png)).convert("L")).astype(np.int16)


def test_ten_carrier_labels_are_checked() -> None:
    assert len(BOXED) == 10, BOXED


@pytest.mark.parametrize("path", BOXED, ids=lambda path: path.stem)
def test_each_field_box_holds_that_fields_ink(service: Service, pro_key: str,
                                              path: Path) -> None:
    """The pixels of the API's PNG that change when one field is moved off the label
    (the engine test's method, tests/zpl/test_fields.py) all lie in the box the API
    reported for it."""
    zpl = path.read_bytes()
    answer, label = api_render(service, pro_key, {"zpl": zpl.decode(), "fields": True,
                                                  **CANVAS})
    boxes = [FieldBox(**field) for field in answer["fields"]]
    assert len(boxes) >= 5
    checked = 0
    for box in boxes:
        without = _moved_away(zpl, box)
        assert without is not None, f"field at byte {box.offset} has no ^FO/^FT"
        ys, xs = np.nonzero(label != _grey(render(without, RenderOptions(**CANVAS))))
        if len(xs) == 0:
            continue  # all its ink is under other fields' ink
        checked += 1
        ink = (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
        assert _inside(box, ink, slack=-1), (path.stem, box, ink)
    assert checked >= len(boxes) // 2
