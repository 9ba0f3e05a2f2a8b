"""The Labelary-compatible route: a Labelary client changes its base URL, adds our
Bearer key, and gets the same kind of answer.

``POST /v1/printers/{dpmm}dpmm/labels/{width}x{height}/{index}/`` (the index, and
the trailing slash, may be left out). The render goes through ``render_raw``, the
flow of ``POST /v1/labels``: the same rate limit, Idempotency-Key, cache, quota,
concurrency slot and billing. Only the door differs: the body is raw ZPL, the
answer's type follows ``Accept`` (PNG by default, PDF, or our JSON), Labelary's
request headers set the options, and its response headers report back.

Sizes (the corpus shows the rule, README "Coming from Labelary"): a side is
``floor(inches * floor(dpmm * 25.4))`` dots (8 dpmm: 203 dots an inch, so 4 x 6 in
is 812 x 1218 and 4.005 x 8.01 in is 813 x 1626; 12 dpmm: 304). The render's dpi,
which plans cap, is the printer's: 152, 203, 300 or 600.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from aiohttp import web

from labelrender.api import answers, errors
from labelrender.api.body import PARSE_ON_LOOP_BYTES, parse_object
from labelrender.api.context import RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.form_body import form_field, multipart_field
from labelrender.api.idempotency import read_then_once
from labelrender.api.labels import check_plan_dpi, outcome_json
from labelrender.api.middleware import charge_rate
from labelrender.api.render import RawRender, RenderOutcome, render_raw

# dpmm -> (dots per inch of the canvas, the render's dpi)
PRINTERS = {6: (152, 152), 8: (203, 203), 12: (304, 300), 24: (609, 600)}
MAX_INCHES = Decimal(15)
MAX_LABELARY_WARNINGS = 20
OFFERED = (answers.PNG, answers.PDF, answers.JSON)  # PNG when Accept says nothing
SHEETS = {"letter": (8.5, 11.0), "legal": (8.5, 14.0), "a4": (8.27, 11.69),
          "a5": (5.83, 8.27), "a6": (4.13, 5.83)}
_PRINTER = re.compile(r"^(\d{1,2})dpmm$")
_SIZE = re.compile(r"^(\d{1,4}(?:\.\d{1,6})?|\.\d{1,6})x(\d{1,4}(?:\.\d{1,6})?|\.\d{1,6})$")
_INDEX = re.compile(r"^\d{1,5}$")
_LAYOUT = re.compile(r"^(\d{1,2})x(\d{1,2})$")
_OUR_WARNING = re.compile(r"^offset (\d+): (\S*): (.*)$", re.S)


@route_policy(RoutePolicy(rate="handler", kinds=True))
async def labelary_render(request: web.Request) -> web.StreamResponse:
    return await read_then_once(request, _render, any_type=True)


async def _render(request: web.Request, raw: bytes) -> web.Response:
    await charge_rate(request)
    answer_type = answers.negotiate(request, OFFERED)
    state = app_state(request)
    content_type = request.headers.get("Content-Type", "")
    if len(raw) > PARSE_ON_LOOP_BYTES:
        zpl = await state.parse(zpl_of, request.content_type, content_type, raw)
    else:
        zpl = zpl_of(request.content_type, content_type, raw)
    params = request_params(request, zpl, answers.FORMATS.get(answer_type, "png"))
    auth = auth_of(request)
    check_plan_dpi(params, auth.plan.max_dpi, auth.plan.name)
    try:
        outcome = await render_raw(state, auth, params)
    except errors.ValidationFailed as exc:
        raise labelary_error(exc) from exc
    headers = response_headers(request, params, outcome)
    if answer_type == answers.JSON:
        return web.json_response(outcome_json(outcome), headers=headers)
    return await answers.file_answer(state, outcome, answer_type, headers)


def labelary_error(exc: errors.ValidationFailed) -> errors.ApiError:
    """Labelary answers ZPL it cannot render with 400, and too many labels with 413;
    our kind, message and envelope stay."""
    if exc.extra.get("limit") == "labels":
        return errors.PayloadTooLarge(exc.message, param=exc.param, kind="TooManyLabels",
                                      extra=exc.extra)
    return errors.InvalidRequest(exc.message, param=exc.param, kind=exc.kind, extra=exc.extra)


def request_params(request: web.Request, zpl: str, output_format: str) -> RawRender:
    """The render Labelary's path, headers and body ask for; 400 for anything malformed."""
    dpmm = _dpmm(request.match_info["printer"])
    dpi = PRINTERS[dpmm][1]
    width_in, height_in = _size(request.match_info["size"])
    width_dots, height_dots = label_pixels(dpmm, width_in, height_in)
    if min(width_dots, height_dots) < 1:
        raise errors.InvalidRequest(f"a {width_in}x{height_in} in label is under one dot at "
                                    f"{dpmm} dpmm", param="size", kind="InvalidLabelSize")
    index = _index(request.match_info.get("index"))
    rotation = _rotation(request.headers.get("X-Rotation", "0"))
    quality = request.headers.get("X-Quality", "Grayscale").strip().lower()
    if quality not in ("grayscale", "bitonal"):
        raise errors.InvalidRequest("X-Quality must be Grayscale or Bitonal", param="X-Quality",
                                    kind="InvalidQuality")
    page = None
    if output_format == "pdf":
        label_in = (float(width_in), float(height_in))
        page = pdf_page(request, label_in[::-1] if rotation in (90, 270) else label_in)
    return RawRender(zpl, dpi, dpi, quality == "bitonal", None, width_dots,
                     height_dots, index, rotation, output_format, page)


