"""The vocabulary of the operation table: what one operation says of itself.

An ``Operation`` names the route (method, path as clients write it, and
the handler, whose ``RoutePolicy`` gives security, the 401 kind, the rate
limit and the error envelope), the pydantic models its handler validates
with (body, query, path), its answers, and the error kinds it can answer
with beyond those every route shares (``document.common_errors``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from labelrender.api.context import Handler


@dataclass(frozen=True)
class Answer:
    """One documented success (or, for ``/readyz``, its 503) answer.

    ``model`` is the JSON body's schema; ``content_type`` is what is sent
    instead for non-JSON bodies (a PNG, Prometheus text, HTML)."""

    status: int
    description: str
    model: type[BaseModel] | None = None
    content_type: str = "application/json"
    # Files the same answer may be instead, by Accept (image/png, application/pdf).
    files: tuple[str, ...] = ()
    example: Any = None
    headers: tuple[str, ...] = ()  # extra response headers (components.headers)
    # OpenAPI links: name -> (operationId, {parameter: runtime expression}).
    links: Mapping[str, tuple[str, Mapping[str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    method: str
    # An OpenAPI path template (/v1/webhooks/{webhook_id}); a request to it must
    # reach ``handler`` through the app's router, however the route is written.
    path: str
    handler: Handler
    operation_id: str
    tag: str
    summary: str
    answers: tuple[Answer, ...]
    description: str = ""
    body: Any = None  # a pydantic model, a union of them, or any type a TypeAdapter takes
    body_media: str = "application/json"  # e.g. "application/x-www-form-urlencoded"
    # Other media types the body may be sent as: media type -> a JSON schema.
    other_bodies: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # Request headers the handler reads (names in ``document.REQUEST_HEADERS``).
    headers: tuple[str, ...] = ()
    body_required: bool = True
    body_example: Any = None
    query: type[BaseModel] | None = None
    path_params: type[BaseModel] | None = None
    # Status -> the kinds this operation answers with, beyond the shared ones.
    errors: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    idempotent: bool = False  # takes Idempotency-Key, answers Idempotency-Replay
    storage: bool = True  # can answer 503 ServiceUnavailable when storage is down
