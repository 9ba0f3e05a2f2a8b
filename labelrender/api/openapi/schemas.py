"""What the API answers with, as pydantic models: the OpenAPI document's
response schemas.

Handlers build their answers as plain dicts, so these models are the one
hand-written part of the document's schemas. ``tests/api/test_openapi_responses.py``
holds them to the code: real answers from a live server must validate against
the served document with no property left undocumented, and so must every
example. Request bodies are not here: they are the models the handlers
validate with (``labels.RawRenderBody`` and the like).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

HASH = r"^[0-9a-f]{64}$"
TENANT = r"^tnt_[a-z2-7]{26}$"
TIMESTAMP = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"


class Answer(BaseModel):
    """Base of every response model. Clients must ignore fields they do not
    know (spec "Versioning"): the schemas say which fields we send today."""

    model_config = ConfigDict(frozen=True)


def timestamp(description: str) -> Any:
    return Field(pattern=TIMESTAMP, description=description + " (ISO 8601 UTC, `Z`)")


# --- labels ---------------------------------------------------------------------

class RenderResult(Answer):
    status: Literal["ok"]
    url: str = Field(description="Signed URL of the stored label (PNG, or PDF when asked "
                                 "for); fetch it without an Authorization header")
    cached: bool = Field(description="true when the stored label answered (not billed)")
    content_hash: str = Field(pattern=HASH, description="sha256 of the request, per tenant")
    warnings: list[str] = Field(description="Non-fatal advisories; empty when none")


class FieldBox(Answer):
    """One printed field's ink, in pixels of the image returned (after rotation);
    it may reach past the image when the field runs off it."""

    offset: int = Field(ge=0, description="Byte offset of the field's ^FD (text) or its "
                                          "command (bar codes, graphics)")
    command: str = Field(description="`^FD` for text, else the command, such as `^BC`")
    fn: int | None = Field(description="The field's ^FN number, if any")
    x: int
    y: int
    width: int = Field(ge=0)
    height: int = Field(ge=0)


class RawRenderResult(RenderResult):
    """A raw render: the label behind a signed URL."""

    label_count: int = Field(1, ge=1, description="How many labels the ZPL holds")
    fields: list[FieldBox] = Field(default_factory=list,
                                   description="With `fields: true`: each printed field")


class TemplateRenderResult(RenderResult):
    """A template render; it also emits ``label.rendered``."""

    template_id: str
    template_version: int = Field(ge=1)
    field_boxes: list[FieldBox] = Field(default_factory=list,
                                        description="With `field_boxes: true`: each printed "
                                                    "field")


class StudioFilePath(BaseModel):
    """The studio's files (``api.studio.ASSETS``)."""

    name: Literal["studio.js", "studio.css"]


class LabelaryJsonBody(BaseModel):
    """The Labelary route's JSON body (``api.labelary.zpl_of``)."""

    model_config = ConfigDict(extra="forbid")

    zpl: str = Field(pattern=r"\S", description="The ZPL to render; not empty or blank")


class LabelaryPath(BaseModel):
    """The Labelary route's path, as Labelary writes it; the handler reads it by
    pattern (``api.labelary``), and the route test resolves it."""

    dpmm: Literal[6, 8, 12, 24] = Field(description="Print density in dots per mm: 6, 8, "
                                                    "12 or 24 (152, 203, 300 or 600 dpi)")
    width: float = Field(gt=0, le=15, description="Label width in inches")
    height: float = Field(gt=0, le=15, description="Label height in inches")
    index: int = Field(0, ge=0, le=99999, description="Which label of the stream (0 is the "
                                                      "first)")


class GraphicForm(BaseModel):
    """``POST /v1/graphics`` as a multipart form (``api.graphics``): the file, and
    the options as fields of the same names as the query parameters."""

    model_config = ConfigDict(extra="forbid")

    file: bytes = Field(description="The PNG, JPEG, GIF, BMP or PDF")


class GraphicSource(Answer):
    format: Literal["PNG", "JPEG", "GIF", "BMP", "PDF"]
    width: int = Field(description="The source's width in pixels (a PDF page: as drawn)")
    height: int = Field(description="The source's height in pixels")
    pages: int = Field(description="Pages of the PDF (1 for an image)")


