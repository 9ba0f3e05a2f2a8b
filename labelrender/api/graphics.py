"""``POST /v1/graphics``: an image or a PDF page into a ZPL ``^GF`` graphic field.

One route serves our clients and Labelary's: Labelary's own call is ``POST
/v1/graphics`` under its base URL with a multipart ``file`` part, answered with a
ZPL label by ``Accept``, so a Labelary client that changed its base URL (README
"Coming from Labelary") reaches this handler unchanged. The file comes as that
``file`` part or as the raw body; options come as query parameters or as
multipart fields of the same names (``GraphicQuery``).

The body is read with its own caps, as a stream: the declared length first,
then every part as it arrives (``read_input``), within the app's body timeout.
The conversion (``labelrender.graphics``) checks the file's declared sizes before
decoding anything and runs in the engine sandbox, under its deadline and memory
ceiling, in the tenants' fair share. It is rate limited like every /v1 call and
neither counted against the label quota nor billed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, Literal

from aiohttp import BodyPartReader, MultipartReader, web
from aiohttp.http_exceptions import HttpProcessingError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from labelrender.api import answers, errors
from labelrender.api.body import read_raw_body
from labelrender.api.context import app_state, auth_of
from labelrender.api.engine import engine_processes
from labelrender.graphics import (
    DEFAULT_LIMITS,
    Converted,
    GraphicOptions,
    Refusal,
    convert_graphic,
)
from labelrender.graphics.convert import MAX_PDF_DPI, MIN_PDF_DPI
from labelrender.worker.sandbox import CallFailed

log = logging.getLogger("labelrender.api")

ZPL = "application/zpl"
TEXT = "text/plain"
OFFERED = (ZPL, TEXT, answers.JSON)  # ZPL when Accept says nothing, as Labelary answers
FILE_PART = "file"
MAX_PARTS = 16  # the file and each option once, with room to spare
MAX_OPTION_BYTES = 64  # an option's value: a number or a word
_READ_CHUNK = 64 * 1024
_LIMIT = DEFAULT_LIMITS
MAX_PAGE = 99_999  # the PDF's own page count is checked against the configured cap
_ERRORS = {400: errors.InvalidRequest, 413: errors.PayloadTooLarge,
           415: errors.UnsupportedMediaType}


class GraphicQuery(BaseModel):
    """The conversion's options, as query parameters or multipart fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: int = Field(default=0, ge=0, le=_LIMIT.max_graphic_side,
                       description="The graphic's width in dots; 0 keeps the source's "
                                   "(with `height` alone, the aspect ratio is kept)")
    height: int = Field(default=0, ge=0, le=_LIMIT.max_graphic_side,
                        description="The graphic's height in dots; 0 keeps the source's "
                                    "(with `width` alone, the aspect ratio is kept)")
    threshold: int = Field(default=128, ge=0, le=255,
                           description="Grey levels up to this one print black")
    dither: bool = Field(default=False,
                         description="Floyd-Steinberg dithering instead of the threshold "
                                     "(photos)")
    invert: bool = Field(default=False, description="Swap black and white")
    compression: Literal["A", "ACS", "B64", "Z64"] = Field(
        default="A", description="`A` hexadecimal, `ACS` Zebra-compressed hexadecimal, "
                                 "`B64` base64, `Z64` zlib and base64 (smallest; "
                                 "firmware V60.13 and later)")
    output: Literal["label", "field"] = Field(
        default="label", description="`label`: a whole label (`^XA`, `^PW`/`^LL` of the "
                                     "graphic, `^FO0,0`, the field, `^XZ`); `field`: "
                                     "`^GFA,...^FS` alone, to place after your own `^FO`")
    page: int = Field(default=1, ge=1, le=MAX_PAGE,
                      description="PDF: the page to convert, from 1")
    dpi: int = Field(default=203, ge=MIN_PDF_DPI, le=MAX_PDF_DPI,
                     description="PDF: the resolution to draw the page at (the printer's, "
                                 "so it prints at its size); ignored with `width` or "
                                 "`height`")

    @field_validator("width", "height", "threshold", "page", "dpi", mode="before")
    @classmethod
    def _plain_digits(cls, value: object) -> object:
        # Plain digits, and few: int() of thousands of digits is slow.
        if isinstance(value, str) and not (value.isascii() and value.isdigit()
                                           and len(value) <= 6):
            raise ValueError("not a small whole number")
        return value

    def options(self) -> GraphicOptions:
        return GraphicOptions(**self.model_dump())


async def convert(request: web.Request) -> web.StreamResponse:
    """The ZPL of the image or PDF page in the request (module docstring)."""
    answer_type = answers.negotiate(request, OFFERED)
    data, fields = await read_input(request, app_state(request).config.max_body_bytes)
    options = parse_options({**request.query, **fields})
    if not data:
        raise errors.InvalidRequest("send an image or a PDF: the body is empty",
                                    param=FILE_PART, kind="MissingFile")
    result = await _convert(request, data, options.options())
    if answer_type == answers.JSON:
        return web.json_response(result_json(result, options))
    return web.Response(text=result.zpl, content_type=answer_type)


