"""How much a PDF's streams decode to, counted before pdfium draws anything.

A PDF's content and image streams are compressed, and pdfium decodes each one
whole to draw a page: 400 KB of PDF whose page content inflates to 400 MB of
blanks takes pdfium 800 MB and more than a second. So every stream is measured
first, in bounded memory:

- ``FlateDecode`` (alone, or after ``ASCIIHexDecode``/``ASCII85Decode``, which only
  shrink) is inflated in 64 KB steps and counted, never kept, and the count stops
  at the cap: the cost is at most the cap's worth of inflating.
- An image (``/Subtype /Image``) is also sized from its dictionary: ``/Width`` x
  ``/Height`` against the pixel cap, and its decoded bytes against the byte cap;
  that covers the image codecs (DCT, JPX, JBIG2, CCITT), whose streams are not
  inflated here.
- Streams with no filter count their own length. The rare filters left
  (``LZWDecode``, ``RunLengthDecode``, a ``Crypt`` chain) count their stored length
  times their worst expansion; pdfium's own memory ceiling in the sandbox backs
  this up.
"""

from __future__ import annotations

import base64
import binascii
import io
import zlib
from collections.abc import Iterator

import pikepdf

_STEP = 64 * 1024
IMAGE_CODECS = frozenset({"/DCTDecode", "/JPXDecode", "/JBIG2Decode", "/CCITTFaxDecode"})
_SHRINKING = frozenset({"/ASCIIHexDecode", "/AHx", "/ASCII85Decode", "/A85"})
_FLATE = frozenset({"/FlateDecode", "/Fl"})
# Worst case output per stored byte: RunLength repeats a byte up to 128 times in
# two bytes (64x); an LZW code of 12 bits stands for at most 4,096 bytes (2,730x).
_WORST_RATIO = {"/RunLengthDecode": 64, "/RL": 64, "/LZWDecode": 2731, "/LZW": 2731}


class StreamsTooLarge(Exception):
    """The PDF is over a cap (``what``: pages, pixels or bytes)."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what


def check_streams(data: bytes, max_pages: int, max_pixels: int,
                  max_decoded_bytes: int) -> None:
    """Raise ``StreamsTooLarge`` when the PDF has more than ``max_pages`` pages, its
    streams decode to more than ``max_decoded_bytes`` in all, or it holds an image
    of more than ``max_pixels``; ``pikepdf.PdfError`` (a ``PasswordError`` for an
    encrypted one) when it cannot be read."""
    total = 0
    with pikepdf.open(io.BytesIO(data)) as document:
        pages = len(document.pages)
        if pages > max_pages:
            raise StreamsTooLarge("pages", f"the PDF has {pages} pages, over the limit of "
                                           f"{max_pages}")
        for stream in _streams(document):
            if stream.get("/Subtype") == "/Image":
                _check_image(stream, max_pixels, max_decoded_bytes)
            total += _decoded_size(stream, max_decoded_bytes - total)
            if total > max_decoded_bytes:
                raise StreamsTooLarge("bytes", f"the PDF's streams decode to more than "
                                               f"{max_decoded_bytes // (1024 * 1024)} MB")


def _streams(document: pikepdf.Pdf) -> Iterator[pikepdf.Stream]:
    for obj in document.objects:
        if isinstance(obj, pikepdf.Stream):
            yield obj


def _check_image(stream: pikepdf.Stream, max_pixels: int, max_decoded_bytes: int) -> None:
    width, height = _int(stream.get("/Width")), _int(stream.get("/Height"))
    if width * height > max_pixels:
        raise StreamsTooLarge("pixels", f"the PDF holds a {width} x {height} image, over "
                                        f"the limit of {max_pixels:,} pixels")
    bits = max(1, _int(stream.get("/BitsPerComponent"), 8))
    if width * height * 4 * bits // 8 > max_decoded_bytes:  # at most 4 components
        raise StreamsTooLarge("bytes", f"the PDF's {width} x {height} image decodes to "
                                       f"more than {max_decoded_bytes // (1024 * 1024)} MB")


def _int(value: object, default: int = 0) -> int:
    try:
        number: int = int(value)  # type: ignore[call-overload]  # a pikepdf number
    except (TypeError, ValueError, OverflowError):
        return default
    return max(0, number)


def _filters(stream: pikepdf.Stream) -> list[str]:
    found = stream.get("/Filter")
    if found is None:
        return []
    if isinstance(found, pikepdf.Array):
        return [str(item) for item in found]
    return [str(found)]


def _decoded_size(stream: pikepdf.Stream, budget: int) -> int:
    """What ``stream`` decodes to, counted up to a little past ``budget``."""
    filters = _filters(stream)
    if filters and filters[-1] in IMAGE_CODECS:
        return 0  # sized from its image dictionary
    raw = bytes(stream.read_raw_bytes())
    if not filters:
        return len(raw)
    *first, last = filters
    if last in _FLATE and all(name in _SHRINKING for name in first):
        for name in first:
            raw = _ascii_decoded(name, raw)
        return _inflated_size(raw, budget)
    ratio = max((_WORST_RATIO.get(name, 1) for name in filters), default=1)
    return len(raw) * ratio


def _ascii_decoded(name: str, raw: bytes) -> bytes:
    try:
        if name in ("/ASCIIHexDecode", "/AHx"):
            digits = b"".join(raw.split(b">")[0].split())
            return binascii.unhexlify(digits + b"0" * (len(digits) % 2))
        body = raw.split(b"~>")[0].strip().removeprefix(b"<~")
        return base64.a85decode(body + b"~>", adobe=True)
    except ValueError:
        return b""  # broken: pdfium will say so


def _inflated_size(raw: bytes, budget: int) -> int:
    inflater = zlib.decompressobj()
    size = 0
    pending = raw
    try:
        while size <= budget:
            step = inflater.decompress(pending, _STEP)
            size += len(step)
            pending = inflater.unconsumed_tail
            if inflater.eof or not (pending or step):
                break
    except zlib.error:
        pass  # broken data: what decoded so far is what pdfium would get
    return size
