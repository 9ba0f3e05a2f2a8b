"""Template synthesis: legacy ZPL -> template draft (spec "POST /v1/templates/synthesize").

Order of checks: the key (401 ``PRE_AUTH_UNAUTHORIZED``) and the rate limit in
the middleware, the body (413, 400 ``InvalidJson``, 400 ``UnknownField``), its
fields (422 ``InvalidInputZpl``, ``InvalidScopeForTenantCall``,
``InvalidTenantId``), then the monthly synthesis quota (402 ``QuotaExceeded``).
One unit is counted per success: a failure gives it back.

The synthesis itself renders the label, so it runs in the API's engine
processes (``api.engine``) under the render limits: over one it is 422
``RenderTooComplex``, and with too many in progress 503 ``AgentOverloaded``.

``input_zpl`` is capped at 64 KiB (422); the body may carry up to 8 KiB more
for the other fields before it is refused whole (413).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from labelrender.api import errors
from labelrender.api.billing import consume_unit, refund_quietly
from labelrender.api.body import parse_object, read_body
from labelrender.api.context import (
    STATE,
    AppState,
    AuthContext,
    RoutePolicy,
    app_state,
    auth_of,
    request_id_of,
    route_policy,
)
from labelrender.api.engine import engine_processes
from labelrender.store import synthesis_jobs as jobs
from labelrender.store.clock import iso
from labelrender.store.tenants import TENANT_ID
from labelrender.synth.engine import SynthesisEngine, UnparseableZpl, make_engine
from labelrender.synth.service import SynthesisInput, check_parseable
from labelrender.worker.engine_calls import TOO_COMPLEX, Refused, synthesize_draft
from labelrender.worker.sandbox import CallFailed

log = logging.getLogger("labelrender.api")

MAX_INPUT_ZPL_BYTES = 64 * 1024  # spec "Limits": input_zpl at most 64 KB
MAX_BODY_BYTES = MAX_INPUT_ZPL_BYTES + 8 * 1024
MAX_HINTS = 200
MAX_HINT_CHARS = 128
POLICY = RoutePolicy(rate="charge", kinds=True, unauthorized_kind="PRE_AUTH_UNAUTHORIZED")
ENGINE = web.AppKey("labelrender_synthesis_engine", SynthesisEngine)


HintName = Annotated[str, Field(max_length=MAX_HINT_CHARS)]


# The limits are in the model, so the OpenAPI document states them; the kinds
# they answer with are _FIELD_ERRORS's.
class SynthesizeBody(BaseModel):
    """Legacy ZPL to synthesize a template draft from; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    input_zpl: str = Field(
        max_length=MAX_INPUT_ZPL_BYTES, json_schema_extra={"pattern": r"\S"},
        description="Legacy ZPL from `^XA` to `^XZ`, at most 64 KiB as UTF-8; for a "
                    "stream of labels the first is used")
    target_scope: Literal["tenant", "global"] | None = Field(
        default=None, description="`tenant` (the default); `global` is operator-only (422)")
    target_tenant_id: str | None = Field(
        default=None, pattern=TENANT_ID.pattern,
        description="If given, it must be the key's tenant")
    hint_template_id: str | None = Field(
        default=None, description="The id the draft will be committed under; echoed as "
                                  "`template_id`")
    hint_field_names: list[HintName] | None = Field(
        default=None, max_length=MAX_HINTS, description="Hints for naming fields")

    @field_validator("input_zpl")
    @classmethod
    def _within_limits(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("input_zpl is required and must not be empty")
        if len(value.encode("utf-8")) > MAX_INPUT_ZPL_BYTES:
            raise ValueError(f"input_zpl is over the {MAX_INPUT_ZPL_BYTES}-byte limit")
        return value


# Per field: its kind, what a value of the wrong JSON type is told, and what
# a value of the right type out of its limits is told (None: the validator's).
_FIELD_ERRORS: dict[str, tuple[type[errors.ValidationFailed], str, str, str | None]] = {
    "input_zpl": (errors.InvalidInputZpl, "InvalidInputZpl",
                  "input_zpl must be a string of ZPL", None),
    "target_scope": (errors.ValidationFailed, "InvalidScope",
                     "target_scope must be \"tenant\"", "target_scope must be \"tenant\""),
    "target_tenant_id": (errors.InvalidTenantId, "InvalidTenantId",
                         "target_tenant_id must be a string or null",
                         "target_tenant_id must look like tnt_ and 26 base32 characters"),
    "hint_template_id": (errors.ValidationFailed, "InvalidHint",
                         "hint_template_id has the wrong type", None),
    "hint_field_names": (errors.ValidationFailed, "InvalidHint",
                         "hint_field_names has the wrong type",
                         f"hint_field_names takes at most {MAX_HINTS} names of "
                         f"{MAX_HINT_CHARS} characters"),
}
_ORDER = tuple(_FIELD_ERRORS)
_TYPE_ERRORS = frozenset({"string_type", "list_type", "int_type", "bool_type", "dict_type"})


def _field_of(detail: ErrorDetails) -> str:
    return str(detail["loc"][0]) if detail["loc"] else ""


def _rank(detail: ErrorDetails) -> tuple[int, int]:
    """Unknown fields, then wrong JSON types, then limits; in field order."""
    field = _field_of(detail)
    position = _ORDER.index(field) if field in _ORDER else len(_ORDER)
    if detail["type"] == "extra_forbidden":
        return 0, position
    return (1 if detail["type"] in _TYPE_ERRORS else 2), position


def _body_error(exc: ValidationError, payload: dict[str, Any]) -> errors.ApiError:
    detail = min(exc.errors(), key=_rank)
    name = _field_of(detail)
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized field {name!r}", param=name)
    tier, position = _rank(detail)
    if tier == 2 and payload.get("target_scope") == "global" and \
            position > _ORDER.index("target_scope"):
        return _global_scope()  # the scope is checked before the tenant and the hints
    error_class, kind, type_message, limit_message = _FIELD_ERRORS[name]
    if tier == 1:
        message = type_message
    elif detail["type"] == "missing":
        message = "input_zpl is required and must not be empty"
    elif detail["type"] == "string_too_long" and name == "input_zpl":
        message = f"input_zpl is over the {MAX_INPUT_ZPL_BYTES}-byte limit"
    else:
        message = limit_message or str(detail.get("ctx", {}).get("error", detail["msg"]))
    return error_class(message, param=name, kind=kind)


def _global_scope() -> errors.ApiError:
    return errors.InvalidScopeForTenantCall(
        "target_scope \"global\" is operator-only; tenant keys synthesize into "
        "\"tenant\"", param="target_scope")


def validate(payload: dict[str, Any], auth: AuthContext) -> SynthesisInput:
    """The body as a SynthesisInput, or the one error naming what is wrong."""
    try:
        body = SynthesizeBody.model_validate(payload)
    except ValidationError as exc:
        raise _body_error(exc, payload) from exc
    _check_scope(body, auth)
    return SynthesisInput(body.input_zpl, body.hint_template_id,
                          tuple(body.hint_field_names or ()))


def _check_scope(body: SynthesizeBody, auth: AuthContext) -> None:
    """DECISIONS.md "Templates": scope defaults to tenant; global is operator-only.
    The tenant always comes from the key; a named one must be the key's."""
    if body.target_scope == "global":
        raise _global_scope()
    tenant = body.target_tenant_id
    if tenant is not None and tenant != auth.tenant_id:
        raise errors.InvalidTenantId("target_tenant_id is not the tenant of this API key",
                                     param="target_tenant_id")


async def _checked_input(request: web.Request) -> tuple[AppState, AuthContext, SynthesisInput]:
    state, auth = app_state(request), auth_of(request)
    payload = parse_object(await read_body(request, MAX_BODY_BYTES))
    params = validate(payload, auth)
    try:  # the lexer only, bounded by the 64 KiB cap: off the event loop, not sandboxed
        await state.call(check_parseable, params.input_zpl)
    except UnparseableZpl as exc:
        raise errors.InvalidInputZpl(str(exc), param="input_zpl") from exc
    return state, auth, params


@route_policy(POLICY)
async def synthesize_now(request: web.Request) -> web.StreamResponse:
    state, auth, params = await _checked_input(request)
    billed_at = state.now()
    await consume_unit(state, auth, "syntheses", billed_at)
    engine = request.app[ENGINE]
    try:
        answer = await engine_processes(request.app).call(
            auth.tenant_id, "input_zpl", synthesize_draft, engine, params, auth.tenant_id,
            request_id_of(request))
        if isinstance(answer, Refused):
            raise refusal(answer, state)
    except CallFailed as exc:  # the same input fails the same way: a 422, not a 500
        await refund_quietly(state, auth.tenant_id, "syntheses", billed_at)
        log.error("synthesis failed for %s: %s", auth.tenant_id, exc)
        raise errors.InvalidInputZpl(f"synthesis failed on this input: {exc}",
                                     param="input_zpl") from exc
    except BaseException:
        await refund_quietly(state, auth.tenant_id, "syntheses", billed_at)
        raise
    return web.json_response(answer)


def refusal(answer: Refused, state: AppState) -> errors.ApiError:
    """The error a refused synthesis answers with."""
    if answer.kind == "SynthesisUpstreamUnavailable":
        return errors.SynthesisUnavailable(
            f"the synthesis engine is temporarily unavailable: {answer.message}",
            retry_after=state.config.retry_after_s)
    if answer.kind == "InvalidInputZpl":
        return errors.InvalidInputZpl(answer.message, param=answer.param)
    if answer.kind == TOO_COMPLEX:
        return errors.RenderTooComplex(answer.message, param=answer.param)
    return errors.ValidationFailed(answer.message, param=answer.param, kind=answer.kind)


@route_policy(POLICY)
async def create_job(request: web.Request) -> web.StreamResponse:
    """202 {job_id, state: "queued"}; the unit is counted now (402 at the quota)
    and given back if the job fails."""
    state, auth, params = await _checked_input(request)
    billed_at = state.now()
    await consume_unit(state, auth, "syntheses", billed_at)
    try:
        job = await state.call(jobs.create, state.redis, auth.tenant_id, params.to_json(),
                               request_id_of(request), now=state.now(), billed_at=billed_at)
    except BaseException:
        await refund_quietly(state, auth.tenant_id, "syntheses", billed_at)
        raise
    state.metrics.synthesis_jobs.labels(job.state).inc()
    return web.json_response({"job_id": job.job_id, "state": job.state}, status=202)


@route_policy(RoutePolicy(unauthorized_kind="PRE_AUTH_UNAUTHORIZED"))
async def get_job(request: web.Request) -> web.StreamResponse:
    state, auth = app_state(request), auth_of(request)
    job_id = request.match_info["job_id"]
    job = await state.call(jobs.get, state.redis, auth.tenant_id, job_id)
    if job is None:
        raise errors.SynthesisJobNotFound(f"no synthesis job {job_id!r}", param="job_id")
    return web.json_response({
        "job_id": job.job_id, "state": job.state, "created_at": iso(job.created_at),
        "finished_at": iso(job.finished_at) if job.finished_at is not None else None,
        "result": job.result, "error": job.error,
    })


def add_routes(app: web.Application) -> None:
    """Register before ``/v1/templates/{id}`` so "synthesize" is not taken for an id."""
    app[ENGINE] = make_engine(app[STATE].config.synthesis_engine)
    engine_processes(app)
    app.router.add_post("/v1/templates/synthesize", synthesize_now)
    app.router.add_post("/v1/templates/synthesize/jobs", create_job)
    app.router.add_get("/v1/templates/synthesize/jobs/{job_id}", get_job)
