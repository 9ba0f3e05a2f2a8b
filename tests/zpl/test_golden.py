"""Golden labels: our render against Labelary's, by ink-overlap F1 (as tools/compare.py).

Ink is anything darker than 50% grey; a pixel of ink counts as matched when the
other image has ink within one pixel. The floors sit a little under what the
engine scores today, so a regression fails while anti-aliasing noise does not.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from labelrender.zpl import RenderOptions, render

GOLDEN = Path(__file__).with_name("golden")

FLOORS = {
    "ups": 0.90,
    "dhlpaket": 0.95,
    "amazon": 0.94,
    "canonical_code39_4x2_203": 0.96,
    "shapes_circle_4x4_203": 0.97,
    "templating": 0.94,
    "ups_maxicode": 0.97,
    "gb_rounded": 0.98,
    "barcode_code128_standard": 0.95,
    "h50_M": 0.65,
}


def ink(png: bytes | Path) -> np.ndarray:
    source = io.BytesIO(png) if isinstance(png, bytes) else png
    return np.asarray(Image.open(source).convert("L")) < 128


def grow(mask: np.ndarray) -> np.ndarray:
    """Ink dilated by one pixel in every direction (a 3x3 neighbourhood)."""
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    h, w = mask.shape
    for dy in range(3):
        for dx in range(3):
            out |= padded[dy : dy + h, dx : dx + w]
    return out


def f1(reference: np.ndarray, ours: np.ndarray) -> float:
    assert reference.shape == ours.shape
    if not reference.any() and not ours.any():
        return 1.0
    precision = (ours & grow(reference)).sum() / max(1, ours.sum())
    recall = (reference & grow(ours)).sum() / max(1, reference.sum())
    return float(2 * precision * recall / (precision + recall)) if precision + recall else 0.0


def rows() -> list[dict[str, str]]:
    with (GOLDEN / "index.tsv").open() as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.mark.parametrize("row", rows(), ids=lambda r: r["name"])
def test_render_matches_labelary(row: dict[str, str]) -> None:
    options = RenderOptions(dpi=round(int(row["dpmm"]) * 25.4),
                            width_dots=int(row["width_dots"]), height_dots=int(row["height_dots"]))
    result = render((GOLDEN / f"{row['name']}.zpl").read_bytes(), options)
    score = f1(ink(GOLDEN / f"{row['name']}.png"), ink(result.png))
    assert score >= FLOORS[row["name"]], f"{row['name']}: f1 {score:.3f}"
