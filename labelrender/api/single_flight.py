"""N parallel identical requests render once (the service-core issue).

A raw render is content-addressed, so identical requests without an
Idempotency-Key all miss the cache together. ``render_once`` lets the first
claim the content hash (``store.render_claims``) and render; the others wait
for its outcome and answer as a cache hit (``cached``, not billed, no
concurrency slot) or with the same error. Only the request that rendered is
billed.

Crash safety: a holder that fails without an answer drops its claim, and one
that dies outright leaves a claim that expires; either way its waiters claim
the hash again, and whichever wins renders. Waiters also look the stored
answer up again every ``LOOK_AGAIN_S``: when the holder's API process died
after queueing the job (one of ``serve``'s API processes killed), a worker
still renders and stores the label, and the waiters in the other processes
answer with it at once rather than when the claim expires.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from labelrender.api import errors
from labelrender.api.context import AppState
from labelrender.store.jobs import new_job_id
from labelrender.store.render_claims import (
    claim_render_async,
    finish_render_async,
    render_state,
)

log = logging.getLogger("labelrender.api")

T = TypeVar("T")
RENDERED = "rendered"  # the outcome of a render whose object is stored
POLL_S = 0.025  # how often a waiter looks for the holder's outcome
LOOK_AGAIN_S = 0.5  # how often a waiter looks for the stored answer itself
LOOK_AGAIN = "look again"  # _wait_for: the holder still holds the hash, with no outcome yet
_CLAIM_MARGIN_S = 5.0  # quota, slot and queue checks before the holder's wait begins


async def render_once(state: AppState, tenant_id: str, content_hash: str,
                      lookup: Callable[[], Awaitable[T | None]],
                      render: Callable[[str], Awaitable[T]]) -> T:
    """``lookup()`` the stored answer, else claim the hash and ``render(job_id)``,
    else wait for the holder and look again (or raise its error)."""
    hold_s = state.config.render_timeout_s + _CLAIM_MARGIN_S
    deadline = time.monotonic() + hold_s
    job_id = ""  # made only on a miss: a cache hit, the common case, needs none
    while True:
        found = await lookup()
        if found is not None:
            return found
        job_id = job_id or new_job_id()
        holder = await state.call_async(claim_render_async(state.aredis, tenant_id,
                                                           content_hash, job_id, hold_s))
        if holder == job_id:
            return await _render_claimed(state, tenant_id, content_hash, job_id, render)
        while True:
            outcome = await _wait_for(state, tenant_id, content_hash, holder, deadline)
            if outcome != LOOK_AGAIN:
                break
            # The holder still holds the hash: its process may have died after
            # queueing the job, and a worker stored the answer since. Only the
            # stored answer is looked for: claiming now could render twice.
            found = await lookup()
            if found is not None:
                return found
        if outcome is not None and outcome != RENDERED:
            raise decode_error(outcome)
        # Rendered (the lookup finds it), or the holder let go: go round again.


async def _render_claimed(state: AppState, tenant_id: str, content_hash: str, job_id: str,
                          render: Callable[[str], Awaitable[T]]) -> T:
    try:
        result = await render(job_id)
    except errors.ApiError as exc:
        await _finish_quietly(state, tenant_id, content_hash, job_id, encode_error(exc))
        raise
    except BaseException:
        await _finish_quietly(state, tenant_id, content_hash, job_id, None)
        raise
    # The answer need not wait for this: a waiter looks at the stored object too.
    state.after_answer(_finish_quietly(state, tenant_id, content_hash, job_id, RENDERED))
    return result


async def _wait_for(state: AppState, tenant_id: str, content_hash: str, holder: str,
                    deadline: float) -> str | None:
    """The holder's outcome, None once it no longer holds the claim without one,
    or ``LOOK_AGAIN`` while it still holds it after ``LOOK_AGAIN_S`` (look the
    stored answer up again). Raises ``GatewayTimeout`` at ``deadline``."""
    look_again = time.monotonic() + LOOK_AGAIN_S
    while time.monotonic() < deadline:
        seen = await state.call(render_state, state.redis, tenant_id, content_hash, holder)
        if seen.outcome is not None or not seen.held:
            return seen.outcome
        if time.monotonic() >= look_again:
            return LOOK_AGAIN
        await asyncio.sleep(POLL_S)
    state.metrics.renders.labels("timeout").inc()
    raise errors.GatewayTimeout("the render did not finish in time; retry shortly",
                                retry_after=state.config.retry_after_s)


async def _finish_quietly(state: AppState, tenant_id: str, content_hash: str, job_id: str,
                          outcome: str | None) -> None:
    """Waiters that miss the outcome see the claim expire; never mask the answer."""
    try:
        await state.call_async(finish_render_async(state.aredis, tenant_id, content_hash,
                                                   job_id, outcome))
    except errors.ServiceUnavailable:
        log.warning("could not publish the outcome of render %s; its claim expires", job_id)


def encode_error(exc: errors.ApiError) -> str:
    return json.dumps({"class": type(exc).__name__, "message": exc.message,
                       "param": exc.param, "kind": exc.kind,
                       "retry_after": exc.retry_after, "extra": exc.extra}, default=str)


def decode_error(outcome: str) -> errors.ApiError:
    """The holder's error, rebuilt as the same class with the same fields."""
    fields: dict[str, Any] = json.loads(outcome)
    error_class = _error_classes().get(fields.pop("class"), errors.BadGateway)
    return error_class(fields.pop("message"), **fields)


def _error_classes() -> dict[str, type[errors.ApiError]]:
    found: dict[str, type[errors.ApiError]] = {}
    pending: list[type[errors.ApiError]] = [errors.ApiError]
    while pending:
        cls = pending.pop()
        found[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    return found
