"""Build the OpenAPI 3.1 document from the operation table and the code.

What comes from the code: request bodies, query and path parameters (the
handlers' pydantic models), security, the 401 kind, the 429 and the error
envelope's ``status``/``errors`` (each handler's ``RoutePolicy``), the error
``type`` of each status (``api.errors``), and the parse-error kinds
(``api.server``). What the table states by hand (answers, examples, the
kinds an operation adds) is held to the code by the tests.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import BaseModel, TypeAdapter

from labelrender import __version__
from labelrender.api import errors
from labelrender.api.context import RoutePolicy, policy_for
from labelrender.api.openapi import examples, schemas
from labelrender.api.openapi.operations import OPERATIONS
from labelrender.api.openapi.spec import Answer, Operation
from labelrender.api.server import PARSE_ERROR_KINDS
from labelrender.worker.delivery import EVENT_ID_HEADER, SIGNATURE_HEADER, TOPIC_HEADER

REF = "#/components/schemas/{model}"
BODY_400 = ("InvalidJson", "InvalidText", "IncompleteBody", "UnknownField")
RETRY_STATUSES = (429, 502, 503, 504)
_PATH_PARAM = re.compile(r"{(\w+)}")


def any_case(*words: str) -> str:
    """A pattern matching any of ``words`` in any letter case (JSON Schema
    patterns take no flags)."""
    def letters(word: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c)
                       for c in word)
    return "^(" + "|".join(letters(word) for word in words) + ")$"


TAGS = (
    ("Labels", "Render raw ZPL or a template, and list rendered labels."),
    ("Batches", "One template, up to 10,000 rows of fields (JSON or CSV), one PDF."),
    ("Graphics", "Images and PDF pages into ZPL graphic fields (`^GF`), as Labelary's "
                 "`POST /v1/graphics`."),
    ("Templates", "Synthesize drafts from legacy ZPL, commit, list and delete templates."),
    ("Account", "The tenant, plan and live counters behind the key."),
    ("Keys", "API keys: create, list, revoke."),
    ("Webhooks", "Subscriptions to `label.rendered` and `batch.completed`, their "
                 "deliveries and test sends."),
    ("Files", "Signed label URLs (filesystem object store)."),
    ("Operations", "Probes and metrics, for the platform rather than integrators."),
    ("Studio", "The studio web page and its files, no key needed."),
    ("Reference", "This document and the page rendered from it."),
)

HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-Id": {"description": "The request's id (the caller's `X-Request-Id` when "
                                    "it is 1 to 128 of `A-Za-z0-9._:-`)",
                     "schema": {"type": "string"}},
    "X-RateLimit-Limit": {"description": "Requests per minute the plan allows",
                          "schema": {"type": "integer"}},
    "X-RateLimit-Remaining": {"description": "Requests left now",
                              "schema": {"type": "integer"}},
    "X-RateLimit-Reset": {"description": "When the allowance is full again (unix seconds)",
                          "schema": {"type": "integer"}},
    "Retry-After": {"description": "Seconds to wait; may be fractional",
                    "schema": {"type": "string", "pattern": r"^\d+(\.\d+)?$"}},
    "WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}},
    "Idempotency-Replay": {"description": "`true` on an answer replayed for an "
                                          "`Idempotency-Key` seen before",
                           "schema": {"type": "string", "enum": ["true"]}},
    "Cache-Control": {"description": "How long the answer may be kept (`no-store` on "
                                     "answers carrying a secret)",
                      "schema": {"type": "string"}},
    "Content-Security-Policy": {"description": "The page loads from this origin only",
                                "schema": {"type": "string"}},
    "X-Content-Hash": {"description": "The label's `content_hash`",
                       "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
    "X-Cached": {"description": "`true` when the stored label answered (not billed)",
                 "schema": {"type": "string", "enum": ["true", "false"]}},
    "X-Total-Count": {"description": "How many labels the ZPL holds",
                      "schema": {"type": "string", "pattern": "^[0-9]+$"}},
    "X-Warnings": {"description": "With `X-Linter: On`: Labelary's linter format, "
                                  "`offset|size|command|parameter|message` for each warning, "
                                  "all joined by `|`, at most 20",
                   "schema": {"type": "string"}},
}
BINARY = ("image/png", "application/pdf")
# The Labelary route's request headers (``api.labelary``), as Labelary names
# them; values are read case-insensitively.
REQUEST_HEADERS: dict[str, dict[str, Any]] = {
    "X-Rotation": {"description": "Degrees clockwise to turn the label",
                   "schema": {"type": "string", "enum": ["0", "90", "180", "270"]}},
    "X-Quality": {"description": "`Grayscale` (default) or `Bitonal` (hard black and white)",
                  "schema": {"type": "string", "pattern": any_case("Grayscale", "Bitonal")}},
    "X-Page-Size": {"description": "PDF only: lay labels out on sheets of this size",
                    "schema": {"type": "string",
                               "pattern": any_case("Letter", "Legal", "A4", "A5", "A6")}},
    "X-Page-Orientation": {"description": "PDF sheets: `Landscape`; anything else is portrait",
                           "schema": {"type": "string"}},
    "X-Page-Layout": {"description": "PDF sheets: COLUMNSxROWS labels a sheet, such as `2x3`",
                      "schema": {"type": "string",
                                 "pattern": r"^(0?[1-9]|[1-9][0-9])[xX](0?[1-9]|[1-9][0-9])$"}},
    "X-Label-Border": {"description": "PDF: `Dashed` (default on sheets), `Solid` or `None`",
                       "schema": {"type": "string", "pattern": any_case("Dashed", "Solid",
                                                                        "None")}},
    "X-Linter": {"description": "`On`: the answer carries `X-Warnings`",
                 "schema": {"type": "string"}},
}
LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")

DESCRIPTION = """\
Render Zebra ZPL II labels to PNG, from raw ZPL or from templates synthesized
from legacy labels. Every path below is under the service's origin; the API
lives under `/v1`.