async def _convert(request: web.Request, data: bytes, options: GraphicOptions) -> Converted:
    tenant_id = auth_of(request).tenant_id
    try:
        result = await engine_processes(request.app).call(
            tenant_id, FILE_PART, convert_graphic, data, options,
            app_state(request).config.graphic_limits)
    except CallFailed as exc:  # a decoder broke on this file: it fails the same way again
        log.warning("graphic conversion failed for %s: %s", tenant_id, exc)
        raise errors.InvalidRequest(f"the file cannot be converted: {exc}", param=FILE_PART,
                                    kind="InvalidImage") from exc
    if isinstance(result, Refusal):
        raise _ERRORS[result.status](result.message, param=result.param, kind=result.kind)
    return result


def result_json(result: Converted, query: GraphicQuery) -> dict[str, Any]:
    return {"zpl": result.zpl, "width": result.width, "height": result.height,
            "bytes_per_row": result.bytes_per_row, "total_bytes": result.total_bytes,
            "compression": query.compression, "output": query.output,
            "source": {"format": result.source_format, "width": result.source_width,
                       "height": result.source_height, "pages": result.pages}}


def parse_options(values: Mapping[str, str]) -> GraphicQuery:
    """The options, or the one 400 naming the first that is wrong."""
    try:
        return GraphicQuery.model_validate(dict(values))
    except ValidationError as exc:
        detail = exc.errors()[0]
        name = str(detail["loc"][0]) if detail["loc"] else "options"
        if detail["type"] == "extra_forbidden":
            raise errors.UnknownField(f"unrecognized option {name!r}", param=name) from exc
        raise errors.InvalidRequest(f"{name}: {detail['msg']}", param=name,
                                    kind="InvalidGraphicOption") from exc


async def read_input(request: web.Request, max_bytes: int) -> tuple[bytes, dict[str, str]]:
    """The file's bytes and the options sent as multipart fields (none for a raw
    body). A multipart body is read part by part, each within its own cap."""
    if request.content_type != "multipart/form-data":
        return await read_raw_body(request, max_bytes), {}
    declared = request.content_length
    if declared is not None and declared > max_bytes + MAX_PARTS * 1024:
        raise errors.PayloadTooLarge(
            f"request body of {declared} bytes is over the {max_bytes}-byte limit")
    timeout_s = app_state(request).config.body_timeout_s
    try:
        async with asyncio.timeout(timeout_s):
            return await _read_parts(await request.multipart(), max_bytes)
    except TimeoutError as exc:
        raise errors.RequestTimeout(
            f"the request body did not arrive within {timeout_s:g} s") from exc
    except (ConnectionError, web.RequestPayloadError) as exc:
        raise errors.IncompleteBody(f"the request body could not be read: {exc}") from exc
    except (ValueError, RuntimeError, AssertionError, HttpProcessingError) as exc:
        # aiohttp's errors on a malformed body or part header (found by contract fuzzing)
        raise errors.InvalidRequest(f"the multipart body cannot be read: {exc}",
                                    kind="MalformedMultipart") from exc


async def _read_parts(reader: MultipartReader, max_bytes: int) -> tuple[bytes, dict[str, str]]:
    data: bytes | None = None
    fields: dict[str, str] = {}
    count = 0
    while (part := await reader.next()) is not None:
        count += 1
        if count > MAX_PARTS:
            raise errors.InvalidRequest(f"more than {MAX_PARTS} parts",
                                        kind="MalformedMultipart")
        if not isinstance(part, BodyPartReader):
            raise errors.InvalidRequest("nested multipart bodies are not taken",
                                        kind="MalformedMultipart")
        name = part.name or ""
        if name in fields or (name == FILE_PART and data is not None):
            raise errors.InvalidRequest(f"the part {name!r} is sent twice", param=name,
                                        kind="MalformedMultipart")
        if name == FILE_PART:
            data = await _read_part(part, max_bytes, "the file")
        elif name in GraphicQuery.model_fields:
            value = await _read_part(part, MAX_OPTION_BYTES, f"the option {name!r}")
            fields[name] = value.decode("utf-8", "replace").strip()
        else:
            raise errors.UnknownField(f"unrecognized part {name[:40]!r}; send the image as "
                                      f"{FILE_PART!r}", param=name[:40] or "multipart")
    if data is None:
        raise errors.InvalidRequest(f"send the image or PDF as the multipart part "
                                    f"{FILE_PART!r}", param=FILE_PART, kind="MissingFile")
    return data, fields


async def _read_part(part: BodyPartReader, max_bytes: int, what: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := await part.read_chunk(_READ_CHUNK):
        size += len(chunk)
        if size > max_bytes:
            raise errors.PayloadTooLarge(f"{what} is over the {max_bytes}-byte limit",
                                         param=part.name)
        chunks.append(chunk)
    return b"".join(chunks)


def add_routes(app: web.Application) -> None:
    engine_processes(app)
    app.router.add_post("/v1/graphics", convert)
