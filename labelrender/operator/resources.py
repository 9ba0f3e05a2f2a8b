"""The custom resources, as the operator reads them (crds/ holds their schemas).

``LabelTemplate`` (namespaced; ``metadata.name`` is the global template id) and
``Plan`` (cluster-scoped; ``metadata.name`` is the plan name), group
``labelrender.io``, version ``v1`` (DECISIONS.md "Custom resources").

The API server refuses what the CRD schema refuses, but the operator checks
every spec again with the same rules: a CRD installed from an older release,
or an API server that does not validate, must not get a malformed spec into
Redis. A refusal names the field at fault (``spec.sourceDpi: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labelrender.store import plans, templates
from labelrender.store.errors import InvalidValue
from labelrender.store.plans import MAX_DPI_CEILING, Plan
from labelrender.store.templates import Draft

GROUP = "labelrender.io"
VERSION = "v1"
LABEL_TEMPLATES = "labeltemplates"
PLANS = "plans"
# A whole object must fit in etcd (1.5 MiB by default); the CRD has the same cap.
MAX_BODY_CHARS = 1024 * 1024
MAX_FIELD_DATA = 32 * 1024  # the engine's cap on one field's data
MAX_DOTS = 100_000  # as a commit through the API
MAX_FN = 9999  # ^FN takes 1 to 9999 (ZPL II guide: ^FN)
_PRICE = r"^(0|[1-9][0-9]{0,8})(\.[0-9]{1,6})?$"  # US dollars as a decimal string

FieldIndex = Annotated[int, Field(ge=1, le=MAX_FN)]
SampleValue = Annotated[str, Field(max_length=MAX_FIELD_DATA)]
Dots = Annotated[int, Field(ge=1, le=MAX_DOTS)]


Model = TypeVar("Model", bound=BaseModel)


class InvalidSpec(ValueError):
    """A resource the operator does not store; the message names the field."""


class LabelTemplateSpec(BaseModel):
    """``LabelTemplate.spec`` (crds/labeltemplate.yaml)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    body: str = Field(min_length=1, max_length=MAX_BODY_CHARS)
    field_map: dict[str, FieldIndex] = Field(alias="fieldMap")
    sample_values: dict[str, SampleValue] = Field(default_factory=dict, alias="sampleValues")
    width_dots: Dots | None = Field(default=None, alias="widthDots")
    height_dots: Dots | None = Field(default=None, alias="heightDots")
    source_dpi: int = Field(default=203, ge=1, le=1200, alias="sourceDpi")
    description: str | None = Field(default=None, max_length=2000)


class PlanSpec(BaseModel):
    """``Plan.spec`` (crds/plan.yaml): every limit and price of the spec's
    Limits table; every limit is per tenant."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    requests_per_minute: int = Field(ge=1, alias="requestsPerMinute")
    concurrent_renders: int = Field(ge=1, alias="concurrentRenders")
    syntheses_per_month: int = Field(ge=0, alias="synthesesPerMonth")
    labels_per_month: int = Field(ge=0, alias="labelsPerMonth")
    max_dpi: int = Field(ge=1, le=MAX_DPI_CEILING, alias="maxDpi")
    retention_days: int = Field(ge=1, alias="retentionDays")
    active_keys: int = Field(ge=1, alias="activeKeys")
    overages_allowed: bool = Field(alias="overagesAllowed")
    monthly_price: str = Field(pattern=_PRICE, alias="monthlyPrice")
    synthesis_overage_price: str = Field(pattern=_PRICE, alias="synthesisOveragePrice")
    label_overage_price: str = Field(pattern=_PRICE, alias="labelOveragePrice")


def template_draft(name: str, spec: Mapping[str, Any]) -> Draft:
    """The draft a LabelTemplate asks for; ``InvalidSpec`` names what is wrong."""
    try:
        template_id = templates.check_template_id(name)
    except InvalidValue as exc:
        raise InvalidSpec(f"metadata.name: {exc}") from exc
    parsed = _parse(LabelTemplateSpec, spec)
    return Draft(body=parsed.body, field_map=dict(parsed.field_map),
                 values=dict(parsed.sample_values), name=template_id,
                 width_dots=parsed.width_dots, height_dots=parsed.height_dots,
                 source_dpi=parsed.source_dpi, description=parsed.description)


def plan_from_spec(name: str, spec: Mapping[str, Any]) -> Plan:
    """The plan a Plan resource declares; ``InvalidSpec`` names what is wrong."""
    parsed = _parse(PlanSpec, spec)
    try:
        return plans.plan_from_dict({"name": name, **parsed.model_dump()})
    except InvalidValue as exc:
        raise InvalidSpec(f"spec: {exc}") from exc


def _parse(model: type[Model], spec: Mapping[str, Any]) -> Model:
    try:
        return model.model_validate(dict(spec))
    except ValidationError as exc:
        raise InvalidSpec(_describe(exc)) from exc


def _describe(exc: ValidationError) -> str:
    """The first problem, named by its place in the object: ``spec.sourceDpi: ...``."""
    detail = exc.errors(include_url=False)[0]
    where = ".".join(["spec", *(str(part) for part in detail["loc"])])
    if detail["type"] == "missing":
        return f"{where} is required"
    if detail["type"] == "extra_forbidden":
        return f"{where} is not a field of this resource"
    return f"{where}: {detail['msg']}"
