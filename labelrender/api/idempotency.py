"""``Idempotency-Key`` on the render routes (spec; checked before the rate limiter):
``POST /v1/labels``, ``/v1/labels/from-data`` and the Labelary route.

The first request with a key runs and its answer is stored; a replay of the
same request gets that answer back with ``Idempotency-Replay: true``; another
request under the key is 409 ``IdempotencyKeyConflict``. A request arriving
while the first still runs waits for its answer, so concurrent retries render
once.

"The same request" is everything that shapes the answer (``request_fingerprint``):
the method, the route, its path parameters, the query, the body, and the
headers that change the answer (``SHAPING_HEADERS``, every ``X-Page-*``). A key
used for a 4x6 PNG at 8 dpmm is not replayed for a 1x1 PDF at 12 dpmm, nor a
``POST /v1/labels`` JSON answer on the Labelary route.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from labelrender.api.answers import file_record, stored_answer
from labelrender.api.body import canonical_json, parse_json, read_body, read_raw_body
from labelrender.api.context import app_state, auth_of
from labelrender.api.errors import ApiError, Conflict, IdempotencyKeyConflict, InvalidRequest
from labelrender.api.middleware import IDEMPOTENCY_HEADER, error_response
from labelrender.store import abandon, claim, complete

HEADER = IDEMPOTENCY_HEADER
MAX_KEY_LENGTH = 255
_POLL_S = 0.05
_HASH_ON_LOOP_BYTES = 256 * 1024  # larger bodies are hashed on the parse threads
# Answers a retry with the same key should see again. 402/429/5xx are not kept:
# they change with time, and a retry must run again.
_NOT_KEPT = frozenset({402, 429})


def idempotency_key(request: web.Request) -> str | None:
    value = request.headers.get(HEADER)
    if value is None:
        return None
    if not 1 <= len(value) <= MAX_KEY_LENGTH or not value.isprintable():
        raise InvalidRequest(f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable characters",
                             param=HEADER, kind="InvalidIdempotencyKey")
    return value


# Request headers that change an answer: its type, the Labelary route's options.
SHAPING_HEADERS = ("Accept", "Content-Type", "X-Rotation", "X-Quality", "X-Label-Border",
                   "X-Linter")
_SHAPING_PREFIX = "x-page-"
_FINGERPRINT_VERSION = "request-v2"


def body_fingerprint(raw: bytes, *, json_body: bool = True) -> str:
    """Same JSON value, same fingerprint: key order and spacing do not matter.
    A body our parser refuses, or one that is not JSON, is fingerprinted as sent
    (its 400 is replayed)."""
    normal = raw
    if json_body:
        try:
            normal = canonical_json(parse_json(raw))
        except ApiError:
            normal = raw
    return hashlib.sha256(normal).hexdigest()


def request_fingerprint(request: web.Request, raw: bytes) -> str:
    """The whole request that shapes the answer, hashed (module docstring).
    Header values are compared trimmed, names case-blind; the optional trailing
    slash of a path does not count."""
    resource = request.match_info.route.resource
    headers = {name.lower(): value.strip() for name, value in request.headers.items()
               if name.lower().startswith(_SHAPING_PREFIX)}
    headers.update({name.lower(): request.headers.get(name, "").strip()
                    for name in SHAPING_HEADERS})
    shape = {
        "version": _FINGERPRINT_VERSION,
        "method": request.method,
        "route": resource.canonical if resource is not None else request.path,
        "path": {k: v for k, v in request.match_info.items() if k != "slash"},
        "query": sorted(request.query.items()),
        "headers": headers,
        "body": body_fingerprint(raw, json_body=request.content_type == "application/json"),
    }
    return hashlib.sha256(canonical_json(shape)).hexdigest()


Respond = Callable[[web.Request, bytes], Awaitable[web.Response]]


async def read_then_once(request: web.Request, respond: Respond, *,
                         any_type: bool = False) -> web.Response:
    """A render endpoint's body: read within the render body limit (JSON only,
    unless ``any_type``), then ``respond(request, raw)`` once per Idempotency-Key
    (at once without one)."""
    limit = app_state(request).config.max_body_bytes
    raw = await (read_raw_body(request, limit) if any_type else read_body(request, limit))
    key = idempotency_key(request)
    if key is None:
        return await respond(request, raw)
    return await run_once(request, key, raw, lambda: respond(request, raw))


async def run_once(
    request: web.Request, key: str, raw_body: bytes,
    produce: Callable[[], Awaitable[web.Response]],
) -> web.Response:
    """Answer with ``produce()`` once per key; replays get the stored answer."""
    state = app_state(request)
    tenant_id = auth_of(request).tenant_id
    if len(raw_body) > _HASH_ON_LOOP_BYTES:
        fingerprint = await state.parse(request_fingerprint, request, raw_body)
    else:
        fingerprint = request_fingerprint(request, raw_body)
    deadline = state.now() + state.config.render_timeout_s + 10
    while True:
        outcome = await state.call(claim, state.redis, tenant_id, key, fingerprint,
                                   now=state.now(), lock_seconds=state.config.render_timeout_s + 60)
        if outcome.outcome == "conflict":
            raise IdempotencyKeyConflict(
                f"{HEADER} was already used with a different request (method, path, query, "
                "body or answer-shaping headers)", param=HEADER)
        if outcome.outcome == "replay":
            return await _replay(request, str(outcome.response))
        if outcome.outcome == "new":
            assert outcome.token is not None
            return await _run_claimed(request, key, outcome.token, produce)
        if state.now() > deadline:
            raise Conflict(f"a request with this {HEADER} is still in progress; retry later",
                           param=HEADER, kind="IdempotencyKeyInProgress",
                           retry_after=state.config.retry_after_s)
        await asyncio.sleep(_POLL_S)


async def _run_claimed(
    request: web.Request, key: str, token: str,
    produce: Callable[[], Awaitable[web.Response]],
) -> web.Response:
    state = app_state(request)
    tenant_id = auth_of(request).tenant_id
    try:
        response = await produce()
    except ApiError as err:
        response = error_response(request, err)
    except BaseException:
        await state.call(abandon, state.redis, tenant_id, key, token)
        raise
    if response.status >= 500 or response.status in _NOT_KEPT:
        await state.call(abandon, state.redis, tenant_id, key, token)
        return response
    stored_file = file_record(response)
    if stored_file is not None:  # a PNG or PDF answer: replays read the object again
        stored = json.dumps({"status": response.status, "file": stored_file})
    else:
        stored = json.dumps({"status": response.status, "body": _json_text(response)})
    await state.call(complete, state.redis, tenant_id, key, token, stored, now=state.now())
    return response


def _json_text(response: web.Response) -> str:
    body = response.body
    if isinstance(body, bytes | bytearray):
        return bytes(body).decode()
    raise TypeError("idempotent handlers answer with JSON bodies")


async def _replay(request: web.Request, stored: str) -> web.Response:
    record = json.loads(stored)
    if "file" in record:
        found = record["file"]
        state = app_state(request)
        data = await state.call_objects(state.objects.get, str(found["key"]))
        if data is None:  # purged since: the answer cannot be given again as it was
            raise Conflict(f"the label this {HEADER} answered with is no longer stored",
                           param=HEADER, kind="IdempotencyReplayGone")
        return stored_answer(data, str(found["key"]), str(found["content_type"]),
                             {**found["headers"], "Idempotency-Replay": "true"})
    return web.Response(
        text=record["body"], status=int(record["status"]), content_type="application/json",
        headers={"Idempotency-Replay": "true"},
    )
