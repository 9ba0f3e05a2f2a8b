"""Templates: commit (``POST /v1/templates/:id``), list (``GET /v1/templates``) and
delete (``DELETE /v1/templates/:id``), as DECISIONS.md "Templates" settles them.

A tenant sees its own templates and the global ones; another tenant's are never
found (404), and global ones are read-only to tenants (403). A commit renders
its body once to check it, in the API's engine processes (``api.engine``)
under the render limits: a body over one is 422 ``RenderTooComplex``.
"""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labelrender.api import errors
from labelrender.api.body import parse_object, read_body
from labelrender.api.context import AppState, RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.engine import EngineProcesses, engine_processes
from labelrender.store import templates
from labelrender.store.clock import iso
from labelrender.store.templates import Draft, TemplateSummary, TemplateVersion
from labelrender.worker.engine_calls import TOO_COMPLEX, Refused, check_template
from labelrender.worker.sandbox import CallFailed

DPI = Field(default=None, ge=1, le=1200)
DOTS = Field(default=None, ge=1, le=100_000)
_TEMPLATE_POLICY = RoutePolicy(kinds=True)


class DraftBody(BaseModel):
    """A draft as synthesis returns it; ``body`` and ``field_map`` are required."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    body: str
    field_map: dict[str, int]
    values: dict[str, str] | None = None
    name: str | None = Field(default=None, max_length=200)
    width_dots: int | None = DOTS
    height_dots: int | None = DOTS
    source_dpi: int | None = DPI
    description: str | None = Field(default=None, max_length=2000)

    def to_draft(self) -> Draft:
        return Draft(body=self.body, field_map=dict(self.field_map),
                     values=dict(self.values or {}), name=self.name,
                     width_dots=self.width_dots, height_dots=self.height_dots,
                     source_dpi=self.source_dpi or 203, description=self.description)


class SynthesisBody(BaseModel):
    """A synthesis response committed as returned: its ``draft`` is what counts;
    the other fields of the response are accepted and ignored."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    draft: DraftBody
    status: Any = None
    scope: Any = None
    tenant_id: Any = None
    template_id: Any = None
    confidence_score: Any = None
    low_confidence: Any = None
    warnings: Any = None
    confidence_components: Any = None
    field_confidence: Any = None
    synthesis_meta: Any = Field(default=None, alias="_synthesis_meta")


# A commit body: the draft's fields at the top level, or a synthesis response.
CommitBody = DraftBody | SynthesisBody


def parse_draft(payload: dict[str, Any]) -> Draft:
    """``{"draft": {...}}`` (a synthesis response) or the draft's fields at the top."""
    model: type[BaseModel] = SynthesisBody if "draft" in payload else DraftBody
    try:
        body = model.model_validate(payload)
    except ValidationError as exc:
        raise _draft_error(exc) from exc
    draft = body.draft if isinstance(body, SynthesisBody) else body
    assert isinstance(draft, DraftBody)
    return draft.to_draft()


def _draft_error(exc: ValidationError) -> errors.ApiError:
    """Unknown keys of a synthesis response first, then the draft's first problem."""
    details = exc.errors()
    unknown = sorted((d for d in details if d["type"] == "extra_forbidden" and len(d["loc"]) == 1),
                     key=lambda d: str(d["loc"][0]))
    detail = unknown[0] if unknown else details[0]
    if detail["loc"] == ("draft",):
        return errors.ValidationFailed("draft must be an object", param="draft",
                                       kind="InvalidDraft")
    field = ".".join(str(part) for part in detail["loc"])
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized field {field!r}", param=field)
    if detail["type"] == "missing":
        return errors.ValidationFailed(f"{field} is required", param=field,
                                       kind="MissingField")
    return errors.ValidationFailed(f"{field}: {detail['msg']}", param=field,
                                   kind="InvalidDraft")


class TemplatePath(BaseModel):
    """The template id a commit names in its path."""

    model_config = ConfigDict(frozen=True)

    template_id: str = Field(pattern=templates.TEMPLATE_ID.pattern, examples=["tpl_shipping"],
                             description="Letters, digits, '.', '_' or '-', not starting "
                                         "with '.'; 1 to 128 characters")


class TemplateListQuery(BaseModel):
    """``GET /v1/templates``'s query; other parameters are ignored."""

    model_config = ConfigDict(frozen=True)

    scope: Literal["tenant", "global"] | None = Field(
        default=None, description="Only the tenant's own templates, or only global ones")


