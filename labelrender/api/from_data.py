"""POST /v1/labels/from-data: render a committed template with field values.

The version is resolved once, when the request starts, and the job carries
that version's filled body: a commit or a delete meanwhile does not change a
label in flight. Cache, billing and concurrency follow the raw render
(``render.render_content``). Every success, cache hits included, records the
label in the registry and adds a ``label.rendered`` event in one transaction
before answering (DECISIONS.md "Webhooks").
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from labelrender.api import errors
from labelrender.api.body import PARSE_ON_LOOP_BYTES, canonical_json, parse_object
from labelrender.api.context import (
    AppState,
    AuthContext,
    RoutePolicy,
    app_state,
    auth_of,
    route_policy,
)
from labelrender.api.idempotency import read_then_once
from labelrender.api.labels import field_objects
from labelrender.api.middleware import charge_rate
from labelrender.api.render import RenderOutcome, label_object_key, render_content
from labelrender.store import labels, templates
from labelrender.store.events import LabelRendered, new_event_id
from labelrender.store.jobs import RenderJob
from labelrender.store.templates import TemplateVersion
from labelrender.synth.fill import FillError, fill_body

MAX_EXTERNAL_REF = 128


class FromDataBody(BaseModel):
    """The request body; strict like the raw render's (``"203"`` is not a DPI)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    template_id: str = Field(min_length=1, description="A committed tenant or global "
                                                       "template")
    # Values are checked against the template after it is found (check_fields).
    fields: dict[str, Any] = Field(
        json_schema_extra={"additionalProperties": {"type": "string"}},
        description="A string value for every field of the template, and no others")
    template_version: int | None = Field(default=None, ge=1,
                                         description="Default: the latest version")
    external_ref: str | None = Field(default=None, max_length=MAX_EXTERNAL_REF,
                                     description="Echoed in the label.rendered event")
    target_dpi: int | None = Field(default=None, ge=1, le=1200,
                                   description="Default: the template's source DPI; at most "
                                               "the plan's maximum (403)")
    threshold: bool = Field(False, description="true: hard black and white")
    # Each field's ink box in the answer (``fields`` already holds the values).
    field_boxes: bool = Field(False, description="true: each printed field's box in the "
                                                 "answer")


@dataclass(frozen=True)
class TemplateRender:
    """A validated from-data request."""

    template_id: str
    fields: dict[str, Any]
    template_version: int | None
    external_ref: str | None
    target_dpi: int | None
    threshold: bool
    field_boxes: bool = False  # answer with each field's ink box


def validate_body(payload: dict[str, Any]) -> TemplateRender:
    try:
        body = FromDataBody.model_validate(payload)
    except ValidationError as exc:
        raise _first_error(exc.errors()) from exc
    return TemplateRender(body.template_id, dict(body.fields), body.template_version,
                          body.external_ref, body.target_dpi, body.threshold, body.field_boxes)


# The 400s first (unknown field, DPI), then the 422s in the order of the body.
_PRECEDENCE = ("extra", "target_dpi", "template_id", "fields", "template_version",
               "external_ref", "threshold", "field_boxes")
_MESSAGES = {
    "template_id": ("MissingTemplateId", "template_id is required and must be a string"),
    "fields": ("MissingField", "fields is required and must be an object of field values"),
    "template_version": ("InvalidTemplateVersion", "template_version must be an integer >= 1"),
    "external_ref": ("InvalidExternalRef",
                     f"external_ref must be a string of at most {MAX_EXTERNAL_REF} characters"),
    "threshold": ("InvalidThreshold", "threshold must be true or false"),
    "field_boxes": ("InvalidFieldBoxes", "field_boxes must be true or false"),
}


def _first_error(details: list[ErrorDetails]) -> errors.ApiError:
    def field_of(detail: ErrorDetails) -> str:
        if detail["type"] == "extra_forbidden":
            return "extra"
        return str(detail["loc"][0]) if detail["loc"] else ""

    detail = min(details, key=lambda d: _PRECEDENCE.index(field_of(d))
                 if field_of(d) in _PRECEDENCE else len(_PRECEDENCE))
    field = field_of(detail)
    if field == "extra":
        name = str(detail["loc"][0])
        return errors.UnknownField(f"unrecognized field {name!r}", param=name)
    if field == "target_dpi":
        return errors.InvalidDpi("target_dpi must be an integer from 1 to 1200", param=field)
    kind, message = _MESSAGES.get(field, ("ValidationFailed", detail["msg"]))
    return errors.ValidationFailed(message, param=field or None, kind=kind)


