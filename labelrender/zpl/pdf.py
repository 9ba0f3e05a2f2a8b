"""PDF output: rendered labels placed on vector pages, each label's dots embedded whole.

A page carries the label as a 1-bit image mask at the label's full resolution: every
dot that prints is painted black through the mask, every other is left blank, which
is what a thermal printer does with the same dots. A mask is reproduced exactly by
viewers and rasterizers at the label's resolution (pdftoppm gives back the PNG's ink
pixel for pixel), where a grey image is resampled: poppler smears every edge of a
grey image over two pixels even at 1:1, which thickens each bar of a bar code by a
dot. The dots are the PNG's ink (darker than 50% grey, the ``threshold`` cut), so
the PDF of a grey preview prints as its bitonal render does.

The library is pikepdf (qpdf underneath; MPL 2.0, maintained, wheels for every
platform we run on): it writes the file (objects, compression, cross-references)
and a deterministic document id, so the same labels give the same bytes. Pillow
writes PDF too, but only a grey or 1-bit *image* (smeared, as above), one per page
sized to it; ReportLab draws pages well but has no image masks.

A label's page is its physical size: its pixels over the output dpi, or the size the
caller names (Labelary's ``4x6`` in). On a sheet (Letter, A4 ...) labels go in a grid
of ``columns`` x ``rows`` cells, left to right then top to bottom, each at its
physical size (scaled down only if it cannot fit its cell) and centred in its cell.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pikepdf
from PIL import Image

POINTS_PER_INCH = 72.0
Border = Literal["none", "solid", "dashed"]
_INK_BELOW = 128  # a PNG pixel darker than this is a printed dot (raster's threshold)


@dataclass(frozen=True)
class PdfPage:
    """How labels go on pages. ``label_size``: the label's size in inches (default:
    its pixels over the output dpi). ``sheet``: a sheet size in inches to place
    ``columns`` x ``rows`` labels on (default: one label per page, the page its size).
    ``border``: a line around each label."""

    label_size: tuple[float, float] | None = None
    sheet: tuple[float, float] | None = None
    columns: int = 1
    rows: int = 1
    border: Border = "none"

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1:
            raise ValueError("a page layout needs at least one column and one row")
        for size in (self.label_size, self.sheet):
            if size is not None and min(size) <= 0:
                raise ValueError(f"page sizes must be positive, got {size}")


@dataclass(frozen=True)
class _Placed:
    """A label on a page, in points from the page's bottom-left corner."""

    x: float
    y: float
    width: float
    height: float


def pdf_document(pngs: Sequence[bytes], dpi: float, page: PdfPage | None = None) -> bytes:
    """One PDF of the labels ``pngs`` (rendered at ``dpi``), laid out as ``page`` says."""
    layout = page or PdfPage()
    pdf = pikepdf.new()
    per_sheet = layout.columns * layout.rows if layout.sheet else 1
    for first in range(0, len(pngs), per_sheet):
        images = [Image.open(io.BytesIO(png)) for png in pngs[first:first + per_sheet]]
        size, places = _arrange(images, dpi, layout)
        sheet = pdf.add_blank_page(page_size=size)
        masks, content = pikepdf.Dictionary(), []
        for number, (image, place) in enumerate(zip(images, places, strict=True)):
            name = f"/Label{number}"
            masks[name] = _mask(pdf, image)
            content.append(_paint(name, place, layout.border))
        sheet.Resources = pikepdf.Dictionary(XObject=masks)
        sheet.Contents = pdf.make_stream("\n".join(content).encode())
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, compress_streams=True)
    return out.getvalue()


def _arrange(images: Sequence[Image.Image], dpi: float, layout: PdfPage
             ) -> tuple[tuple[float, float], list[_Placed]]:
    """The page size and where each label goes on it."""
    if layout.sheet is None:
        width, height = _size_pt(images[0], dpi, layout)
        return (width, height), [_Placed(0.0, 0.0, width, height)]
    sheet_w, sheet_h = (side * POINTS_PER_INCH for side in layout.sheet)
    cell_w, cell_h = sheet_w / layout.columns, sheet_h / layout.rows
    places = []
    for index, image in enumerate(images):
        column, row = index % layout.columns, index // layout.columns
        width, height = _size_pt(image, dpi, layout)
        fit = min(1.0, cell_w / width, cell_h / height)
        width, height = width * fit, height * fit
        # PDF's origin is the bottom-left corner; rows count from the top.
        places.append(_Placed(column * cell_w + (cell_w - width) / 2,
                              sheet_h - (row + 1) * cell_h + (cell_h - height) / 2,
                              width, height))
    return (sheet_w, sheet_h), places


def _size_pt(image: Image.Image, dpi: float, layout: PdfPage) -> tuple[float, float]:
    if layout.label_size is not None:
        return layout.label_size[0] * POINTS_PER_INCH, layout.label_size[1] * POINTS_PER_INCH
    return image.width * POINTS_PER_INCH / dpi, image.height * POINTS_PER_INCH / dpi


def _mask(pdf: pikepdf.Pdf, image: Image.Image) -> pikepdf.Stream:
    """The label's printed dots as a 1-bit image mask (1 = paint, rows byte-padded)."""
    dots = np.asarray(image.convert("L")) < _INK_BELOW
    packed = np.packbits(dots, axis=1).tobytes()
    return pikepdf.Stream(pdf, zlib.compress(packed, 9), Type=pikepdf.Name.XObject,
                          Subtype=pikepdf.Name.Image, Width=image.width, Height=image.height,
                          ImageMask=True, BitsPerComponent=1, Decode=[1, 0],
                          Filter=pikepdf.Name.FlateDecode)


def _paint(name: str, place: _Placed, border: Border) -> str:
    """Content-stream operators: the mask painted black over the label's place, and
    its border as a vector line."""
    box = f"{place.x:.4f} {place.y:.4f}"
    ops = [f"q 0 g {place.width:.4f} 0 0 {place.height:.4f} {box} cm {name} Do Q"]
    if border != "none":
        dash = "[3 3] 0 d " if border == "dashed" else ""
        ops.append(f"q 0 G 0.5 w {dash}{box} {place.width:.4f} {place.height:.4f} re S Q")
    return "\n".join(ops)
