"""An image (PNG, JPEG, GIF, BMP) or one PDF page into a ZPL ``^GF`` graphic field.

Image bombs are the attack on this door: a few kilobytes of PNG can declare
100,000 x 100,000 pixels (40 GB once decoded), and a PDF page can be drawn at
any size. So every size is checked from what the file declares, before anything
is decoded or rendered (``GraphicLimits``):

- an image's pixel count and its decoded size (Pillow's bytes a pixel for its
  mode) from its header, read by ``Image.open``, which decodes nothing;
- a PDF's page count, and the chosen page's pixels at the asked resolution, from
  its page tree, before pdfium draws it (in grayscale: one byte a pixel);
- the graphic's own size in dots, from the target size.

Only the four image formats and PDF are opened (``Image.open(formats=...)``),
so none of Pillow's other decoders can be reached. Where the service runs this,
it runs in the engine sandbox too (time and memory ceilings from outside).

The black and white conversion and the encoding (hex, Zebra's run-length
compressed hex, B64 and Z64 with their CRC) are zebrafy's (ARCHITECTURE.md: the
owner's choice for ``^GF``); this module opens, checks and sizes what it is given.
Reading the PDF is ours rather than ``zebrafy.ZebrafyPDF``: that one renders every
page at full colour with no size check, and a page's size is what has to be
checked first.
"""

from __future__ import annotations

import io
import math
import struct
import warnings
from dataclasses import dataclass

import pikepdf
import pypdfium2  # type: ignore[import-untyped]  # no type hints shipped
from PIL import Image, ImageOps, UnidentifiedImageError
from zebrafy.zebrafy_image import ZebrafyImage

from labelrender.graphics.pdf_streams import StreamsTooLarge, check_streams

MB = 1024 * 1024
# Our names (the ZPL manual's ^GF "A" format, in its three ASCII forms) -> zebrafy's.
COMPRESSIONS = {"A": "ASCII", "ACS": "ASCII_COMPRESSED", "B64": "B64", "Z64": "Z64"}
OUTPUTS = ("label", "field")
IMAGE_FORMATS = ("PNG", "JPEG", "GIF", "BMP")
MIN_PDF_DPI, MAX_PDF_DPI = 72, 600
# Pillow keeps these modes in 1 or 2 bytes a pixel; every other mode in 4.
_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}
_PDF_MAGIC = b"%PDF-"
_PDF_MAGIC_WITHIN = 1024  # a PDF header may follow up to 1 KB of junk (ISO 32000-1 7.5.2)
# Anything a decoder raises on a broken file (Pillow raises these, not one type).
# MemoryError is not among them: the sandbox answers it as its memory limit.
_BROKEN = (OSError, ValueError, SyntaxError, EOFError, IndexError, KeyError, TypeError,
           ZeroDivisionError, struct.error)


@dataclass(frozen=True)
class GraphicOptions:
    """What to make. ``width``/``height``: the graphic's size in dots (0 keeps the
    source's; one alone keeps the aspect ratio). Black is ``threshold`` or darker
    (0 to 255), unless ``dither`` (Floyd-Steinberg). ``compression``: ``A`` hex,
    ``ACS`` Zebra-compressed hex, ``B64`` or ``Z64``. ``output``: a whole ``label``
    (``^XA``, ``^PW``/``^LL`` of the graphic, ``^FO0,0``, the field, ``^XZ``) or the
    ``field`` alone (``^GFA,...^FS``) to place after your own ``^FO``. ``page`` (from
    1) and ``dpi``: which PDF page, drawn at what resolution."""

    width: int = 0
    height: int = 0
    dither: bool = False
    threshold: int = 128
    invert: bool = False
    compression: str = "A"
    output: str = "label"
    page: int = 1
    dpi: int = 203

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        """What is wrong with these options, or None."""
        if min(self.width, self.height) < 0:
            return "width and height must be 0 (the source's) or more dots"
        if not 0 <= self.threshold <= 255:
            return "threshold must be from 0 to 255"
        if self.compression not in COMPRESSIONS:
            return f"compression must be one of {', '.join(COMPRESSIONS)}"
        if self.output not in OUTPUTS:
            return f"output must be one of {', '.join(OUTPUTS)}"
        if self.page < 1:
            return "page must be 1 or more"
        if not MIN_PDF_DPI <= self.dpi <= MAX_PDF_DPI:
            return f"dpi must be from {MIN_PDF_DPI} to {MAX_PDF_DPI}"
        return None