## Authentication
Every `/v1` request but `GET /v1/openapi.json` and signed file URLs carries
`Authorization: Bearer svc_live_<64 hex>`. The tenant always comes from the key.

## Errors
Every error answers with the envelope
`{"error": {"type", "kind", "message", "param", "request_id"}}`; labels,
templates and synthesis also carry `"status": "error"` and
`"errors": [{"kind", "message"}]`. `kind` says exactly what went wrong; each
operation lists the kinds of each status. Any request the HTTP parser cannot
read is a 400 (`MalformedRequest`, `LineTooLong`, `InvalidMethod`,
`InvalidUrl`, `InvalidHeader`); a path that is not below is 404
`RouteNotFound`, a method a path does not take 405 `MethodNotAllowed`.

## Limits
Authenticated answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
`X-RateLimit-Reset`. Over the rate or the renders in flight: 429 with
`Retry-After` (seconds, may be fractional). Monthly allowances: 402
`QuotaExceeded` with `upgrade_url` when overages are off.

## Idempotency
`POST /v1/labels`, `POST /v1/labels/from-data` and the Labelary route take
`Idempotency-Key`: a replay of the same request answers as the first time,
with `Idempotency-Replay: true`; any other request under the key is 409
`IdempotencyKeyConflict`. The same request is the same method, route, path
parameters, query, body (JSON compared as values) and answer-shaping headers
(`Accept`, `Content-Type`, `X-Rotation`, `X-Quality`, `X-Page-*`,
`X-Label-Border`, `X-Linter`).

