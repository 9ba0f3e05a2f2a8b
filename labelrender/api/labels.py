"""POST /v1/labels: render raw ZPL (spec "POST /v1/labels (raw ZPL)").

Checks in the order ARCHITECTURE.md gives: the key (middleware), the
Idempotency-Key, the rate limit, then the body's validity.
"""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from labelrender.api import answers, errors
from labelrender.api.body import PARSE_ON_LOOP_BYTES, parse_object
from labelrender.api.context import RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.idempotency import read_then_once
from labelrender.api.middleware import charge_rate
from labelrender.api.render import (
    RawRender,
    RenderOutcome,
    dpi_advisories,
    raw_content_hash,
    render_raw,
)

FontProfile = Literal["dejavu", "inter", "plex", "roboto"]
Rotation = Literal[0, 90, 180, 270]
Format = Literal["png", "pdf"]
DPI_RANGE = (1, 1200)
MAX_DOTS = 32000  # ZPL's largest coordinate; the engine caps a canvas side at 16 in


class RawRenderBody(BaseModel):
    """The request body; strict, so ``"203"``, ``203.0`` and ``true`` are not DPIs."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    zpl: str = Field(json_schema_extra={"pattern": r"\S"},  # _not_blank
                     description="The ZPL to render; not empty or blank")
    source_dpi: int = Field(203, ge=DPI_RANGE[0], le=DPI_RANGE[1],
                            description="DPI the ZPL was written for")
    target_dpi: int = Field(203, ge=DPI_RANGE[0], le=DPI_RANGE[1],
                            description="DPI to render at; at most the plan's maximum (403)")
    threshold: bool = Field(False, description="true: hard black and white; false: an "
                                               "anti-aliased preview")
    font_profile: FontProfile | None = Field(None, description="Fonts for ^A0 and the "
                                                               "scalable font; default: the "
                                                               "engine's")
    # Optional since the Labelary-compatible route (spec "Versioning": new optional fields).
    width_dots: int | None = Field(None, ge=1, le=MAX_DOTS,
                                   description="The label's width in dots, with height_dots; "
                                               "default: ^PW and ^LL, else 4 x 6 in")
    height_dots: int | None = Field(None, ge=1, le=MAX_DOTS,
                                    description="The label's height in dots, with width_dots")
    label_index: int | None = Field(None, ge=0, le=MAX_DOTS,
                                    description="Which label of a many-label ZPL stream to "
                                                "render (0 is the first); default: the first")
    rotation: Rotation = Field(0, description="Degrees clockwise to turn the image")
    format: Format | None = Field(None, description="png or pdf; default: what Accept asks "
                                                    "for, else png")
    fields: bool = Field(False, description="true: each printed field's box in the answer "
                                            "(PNG renders only)")

    @field_validator("zpl")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("zpl must not be empty")
        return value


WARM_UP_BODY = b'{"zpl": "^XA^FO20,20^A0N,40^FDWarm up^FS^XZ", "source_dpi": 203}'


def warm_request_path() -> None:
    """A render request's own steps once, at start, for a tenant that is never
    issued: their first call pays for lazy set-up (the JSON parser, the body's
    model, the content hash) that the first real request would otherwise."""
    params = validate_body(parse_object(WARM_UP_BODY), answers.FORMATS.get(answers.JSON))
    raw_content_hash("warm-up", params)
    dpi_advisories(params)


def validate_body(payload: dict[str, Any], accepted_format: str | None = None) -> RawRender:
    """The body as a RawRender, or the one error that names what is wrong.
    ``accepted_format``: the file format the Accept header asks for, if any."""
    try:
        body = RawRenderBody.model_validate(payload)
    except ValidationError as exc:
        raise _first_error(exc.errors()) from exc
    if (body.width_dots is None) != (body.height_dots is None):
        raise errors.InvalidRequest("give width_dots and height_dots together",
                                    param="width_dots" if body.width_dots is None
                                    else "height_dots", kind="InvalidLabelSize")
    output_format = body.format or accepted_format or "png"
    if accepted_format is not None and output_format != accepted_format:
        raise errors.NotAcceptable(f"format {output_format!r} cannot answer an Accept of "
                                   f"{answers.CONTENT_TYPES[accepted_format]}", param="Accept")
    if body.fields and output_format == "pdf":
        raise errors.InvalidRequest("fields are reported for PNG renders only",
                                    param="fields", kind="InvalidFields")
    return RawRender(body.zpl, body.source_dpi, body.target_dpi, body.threshold,
                     body.font_profile, body.width_dots, body.height_dots, body.label_index,
                     body.rotation, output_format, None, body.fields)


# Which complaint wins when several fields are wrong: the 400s, then the 422s.
_PRECEDENCE = ("extra", "source_dpi", "target_dpi", "font_profile", "width_dots",
               "height_dots", "label_index", "rotation", "format", "fields", "threshold", "zpl")
_OPTION_ERRORS = {
    "width_dots": ("InvalidLabelSize", f"width_dots must be an integer from 1 to {MAX_DOTS}"),
    "height_dots": ("InvalidLabelSize", f"height_dots must be an integer from 1 to {MAX_DOTS}"),
    "label_index": ("InvalidLabelIndex", "label_index must be an integer of 0 or more"),
    "rotation": ("InvalidRotation", "rotation must be 0, 90, 180 or 270"),
    "format": ("InvalidFormat", "format must be png or pdf"),
    "fields": ("InvalidFields", "fields must be true or false"),
}


def _first_error(details: list[ErrorDetails]) -> errors.ApiError:
    def rank(detail: ErrorDetails) -> int:
        key = "extra" if detail["type"] == "extra_forbidden" else str(detail["loc"][0])
        return _PRECEDENCE.index(key) if key in _PRECEDENCE else len(_PRECEDENCE)

    detail = min(details, key=rank)
    field = str(detail["loc"][0]) if detail["loc"] else None
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized field {field!r}", param=field)
    if field in ("source_dpi", "target_dpi"):
        return errors.InvalidDpi(f"{field} must be an integer from 1 to 1200", param=field)
    if field in _OPTION_ERRORS:
        kind, message = _OPTION_ERRORS[field]
        return errors.InvalidRequest(message, param=field, kind=kind)
    if field == "font_profile":
        return errors.InvalidFontProfile(
            "font_profile must be one of dejavu, inter, plex, roboto", param=field)
    if field == "threshold":
        return errors.ValidationFailed("threshold must be true or false", param=field,
                                       kind="InvalidThreshold")
    if detail["type"] in ("missing", "value_error") or detail.get("input") is None:
        return errors.MissingZpl("zpl is required and must not be empty", param="zpl")
    return errors.ValidationFailed("zpl must be a string", param="zpl", kind="InvalidZpl")


def check_plan_dpi(params: RawRender, max_dpi: int, plan_name: str) -> None:
    """Spec "Limits": both DPIs are checked against the plan's ceiling (403)."""
    for field, value in (("source_dpi", params.source_dpi), ("target_dpi", params.target_dpi)):
        if value > max_dpi:
            raise errors.DpiNotPermitted(
                f"{field} {value} is above the {plan_name} plan's maximum of {max_dpi} dpi",
                param=field)


