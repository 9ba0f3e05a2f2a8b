"""labelrender.graphics on its own: sizes, options, and limits checked before any
decoding (in a process whose memory is capped far below what a bomb needs)."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from labelrender.graphics import (
    Converted,
    GraphicLimits,
    GraphicOptions,
    Refusal,
    convert_graphic,
)
from labelrender.graphics.convert import graphic_size
from tests.fixtures.images import (
    encoded,
    logo,
    pdf_bomb,
    pdf_of,
    pdf_with_stream,
    printed,
    thresholded,
)

ROOT = Path(__file__).resolve().parents[2]
LOGO = logo((120, 60))


def converted(data: bytes, options: GraphicOptions) -> Converted:
    result = convert_graphic(data, options)
    assert isinstance(result, Converted), result
    return result


@pytest.mark.parametrize(("source", "asked", "size"), [
    ((200, 100), (0, 0), (200, 100)),
    ((200, 100), (100, 0), (100, 50)),
    ((200, 100), (0, 300), (600, 300)),
    ((200, 100), (50, 50), (50, 50)),
    ((3, 1000), (1, 0), (1, 333)),
    ((1000, 3), (10, 0), (10, 1)),  # never under one dot
])
def test_graphic_size(source: tuple[int, int], asked: tuple[int, int],
                      size: tuple[int, int]) -> None:
    assert graphic_size(*source, GraphicOptions(width=asked[0], height=asked[1])) == size


@pytest.mark.parametrize(("options", "problem"), [
    ({"threshold": 256}, "threshold"),
    ({"width": -1}, "width"),
    ({"compression": "ZIP"}, "compression"),
    ({"output": "page"}, "output"),
    ({"page": 0}, "page"),
    ({"dpi": 1200}, "dpi"),
])
def test_bad_options_are_refused(options: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        GraphicOptions(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("compression", ["A", "ACS", "B64", "Z64"])
@pytest.mark.parametrize("output", ["label", "field"])
def test_every_compression_and_output_round_trips(compression: str, output: str) -> None:
    result = converted(encoded(LOGO, "PNG"), GraphicOptions(compression=compression,
                                                            output=output))
    zpl = result.zpl if output == "label" else f"^XA^FO0,0{result.zpl}^XZ"
    assert np.array_equal(printed(zpl, 120, 60), thresholded(LOGO))
    assert (result.width, result.height, result.bytes_per_row, result.total_bytes) == \
        (120, 60, 15, 900)


def test_a_pdf_page_at_twice_its_size() -> None:
    page = Image.new("1", (40, 20), 1)
    page.paste(0, (10, 5, 30, 15))
    result = converted(pdf_of(page), GraphicOptions(dpi=144))
    assert (result.width, result.height, result.source_format) == (80, 40, "PDF")
    expected = np.zeros((40, 80), dtype=bool)
    expected[10:30, 20:60] = True
    assert np.array_equal(printed(result.zpl, 80, 40), expected)


def test_a_pdf_drawn_straight_at_the_target_width() -> None:
    result = converted(pdf_of(LOGO.convert("1")), GraphicOptions(width=60))
    assert (result.width, result.height) == (60, 30)


# (limits, data, kind): each limit, met on its own.
LIMITS = [
    (GraphicLimits(max_pixels=7199), encoded(LOGO, "PNG"), "ImageTooManyPixels"),
    (GraphicLimits(max_decoded_bytes=7200 * 4 - 1), encoded(LOGO, "PNG"),
     "ImageDecodedTooLarge"),
    (GraphicLimits(max_decoded_bytes=7200), encoded(LOGO.convert("L"), "PNG"), ""),
    (GraphicLimits(max_pdf_pages=2), pdf_of(LOGO, pages=3), "PdfTooManyPages"),
    (GraphicLimits(max_pixels=7199), pdf_of(LOGO), "ImageTooManyPixels"),
    (GraphicLimits(max_graphic_side=119), encoded(LOGO, "PNG"), "GraphicTooLarge"),
    (GraphicLimits(max_graphic_dots=7199), encoded(LOGO, "PNG"), "GraphicTooLarge"),
]


@pytest.mark.parametrize(("limits", "data", "kind"), LIMITS)
def test_each_limit(limits: GraphicLimits, data: bytes, kind: str) -> None:
    result = convert_graphic(data, GraphicOptions(dpi=72), limits)
    if kind:
        assert isinstance(result, Refusal) and result.kind == kind, result
        assert result.status == 413
    else:
        assert isinstance(result, Converted)


def test_bombs_are_refused_in_a_process_with_little_memory() -> None:
    """A 20,000 x 20,000 PNG (400 MB decoded) and a 100,000 x 100,000 header, in a
    process allowed 400 MB of data in all: refused from their headers, not decoded."""
    script = textwrap.dedent("""
        import resource
        from labelrender.graphics import GraphicOptions, convert_graphic
        from tests.fixtures.images import png_bomb, png_declaring
        bomb = png_bomb(20_000)
        header = png_declaring(100_000, 100_000)
        resource.setrlimit(resource.RLIMIT_DATA, (400 * 2**20, 400 * 2**20))
        for data in (bomb, header):
            print(convert_graphic(data, GraphicOptions()).kind)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["ImageTooManyPixels", "ImageTooManyPixels"]


