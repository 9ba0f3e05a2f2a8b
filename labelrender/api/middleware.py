"""Request id and metrics, the error envelope, and Bearer authentication.

Order, outermost first: ``observe`` (X-Request-Id, metrics), ``envelope``
(every error becomes the JSON envelope; limit headers on every authenticated
answer), ``authenticate`` (key -> tenant and plan; the rate limit for routes
that charge it up front).
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from typing import Any

from aiohttp import web

from labelrender.api import errors
from labelrender.api.context import (
    AppState,
    AuthContext,
    Handler,
    app_state,
    auth_or_none,
    policy_of,
    rate_charged,
    rate_or_none,
    request_id_of,
    set_auth,
    set_rate,
    set_request_id,
)
from labelrender.store import RateDecision, check_rate

log = logging.getLogger("labelrender.api")

IDEMPOTENCY_HEADER = "Idempotency-Key"  # checked before the rate limit (spec)
_CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_BEARER = re.compile(r"^Bearer[ \t]+(\S+)[ \t]*$", re.IGNORECASE)


@web.middleware
async def observe(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Give the request an id (the caller's, if sane) and count it."""
    offered = request.headers.get("X-Request-Id", "")
    request_id = offered if _CLIENT_REQUEST_ID.match(offered) else "req_" + secrets.token_hex(12)
    set_request_id(request, request_id)
    started = time.perf_counter()
    response = await handler(request)
    response.headers["X-Request-Id"] = request_id
    metrics = app_state(request).metrics
    route = _route_label(request)
    metrics.requests.labels(request.method, route, str(response.status)).inc()
    metrics.latency.labels(request.method, route).observe(time.perf_counter() - started)
    return response


def _route_label(request: web.Request) -> str:
    """The route template (``/v1/keys/{prefix}``), never the raw path, so label
    values stay few."""
    route = request.match_info.route
    if request.match_info.http_exception is not None or route.resource is None:
        return "unmatched"
    return route.resource.canonical


@web.middleware
async def envelope(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer every error with the envelope; add the limit headers."""
    try:
        response = await handler(request)
    except errors.ApiError as err:
        response = error_response(request, err)
    except web.HTTPException as exc:
        response = error_response(request, _from_http_exception(exc))
        if "Allow" in exc.headers:  # 405 names the methods the route takes
            response.headers["Allow"] = exc.headers["Allow"]
    except Exception:
        log.exception("unhandled error in %s %s (request %s)", request.method, request.path,
                      request_id_of(request))
        response = error_response(request, errors.InternalError(
            "internal error; quote the request id when reporting it"))
    await _add_limit_headers(request, response)
    return response


def error_response(request: web.Request, err: errors.ApiError) -> web.Response:
    """The envelope for ``err``; routes with kinds also get ``status``/``errors``.
    A 503 is logged with its cause and the request id: the answer names neither
    the dependency's address nor its error, the log must."""
    if err.status == 503:
        log.warning("503 %s on %s %s (request %s): %s", err.kind, request.method,
                    request.path, request_id_of(request), cause_chain(err) or err.message)
    detail: dict[str, Any] = {"type": err.type, "message": err.message, "param": err.param,
                              "kind": err.kind, "request_id": request_id_of(request),
                              **err.extra}
    body: dict[str, Any] = {"error": detail}
    if policy_of(request).kinds:
        body["status"] = "error"
        body["errors"] = [{"kind": err.kind, "message": err.message}]
    body.update(err.extra)
    response = web.json_response(body, status=err.status, headers=err.headers())
    if err.status == 408:
        # RFC 9110 15.5.9: the rest of the body may still come; the connection is done.
        response.force_close()
    return response


def cause_chain(err: BaseException) -> str:
    """The chain of causes under ``err``, innermost last ("" when none)."""
    causes: list[str] = []
    cause = err.__cause__ or err.__context__
    while cause is not None and len(causes) < 4:
        causes.append(f"{type(cause).__name__}: {cause}")
        cause = cause.__cause__ or cause.__context__
    return " <- ".join(causes)


def _from_http_exception(exc: web.HTTPException) -> errors.ApiError:
    """Router and framework answers (no route, wrong method, body too big)."""
    if exc.status == 404:
        return errors.NotFound("no such endpoint", kind="RouteNotFound")
    if exc.status == 405:
        return errors.MethodNotAllowed(f"method not allowed: {exc.reason}")
    if exc.status == 413:
        return errors.PayloadTooLarge("request body is too large")
    return errors.InvalidRequest(exc.reason or "bad request")


async def _add_limit_headers(request: web.Request, response: web.StreamResponse) -> None:
    """DECISIONS.md "Limit headers": on every authenticated response. The rate
    step ``authenticate_key`` took or looked at comes with every authenticated
    request, so this costs no round trip."""
    decision = rate_or_none(request)
    if auth_or_none(request) is None or decision is None:
        return
    response.headers.update(limit_headers(decision))


def limit_headers(decision: RateDecision) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(decision.limit),
        "X-RateLimit-Remaining": str(decision.remaining),
        "X-RateLimit-Reset": str(decision.reset_at),
    }


@web.middleware
async def authenticate_key(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bearer key -> tenant and plan (spec "Authentication"); 401 otherwise.

    The same round trip takes the request from the rate limit when the route
    charges up front, or when it would charge first thing in the handler
    (``rate="handler"``) and there is no Idempotency-Key to check before it;
    otherwise it only looks, which is what the limit headers show.
    """
    policy = policy_of(request)
    if not policy.auth:
        return await handler(request)
    secret = _bearer_secret(request, policy.unauthorized_kind)
    state = app_state(request)
    charge = policy.rate == "charge" or (
        policy.rate == "handler" and IDEMPOTENCY_HEADER not in request.headers)
    access = await state.authorize(secret, cost=1 if charge else 0)
    if access is None:
        raise errors.Unauthorized("the API key is invalid or has been revoked",
                                  kind=policy.unauthorized_kind)
    set_auth(request, AuthContext(access.key, access.tenant, access.plan))
    set_rate(request, access.rate, charged=charge)
    if charge:
        _raise_if_denied(state, access.rate)
    return await handler(request)


def _bearer_secret(request: web.Request, kind: str) -> str:
    header = request.headers.get("Authorization")
    if not header:
        raise errors.Unauthorized("missing Authorization: Bearer <API key> header", kind=kind)
    match = _BEARER.match(header)
    if match is None:
        raise errors.Unauthorized("the Authorization header must be 'Bearer <API key>'",
                                  kind=kind)
    return match.group(1)


async def charge_rate(request: web.Request) -> RateDecision:
    """Take one request from the tenant's per-minute allowance; 429 when empty.
    Once per request: a request the middleware already charged is not charged
    again."""
    decision = rate_or_none(request)
    if decision is not None and rate_charged(request):
        return decision
    state = app_state(request)
    auth = auth_or_none(request)
    assert auth is not None, "charge_rate runs after authentication"
    decision = await state.call(check_rate, state.redis, auth.tenant_id,
                                auth.plan.requests_per_minute, now=state.now())
    set_rate(request, decision, charged=True)
    _raise_if_denied(state, decision)
    return decision


def _raise_if_denied(state: AppState, decision: RateDecision) -> None:
    if not decision.allowed:
        state.metrics.refused("RateLimitExceeded")
        raise errors.RateLimited(
            f"rate limit of {decision.limit} requests per minute exceeded",
            retry_after=decision.retry_after,
        )