## Versioning
Within v1, changes are backward compatible: new endpoints, new optional
request fields, new response fields. Clients must ignore response fields
they do not know. `HEAD` is answered wherever `GET` is, without a body.
"""


class Components:
    """``components.schemas``, filled as operations name models."""

    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}

    def schema(self, model: Any, mode: str) -> dict[str, Any]:
        """A ``$ref`` to ``model`` (a pydantic model), or the inline schema of a
        union of models; the models it names are added to the components."""
        generated = TypeAdapter(model).json_schema(ref_template=REF, mode=mode)  # type: ignore[arg-type]
        for name, definition in generated.pop("$defs", {}).items():
            self._add(name, definition)
        if isinstance(model, type) and issubclass(model, BaseModel):
            self._add(model.__name__, generated)
            return {"$ref": REF.format(model=model.__name__)}
        return generated

    def _add(self, name: str, definition: dict[str, Any]) -> None:
        definition = without_property_titles(definition)
        known = self.schemas.setdefault(name, definition)
        if known != definition:
            raise ValueError(f"two different schemas are both named {name!r}")


def without_property_titles(schema: Any) -> Any:
    """Drop pydantic's per-property ``title`` (the property's name again)."""
    if isinstance(schema, list):
        return [without_property_titles(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    cleaned = {key: without_property_titles(value) for key, value in schema.items()}
    properties = cleaned.get("properties")
    if isinstance(properties, dict):
        cleaned["properties"] = {name: {k: v for k, v in prop.items() if k != "title"}
                                 for name, prop in properties.items()}
    return cleaned


def status_types() -> dict[int, str]:
    """Error ``type`` by status, from ``api.errors``' classes (one type each)."""
    found: dict[int, str] = {}
    pending: list[type[errors.ApiError]] = [errors.ApiError]
    while pending:
        error_class = pending.pop()
        pending.extend(error_class.__subclasses__())
        known = found.setdefault(error_class.status, error_class.type)
        if known != error_class.type:
            raise ValueError(f"status {error_class.status} has two types")
    return found


def common_errors(operation: Operation, policy: RoutePolicy) -> dict[int, list[str]]:
    """The kinds every operation of its sort can answer with."""
    shared: dict[int, list[str]] = {400: list(PARSE_ERROR_KINDS)}
    if operation.query is not None and operation.query.model_config.get("extra") == "forbid":
        shared[400].append("UnknownField")
    if operation.body is not None:
        if operation.body_media == "application/json":
            shared[400] += BODY_400
        shared.update({408: ["RequestTimeout"], 413: ["PayloadTooLarge"],
                       415: ["UnsupportedMediaType"]})
    if policy.auth:
        shared[401] = [policy.unauthorized_kind]
        if policy.rate in ("charge", "handler"):
            shared[429] = ["RateLimitExceeded"]
    if operation.storage:
        shared[503] = ["ServiceUnavailable"]
    return shared


def error_kinds(operation: Operation, policy: RoutePolicy) -> dict[int, list[str]]:
    kinds = common_errors(operation, policy)
    for status, extra in operation.errors.items():
        kinds[status] = kinds.get(status, []) + list(extra)
    return {status: sorted(set(kinds[status])) for status in sorted(kinds)}


def header_refs(names: tuple[str, ...] | list[str],
                required: tuple[str, ...] = ()) -> dict[str, Any]:
    refs: dict[str, Any] = {}
    for name in names:
        if name in required:
            refs[name] = {**HEADERS[name], "required": True}
        else:
            refs[name] = {"$ref": f"#/components/headers/{name}"}
    return refs


def answer_headers(operation: Operation, policy: RoutePolicy, status: int,
                   extra: tuple[str, ...] = ()) -> dict[str, Any]:
    names = ["X-Request-Id"]
    if policy.auth and status != 401:
        names += LIMIT_HEADERS
    if operation.idempotent and status < 500 and status not in (401, 402, 429):
        names.append("Idempotency-Replay")
    required: tuple[str, ...] = ()
    if status in RETRY_STATUSES or (status == 409 and operation.idempotent):
        names.append("Retry-After")
        required = ("Retry-After",) if status == 429 else ()
    if status == 401:
        names.append("WWW-Authenticate")
        required = ("WWW-Authenticate",)
    return header_refs([*names, *extra], required)