class GraphicResult(Answer):
    zpl: str = Field(description="The label, or the `^GFA` field alone (`output`)")
    width: int = Field(description="The graphic's width in dots")
    height: int = Field(description="The graphic's height in dots")
    bytes_per_row: int = Field(description="`^GF`'s bytes per row: width / 8, rounded up")
    total_bytes: int = Field(description="`^GF`'s graphic field count: bytes_per_row x height")
    compression: Literal["A", "ACS", "B64", "Z64"]
    output: Literal["label", "field"]
    source: GraphicSource


class LabelEntry(Answer):
    content_hash: str = Field(pattern=HASH)
    url: str = Field(description="A fresh signed URL")
    template_id: str
    template_version: int = Field(ge=1)
    cached_at: str = timestamp("When the label was first stored")
    expires_at: str = timestamp("When this URL stops working")
    size_bytes: int = Field(ge=0)


class LabelList(Answer):
    labels: list[LabelEntry] = Field(description="Newest first")
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; "
                                                "null on the last page")


# --- synthesis ------------------------------------------------------------------

class DraftView(Answer):
    """A template draft as synthesis returns it (commit it as is, or edited)."""

    name: str
    width_dots: int | None
    height_dots: int | None
    source_dpi: int | None
    body: str = Field(description="ZPL with `^FN<n>` placeholders")
    field_map: dict[str, int] = Field(description="Field name to `^FN` index")
    values: dict[str, str] = Field(description="Sample values, by field name")


class SynthesisMeta(Answer):
    schema_version: str
    model: str = Field(description="Synthesis engine and its version")
    prompt_version: str
    request_id: str


class SynthesisResult(Answer):
    status: Literal["ok"]
    scope: Literal["tenant"]
    tenant_id: str = Field(pattern=TENANT)
    template_id: str | None = Field(description="`hint_template_id`, echoed")
    draft: DraftView
    confidence_score: float = Field(ge=0, le=1)
    low_confidence: bool = Field(description="true below the review threshold (0.7)")
    confidence_components: dict[str, float] = Field(description="Per-signal breakdown")
    field_confidence: dict[str, float] = Field(
        description="Each field's confidence (0-1), by field name; below 0.7 its kind or "
                    "party is uncertain and the `names to review` warning lists it")
    warnings: list[str]
    synthesis_meta: SynthesisMeta = Field(alias="_synthesis_meta")


class JobQueued(Answer):
    job_id: str
    state: Literal["queued"]


class JobError(Answer):
    kind: str
    message: str


class SynthesisJob(Answer):
    job_id: str
    state: Literal["queued", "running", "succeeded", "failed"]
    created_at: str = timestamp("When the job was accepted")
    finished_at: str | None = Field(pattern=TIMESTAMP,
                                    description="When it succeeded or failed; null before")
    result: SynthesisResult | None = Field(description="The synchronous answer, once succeeded")
    error: JobError | None = Field(description="Why it failed, once failed")


# --- templates ------------------------------------------------------------------

class TemplateCommitted(Answer):
    status: Literal["ok"]
    template_id: str
    version: int = Field(ge=1, description="The version this commit made")
    scope: Literal["tenant"]
    tenant_id: str = Field(pattern=TENANT)
    field_names: list[str]
    created_at: str = timestamp("When this version was committed")


class TemplateSummary(Answer):
    id: str
    scope: Literal["tenant", "global"]
    name: str
    latest_version: int = Field(ge=1)
    versions: list[int]
    field_names: list[str]
    created_at: str = timestamp("First version")
    updated_at: str = timestamp("Latest version")


class TemplateList(Answer):
    templates: list[TemplateSummary]


class TemplateDeleted(Answer):
    status: Literal["deleted"]
    template_id: str


# --- account and keys -------------------------------------------------------------

class PlanView(Answer):
    name: str
    requests_per_minute: int
    concurrent_renders: int
    syntheses_per_month: int
    labels_per_month: int
    max_dpi: int
    retention_days: int
    active_keys: int


class Whoami(Answer):
    tenant_id: str = Field(pattern=TENANT)
    key_prefix: str
    plan: PlanView
    overages_enabled: bool


