"""GET /v1/labels: re-list rendered template labels with fresh signed URLs.

DECISIONS.md "Labels": query ``content_hash``, ``template_id``, ``limit`` (at
most 100) and ``cursor``; newest first. Only template renders are listed (raw
renders create no registry entry), and a label purged by retention is gone.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from labelrender.api import errors
from labelrender.api.context import AppState, RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.render import signed_url_for
from labelrender.store import labels, templates
from labelrender.store.clock import iso
from labelrender.store.errors import InvalidValue

DEFAULT_LIMIT = 50
_HASH = re.compile(r"^[0-9a-f]{64}$")
_QUERY = frozenset({"content_hash", "template_id", "limit", "cursor"})


def _limit(query: Any) -> int:
    text = query.get("limit")
    if text is None:
        return DEFAULT_LIMIT
    # Length first: int() of thousands of digits is slow, and past 4,300 raises.
    digits = len(str(labels.MAX_PAGE))
    if not (text.isascii() and text.isdigit() and len(text) <= digits) \
            or not 1 <= int(text) <= labels.MAX_PAGE:
        raise errors.InvalidRequest(f"limit must be an integer from 1 to {labels.MAX_PAGE}",
                                    param="limit", kind="InvalidLimit")
    return int(text)


def _check_query(query: Any) -> None:
    unknown = sorted(set(query) - _QUERY)
    if unknown:
        raise errors.UnknownField(f"unrecognized parameter {unknown[0]!r}", param=unknown[0])
    content_hash = query.get("content_hash")
    if content_hash is not None and not _HASH.match(content_hash):
        raise errors.InvalidRequest("content_hash must be 64 lower-case hex characters",
                                    param="content_hash", kind="InvalidContentHash")
    template_id = query.get("template_id")
    if template_id is not None and not templates.TEMPLATE_ID.match(template_id):
        raise errors.InvalidRequest(
            "template_id must be 1 to 128 letters, digits, '.', '_' or '-'",
            param="template_id", kind="InvalidTemplateId")


def _label_json(state: AppState, record: labels.LabelRecord) -> dict[str, Any]:
    url, expires_at = signed_url_for(state, record.object_key, record.cached_at)
    return {"content_hash": record.content_hash, "url": url,
            "template_id": record.template_id, "template_version": record.template_version,
            "cached_at": iso(record.cached_at), "expires_at": iso(expires_at),
            "size_bytes": record.size_bytes}


@route_policy(RoutePolicy(kinds=True))
async def list_labels(request: web.Request) -> web.Response:
    state = app_state(request)
    query = request.query
    _check_query(query)
    limit = _limit(query)
    try:
        page = await state.call(labels.list_labels, state.redis, auth_of(request).tenant_id,
                                limit=limit, cursor=query.get("cursor"),
                                template_id=query.get("template_id"),
                                content_hash=query.get("content_hash"))
    except InvalidValue as exc:
        raise errors.InvalidRequest("cursor is not one this endpoint returned",
                                    param="cursor", kind="InvalidCursor") from exc
    if query.get("content_hash") is not None and not page.labels:
        # Spec "Errors": a label aged out of retention (or never rendered) is 404.
        raise errors.NotFound("no label with that content_hash", param="content_hash",
                              kind="LabelNotFound")
    urls = await state.call(lambda: [_label_json(state, rec) for rec in page.labels])
    return web.json_response({"labels": urls, "next_cursor": page.next_cursor})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/labels", list_labels)
