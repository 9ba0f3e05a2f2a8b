"""``Idempotency-Key`` for POST /v1/labels (spec; checked before the rate limiter).

The first request with a key runs and its answer is stored; a replay with the
same body gets that answer back with ``Idempotency-Replay: true``; a different
body is 409. A request arriving while the first still runs waits for its
answer, so concurrent retries render once.
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


def body_fingerprint(raw: bytes) -> str:
    """Same JSON value, same fingerprint: key order and spacing do not matter.
    A body our parser refuses is fingerprinted as sent (its 400 is replayed)."""
    try:
        normal = canonical_json(parse_json(raw))
    except ApiError:
        normal = raw
    return hashlib.sha256(normal).hexdigest()


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
    fingerprint = body_fingerprint(raw_body)
    deadline = state.now() + state.config.render_timeout_s + 10
    while True:
        outcome = await state.call(claim, state.redis, tenant_id, key, fingerprint,
                                   now=state.now(), lock_seconds=state.config.render_timeout_s + 60)
        if outcome.outcome == "conflict":
            raise IdempotencyKeyConflict(
                f"{HEADER} was already used with a different request body", param=HEADER)
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
        data = await state.call(state.objects.get, str(found["key"]))
        if data is None:  # purged since: the answer cannot be given again as it was
            raise Conflict(f"the label this {HEADER} answered with is no longer stored",
                           param=HEADER, kind="IdempotencyReplayGone")
        return stored_answer(data, str(found["key"]), str(found["content_type"]),
                             {**found["headers"], "Idempotency-Replay": "true"})
    return web.Response(
        text=record["body"], status=int(record["status"]), content_type="application/json",
        headers={"Idempotency-Replay": "true"},
    )
