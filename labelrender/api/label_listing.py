"""GET /v1/labels: re-list rendered template labels with fresh signed URLs.

DECISIONS.md "Labels": query ``content_hash``, ``template_id``, ``limit`` (at
most 100) and ``cursor``; newest first. Only template renders are listed (raw
renders create no registry entry), and a label purged by retention is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from labelrender.api import errors
from labelrender.api.context import AppState, RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.render import signed_url_for
from labelrender.store import labels, templates
from labelrender.store.clock import iso
from labelrender.store.errors import InvalidValue

DEFAULT_LIMIT = 50
_DIGITS = len(str(labels.MAX_PAGE))


class LabelListQuery(BaseModel):
    """The query string; unknown parameters are refused (``UnknownField``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    content_hash: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{64}$",
        description="Only the label with this hash (404 `LabelNotFound` when none)")
    template_id: str | None = Field(default=None, pattern=templates.TEMPLATE_ID.pattern,
                                    description="Only labels of this template")
    limit: int = Field(default=DEFAULT_LIMIT, ge=1, le=labels.MAX_PAGE,
                       description="Labels per page")
    cursor: str | None = Field(default=None, description="`next_cursor` of the previous page")

    @field_validator("limit", mode="before")
    @classmethod
    def _plain_digits(cls, value: object) -> object:
        # Plain digits only ("+5", " 5" and "1_0" are not limits), and few of
        # them: int() of thousands of digits is slow, and past 4,300 raises.
        if isinstance(value, str) and not (value.isascii() and value.isdigit()
                                           and len(value) <= _DIGITS):
            raise ValueError("not a small integer")
        return value


# The order the checks had before the model: unknown parameters, then each one.
_PRECEDENCE = ("extra", "content_hash", "template_id", "limit")
_QUERY_ERRORS: dict[str, tuple[str, str]] = {
    "content_hash": ("InvalidContentHash", "content_hash must be 64 lower-case hex characters"),
    "template_id": ("InvalidTemplateId",
                    "template_id must be 1 to 128 letters, digits, '.', '_' or '-'"),
    "limit": ("InvalidLimit", f"limit must be an integer from 1 to {labels.MAX_PAGE}"),
    "cursor": ("InvalidCursor", "cursor must be a string"),
}


def parse_query(query: Mapping[str, str]) -> LabelListQuery:
    """The query as a ``LabelListQuery``, or the one 400 naming what is wrong."""
    try:
        return LabelListQuery.model_validate(dict(query))
    except ValidationError as exc:
        raise _query_error(exc.errors()) from exc


def _query_error(details: list[ErrorDetails]) -> errors.ApiError:
    def field_of(detail: ErrorDetails) -> str:
        return "extra" if detail["type"] == "extra_forbidden" else str(detail["loc"][0])

    detail = min(details, key=lambda d: _PRECEDENCE.index(field_of(d))
                 if field_of(d) in _PRECEDENCE else len(_PRECEDENCE))
    name = str(detail["loc"][0])
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized parameter {name!r}", param=name)
    kind, message = _QUERY_ERRORS[name]
    return errors.InvalidRequest(message, param=name, kind=kind)


def _label_json(state: AppState, record: labels.LabelRecord) -> dict[str, Any]:
    url, expires_at = signed_url_for(state, record.object_key, record.cached_at)
    return {"content_hash": record.content_hash, "url": url,
            "template_id": record.template_id, "template_version": record.template_version,
            "cached_at": iso(record.cached_at), "expires_at": iso(expires_at),
            "size_bytes": record.size_bytes}


@route_policy(RoutePolicy(kinds=True))
async def list_labels(request: web.Request) -> web.Response:
    state = app_state(request)
    query = parse_query(request.query)
    try:
        page = await state.call(labels.list_labels, state.redis, auth_of(request).tenant_id,
                                limit=query.limit, cursor=query.cursor,
                                template_id=query.template_id, content_hash=query.content_hash)
    except InvalidValue as exc:
        raise errors.InvalidRequest("cursor is not one this endpoint returned",
                                    param="cursor", kind="InvalidCursor") from exc
    if query.content_hash is not None and not page.labels:
        # Spec "Errors": a label aged out of retention (or never rendered) is 404.
        raise errors.NotFound("no label with that content_hash", param="content_hash",
                              kind="LabelNotFound")
    urls = await state.call(lambda: [_label_json(state, rec) for rec in page.labels])
    return web.json_response({"labels": urls, "next_cursor": page.next_cursor})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/labels", list_labels)