def checked_id(template_id: str) -> str:
    try:
        return TemplatePath(template_id=template_id).template_id
    except ValidationError as exc:
        raise errors.ValidationFailed(
            "a template id is 1 to 128 letters, digits, '.', '_' or '-', not starting "
            "with '.'", param="template_id", kind="InvalidTemplateId") from exc


async def commit_template(state: AppState, engine: EngineProcesses, tenant_id: str,
                          template_id: str, draft: Draft) -> TemplateVersion:
    """Check the draft, then store it as the id's next version."""
    if await state.call(templates.is_global, state.redis, template_id):
        raise errors.TemplateReadOnly(
            f"{template_id!r} is a global template; tenants cannot change it",
            param="template_id")
    try:
        checked = await engine.call(tenant_id, "body", check_template, draft)
    except CallFailed as exc:  # the engine broke on this body: it does not render
        raise errors.InvalidTemplate(f"the body does not render: {exc}", param="body",
                                     kind="InvalidZpl") from exc
    if isinstance(checked, Refused):
        if checked.kind == TOO_COMPLEX:
            raise errors.RenderTooComplex(checked.message, param=checked.param)
        raise errors.InvalidTemplate(checked.message, param=checked.param, kind=checked.kind)
    return await state.call_objects(templates.commit, state.redis, state.objects, tenant_id,
                                    template_id, draft, checked, now=state.now())


@route_policy(_TEMPLATE_POLICY)
async def post_template(request: web.Request) -> web.Response:
    state = app_state(request)
    template_id = checked_id(request.match_info["template_id"])
    payload = parse_object(await read_body(request, state.config.max_body_bytes))
    auth = auth_of(request)
    version = await commit_template(state, engine_processes(request.app), auth.tenant_id,
                                    template_id, parse_draft(payload))
    return web.json_response({
        "status": "ok", "template_id": template_id, "version": version.version,
        "scope": version.scope, "tenant_id": auth.tenant_id,
        "field_names": version.field_names, "created_at": iso(version.created_at),
    }, status=201)


@route_policy(_TEMPLATE_POLICY)
async def list_templates(request: web.Request) -> web.Response:
    state = app_state(request)
    try:
        scope = TemplateListQuery.model_validate({"scope": request.query.get("scope")}).scope
    except ValidationError as exc:
        raise errors.InvalidRequest("scope must be tenant or global", param="scope",
                                    kind="InvalidScope") from exc
    tenant_id = auth_of(request).tenant_id
    found: list[TemplateSummary] = []
    if scope in (None, "tenant"):
        found += await state.call(templates.list_templates, state.redis, tenant_id)
    if scope in (None, "global"):
        found += await state.call(templates.list_templates, state.redis, None)
    return web.json_response({"templates": [_summary_json(s) for s in found]})


def _summary_json(summary: TemplateSummary) -> dict[str, Any]:
    return {"id": summary.template_id, "scope": summary.scope, "name": summary.name,
            "latest_version": summary.latest_version, "versions": summary.versions,
            "field_names": summary.field_names, "created_at": iso(summary.created_at),
            "updated_at": iso(summary.updated_at)}


@route_policy(_TEMPLATE_POLICY)
async def delete_template(request: web.Request) -> web.Response:
    state = app_state(request)
    template_id = request.match_info["template_id"]
    tenant_id = auth_of(request).tenant_id
    deleted = await state.call_objects(templates.delete, state.redis, state.objects, tenant_id,
                                       template_id)
    if deleted:
        return web.json_response({"status": "deleted", "template_id": template_id})
    if await state.call(templates.is_global, state.redis, template_id):
        raise errors.TemplateReadOnly(
            f"{template_id!r} is a global template; tenants cannot delete it",
            param="template_id")
    raise errors.TemplateNotFound(f"no template {template_id!r}", param="template_id")


# ``synthesize`` is the synthesis endpoint, never a template id, whatever the
# order in which the routes are added.
_TEMPLATE_PATH = r"/v1/templates/{template_id:(?!synthesize$)[^/]+}"


def add_routes(app: web.Application) -> None:
    engine_processes(app)
    app.router.add_get("/v1/templates", list_templates)
    app.router.add_post(_TEMPLATE_PATH, post_template)
    app.router.add_delete(_TEMPLATE_PATH, delete_template)

