"""Answering a render with the file itself: content negotiation on ``Accept``, and
the stored PNG or PDF as the body (``POST /v1/labels`` with ``Accept: image/png``,
the Labelary route).

A file answer notes which stored object it is (``STORED_OBJECT``), so that an
``Idempotency-Key`` replay reads the same object again rather than keeping the
bytes in Redis (``idempotency``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aiohttp import web

from labelrender.api import errors
from labelrender.api.context import AppState
from labelrender.api.render import RenderOutcome

JSON = "application/json"
PNG = "image/png"
PDF = "application/pdf"
CONTENT_TYPES = {"png": PNG, "pdf": PDF}
FORMATS = {PNG: "png", PDF: "pdf"}
# The response's note of its stored object: {key, content_type, headers}.
STORED_OBJECT = web.ResponseKey("labelrender.stored_object", dict[str, Any])


def preferred_type(accept: str | None, offered: Sequence[str]) -> str | None:
    """The first of ``offered`` the ``Accept`` header takes, by its q values (ties
    in ``offered``'s order); ``offered[0]`` when there is no header or it takes
    anything (``*/*``); None when it takes none of them (406)."""
    if not accept or not accept.strip():
        return offered[0]
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(accept.split(",")):
        media, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media and quality > 0:
            ranked.append((-quality, position, media.strip().lower()))
    for _, _, media in sorted(ranked):
        for candidate in offered:
            kind = candidate.split("/")[0]
            if media in (candidate, "*/*", f"{kind}/*"):
                return candidate
    return None


def negotiate(request: web.Request, offered: Sequence[str]) -> str:
    """The answer type for ``request``'s ``Accept`` (``preferred_type``); 406
    ``NotAcceptable`` when it takes none of ``offered``."""
    accept = request.headers.get("Accept")
    answer_type = preferred_type(accept, offered)
    if answer_type is None:
        raise not_acceptable(accept or "", offered)
    return answer_type


def not_acceptable(accept: str, offered: Sequence[str]) -> errors.ApiError:
    return errors.NotAcceptable(f"cannot answer Accept: {accept[:100]}; this route answers "
                                f"{', '.join(offered)}", param="Accept")


async def file_answer(state: AppState, outcome: RenderOutcome, content_type: str,
                      headers: dict[str, str]) -> web.Response:
    """The stored object's bytes as the answer."""
    data = await state.call_objects(state.objects.get, outcome.object_key)
    if data is None:  # purged between the render and now: a retry renders it again
        raise errors.BadGateway("the rendered label is no longer stored; retry",
                                retry_after=state.config.retry_after_s)
    return stored_answer(data, outcome.object_key, content_type, headers)


def stored_answer(data: bytes, object_key: str, content_type: str,
                  headers: dict[str, str]) -> web.Response:
    response = web.Response(body=data, content_type=content_type, headers=headers)
    response[STORED_OBJECT] = {"key": object_key, "content_type": content_type,
                               "headers": headers}
    return response


def file_record(response: web.StreamResponse) -> dict[str, Any] | None:
    """What an idempotency record keeps of a file answer (None for JSON answers)."""
    return response.get(STORED_OBJECT)