MB = 1 << 20


# (PDF, limits, kind): what a PDF's streams decode to, counted before drawing.
PDF_STREAMS = [
    (pdf_bomb(3), GraphicLimits(max_decoded_bytes=2 * MB), "PdfDecodedTooLarge"),
    (pdf_bomb(1), GraphicLimits(max_decoded_bytes=2 * MB), ""),
    (pdf_with_stream(b" " * 3 * MB, ("/ASCII85Decode", "/FlateDecode")),
     GraphicLimits(max_decoded_bytes=2 * MB), "PdfDecodedTooLarge"),
    (pdf_with_stream(b" " * 3 * MB, ("/ASCIIHexDecode", "/FlateDecode")),
     GraphicLimits(max_decoded_bytes=2 * MB), "PdfDecodedTooLarge"),
    (pdf_with_stream(b" " * MB, ("/ASCII85Decode", "/FlateDecode")),
     GraphicLimits(max_decoded_bytes=2 * MB), ""),
    (pdf_with_stream(b" " * 3 * MB, ()), GraphicLimits(max_decoded_bytes=2 * MB),
     "PdfDecodedTooLarge"),
    # An LZW stream counts at its worst expansion: 1 KB stored may be 2.7 MB.
    (pdf_with_stream(b"x" * 1024, ("/LZWDecode",)), GraphicLimits(max_decoded_bytes=2 * MB),
     "PdfDecodedTooLarge"),
    (pdf_with_stream(b"", (), Subtype=pikepdf.Name.Image, Width=100_000, Height=100_000),
     GraphicLimits(), "ImageTooManyPixels"),
    (pdf_with_stream(b"", (), Subtype=pikepdf.Name.Image, Width=6000, Height=6000,
                     BitsPerComponent=8), GraphicLimits(), "PdfDecodedTooLarge"),
]


@pytest.mark.parametrize(("data", "limits", "kind"), PDF_STREAMS)
def test_pdf_streams_are_counted_before_drawing(data: bytes, limits: GraphicLimits,
                                                kind: str) -> None:
    result = convert_graphic(data, GraphicOptions(), limits)
    if kind:
        assert isinstance(result, Refusal) and result.kind == kind, result
    else:
        assert isinstance(result, Converted), result


def test_an_encrypted_pdf_is_refused_in_one_line(tmp_path: Path) -> None:
    with pikepdf.open(io.BytesIO(pdf_of(LOGO))) as document:
        document.save(tmp_path / "locked.pdf", encryption=pikepdf.Encryption(
            user="secret", owner="secret"))
    result = convert_graphic((tmp_path / "locked.pdf").read_bytes(), GraphicOptions())
    assert isinstance(result, Refusal) and result.kind == "InvalidPdf"
    assert "encrypted" in result.message
