"""PNG encoding of the ink canvas: fast, and the same bytes for the same pixels.

A label is mostly paper, and most of its rows repeat the row above. Every row is
written with the Up filter (PNG spec, section 9.2, filter type 2), so a repeated
row is all zeros, and deflated with ISA-L at level 1 (python-isal): about a
tenth of the time Pillow's encoder takes at level 1 (zlib, an adaptive filter
per row), and smaller. The canvas holds ink (255 = black); the printed picture
is its inverse, which the filter takes as it goes, so no inverted copy is made.

A threshold render is bilevel: it is written at one bit a pixel (0 = black, as
PNG greyscale has it), as Pillow writes a mode "1" image.
"""

from __future__ import annotations

import struct
import threading
import zlib

import numpy as np
from isal import isal_zlib
from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_GREY = 0  # PNG colour type: greyscale
_UP = 2  # PNG filter type
# ISA-L levels 0-3; 1 is the fastest that still matches Pillow's sizes (3 is slow
# without AVX-512 and barely smaller).
_LEVEL = 1
# Ink at or above this prints black in a threshold render.
THRESHOLD = 128
# Each thread keeps the rows buffer of its last label up to this size (a 4 x 6 in
# label at 203 dpi is 1.3 MB): a fresh buffer of that size is fresh pages from the
# system, and filling them costs half as much again as the filter itself.
_SCRATCH_BYTES = 4 * 1024 * 1024
_scratch = threading.local()


def encode(ink: Image.Image | np.ndarray, *, threshold: bool) -> bytes:
    """The PNG of the printed picture of ``ink`` (255 = black): an image of mode L, or
    its rows of bytes; 8-bit grey, or 1-bit when ``threshold``."""
    if isinstance(ink, Image.Image):
        if ink.mode != "L":
            raise ValueError(f"the ink canvas is mode L, not {ink.mode}")
        pixels = np.frombuffer(ink.tobytes(), np.uint8).reshape(ink.height, ink.width)
    elif ink.ndim != 2 or ink.dtype != np.uint8:
        raise ValueError(f"the ink is rows of bytes, not {ink.ndim}-d {ink.dtype}")
    else:
        pixels = ink
    height, width = pixels.shape
    if threshold:
        rows, depth = _bilevel_rows(pixels), 1
    else:
        rows, depth = _grey_rows(pixels), 8
    header = struct.pack(">IIBBBBB", width, height, depth, _GREY, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"IDAT", isal_zlib.compress(rows, _LEVEL)), _chunk(b"IEND", b"")))


def _grey_rows(ink: np.ndarray) -> np.ndarray:
    """Up-filtered rows of the inverted picture, each led by its filter byte: paper is
    255 - ink, so row y's filtered bytes are ink[y - 1] - ink[y] (mod 256)."""
    height, width = ink.shape
    rows = _rows(height, width + 1)
    rows[:, 0] = _UP
    rows[0, 0] = 0  # the first row has no row above: unfiltered
    np.subtract(255, ink[0], out=rows[0, 1:])
    np.subtract(ink[:-1], ink[1:], out=rows[1:, 1:])
    return rows


def _bilevel_rows(ink: np.ndarray) -> np.ndarray:
    """Up-filtered rows of the 1-bit picture: a bit is 1 (white) where ink is under the
    threshold; the bits past the width in a row's last byte are 0."""
    packed = np.packbits(ink < THRESHOLD, axis=1)
    height, width = packed.shape
    rows = _rows(height, width + 1)
    rows[:, 0] = _UP
    rows[0, 0] = 0
    rows[0, 1:] = packed[0]
    np.subtract(packed[1:], packed[:-1], out=rows[1:, 1:])
    return rows


def _rows(height: int, width: int) -> np.ndarray:
    """An uninitialised height x width byte array: this thread's scratch when it fits."""
    if height * width > _SCRATCH_BYTES:
        return np.empty((height, width), np.uint8)
    buffer: np.ndarray | None = getattr(_scratch, "buffer", None)
    if buffer is None:
        buffer = _scratch.buffer = np.empty(_SCRATCH_BYTES, np.uint8)
    return buffer[: height * width].reshape(height, width)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