class RateView(Answer):
    limit: int
    remaining: int
    reset_at: str = timestamp("When the allowance is full again")


class ConcurrencyView(Answer):
    in_flight: int
    cap: int


class UnitUsage(Answer):
    used: int
    included: int
    overage: int


class Usage(Answer):
    period: str = Field(pattern=r"^\d{4}-\d{2}$", description="The billing month")
    resets_at: str = timestamp("When the monthly counters reset")
    rate: RateView
    concurrency: ConcurrencyView
    syntheses: UnitUsage
    labels: UnitUsage


class KeyView(Answer):
    key_prefix: str = Field(description="The first 8 hex digits after `svc_live_`")
    label: str | None
    status: Literal["active", "revoked"]
    created_at: str = timestamp("When the key was created")


class KeyCreated(KeyView):
    api_key: str = Field(alias="apiKey", pattern=r"^svc_live_[0-9a-f]{64}$",
                         description="The full secret, shown this once")


class KeyList(Answer):
    keys: list[KeyView]


class KeyRevoked(Answer):
    status: Literal["revoked"]
    key_prefix: str


# --- webhooks -------------------------------------------------------------------

class WebhookView(Answer):
    id: str
    scope: Literal["tenant"]
    version: int = Field(ge=1, description="1 on create, +1 on every update")
    url: str
    topics: list[Literal["label.rendered", "batch.completed"]]
    created_at: str = timestamp("Creation")
    updated_at: str = timestamp("Last update")


class WebhookUpserted(WebhookView):
    status: Literal["created", "updated"]
    signing_secret: str | None = Field(
        default=None, pattern=r"^whsec_", description="On create only: keep it to verify "
                                                      "deliveries")


class WebhookList(Answer):
    webhooks: list[WebhookView]


class WebhookDeleted(Answer):
    status: Literal["deleted"]
    id: str


class DeliveryAttempt(Answer):
    event_id: str
    attempt: int = Field(ge=1)
    status_code: int | None = Field(description="The receiver's status; null on a network "
                                                "error or timeout")
    ok: bool
    error: str | None
    duration_ms: int = Field(ge=0)
    attempted_at: str = timestamp("When the attempt was made")
    next_attempt_at: str | None = Field(pattern=TIMESTAMP,
                                        description="The next retry; null when none is due")


class DeliveryList(Answer):
    deliveries: list[DeliveryAttempt] = Field(description="Newest first, at most 100")


class WebhookTestQueued(Answer):
    status: Literal["queued"]
    event_id: str


# --- operations -----------------------------------------------------------------

class Home(Answer):
    name: Literal["labelrender"]
    studio: str = Field(description="The studio page")
    docs: str = Field(description="The reference docs rendered from the OpenAPI document")
    openapi: str = Field(description="The OpenAPI document")
    health: str = Field(description="Readiness")


class Health(Answer):
    status: Literal["ok"]


class Readiness(Answer):
    status: Literal["ok", "unavailable"]
    redis: Literal["ok", "unreachable"]
    objects: Literal["ok", "unreachable"]
    workers: Literal["starting"] | None = Field(
        default=None, description="Under `labelrender serve`: fewer of its render workers "
                                  "than it started can take a job yet (absent when they "
                                  "can, or when not checked)")


# --- errors ---------------------------------------------------------------------

class ErrorDetail(Answer):
    type: str = Field(description="Category: invalid_request_error, authentication_error, "
                                  "permission_error, not_found_error, validation_error, "
                                  "rate_limit_error, api_error")
    kind: str = Field(description="What went wrong, in CamelCase")
    message: str
    param: str | None = Field(description="The offending parameter, when there is one")
    request_id: str = Field(description="Quote it when reporting a problem")
    upgrade_url: str | None = Field(default=None, description="402: where to upgrade")
    limit: str | None = Field(default=None, description="`RenderTooComplex`: the limit hit")
    missing_fields: list[str] | None = Field(default=None,
                                             description="`MissingField`: every name missing")
    unknown_fields: list[str] | None = None
    invalid_fields: list[str] | None = None


class ErrorItem(Answer):
    kind: str
    message: str