@dataclass(frozen=True)
class GraphicLimits:
    """Caps checked before decoding. The defaults take a 40-megapixel grayscale
    scan or a 16-megapixel colour photo, and a graphic of 9,600 dots a side
    (16 in at 600 dpi, the engine's largest label) up to 16 million dots."""

    max_pixels: int = 40_000_000
    max_decoded_bytes: int = 64 * MB
    max_pdf_pages: int = 100
    max_graphic_side: int = 9600
    max_graphic_dots: int = 16_000_000


DEFAULT_LIMITS = GraphicLimits()


@dataclass(frozen=True)
class Converted:
    """The ZPL and the graphic's size: ``width`` x ``height`` dots, ``bytes_per_row``
    and ``total_bytes`` (the ``^GF`` field count); the source's format and size."""

    zpl: str
    width: int
    height: int
    bytes_per_row: int
    total_bytes: int
    source_format: str
    source_width: int
    source_height: int
    pages: int = 1


@dataclass(frozen=True)
class Refusal:
    """Input that is not converted: the HTTP status it deserves, its error kind,
    a one-line message and the parameter at fault."""

    status: int
    kind: str
    message: str
    param: str = "file"


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def _refuse(status: int, kind: str, message: str, param: str = "file") -> _Refused:
    return _Refused(Refusal(status, kind, message, param))


def convert_graphic(data: bytes, options: GraphicOptions,
                    limits: GraphicLimits = DEFAULT_LIMITS) -> Converted | Refusal:
    """``data`` (an image or a PDF) as ZPL, or why not. Refusals are values, so
    they cross the sandbox's process boundary as they are."""
    try:
        if not data:
            raise _refuse(400, "MissingFile", "send an image or a PDF: the body is empty")
        if _PDF_MAGIC in data[:_PDF_MAGIC_WITHIN]:
            return _pdf_page(data, options, limits)
        return _image(data, options, limits)
    except _Refused as exc:
        return exc.refusal


def _image(data: bytes, options: GraphicOptions, limits: GraphicLimits) -> Converted:
    image = _open_image(data, limits)
    # A camera's JPEG with more pictures in it opens as Pillow's MPO: a JPEG still.
    source_format = "JPEG" if image.format == "MPO" else str(image.format)
    width, height = image.width, image.height
    _check_pixels(width, height, _BYTES_PER_PIXEL.get(image.mode, 4), limits)
    try:
        image.seek(0)  # an animated GIF or PNG: its first frame
        image.load()
        image = ImageOps.exif_transpose(image) or image  # a photo's orientation tag
    except _BROKEN as exc:
        raise _refuse(400, "InvalidImage", f"the {source_format} image cannot be decoded: "
                                           f"{_short(exc)}") from exc
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        # 16-bit grey: convert("L") would clip at 255 rather than scale.
        image = image.convert("I").point(lambda value: value * (1 / 257)).convert("L")
    return _encode(image, options, limits, (source_format, width, height, 1))


def _open_image(data: bytes, limits: GraphicLimits) -> Image.Image:
    """The image, its header read and nothing decoded."""
    try:
        with warnings.catch_warnings():
            # Pillow warns past 89 Mpx and raises past twice that; our caps are lower.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data), formats=IMAGE_FORMATS)
    except Image.DecompressionBombError as exc:  # past twice Pillow's own cap
        pillow_cap = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise _refuse(413, "ImageTooManyPixels",
                      f"the image declares more than {pillow_cap:,} pixels, "
                      f"over the limit of {limits.max_pixels:,}; send it smaller") from exc
    except UnidentifiedImageError as exc:
        raise _refuse(415, "UnsupportedImageFormat",
                      "the file is not a PNG, JPEG, GIF, BMP or PDF") from exc
    except _BROKEN as exc:
        raise _refuse(400, "InvalidImage",
                      f"the image cannot be read: {_short(exc)}") from exc


def _check_pixels(width: int, height: int, bytes_per_pixel: int,
                  limits: GraphicLimits) -> None:
    pixels = width * height
    if pixels > limits.max_pixels:
        raise _refuse(413, "ImageTooManyPixels",
                      f"the source is {width} x {height} pixels, over the limit of "
                      f"{limits.max_pixels:,}; send it smaller")
    decoded = pixels * bytes_per_pixel
    if decoded > limits.max_decoded_bytes:
        raise _refuse(413, "ImageDecodedTooLarge",
                      f"the source would take {math.ceil(decoded / MB)} MB decoded, over the "
                      f"limit of {limits.max_decoded_bytes // MB} MB; send it smaller or "
                      f"in grayscale")


