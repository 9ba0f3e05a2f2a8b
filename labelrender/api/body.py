"""Reading JSON request bodies within a size limit (spec: 415, 413, 400)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from labelrender.api.errors import InvalidJson, PayloadTooLarge, UnsupportedMediaType

SMALL_BODY_BYTES = 64 * 1024  # bodies of the management endpoints


async def read_body(request: web.Request, max_bytes: int, *, allow_empty: bool = False) -> bytes:
    """The raw body of a JSON request, refused before reading when declared too
    large, and while reading when it grows past ``max_bytes`` (chunked)."""
    declared = request.content_length
    if declared == 0 and allow_empty:
        return b""
    if request.content_type != "application/json" and not (allow_empty and not request.body_exists):
        raise UnsupportedMediaType(
            f"Content-Type must be application/json, not {request.content_type!r}")
    if declared is not None and declared > max_bytes:
        raise PayloadTooLarge(
            f"request body of {declared} bytes is over the {max_bytes}-byte limit")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.content.iter_any():
        size += len(chunk)
        if size > max_bytes:
            raise PayloadTooLarge(f"request body is over the {max_bytes}-byte limit")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object; 400 InvalidJson otherwise."""
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidJson(f"request body is not valid JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise InvalidJson("request body must be a JSON object")
    return payload


def canonical_json(value: object) -> bytes:
    """One byte form per JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