def template_content_hash(tenant_id: str, version: TemplateVersion, fields: dict[str, str],
                          target_dpi: int, threshold: bool) -> str:
    """DECISIONS.md "Hashes": sha256 over the canonical JSON of {tenant,
    template_id, version, fields, target_dpi, threshold}; per tenant."""
    return hashlib.sha256(canonical_json({
        "tenant": tenant_id, "template_id": version.template_id, "version": version.version,
        "fields": fields, "target_dpi": target_dpi, "threshold": threshold,
    })).hexdigest()


def _misspelt(unknown: list[str], missing: list[str]) -> str:
    """The names given that the template does not use, each with the missing
    name it most looks like: a misspelling shows as what it is."""
    if not unknown:
        return ""
    named = []
    for name in unknown:
        close = difflib.get_close_matches(name, missing, n=1)
        named.append(f"{name} (did you mean {close[0]}?)" if close else name)
    return f"; fields the template does not use: {', '.join(named)}"


def check_fields(version: TemplateVersion, values: dict[str, Any]) -> dict[str, str]:
    """422 naming every missing field (no fallback to samples), then every value
    the template cannot take."""
    missing = sorted(set(version.field_map) - set(values))
    unknown = sorted(set(values) - set(version.field_map))
    if missing:
        raise errors.MissingField(f"missing values for fields: {', '.join(missing)}"
                                  + _misspelt(unknown, missing),
                                  param="fields", extra={"missing_fields": missing})
    if unknown:
        raise errors.InvalidField(
            f"fields the template does not use: {', '.join(unknown)}", param="fields",
            kind="UnknownField", extra={"unknown_fields": unknown})
    not_text = sorted(name for name, value in values.items() if not isinstance(value, str))
    if not_text:
        raise errors.InvalidField(f"field values must be strings: {', '.join(not_text)}",
                                  param="fields", extra={"invalid_fields": not_text})
    return {name: str(value) for name, value in values.items()}


async def resolve_version(state: AppState, tenant_id: str, params: TemplateRender
                          ) -> TemplateVersion:
    version = await state.call(templates.resolve, state.redis, tenant_id, params.template_id,
                               params.template_version, state.global_templates)
    if version is not None:
        return version
    if params.template_version is not None:
        latest = await state.call(templates.resolve, state.redis, tenant_id, params.template_id,
                                  None, state.global_templates)
        if latest is not None:
            raise errors.TemplateNotFound(
                f"template {params.template_id!r} has no version {params.template_version}",
                param="template_version")
    raise errors.TemplateNotFound(f"no template {params.template_id!r}", param="template_id")


def check_plan_dpi(target_dpi: int, auth: AuthContext) -> None:
    if target_dpi > auth.plan.max_dpi:
        raise errors.DpiNotPermitted(
            f"target_dpi {target_dpi} is above the {auth.plan.name} plan's maximum of "
            f"{auth.plan.max_dpi} dpi", param="target_dpi")


async def render_template(state: AppState, auth: AuthContext, params: TemplateRender
                          ) -> tuple[TemplateVersion, RenderOutcome]:
    """Resolve, check, render (or find the stored label), then record and emit."""
    version = await resolve_version(state, auth.tenant_id, params)
    return version, await render_version(state, auth, version, params)