def error_response(operation: Operation, policy: RoutePolicy, status: int,
                   kinds: list[str], types: dict[int, str]) -> dict[str, Any]:
    detail = {"type": "object", "properties": {
        "type": {"const": types[status]}, "kind": {"enum": kinds}}}
    narrowing: dict[str, Any] = {"type": "object", "properties": {"error": detail}}
    if policy.kinds:
        narrowing["required"] = ["status", "errors"]
    return {
        "description": f"`{types[status]}`: " + ", ".join(f"`{kind}`" for kind in kinds),
        "headers": answer_headers(operation, policy, status),
        "content": {"application/json": {"schema": {"allOf": [
            {"$ref": REF.format(model="ErrorBody")}, narrowing]}}},
    }


def success_response(operation: Operation, policy: RoutePolicy, answer: Answer,
                     components: Components) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": answer.description,
        "headers": answer_headers(operation, policy, answer.status, answer.headers)}
    media: dict[str, Any] = {}
    if answer.model is not None:
        media["schema"] = components.schema(answer.model, "serialization")
    elif answer.content_type in BINARY:
        media["schema"] = binary(answer.content_type)
    elif answer.content_type.startswith("application/json"):
        media["schema"] = {"type": "object"}
    else:
        media["schema"] = {"type": "string"}
    if answer.example is not None:
        media["example"] = answer.example
    response["content"] = {answer.content_type: media}
    for content_type in answer.files:
        response["content"][content_type] = {"schema": binary(content_type)}
    if answer.links:
        response["links"] = {name: {"operationId": target, "parameters": dict(parameters)}
                             for name, (target, parameters) in answer.links.items()}
    return response


def binary(content_type: str) -> dict[str, Any]:
    return {"type": "string", "format": "binary", "contentMediaType": content_type}