def label_pixels(dpmm: int, width_in: Decimal, height_in: Decimal) -> tuple[int, int]:
    """A label's canvas in dots: each side floored, at ``floor(dpmm * 25.4)`` dots an
    inch, as Labelary sizes them (module docstring)."""
    dots_per_inch = PRINTERS[dpmm][0]
    return math.floor(width_in * dots_per_inch), math.floor(height_in * dots_per_inch)


def _dpmm(text: str) -> int:
    match = _PRINTER.match(text)
    if match is None or int(match.group(1)) not in PRINTERS:
        raise errors.InvalidRequest("the printer density must be 6dpmm, 8dpmm, 12dpmm or "
                                    f"24dpmm, not {text[:20]!r}", param="dpmm",
                                    kind="InvalidDpmm")
    return int(match.group(1))


def _size(text: str) -> tuple[Decimal, Decimal]:
    match = _SIZE.match(text)
    try:
        sides = (Decimal(match.group(1)), Decimal(match.group(2))) if match else None
    except InvalidOperation:
        sides = None
    if sides is None or not all(0 < side <= MAX_INCHES for side in sides):
        raise errors.InvalidRequest(
            f"the label size must be WIDTHxHEIGHT in inches, each above 0 and at most "
            f"{MAX_INCHES}, not {text[:30]!r}", param="size", kind="InvalidLabelSize")
    return sides


def _index(text: str | None) -> int | None:
    if text is None:
        return None
    if not _INDEX.match(text):
        raise errors.InvalidRequest(f"the label index must be 0 or more, not {text[:20]!r}",
                                    param="index", kind="InvalidLabelIndex")
    return int(text)


def _rotation(text: str) -> int:
    value = text.strip()
    if value not in ("0", "90", "180", "270"):
        raise errors.InvalidRequest("X-Rotation must be 0, 90, 180 or 270",
                                    param="X-Rotation", kind="InvalidRotation")
    return int(value)


def pdf_page(request: web.Request, label_in: tuple[float, float]) -> dict[str, Any]:
    """X-Page-Size, X-Page-Orientation, X-Page-Layout and X-Label-Border as a
    ``PdfPage``: without a page size every label is a page of its own size."""
    headers = request.headers
    size = headers.get("X-Page-Size", "").strip().lower()
    layout = headers.get("X-Page-Layout", "").strip().lower()
    if size and size not in SHEETS:
        raise errors.InvalidRequest(f"X-Page-Size must be one of {', '.join(SHEETS)}",
                                    param="X-Page-Size", kind="InvalidPageSize")
    match = _LAYOUT.match(layout) if layout else None
    if layout and (match is None or min(int(match.group(1)), int(match.group(2))) < 1):
        raise errors.InvalidRequest("X-Page-Layout must be COLUMNSxROWS, such as 2x3",
                                    param="X-Page-Layout", kind="InvalidPageLayout")
    sheet = SHEETS[size or "letter"] if size or layout else None
    if sheet and headers.get("X-Page-Orientation", "").strip().lower() == "landscape":
        sheet = (sheet[1], sheet[0])
    border = headers.get("X-Label-Border", "dashed" if sheet else "none").strip().lower()
    if border not in ("dashed", "solid", "none"):
        raise errors.InvalidRequest("X-Label-Border must be Dashed, Solid or None",
                                    param="X-Label-Border", kind="InvalidLabelBorder")
    return {"label_size": list(label_in), "sheet": list(sheet) if sheet else None,
            "columns": int(match.group(1)) if match else 1,
            "rows": int(match.group(2)) if match else 1, "border": border}