async def render_version(state: AppState, auth: AuthContext, version: TemplateVersion,
                         params: TemplateRender, *, emit: bool = True) -> RenderOutcome:
    """Check, render (or find the stored label), then record it, and emit its
    ``label.rendered`` event unless ``emit`` is off (a batch's rows)."""
    tenant_id = auth.tenant_id
    fields = check_fields(version, params.fields)
    target_dpi = params.target_dpi or version.source_dpi
    check_plan_dpi(target_dpi, auth)
    content_hash = template_content_hash(tenant_id, version, fields, target_dpi,
                                         params.threshold)

    async def prepare(job_id: str) -> RenderJob:
        body, zpl = await filled_template(state, version, fields)
        numbers = {"field_numbers": placeholder_spans(body, zpl)} if params.field_boxes else {}
        return RenderJob(
            tenant=tenant_id, content_hash=content_hash,
            object_key=label_object_key(tenant_id, content_hash),
            zpl=zpl, source_dpi=version.source_dpi,
            target_dpi=target_dpi, threshold=params.threshold, width_dots=version.width_dots,
            height_dots=version.height_dots, kind="template", job_id=job_id,
            extra={"template_id": version.template_id, "template_version": version.version,
                   "external_ref": params.external_ref, **numbers}, fields=params.field_boxes,
        )

    outcome = await render_content(state, auth, content_hash, prepare, [],
                                   fields=params.field_boxes)
    await state.call(_record, state, tenant_id, version, outcome, params.external_ref, emit)
    return outcome


async def filled_template(state: AppState, version: TemplateVersion, fields: dict[str, str]
                          ) -> tuple[str, str]:
    """The template's body, and that body filled with ``fields``."""
    body = await state.call_objects(templates.load_body, state.objects, version)
    if body is None:  # deleted after this request resolved it
        raise errors.TemplateNotFound(f"no template {version.template_id!r}",
                                      param="template_id")
    try:
        return body, await state.call(fill_body, body, version.field_map, fields)
    except FillError as exc:
        raise errors.InvalidField(str(exc), param="fields") from exc


_FIELD_NUMBER = re.compile(rb"\^FN(\d+)")


def placeholder_spans(body: str, filled: str) -> list[list[int]]:
    """[start, end, n] byte ranges of the filled body whose field was ``^FN<n>`` in
    the template. Filling writes each value as ``^FD`` data in place of its ``^FN``
    (values cannot hold ``^FS``: they are ``^FH``-escaped), so the k-th field of both
    bodies, counted by ``^FS``, is the same field. The worker gives each field box
    found in a range its number."""
    spans = []
    template_fields = body.encode().split(b"^FS")
    start = 0
    for k, part in enumerate(filled.encode().split(b"^FS")):
        end = start + len(part)
        number = _FIELD_NUMBER.search(template_fields[k]) if k < len(template_fields) else None
        if number is not None:
            spans.append([start, end, int(number.group(1))])
        start = end + 3
    return spans


def _record(state: AppState, tenant_id: str, version: TemplateVersion, outcome: RenderOutcome,
            external_ref: str | None, emit: bool) -> None:
    now = state.now()
    object_key = label_object_key(tenant_id, outcome.content_hash)
    record = labels.LabelRecord(outcome.content_hash, object_key, version.template_id,
                                version.version, outcome.created_at, outcome.size_bytes)
    if not emit:
        labels.record_only(state.redis, tenant_id, record)
        return
    event = LabelRendered(
        event_id=new_event_id(now), tenant_id=tenant_id, content_hash=outcome.content_hash,
        object_key=object_key, template_id=version.template_id,
        template_version=version.version, external_ref=external_ref, cached=outcome.cached,
        created_at=now)
    labels.record_render(state.redis, tenant_id, record, event)


@route_policy(RoutePolicy(rate="handler", kinds=True))
async def create_from_data(request: web.Request) -> web.StreamResponse:
    return await read_then_once(request, _render)


async def _render(request: web.Request, raw: bytes) -> web.Response:
    await charge_rate(request)
    state = app_state(request)
    payload = (await state.parse(parse_object, raw) if len(raw) > PARSE_ON_LOOP_BYTES
               else parse_object(raw))
    params = validate_body(payload)
    version, outcome = await render_template(state, auth_of(request), params)
    body: dict[str, Any] = {
        "status": "ok", "content_hash": outcome.content_hash, "url": outcome.url,
        "cached": outcome.cached, "template_id": version.template_id,
        "template_version": version.version, "warnings": outcome.warnings,
    }
    if outcome.fields is not None:
        body["field_boxes"] = field_objects(outcome.fields)
    return web.json_response(body)


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/labels/from-data", create_from_data)