@route_policy(RoutePolicy(rate="handler", kinds=True))
async def create_label(request: web.Request) -> web.StreamResponse:
    try:
        return await read_then_once(request, _render)
    except errors.UnsupportedMediaType as exc:  # raw ZPL, as Labelary takes it
        raise errors.UnsupportedMediaType(f"{exc.message}; {RAW_ZPL_HINT}") from exc


RAW_ZPL_HINT = ("send JSON {\"zpl\": \"...\"}, or post the raw ZPL to the Labelary route, "
                "POST /v1/printers/8dpmm/labels/4x6/0/ (dpmm, size in inches and index "
                "as Labelary's)")


# What POST /v1/labels answers with: JSON (the spec's), or the file itself.
OFFERED = (answers.JSON, answers.PNG, answers.PDF)


async def _render(request: web.Request, raw: bytes) -> web.Response:
    await charge_rate(request)
    answer_type = answers.negotiate(request, OFFERED)
    state = app_state(request)
    # A body of megabytes is parsed off the event loop (api.body: linear in C).
    payload = (await state.parse(parse_object, raw) if len(raw) > PARSE_ON_LOOP_BYTES
               else parse_object(raw))
    params = validate_body(payload, answers.FORMATS.get(answer_type))
    auth = auth_of(request)
    check_plan_dpi(params, auth.plan.max_dpi, auth.plan.name)
    outcome = await render_raw(state, auth, params)
    if answer_type != answers.JSON:
        return await answers.file_answer(state, outcome, answer_type, {
            "X-Content-Hash": outcome.content_hash, "X-Cached": str(outcome.cached).lower(),
            "X-Total-Count": str(outcome.label_count)})
    return web.json_response(outcome_json(outcome))


def outcome_json(outcome: RenderOutcome) -> dict[str, Any]:
    """The JSON answer of a raw render; ``fields`` only when they were asked for."""
    body: dict[str, Any] = {
        "status": "ok",
        "url": outcome.url,
        "cached": outcome.cached,
        "content_hash": outcome.content_hash,
        "warnings": outcome.warnings,
        "label_count": outcome.label_count,
    }
    if outcome.fields is not None:
        body["fields"] = field_objects(outcome.fields)
    return body


def field_objects(rows: list[list[Any]]) -> list[dict[str, Any]]:
    """Field boxes as the API shows them: {offset, command, fn, x, y, width, height}."""
    names = ("offset", "command", "fn", "x", "y", "width", "height")
    return [dict(zip(names, row, strict=True)) for row in rows]


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/labels", create_label)