def _pdf_page(data: bytes, options: GraphicOptions, limits: GraphicLimits) -> Converted:
    _check_pdf_streams(data, limits)
    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as exc:
        raise _refuse(400, "InvalidPdf", f"the PDF cannot be read: {_short(exc)}") from exc
    try:
        pages = len(document)
        if pages > limits.max_pdf_pages:
            raise _refuse(413, "PdfTooManyPages", f"the PDF has {pages} pages, over the "
                                                  f"limit of {limits.max_pdf_pages}")
        if options.page > pages:
            raise _refuse(400, "PdfPageNotFound",
                          f"page {options.page} was asked for; the PDF has {pages}", "page")
        page = document[options.page - 1]
        try:
            image = _draw_page(page, options, limits)
        finally:
            page.close()
        return _encode(image, options, limits, ("PDF", image.width, image.height, pages))
    finally:
        document.close()


def _check_pdf_streams(data: bytes, limits: GraphicLimits) -> None:
    try:
        check_streams(data, limits.max_pdf_pages, limits.max_pixels, limits.max_decoded_bytes)
    except StreamsTooLarge as exc:
        kind = {"pages": "PdfTooManyPages", "pixels": "ImageTooManyPixels"}.get(
            exc.what, "PdfDecodedTooLarge")
        raise _refuse(413, kind, f"{exc}; send a smaller PDF") from exc
    except pikepdf.PasswordError as exc:
        raise _refuse(400, "InvalidPdf", "the PDF is encrypted; send it without a "
                                         "password") from exc
    except pikepdf.PdfError as exc:
        raise _refuse(400, "InvalidPdf", f"the PDF cannot be read: {_short(exc)}") from exc


def _draw_page(page: pypdfium2.PdfPage, options: GraphicOptions,
               limits: GraphicLimits) -> Image.Image:
    """The page in grayscale, drawn straight at the target size when one is given
    (never larger, then scaled down), else at ``options.dpi``."""
    width_pt, height_pt = page.get_size()
    if width_pt <= 0 or height_pt <= 0:
        raise _refuse(400, "InvalidPdf", "the PDF page has no area")
    scale = options.dpi / 72
    if options.width:
        scale = options.width / width_pt
    elif options.height:
        scale = options.height / height_pt
    width, height = math.ceil(width_pt * scale), math.ceil(height_pt * scale)
    _check_pixels(width, height, 1, limits)
    try:
        drawn: Image.Image = page.render(scale=scale, grayscale=True).to_pil()
        return drawn
    except pypdfium2.PdfiumError as exc:
        raise _refuse(400, "InvalidPdf", f"the PDF page cannot be drawn: {_short(exc)}") \
            from exc


def _encode(image: Image.Image, options: GraphicOptions, limits: GraphicLimits,
            source: tuple[str, int, int, int]) -> Converted:
    width, height = graphic_size(image.width, image.height, options)
    if max(width, height) > limits.max_graphic_side or width * height > limits.max_graphic_dots:
        raise _refuse(413, "GraphicTooLarge",
                      f"the graphic would be {width} x {height} dots, over the limit of "
                      f"{limits.max_graphic_side} a side and {limits.max_graphic_dots:,} in "
                      f"all; ask for a smaller width or height", "width")
    resize = (width, height) != image.size
    converter = ZebrafyImage(
        image, format=COMPRESSIONS[options.compression], invert=options.invert,
        dither=options.dither, threshold=options.threshold,
        width=width if resize else 0, height=height if resize else 0,
        complete_zpl=options.output == "label", set_label_size=True)
    zpl = converter.to_zpl()
    if options.output == "field":  # zebrafy puts the field at ^FO0,0; the caller places it
        zpl = zpl.removeprefix("^FO0,0")
    bytes_per_row = (width + 7) // 8
    return Converted(zpl, width, height, bytes_per_row, bytes_per_row * height, *source)


def graphic_size(source_width: int, source_height: int,
                 options: GraphicOptions) -> tuple[int, int]:
    """The graphic's dots: both sides as asked, one side with the aspect ratio
    kept, or the source's size."""
    if options.width and options.height:
        return options.width, options.height
    if options.width:
        return options.width, max(1, round(source_height * options.width / source_width))
    if options.height:
        return max(1, round(source_width * options.height / source_height)), options.height
    return source_width, source_height


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
