"""PNG encoding: what a reader decodes is the printed picture of the ink canvas."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from labelrender.zpl import RenderOptions, render
from labelrender.zpl.png import encode


def _ink(width: int, height: int, seed: int) -> Image.Image:
    """Mostly paper, some solid ink and some grey edges, as a label is."""
    rng = np.random.default_rng(seed)
    pixels = np.zeros((height, width), np.uint8)
    pixels[rng.random((height, width)) < 0.1] = 255
    grey = rng.random((height, width)) < 0.05
    pixels[grey] = rng.integers(1, 255, int(grey.sum()), dtype=np.uint8)
    return Image.fromarray(pixels, "L")


@pytest.mark.parametrize(("width", "height"), [(1, 1), (7, 3), (8, 8), (9, 2), (813, 40),
                                               (203, 1)])
@pytest.mark.parametrize("threshold", [False, True])
def test_decodes_to_the_printed_picture(width: int, height: int, threshold: bool) -> None:
    ink = _ink(width, height, seed=width * 1000 + height)
    data = encode(ink, threshold=threshold)
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.mode == ("1" if threshold else "L")
        assert picture.size == (width, height)
        decoded = np.asarray(picture.convert("L"))
    paper = 255 - np.asarray(ink)
    expected = np.where(np.asarray(ink) >= 128, 0, 255) if threshold else paper
    assert np.array_equal(decoded, expected)


def test_same_pixels_same_bytes() -> None:
    zpl = "^XA^FO20,20^A0N,40^FDSame bytes^FS^FO20,80^BCN,60^FD12345^FS^XZ"
    for threshold in (False, True):
        options = RenderOptions(threshold=threshold)
        assert render(zpl, options).png == render(zpl, options).png


@pytest.mark.parametrize(("mode", "error"), [("1", ValueError), ("RGB", ValueError)])
def test_only_an_ink_canvas_is_encoded(mode: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        encode(Image.new(mode, (4, 4)), threshold=False)


@pytest.mark.parametrize("threshold", [False, True])
def test_rows_of_bytes_and_their_turned_views_encode_as_the_image(threshold: bool) -> None:
    """The engine hands the encoder its canvas's rows, often a turned or mirrored
    view of them (numpy strides, no copy)."""
    pixels = np.asarray(_ink(61, 37, seed=5))
    for view in (pixels, pixels[:, ::-1], pixels[::-1, ::-1], np.rot90(pixels, -1),
                 np.rot90(pixels, 1)):
        expected = encode(Image.fromarray(np.ascontiguousarray(view), "L"), threshold=threshold)
        assert encode(view, threshold=threshold) == expected


def test_rows_must_be_bytes() -> None:
    with pytest.raises(ValueError, match="rows of bytes"):
        encode(np.zeros((4, 4), np.uint16), threshold=False)