class ErrorBody(Answer):
    """The error envelope; labels, templates and synthesis also carry ``status``
    and ``errors``."""

    error: ErrorDetail
    status: Literal["error"] | None = None
    errors: list[ErrorItem] | None = None
    upgrade_url: str | None = None
    limit: str | None = None
    missing_fields: list[str] | None = None
    unknown_fields: list[str] | None = None
    invalid_fields: list[str] | None = None


# --- the label.rendered event (a webhook delivery's body) ---------------------------

class LabelRenderedData(Answer):
    content_hash: str = Field(pattern=HASH)
    external_ref: str | None = Field(description="The render's `external_ref`, or null")
    template_id: str
    template_version: int = Field(ge=1)
    url: str = Field(description="Signed PNG URL, valid for one hour")
    cached: bool
    test: bool | None = Field(default=None, description="Only on test deliveries: true")


class _EventEnvelope(Answer):
    """What every webhook event carries around its ``data``; each topic's event
    names itself in ``event`` and adds its ``data``."""

    event: str
    event_id: str = Field(pattern=r"^evt_\d+_[0-9a-f]{8}$")
    event_version: Literal["1"]
    delivered_at: str = timestamp("When this attempt was sent")
    tenant_id: str = Field(pattern=TENANT)


class LabelRenderedEvent(_EventEnvelope):
    event: Literal["label.rendered"]
    data: LabelRenderedData


# --- batch renders -----------------------------------------------------------------

BATCH = r"^bat_[a-z2-7]{26}$"


class BatchCounts(Answer):
    done: int = Field(ge=0, description="Rows with a label: rendered plus cached")
    rendered: int = Field(ge=0, description="Fresh labels, billed")
    cached: int = Field(ge=0, description="Labels already stored, free")
    failed: int = Field(ge=0, description="Rows that failed; each is in `errors`")
    pending: int = Field(ge=0, description="Rows not finished yet")


class BatchRowError(Answer):
    row: int = Field(ge=1, description="The row's number: 1 is the first row after a CSV "
                                       "header, or the first of `rows`")
    kind: str
    message: str
    field: str | None = Field(description="The field the error names, when it names one")


class BatchStatus(Answer):
    """A batch render (``api.batches``)."""

    batch_id: str = Field(pattern=BATCH)
    state: Literal["queued", "running", "completed"]
    template_id: str
    template_version: int = Field(ge=1, description="The version pinned when accepted")
    target_dpi: int = Field(ge=1)
    rows: int = Field(ge=1, le=10_000)
    counts: BatchCounts
    progress: float = Field(ge=0, le=1, description="Finished rows over rows")
    errors: list[BatchRowError] = Field(description="Failed rows in row order")
    created_at: str = timestamp("When the batch was accepted")
    finished_at: str | None = Field(description="When it completed, else null")
    pdf_url: str | None = Field(description="Completed: a signed URL to one PDF of every "
                                            "label in row order (null if no row made one)")
    zip_url: str | None = Field(description="Completed, with `zip: true`: the PNGs as "
                                            "`row-00001.png` ...")
    expires_at: str | None = Field(description="When the signed URLs expire")


class BatchCompletedData(Answer):
    batch_id: str = Field(pattern=BATCH)
    template_id: str
    template_version: int = Field(ge=1)
    rows: int = Field(ge=1)
    done: int = Field(ge=0)
    cached: int = Field(ge=0)
    failed: int = Field(ge=0)
    url: str = Field(description="Signed PDF URL, valid for one hour (empty when no row "
                                 "made a label)")


class BatchCompletedEvent(_EventEnvelope):
    event: Literal["batch.completed"]
    data: BatchCompletedData


RESPONSE_MODELS: tuple[type[BaseModel], ...] = (
    RawRenderResult, TemplateRenderResult, LabelList, SynthesisResult, JobQueued,
    SynthesisJob, TemplateCommitted, TemplateList, TemplateDeleted, Whoami, Usage,
    KeyCreated, KeyList, KeyRevoked, WebhookUpserted, WebhookView, WebhookList,
    WebhookDeleted, DeliveryList, WebhookTestQueued, Health, Readiness, ErrorBody,
    LabelRenderedEvent, BatchStatus, BatchCompletedEvent,
)