def zpl_of(content_type: str, content_type_header: str, raw: bytes) -> str:
    """The ZPL, as Labelary takes it: the raw body (what ``curl --data`` sends, as
    form-urlencoded), a ``file=`` form field, a multipart ``file`` part, or our
    JSON ``{"zpl": ...}``. ``content_type`` is the media type alone; the header's
    parameters carry the multipart boundary. Linear in the body (api.form_body)."""
    if content_type == "application/json":
        payload = parse_object(raw)
        unknown = sorted(set(payload) - {"zpl"})
        if unknown:
            raise errors.UnknownField(f"unrecognized field {unknown[0]!r}", param=unknown[0])
        zpl = payload.get("zpl")
        return _checked(zpl if isinstance(zpl, str) else "")
    if content_type == "application/x-www-form-urlencoded" and raw.startswith(b"file="):
        raw = form_field(raw, "file") or b""
    elif content_type == "multipart/form-data":
        raw = multipart_field(raw, content_type_header, "file") or b""
    try:
        return _checked(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise errors.InvalidRequest(
            f"the ZPL must be UTF-8 text (byte {exc.start} is not); send graphics as ^GF "
            "hexadecimal, Z64 or B64, and other text as UTF-8 (in a form field, each "
            "%XX escape is one UTF-8 byte)", param="zpl", kind="InvalidText") from exc


def _checked(zpl: str) -> str:
    if not zpl.strip():
        raise errors.InvalidRequest("the body must hold the ZPL to render", param="zpl",
                                    kind="MissingZpl")
    return zpl


def response_headers(request: web.Request, params: RawRender, outcome: RenderOutcome
                     ) -> dict[str, str]:
    """X-Total-Count always; X-Warnings when the request sends ``X-Linter: On``."""
    headers = {"X-Total-Count": str(outcome.label_count),
               "X-Content-Hash": outcome.content_hash,
               "X-Cached": str(outcome.cached).lower()}
    if request.headers.get("X-Linter", "").strip().lower() == "on":
        headers["X-Warnings"] = labelary_warnings(outcome.warnings, params.zpl)
    return headers


def labelary_warnings(warnings: list[str], zpl: str) -> str:
    """Labelary's linter format: ``byte_index|byte_size|command|param|message`` for
    each warning, all joined by ``|``, at most 20. The size is the command's bytes up
    to the next one; the parameter number is not known here and left empty."""
    data = zpl.encode("utf-8")
    parts: list[str] = []
    for warning in warnings[:MAX_LABELARY_WARNINGS]:
        match = _OUR_WARNING.match(warning)
        offset, command, message = ((int(match.group(1)), match.group(2), match.group(3))
                                    if match else (0, "", warning))
        size = _command_size(data, offset) if match else 0
        parts += [str(offset), str(size), command, "", message]
    return "|".join(_header_safe(part) for part in parts)


def _command_size(data: bytes, offset: int) -> int:
    following = [i for i in (data.find(b"^", offset + 1), data.find(b"~", offset + 1)) if i > 0]
    return (min(following) if following else len(data)) - offset


def _header_safe(text: str) -> str:
    """No separator, no line break, printable ASCII only: a header value."""
    return "".join(c if " " <= c <= "~" and c != "|" else "?" for c in text)


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/printers/{printer}/labels/{size}{slash:/?}", labelary_render)
    app.router.add_post("/v1/printers/{printer}/labels/{size}/{index}{slash:/?}",
                        labelary_render)