def without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``X | None`` as a parameter: a parameter is absent, never null."""
    options = schema.get("anyOf")
    if not options:
        return schema
    kept = [option for option in options if option != {"type": "null"}]
    rest = {key: value for key, value in schema.items() if key != "anyOf"}
    return {**kept[0], **rest} if len(kept) == 1 else {**rest, "anyOf": kept}


def parameters_of(model: type[BaseModel] | None, location: str) -> dict[str, dict[str, Any]]:
    if model is None:
        return {}
    generated = model.model_json_schema(ref_template=REF, mode="validation")
    required = set(generated.get("required", ()))
    found: dict[str, dict[str, Any]] = {}
    for name, prop in generated["properties"].items():
        schema = without_null({k: v for k, v in prop.items()
                               if k != "title" and not (k == "default" and v is None)})
        description = schema.pop("description", None)
        parameter: dict[str, Any] = {"name": name, "in": location,
                                     "required": location == "path" or name in required,
                                     "schema": schema}
        if description:
            parameter["description"] = description
        found[name] = parameter
    return found


def operation_parameters(operation: Operation) -> list[dict[str, Any]]:
    declared = parameters_of(operation.path_params, "path")
    path_params = [declared.get(name, {"name": name, "in": "path", "required": True,
                                       "schema": {"type": "string"}})
                   for name in _PATH_PARAM.findall(operation.path)]
    found = path_params + list(parameters_of(operation.query, "query").values())
    found += [{"name": name, "in": "header", **REQUEST_HEADERS[name]}
              for name in operation.headers]
    if operation.idempotent:
        found.append({"name": "Idempotency-Key", "in": "header", "required": False,
                      "description": "Replays of the same key and body answer as the first "
                                     "time; 24 h", "schema": {"type": "string", "minLength": 1,
                                                               "maxLength": 255}})
    return found


def operation_object(operation: Operation, components: Components,
                     types: dict[int, str]) -> dict[str, Any]:
    policy = policy_for(operation.handler, operation.path)
    built: dict[str, Any] = {"tags": [operation.tag], "summary": operation.summary,
                             "operationId": operation.operation_id}
    if operation.description:
        built["description"] = operation.description
    built["security"] = [{"bearerAuth": []}] if policy.auth else []
    parameters = operation_parameters(operation)
    if parameters:
        built["parameters"] = parameters
    if operation.body is not None:
        media: dict[str, Any] = {"schema": components.schema(operation.body, "validation")}
        if operation.body_example is not None:
            media["example"] = operation.body_example
        content = {operation.body_media: media}
        content.update({media_type: {"schema": dict(schema)}
                        for media_type, schema in operation.other_bodies.items()})
        built["requestBody"] = {"required": operation.body_required, "content": content}
    responses: dict[int, Any] = {
        answer.status: success_response(operation, policy, answer, components)
        for answer in operation.answers}
    for status, kinds in error_kinds(operation, policy).items():
        if status in responses:
            raise ValueError(f"{operation.operation_id}: {status} is an answer and an error")
        responses[status] = error_response(operation, policy, status, kinds, types)
    built["responses"] = {str(status): responses[status] for status in sorted(responses)}
    return built


_VERIFY = (
    "Verify before parsing: HMAC-SHA256 keyed by the subscription's `signing_secret` over "
    "`<t>.` followed by the raw body, hex, compared in constant time with `v1`; refuse "
    "timestamps older than 5 minutes. Any 2xx acknowledges; otherwise it is retried after "
    "5 s, 30 s, 2 min, 10 min and 1 h (±20%), then dead-lettered. Deduplicate on the "
    "event id.")


def webhooks(components: Components) -> dict[str, Any]:
    """The events as the receiver sees them (``worker.delivery``)."""
    return {
        "label.rendered": _event(
            components, "labelRendered", "A template label was rendered",
            "POSTed to each subscription's URL after every successful `POST "
            "/v1/labels/from-data`, cache hits included. ", "label.rendered",
            schemas.LabelRenderedEvent, examples.LABEL_RENDERED),
        "batch.completed": _event(
            components, "batchCompleted", "A batch render completed",
            "POSTed to each subscription that asked for the `batch.completed` topic when "
            "a batch has a result for every row; `data.url` is its PDF. ",
            "batch.completed", schemas.BatchCompletedEvent, examples.BATCH_COMPLETED),
    }


def _event(components: Components, operation_id: str, summary: str, when: str, topic: str,
           model: type[schemas.Answer], example: Any) -> dict[str, Any]:
    return {"post": {
        "operationId": operation_id,
        "summary": summary,
        "description": when + _VERIFY,
        "parameters": [
            {"name": SIGNATURE_HEADER, "in": "header", "required": True,
             "description": "`t=<unix seconds>,v1=<hex HMAC-SHA256>`",
             "schema": {"type": "string", "pattern": r"^t=\d+,v1=[0-9a-f]{64}$"}},
            {"name": EVENT_ID_HEADER, "in": "header", "required": True,
             "description": "The event id, stable across retries",
             "schema": {"type": "string", "pattern": r"^evt_\d+_[0-9a-f]{8}$"}},
            {"name": TOPIC_HEADER, "in": "header", "required": True,
             "schema": {"type": "string", "enum": [topic]}},
        ],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": components.schema(model, "serialization"),
            "example": example}}},
        "responses": {"2XX": {"description": "Acknowledged"},
                      "default": {"description": "Not acknowledged: retried with backoff"}},
    }}


def build_document() -> dict[str, Any]:
    """The whole document, in a stable order."""
    components = Components()
    types = status_types()
    paths: dict[str, dict[str, Any]] = {}
    for operation in OPERATIONS:
        methods = paths.setdefault(operation.path, {})
        methods[operation.method.lower()] = operation_object(operation, components, types)
    hooks = webhooks(components)
    components.schema(schemas.ErrorBody, "serialization")
    return {
        "openapi": "3.1.0",
        "info": {"title": "labelrender API", "version": __version__,
                 "description": DESCRIPTION},
        "servers": [{"url": "/", "description": "The service's origin"}],
        "tags": [{"name": name, "description": text} for name, text in TAGS],
        "paths": paths,
        "webhooks": hooks,
        "components": {
            "schemas": dict(sorted(components.schemas.items())),
            "headers": copy.deepcopy(HEADERS),
            "securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer",
                "description": "An API key: `svc_live_` and 64 hex digits"}},
        },
    }
