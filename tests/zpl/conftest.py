"""Helpers for engine tests: render ZPL and look at the ink a user would see."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from labelrender.zpl import RenderOptions, RenderResult, render


def ink(result: RenderResult) -> np.ndarray:
    """Boolean array, True where the label is black (below 50% grey)."""
    image = Image.open(io.BytesIO(result.png)).convert("L")
    return np.asarray(image) < 128


def bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the ink, inclusive, or None for a blank label."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def draw(zpl: str | bytes, **options: object) -> tuple[RenderResult, np.ndarray]:
    opts = {"width_dots": 400, "height_dots": 300, **options}
    result = render(zpl, RenderOptions(**opts))  # type: ignore[arg-type]
    return result, ink(result)


@pytest.fixture
def messages():
    def _messages(result: RenderResult) -> list[str]:
        return [f"{w.command} {w.message}" for w in result.warnings]
    return _messages
