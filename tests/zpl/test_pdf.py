"""PDF output: one page per label at its physical size, the raster whole inside.

pdftoppm (Debian poppler-utils, which .ci/run installs) turns the PDF back into an
image at the label's dpi; its ink must match the PNG's (F1 at least 0.98)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from labelrender.zpl import LimitExceeded, Limits, PdfPage, RenderOptions, render, render_pdf

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "labelary"
GOLDEN = Path(__file__).with_name("golden")
THREE = "".join(f"^XA^FO50,50^A0N,60^FDLabel {n}^FS^XZ" for n in (1, 2, 3))
PDFTOPPM = shutil.which("pdftoppm")


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's MediaBox, in points, in page order."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return [(float(page.mediabox[2]), float(page.mediabox[3])) for page in document.pages]


@pytest.mark.parametrize(("options", "every", "page", "sizes"), [
    # 4 x 6 in at 203 dpi: 812 x 1218 dots, a 288 x 432 pt page.
    (RenderOptions(), False, None, [(288, 432)]),
    (RenderOptions(), True, None, [(288, 432)] * 3),
    (RenderOptions(index=2), False, None, [(288, 432)]),
    (RenderOptions(rotation=90), True, None, [(432, 288)] * 3),
    (RenderOptions(dpi=300, source_dpi=300, width_dots=600, height_dots=300), True, None,
     [(144, 72)] * 3),
    # The size the caller names wins (Labelary's 4x6 at 8 dpmm is 812 x 1218 dots).
    (RenderOptions(), True, PdfPage(label_size=(4, 6)), [(288, 432)] * 3),
    # Two labels a Letter sheet: three labels, two sheets.
    (RenderOptions(), True, PdfPage(label_size=(4, 6), sheet=(8.5, 11), columns=2),
     [(612, 792)] * 2),
])
def test_pages_and_their_sizes(options: RenderOptions, every: bool, page: PdfPage | None,
                               sizes: list[tuple[float, float]]) -> None:
    document = render_pdf(THREE, options, every_label=every, page=page)
    assert document.pdf.startswith(b"%PDF-")
    assert document.label_count == 3
    assert page_sizes(document.pdf) == [pytest.approx(size, abs=0.01) for size in sizes]


def test_same_input_same_bytes() -> None:
    page = PdfPage(label_size=(4, 6), sheet=(8.27, 11.69), columns=1, rows=2, border="dashed")
    first = render_pdf(THREE, every_label=True, page=page).pdf
    assert render_pdf(THREE, every_label=True, page=page).pdf == first


def test_more_labels_than_one_pdf_takes() -> None:
    with pytest.raises(LimitExceeded) as caught:
        render_pdf(THREE, RenderOptions(limits=Limits(max_labels=2)), every_label=True)
    assert caught.value.limit == "labels"
    # One label of the same stream is fine.
    assert render_pdf(THREE, RenderOptions(limits=Limits(max_labels=2), index=2)).labels


def test_warnings_and_fields_of_every_page() -> None:
    document = render_pdf("^XA^FO700,50^A0N,80^FDoff the edge^FS^XZ^XA^QQ^XZ", every_label=True)
    assert [w.command for w in document.warnings] == ["^QQ", "^FD"]
    assert len(document.labels[0].fields) == 1


def ink_f1(reference: np.ndarray, candidate: np.ndarray) -> float:
    """F1 of the ink (below 50% grey) of two images, on the reference's size."""
    height, width = reference.shape
    ours, theirs = reference < 128, candidate[:height, :width] < 128
    true = np.count_nonzero(ours & theirs)
    return 2 * true / (2 * true + np.count_nonzero(ours ^ theirs))


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("threshold", [False, True])
@pytest.mark.parametrize("label", [GOLDEN / "amazon.zpl", GOLDEN / "dhlpaket.zpl",
                                   CORPUS / "carriers" / "ups.zpl",
                                   CORPUS / "zplkit" / "shipping_4x6_300.zpl"],
                         ids=lambda path: path.stem)
def test_pdftoppm_gives_back_the_png(label: Path, threshold: bool, tmp_path: Path) -> None:
    if not label.is_file():
        pytest.skip(f"{label} is not here")
    dpi = 300 if label.stem.endswith("_300") else 203
    options = RenderOptions(dpi=dpi, width_dots=4 * dpi, height_dots=6 * dpi,
                            threshold=threshold)
    png = np.asarray(Image.open(io.BytesIO(render(label.read_bytes(), options).png))
                     .convert("L"))
    (tmp_path / "label.pdf").write_bytes(render_pdf(label.read_bytes(), options).pdf)
    subprocess.run([str(PDFTOPPM), "-r", str(dpi), "-gray", "-png", "-singlefile",
                    str(tmp_path / "label.pdf"), str(tmp_path / "back")], check=True,
                   timeout=60)
    back = np.asarray(Image.open(tmp_path / "back.png").convert("L"))
    assert back.shape[0] >= png.shape[0] and back.shape[1] >= png.shape[1]
    assert ink_f1(png, back) >= 0.98
