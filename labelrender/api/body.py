"""Reading JSON request bodies: the one parser every JSON endpoint goes through.

Spec: 415 for another media type, 413 over the size limit, 400 for a body that
is not JSON. A hostile body must end in one of those, never in an exception
the standard parser lets escape: nesting deep enough to exhaust the C
scanner's recursion (``RecursionError``), an integer over Python's 4,300-digit
conversion limit (``ValueError``), or text holding a lone UTF-16 surrogate
(``"\\ud800"``), which decodes but cannot be encoded again as UTF-8 for
Redis, hashing or the engine. Depth and number size are checked before they
can raise; surrogates are refused with the JSON path of the value.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from typing import Any, NoReturn

from aiohttp import web

from labelrender.api.context import app_state
from labelrender.api.errors import (
    IncompleteBody,
    InvalidJson,
    InvalidText,
    PayloadTooLarge,
    RequestTimeout,
    UnsupportedMediaType,
)

SMALL_BODY_BYTES = 64 * 1024  # bodies of the management endpoints
PARSE_ON_LOOP_BYTES = 64 * 1024  # larger render bodies are parsed on the parse threads
MAX_JSON_DEPTH = 32  # nesting of objects and arrays; our bodies need 4
MAX_NUMBER_CHARS = 100  # a JSON number literal; ours need at most 10

# Escaped backslashes, then escaped quotes: what is left of '"' delimits strings.
_STRING = re.compile(rb'"[^"]*"')
_BRACKETS = b"[]{}"
_NOT_BRACKET = bytes(b for b in range(256) if b not in _BRACKETS)
_OPEN_CLOSE = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 / -1 as signed bytes
# A \uD800-\uDFFF escape: the only way a surrogate gets into decoded UTF-8 JSON.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


async def read_body(request: web.Request, max_bytes: int, *, allow_empty: bool = False) -> bytes:
    """The raw body of a JSON request, refused before reading when declared too
    large, and while reading when it grows past ``max_bytes`` (chunked).

    The whole body must arrive within the app's ``body_timeout_s`` (a client
    that declares more than it sends is answered 408 and disconnected)."""
    declared = request.content_length
    if declared == 0 and allow_empty:
        return b""
    if request.content_type != "application/json" and not (allow_empty and not request.body_exists):
        raise UnsupportedMediaType(
            f"Content-Type must be application/json, not {request.content_type!r}")
    return await read_raw_body(request, max_bytes)


async def read_raw_body(request: web.Request, max_bytes: int) -> bytes:
    """The raw body of any media type, with ``read_body``'s size and time limits."""
    declared = request.content_length
    if declared is not None and declared > max_bytes:
        raise PayloadTooLarge(
            f"request body of {declared} bytes is over the {max_bytes}-byte limit")
    timeout_s = app_state(request).config.body_timeout_s
    try:
        async with asyncio.timeout(timeout_s):
            return await _read_within(request, max_bytes)
    except TimeoutError as exc:
        raise RequestTimeout(
            f"the request body did not arrive within {timeout_s:g} s") from exc
    except (ConnectionError, web.RequestPayloadError) as exc:
        # A malformed chunked body, or a client gone mid-body.
        raise IncompleteBody(f"the request body could not be read: {exc}") from exc


async def _read_within(request: web.Request, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.content.iter_any():
        size += len(chunk)
        if size > max_bytes:
            raise PayloadTooLarge(f"request body is over the {max_bytes}-byte limit")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes) -> Any:
    """Any JSON value, as UTF-8 (RFC 8259 section 8.1); 400 ``InvalidJson`` for
    what is not JSON or is beyond our limits, 400 ``InvalidText`` for a string
    holding a lone surrogate."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidJson(f"request body is not UTF-8: {exc.reason} at byte {exc.start}"
                          ) from exc
    # Fewer brackets than the limit cannot nest past it: most bodies stop here.
    if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH:
        depth = nesting_depth(raw)
        if depth > MAX_JSON_DEPTH:
            raise InvalidJson(f"request body is nested {depth} deep; JSON depth over "
                              f"{MAX_JSON_DEPTH} is not accepted")
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InvalidJson(f"request body is not valid JSON: {exc}") from exc
    if _SURROGATE_ESCAPE.search(raw):
        check_text(value)
    return value


def parse_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object; 400 InvalidJson otherwise."""
    payload = parse_json(raw)
    if not isinstance(payload, dict):
        raise InvalidJson("request body must be a JSON object")
    return payload


def nesting_depth(raw: bytes) -> int:
    """How deep objects and arrays nest in the JSON text ``raw``, without parsing.

    Exact for valid JSON; for invalid JSON it may be off, and the parser then
    refuses the body anyway. Linear time, in C loops: escapes are dropped,
    then strings, then everything but brackets, then the running sum's maximum.
    """
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = _STRING.sub(b"", unescaped).translate(_OPEN_CLOSE, delete=_NOT_BRACKET)
    return max(itertools.accumulate(memoryview(brackets).cast("b")), default=0)


def _number_literal(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise InvalidJson(f"request body has a number of {len(text)} characters; numbers "
                          f"over {MAX_NUMBER_CHARS} digits are not accepted")


def _parse_int(text: str) -> int:
    _number_literal(text)
    return int(text)


def _parse_float(text: str) -> float:
    _number_literal(text)
    value = float(text)
    if not math.isfinite(value):
        raise InvalidJson(f"request body has a number out of range: {text[:20]}")
    return value


def _parse_constant(name: str) -> NoReturn:
    raise InvalidJson(f"request body is not valid JSON: {name} is not a JSON value")


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                            parse_constant=_parse_constant)


def check_text(value: Any) -> None:
    """400 ``InvalidText`` naming the first string (key or value) in ``value``
    that holds a lone surrogate; ``param`` is its JSON path (``fields.name``)."""
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str) and not _encodable(item):
            _refuse_text(path, item, f"{path or 'the body'} is not valid text")
        elif isinstance(item, dict):
            for key, member in item.items():
                member_path = f"{path}.{_printable(key)}" if path else _printable(key)
                if not _encodable(key):
                    _refuse_text(member_path, key, f"the name {member_path} is not valid text")
                pending.append((member_path, member))
        elif isinstance(item, list):
            pending.extend((f"{path}[{index}]", member) for index, member in enumerate(item))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _printable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _refuse_text(path: str, text: str, problem: str) -> NoReturn:
    position = next(i for i, char in enumerate(text) if "\ud800" <= char <= "\udfff")
    raise InvalidText(f"{problem}: it holds a lone UTF-16 surrogate "
                      f"({_printable(text[position])}) at character {position}",
                      param=path or None)


def canonical_json(value: object) -> bytes:
    """One byte form per JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
