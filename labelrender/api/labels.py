"""POST /v1/labels: render raw ZPL (spec "POST /v1/labels (raw ZPL)").

Checks in the order ARCHITECTURE.md gives: the key (middleware), the
Idempotency-Key, the rate limit, then the body's validity.
"""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from labelrender.api import errors
from labelrender.api.body import parse_object
from labelrender.api.context import RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.idempotency import read_then_once
from labelrender.api.middleware import charge_rate
from labelrender.api.render import RawRender, render_raw

FontProfile = Literal["dejavu", "inter", "plex", "roboto"]
DPI_RANGE = (1, 1200)


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

    @field_validator("zpl")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("zpl must not be empty")
        return value


def validate_body(payload: dict[str, Any]) -> RawRender:
    """The body as a RawRender, or the one error that names what is wrong."""
    try:
        body = RawRenderBody.model_validate(payload)
    except ValidationError as exc:
        raise _first_error(exc.errors()) from exc
    return RawRender(body.zpl, body.source_dpi, body.target_dpi, body.threshold,
                     body.font_profile)


# Which complaint wins when several fields are wrong: the 400s, then the 422s.
_PRECEDENCE = ("extra", "source_dpi", "target_dpi", "font_profile", "threshold", "zpl")


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
    return await read_then_once(request, _render)


async def _render(request: web.Request, raw: bytes) -> web.Response:
    await charge_rate(request)
    params = validate_body(parse_object(raw))
    auth = auth_of(request)
    check_plan_dpi(params, auth.plan.max_dpi, auth.plan.name)
    outcome = await render_raw(app_state(request), auth, params)
    return web.json_response({
        "status": "ok",
        "url": outcome.url,
        "cached": outcome.cached,
        "content_hash": outcome.content_hash,
        "warnings": outcome.warnings,
    })


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/labels", create_label)
