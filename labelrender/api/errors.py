"""One error type per meaning (spec "Errors", DECISIONS.md "Error bodies").

Every error carries ``status``, ``type``, ``kind``, ``message`` and ``param``;
``middleware`` turns any of them into the envelope. Subclasses fix the status
and type; ``kind`` defaults per class and can be narrowed per raise.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar


class ApiError(Exception):
    """Base of every error the API answers on purpose."""

    status: ClassVar[int] = 500
    type: ClassVar[str] = "api_error"
    default_kind: ClassVar[str] = "InternalError"

    def __init__(
        self, message: str, *, param: str | None = None, kind: str | None = None,
        retry_after: float | None = None, extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.kind = kind or self.default_kind
        self.retry_after = retry_after
        self.extra = dict(extra or {})

    def headers(self) -> dict[str, str]:
        if self.retry_after is None:
            return {}
        return {"Retry-After": format_retry_after(self.retry_after)}


def format_retry_after(seconds: float) -> str:
    """Seconds, fractional when needed (spec "Limits": may be fractional), never 0."""
    millis = max(1, math.ceil(seconds * 1000))
    text = f"{millis / 1000:.3f}".rstrip("0").rstrip(".")
    return text


# --- 400 -----------------------------------------------------------------------

class InvalidRequest(ApiError):
    status = 400
    type = "invalid_request_error"
    default_kind = "InvalidRequest"


class InvalidJson(InvalidRequest):
    default_kind = "InvalidJson"


class UnknownField(InvalidRequest):
    default_kind = "UnknownField"


class InvalidDpi(InvalidRequest):
    default_kind = "InvalidDpi"


class InvalidFontProfile(InvalidRequest):
    default_kind = "InvalidFontProfile"


# --- 401 / 402 / 403 / 404 ----------------------------------------------------------

class Unauthorized(ApiError):
    status = 401
    type = "authentication_error"
    default_kind = "Unauthorized"

    def headers(self) -> dict[str, str]:
        return {"WWW-Authenticate": "Bearer"}


class QuotaExceeded(ApiError):
    """402: the monthly allowance is used up and overages are off (Sandbox)."""

    status = 402
    type = "invalid_request_error"
    default_kind = "QuotaExceeded"


class PermissionDenied(ApiError):
    status = 403
    type = "permission_error"
    default_kind = "PermissionDenied"


class DpiNotPermitted(PermissionDenied):
    default_kind = "DpiNotPermitted"


class NotFound(ApiError):
    status = 404
    type = "not_found_error"
    default_kind = "NotFound"


class TemplateReadOnly(PermissionDenied):
    """A tenant tried to commit or delete a global template (DECISIONS.md)."""

    default_kind = "TemplateReadOnly"


class TemplateNotFound(NotFound):
    default_kind = "TemplateNotFound"


class WebhookNotFound(NotFound):
    default_kind = "WebhookNotFound"


class MethodNotAllowed(ApiError):
    status = 405
    type = "invalid_request_error"
    default_kind = "MethodNotAllowed"


class NotAcceptable(ApiError):
    """406: the Accept header takes none of the types the route answers with."""

    status = 406
    type = "invalid_request_error"
    default_kind = "NotAcceptable"


# --- 409 / 413 / 415 ----------------------------------------------------------------

class Conflict(ApiError):
    status = 409
    type = "invalid_request_error"
    default_kind = "Conflict"


class IdempotencyKeyConflict(Conflict):
    default_kind = "IdempotencyKeyConflict"


class KeyCapReached(Conflict):
    default_kind = "KeyCapReached"


class LastActiveKey(Conflict):
    default_kind = "LastActiveKey"


class WebhookCapReached(Conflict):
    """409: the tenant has the most webhook subscriptions allowed (10)."""

    default_kind = "WebhookCapReached"


class PayloadTooLarge(ApiError):
    status = 413
    type = "invalid_request_error"
    default_kind = "PayloadTooLarge"


class UnsupportedMediaType(ApiError):
    status = 415
    type = "invalid_request_error"
    default_kind = "UnsupportedMediaType"


# --- 422 / 429 ------------------------------------------------------------------------

class ValidationFailed(ApiError):
    status = 422
    type = "validation_error"
    default_kind = "ValidationFailed"


class MissingZpl(ValidationFailed):
    default_kind = "MissingZpl"


class InvalidZpl(ValidationFailed):
    default_kind = "InvalidZpl"


class RenderTooComplex(ValidationFailed):
    """422: the render went over a limit (the engine's budgets, or the render
    process's deadline, memory ceiling or a crash). Final: never retried,
    never billed; ``extra["limit"]`` names the limit."""

    default_kind = "RenderTooComplex"


class InvalidTemplate(ValidationFailed):
    """A draft whose body does not render or whose field_map does not match it."""

    default_kind = "InvalidTemplate"


class MissingField(ValidationFailed):
    """from-data without a value for some template fields; names them all."""

    default_kind = "MissingField"


class InvalidField(ValidationFailed):
    """from-data with a value the template cannot take (unknown name, not text)."""

    default_kind = "InvalidField"


class InvalidInputZpl(ValidationFailed):
    """Synthesis: input_zpl missing, empty, over 64 KB, or with no label in it."""

    default_kind = "InvalidInputZpl"


class InvalidScopeForTenantCall(ValidationFailed):
    """Synthesis: a tenant key asked for target_scope "global" (operator-only)."""

    default_kind = "InvalidScopeForTenantCall"


class InvalidTenantId(ValidationFailed):
    """Synthesis: target_tenant_id malformed or not the key's tenant."""

    default_kind = "InvalidTenantId"


class WebhookTargetRejected(ValidationFailed):
    """422: a webhook url that is not public HTTPS (DECISIONS.md "Target checks")."""

    default_kind = "WebhookTargetRejected"


class UnsupportedTopic(ValidationFailed):
    default_kind = "UnsupportedTopic"


class InvalidWebhookId(ValidationFailed):
    default_kind = "InvalidWebhookId"


class RateLimited(ApiError):
    """429: request rate or in-flight renders; always with Retry-After."""

    status = 429
    type = "rate_limit_error"
    default_kind = "RateLimitExceeded"


# --- the HTTP boundary: bodies and requests that cannot be read ----------------------

class InvalidText(InvalidRequest):
    """400: a JSON string (or name) holding a lone UTF-16 surrogate; ``param``
    is its JSON path."""

    default_kind = "InvalidText"


class IncompleteBody(InvalidRequest):
    """400: the body's framing is broken (chunked encoding) or the client left."""

    default_kind = "IncompleteBody"


class RequestTimeout(ApiError):
    """408: the body did not arrive in time (Slowloris); the connection is closed."""

    status = 408
    type = "invalid_request_error"
    default_kind = "RequestTimeout"


# --- 5xx ----------------------------------------------------------------------------

class InternalError(ApiError):
    status = 500


class BadGateway(ApiError):
    status = 502
    default_kind = "RenderFailed"


class SynthesisUnavailable(BadGateway):
    """502: the synthesis engine's upstream cannot answer now; retriable."""

    default_kind = "SynthesisUpstreamUnavailable"


class SynthesisJobNotFound(NotFound):
    default_kind = "SynthesisJobNotFound"


class ServiceUnavailable(ApiError):
    status = 503
    default_kind = "ServiceUnavailable"


class AgentOverloaded(ServiceUnavailable):
    default_kind = "AgentOverloaded"


class GatewayTimeout(ApiError):
    status = 504
    default_kind = "RenderTimeout"
