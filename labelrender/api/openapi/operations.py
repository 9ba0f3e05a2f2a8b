"""Every operation the API serves, as the OpenAPI document shows it.

This table is the one place a route is documented. Adding a route to the
app means adding its ``Operation`` here: ``tests/api/test_openapi.py``
compares this table with the routes the app registers and fails on any
route missing from it (or any entry no route serves). Request schemas come
from the handler modules' pydantic models, so a new field on a body model
shows up in the document by itself; regenerate the repo copy with
``python -m labelrender.api.openapi > docs/openapi.json``.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST

from labelrender.api import (
    account,
    batches,
    files,
    from_data,
    graphics,
    health,
    home,
    keys,
    label_listing,
    labelary,
    labels,
    studio,
    synthesis,
    templates,
    webhooks,
)
from labelrender.api.openapi import examples, schemas, serve
from labelrender.api.openapi.spec import Answer, Operation

# Kinds several operations share.
_RENDER_400 = ("InvalidDpi", "InvalidIdempotencyKey")
_RENDER_409 = ("IdempotencyKeyConflict", "IdempotencyKeyInProgress")
_RENDER_FAILURES = {502: ("RenderFailed",), 503: ("AgentOverloaded", "ObjectStoreUnavailable"),
                    504: ("RenderTimeout",)}
_WEBHOOK_ID_404 = {404: ("WebhookNotFound",), 422: ("InvalidWebhookId",)}
_THIS_WEBHOOK = {"webhook_id": "$request.path.webhook_id"}
_WEBHOOK_LINKS = {"GetTheWebhook": ("getWebhook", _THIS_WEBHOOK),
                  "ListItsDeliveries": ("listWebhookDeliveries", _THIS_WEBHOOK),
                  "SendItATest": ("sendWebhookTest", _THIS_WEBHOOK),
                  "DeleteTheWebhook": ("deleteWebhook", _THIS_WEBHOOK)}

# A render answers with JSON, or with the file itself by Accept (``labels.OFFERED``).
_FILES = ("image/png", "application/pdf")
_FILE_HEADERS = ("X-Content-Hash", "X-Cached", "X-Total-Count")

LABELS = (
    Operation(
        "POST", "/v1/labels", labels.create_label, "createLabel", "Labels",
        "Render raw ZPL",
        description="Renders ZPL to a PNG behind a signed URL. Identical requests are "
                    "answered from the stored label (`cached: true`), free. With "
                    "`Idempotency-Key`, a replay of the same request (route, query, body and "
                    "the headers that shape the answer) gets the first answer again "
                    "(`Idempotency-Replay: true`); another request under the key is 409. "
                    "The key is checked before the rate limit.",
        body=labels.RawRenderBody, body_example=examples.RAW_RENDER_REQUEST,
        answers=(Answer(200, "Rendered, or answered from the stored label",
                        schemas.RawRenderResult, example=examples.RAW_RENDER, files=_FILES,
                        headers=_FILE_HEADERS),),
        errors={400: _RENDER_400 + ("InvalidFontProfile", "InvalidLabelSize",
                                    "InvalidLabelIndex", "InvalidRotation", "InvalidFormat",
                                    "InvalidFields"),
                402: ("QuotaExceeded",), 403: ("DpiNotPermitted",), 406: ("NotAcceptable",),
                409: _RENDER_409 + ("IdempotencyReplayGone",),
                422: ("MissingZpl", "InvalidZpl", "InvalidThreshold", "RenderTooComplex"),
                **_RENDER_FAILURES},
        idempotent=True),
    Operation(
        "POST", "/v1/labels/from-data", from_data.create_from_data, "renderTemplate",
        "Labels", "Render a template with field values",
        description="Renders the template's latest committed version (or "
                    "`template_version`) with a value for every field; sample values "
                    "never fill in. Every success, cache hits included, emits "
                    "`label.rendered`.",
        body=from_data.FromDataBody, body_example=examples.FROM_DATA_REQUEST,
        answers=(Answer(200, "Rendered, or answered from the stored label",
                        schemas.TemplateRenderResult, example=examples.FROM_DATA,
                        links={"ListThisLabel": ("listLabels", {
                            "content_hash": "$response.body#/content_hash"})}),),
        errors={400: _RENDER_400, 402: ("QuotaExceeded",), 403: ("DpiNotPermitted",),
                404: ("TemplateNotFound",), 409: _RENDER_409,
                422: ("MissingTemplateId", "MissingField", "InvalidField", "UnknownField",
                      "InvalidTemplateVersion", "InvalidExternalRef", "InvalidThreshold",
                      "ValidationFailed", "InvalidZpl", "RenderTooComplex", "InvalidFieldBoxes"),
                **_RENDER_FAILURES},
        idempotent=True),
    Operation(
        "GET", "/v1/labels", label_listing.list_labels, "listLabels", "Labels",
        "List rendered template labels with fresh URLs",
        description="Template renders only (raw renders are not recorded), newest first; "
                    "a label purged by retention is gone.",
        query=label_listing.LabelListQuery,
        answers=(Answer(200, "A page of labels", schemas.LabelList,
                        example=examples.LABEL_LIST),),
        errors={400: ("InvalidContentHash", "InvalidTemplateId", "InvalidLimit",
                      "InvalidCursor"),
                404: ("LabelNotFound",)}),
)

_BATCH_DESCRIPTION = (
    "One template, up to 10,000 rows, one PDF. The rows come as JSON (`rows`: objects of "
    "field values) or as CSV (`Content-Type: text/csv`, a header row naming the fields; "
    "the options are then query parameters; any type but JSON is read as CSV). Answers "
    "202 at once; follow the batch with `GET /v1/labels/batches/{batch_id}`, or "
    "subscribe to `batch.completed`. Each row is "
    "a template render with the usual rules (its own content hash; a stored label is "
    "free; a fresh one is billed; quota and a concurrency slot are taken per row) but "
    "emits no `label.rendered`. A row that fails is listed with its row number and "
    "field; the batch goes on. `X-Page-*` and `X-Label-Border` lay the PDF out on sheets "
    "as on the Labelary route. A CSV header that does not name the template's fields is "
    "422 at once.")

BATCHES = (
    Operation(
        "POST", "/v1/labels/batches", batches.endpoints.create_batch, "createBatch",
        "Batches", "Render a template for every row of a table",
        description=_BATCH_DESCRIPTION, body=batches.rows.BatchBody,
        body_example=examples.BATCH_REQUEST,
        # text/csv is what clients send; any type but JSON is read as CSV, and
        # this one client generators can write code for.
        other_bodies={"application/octet-stream": {
            "type": "string", "format": "binary", "contentMediaType": "application/octet-stream",
            "description": "CSV (`text/csv`, or any type but JSON): a header row naming the "
                           "template's fields, then one row per label"}},
        query=batches.rows.BatchQuery,
        headers=("X-Page-Size", "X-Page-Orientation", "X-Page-Layout", "X-Label-Border"),
        answers=(Answer(202, "Accepted: the batch, queued", schemas.BatchStatus,
                        links={"GetTheBatch": ("getBatch", {
                            "batch_id": "$response.body#/batch_id"})}),),
        errors={400: _RENDER_400 + ("InvalidCsv", "InvalidPageSize", "InvalidPageLayout",
                                    "InvalidLabelBorder"),
                403: ("DpiNotPermitted",), 404: ("TemplateNotFound",), 409: _RENDER_409,
                413: ("TooManyRows",),
                422: ("MissingTemplateId", "MissingRows", "InvalidRows", "MissingField",
                      "UnknownField", "InvalidTemplateVersion", "InvalidThreshold",
                      "InvalidZip", "ValidationFailed")},
        idempotent=True),
    Operation(
        "GET", "/v1/labels/batches/{batch_id}", batches.endpoints.get_batch, "getBatch",
        "Batches", "A batch's progress, row errors and, once completed, its PDF",
        description="State, counts and progress; every failed row with its number, kind "
                    "and field; once `completed`, a signed URL to one PDF of every label "
                    "in row order (and the ZIP of PNGs when asked for).",
        path_params=batches.endpoints.BatchPath,
        answers=(Answer(200, "The batch", schemas.BatchStatus, example=examples.BATCH),),
        errors={404: ("BatchNotFound",)}),
)

_ZPL_BODIES: dict[str, dict[str, Any]] = {
    # Any other type is read as the ZPL itself; this one clients can generate for.
    "application/octet-stream": {"type": "string", "format": "binary",
                                 "contentMediaType": "application/octet-stream",
                                 "description": "The ZPL itself (UTF-8)"},
    "application/x-www-form-urlencoded": {
        "type": "object", "required": ["file"],
        "properties": {"file": {"type": "string", "description": "The ZPL"}},
        "description": "Labelary's form (`curl --data` without `file=` sends the ZPL raw, "
                       "which is taken too)"},
    "multipart/form-data": {
        "type": "object", "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary",
                                "description": "The ZPL file"}}},
}
_LABELARY_DESCRIPTION = (
    "Labelary's API, so a Labelary client switches by changing its base URL and adding "
    "our Bearer key. The body is the ZPL: raw (`curl --data-binary @label.zpl`), the "
    "form field `file`, a multipart `file` part, or JSON `{\"zpl\": ...}`. The answer "
    "follows `Accept`: `image/png` (the default), `application/pdf` or "
    "`application/json` (the answer of `POST /v1/labels`). Sizes are in inches: a side "
    "is `floor(inches * floor(dpmm * 25.4))` dots. It is a raw render underneath, with "
    "the same rate limit, `Idempotency-Key`, cache, quota and billing; ZPL that cannot "
    "be rendered is 400 (Labelary's status) with our kind, too many labels 413.")


def labelary_operations() -> tuple[Operation, ...]:
    """The route with and without the label index (Labelary's two forms)."""
    found = []
    for suffix, operation_id, summary in (
            ("", "renderLabelaryStyle", "Render like Labelary"),
            ("{index}/", "renderLabelaryStyleAt", "Render one label of the stream, "
                                                  "like Labelary")):
        found.append(Operation(
            "POST", "/v1/printers/{dpmm}dpmm/labels/{width}x{height}/" + suffix,
            labelary.labelary_render, operation_id, "Labels", summary,
            description=_LABELARY_DESCRIPTION, body=schemas.LabelaryJsonBody,
            body_example={"zpl": examples.RAW_RENDER_REQUEST["zpl"]},
            other_bodies=_ZPL_BODIES, path_params=schemas.LabelaryPath,
            headers=("X-Rotation", "X-Quality", "X-Page-Size", "X-Page-Orientation",
                     "X-Page-Layout", "X-Label-Border", "X-Linter"),
            answers=(Answer(200, "The label: PNG unless Accept asks for PDF or JSON",
                            schemas.RawRenderResult, files=("image/png", "application/pdf"),
                            headers=("X-Content-Hash", "X-Cached", "X-Total-Count",
                                     "X-Warnings")),),
            errors={400: ("InvalidDpmm", "InvalidLabelSize", "InvalidLabelIndex",
                          "InvalidRotation", "InvalidQuality", "InvalidPageSize",
                          "InvalidPageLayout", "InvalidLabelBorder", "MissingZpl",
                          "InvalidZpl", "RenderTooComplex", "InvalidIdempotencyKey",
                          "InvalidText", "MalformedMultipart", "TooManyParts",
                          "TooManyParameters", "PartHeadersTooLarge", "MultipartTooDeep"),
                    402: ("QuotaExceeded",), 403: ("DpiNotPermitted",),
                    406: ("NotAcceptable",), 409: _RENDER_409 + ("IdempotencyReplayGone",),
                    413: ("TooManyLabels",), **_RENDER_FAILURES},
            idempotent=True))
    return tuple(found)


_GRAPHIC_BODIES: dict[str, dict[str, Any]] = {
    # Any other type (image/png, application/pdf ...) is read as the file too; this
    # one clients can generate for.
    "application/octet-stream": {"type": "string", "format": "binary",
                                 "contentMediaType": "application/octet-stream",
                                 "description": "The PNG, JPEG, GIF, BMP or PDF itself"}}

GRAPHICS = (
    Operation(
        "POST", "/v1/graphics", graphics.convert, "convertGraphic", "Graphics",
        "Turn an image or a PDF page into a ZPL graphic field",
        description="A PNG, JPEG, GIF, BMP or PDF as the multipart part `file` (Labelary's "
                    "call: `curl --form file=@logo.png`) or as the raw body. Options are "
                    "query parameters, or multipart fields of the same names. The answer "
                    "follows `Accept`: ZPL (`application/zpl`, the default, or "
                    "`text/plain`) or `application/json` with the bitmap's size. Sizes are "
                    "checked before anything is decoded: pixels, decoded bytes, PDF pages "
                    "and the graphic's dots each have their own 413. Rate limited like "
                    "every call; not counted as a label.",
        body=schemas.GraphicForm, body_media="multipart/form-data",
        other_bodies=_GRAPHIC_BODIES, query=graphics.GraphicQuery,
        answers=(Answer(200, "The ZPL, or JSON by Accept", schemas.GraphicResult,
                        example=examples.GRAPHIC, files=("application/zpl", "text/plain")),),
        errors={400: ("MissingFile", "InvalidImage", "InvalidPdf", "PdfPageNotFound",
                      "InvalidGraphicOption", "MalformedMultipart", "IncompleteBody"),
                406: ("NotAcceptable",),
                413: ("ImageTooManyPixels", "ImageDecodedTooLarge", "PdfTooManyPages",
                      "PdfDecodedTooLarge", "GraphicTooLarge"),
                415: ("UnsupportedImageFormat",), 422: ("RenderTooComplex",),
                503: ("AgentOverloaded",)}),
)

_SYNTHESIS_422 = ("InvalidInputZpl", "InvalidScope", "InvalidScopeForTenantCall",
                  "InvalidTenantId", "InvalidHint")

TEMPLATES = (
    Operation(
        "POST", "/v1/templates/synthesize", synthesis.synthesize_now, "synthesizeTemplate",
        "Templates", "Turn legacy ZPL into a template draft",
        description="Nothing is stored; one synthesis unit is counted per success. "
                    "Hard-to-read input still answers 200 with a low `confidence_score`.",
        body=synthesis.SynthesizeBody, body_example=examples.SYNTHESIZE_REQUEST,
        answers=(Answer(200, "The draft", schemas.SynthesisResult,
                        example=examples.SYNTHESIS),),
        errors={402: ("QuotaExceeded",), 422: (*_SYNTHESIS_422, "RenderTooComplex"),
                502: ("SynthesisUpstreamUnavailable",), 503: ("AgentOverloaded",)}),
    Operation(
        "POST", "/v1/templates/synthesize/jobs", synthesis.create_job, "createSynthesisJob",
        "Templates", "Synthesize as a job",
        description="The same body as synchronous synthesis; poll the job until it "
                    "`succeeded` or `failed`. The unit is counted now and given back if "
                    "the job fails. Jobs are kept 7 days.",
        body=synthesis.SynthesizeBody, body_example=examples.SYNTHESIZE_REQUEST,
        answers=(Answer(202, "Queued", schemas.JobQueued, example=examples.JOB_QUEUED,
                        links={"PollTheJob": ("getSynthesisJob", {
                            "job_id": "$response.body#/job_id"})}),),
        errors={402: ("QuotaExceeded",), 422: _SYNTHESIS_422}),
    Operation(
        "GET", "/v1/templates/synthesize/jobs/{job_id}", synthesis.get_job,
        "getSynthesisJob", "Templates", "Poll a synthesis job",
        answers=(Answer(200, "The job", schemas.SynthesisJob, example=examples.JOB),),
        errors={404: ("SynthesisJobNotFound",)}),
    Operation(
        "GET", "/v1/templates", templates.list_templates, "listTemplates", "Templates",
        "List the templates the key can render",
        query=templates.TemplateListQuery,
        answers=(Answer(200, "The tenant's templates, then the global ones",
                        schemas.TemplateList, example=examples.TEMPLATE_LIST),),
        errors={400: ("InvalidScope",)}),
    Operation(
        "POST", "/v1/templates/{template_id}", templates.post_template, "commitTemplate",
        "Templates", "Commit a draft as the template's next version",
        description="The body is a draft (its fields at the top level) or a synthesis "
                    "response as returned. The body is rendered once to check it. "
                    "Committing the same id again makes the next version.",
        body=templates.CommitBody, body_example=examples.COMMIT_REQUEST,
        path_params=templates.TemplatePath,
        answers=(Answer(201, "Committed", schemas.TemplateCommitted,
                        example=examples.COMMITTED,
                        links={"DeleteTheTemplate": ("deleteTemplate", {
                            "template_id": "$response.body#/template_id"})}),),
        errors={403: ("TemplateReadOnly",),
                422: ("InvalidTemplateId", "InvalidDraft", "MissingField", "MissingBody",
                      "FieldMapMismatch", "InvalidZpl", "RenderTooComplex"),
                503: ("AgentOverloaded", "ObjectStoreUnavailable")}),
    Operation(
        "DELETE", "/v1/templates/{template_id}", templates.delete_template,
        "deleteTemplate", "Templates", "Delete every version of a template",
        description="Permanent; labels already rendered stay. Global templates are "
                    "read-only (403).",
        answers=(Answer(200, "Deleted", schemas.TemplateDeleted,
                        example=examples.TEMPLATE_DELETED),),
        errors={403: ("TemplateReadOnly",), 404: ("TemplateNotFound",),
                503: ("ObjectStoreUnavailable",)}),
)

ACCOUNT = (
    Operation(
        "GET", "/v1/whoami", account.whoami, "getWhoami", "Account",
        "The tenant and plan behind the key",
        answers=(Answer(200, "Tenant and plan", schemas.Whoami, example=examples.WHOAMI),)),
    Operation(
        "GET", "/v1/usage", account.usage, "getUsage", "Account", "Live counters",
        description="Reading it does not use up a request.",
        answers=(Answer(200, "This month's counters", schemas.Usage,
                        example=examples.USAGE),)),
    Operation(
        "POST", "/v1/keys", keys.create, "createKey", "Keys", "Create an API key",
        description="The secret is shown once. Rotation: create, deploy, then revoke "
                    "the old key.",
        body=keys.CreateKeyBody, body_required=False, body_example={"label": "ci"},
        answers=(Answer(201, "Created", schemas.KeyCreated, example=examples.KEY_CREATED,
                        headers=("Cache-Control",),
                        links={"RevokeTheKey": ("revokeKey", {
                            "prefix": "$response.body#/key_prefix"})}),),
        errors={409: ("KeyCapReached",), 422: ("InvalidLabel",)}),
    Operation(
        "GET", "/v1/keys", keys.list_all, "listKeys", "Keys", "List the tenant's keys",
        answers=(Answer(200, "Every key, never a secret", schemas.KeyList,
                        example=examples.KEY_LIST),)),
    Operation(
        "DELETE", "/v1/keys/{prefix}", keys.revoke, "revokeKey", "Keys", "Revoke a key",
        description="The next request with it is 401. The last active key cannot be "
                    "revoked (409).",
        answers=(Answer(200, "Revoked", schemas.KeyRevoked, example=examples.KEY_REVOKED),),
        errors={404: ("KeyNotFound",), 409: ("LastActiveKey",)}),
)

WEBHOOKS = (
    Operation(
        "GET", "/v1/webhooks", webhooks.list_all, "listWebhooks", "Webhooks",
        "List subscriptions",
        answers=(Answer(200, "Subscriptions", schemas.WebhookList,
                        example=examples.WEBHOOK_LIST),)),
    Operation(
        "POST", "/v1/webhooks/{webhook_id}", webhooks.upsert, "upsertWebhook", "Webhooks",
        "Create or update a subscription",
        description="The signing secret is shown on create only and kept on update; "
                    "`version` goes up by 1 on every update. At most 10 per tenant.",
        body=webhooks.UpsertBody, body_example=examples.WEBHOOK_REQUEST,
        path_params=webhooks.WebhookPath,
        answers=(Answer(201, "Created", schemas.WebhookUpserted, headers=("Cache-Control",),
                        example=examples.WEBHOOK_CREATED, links=_WEBHOOK_LINKS),
                 Answer(200, "Updated", schemas.WebhookUpserted, headers=("Cache-Control",),
                        example=examples.WEBHOOK_UPDATED)),
        errors={409: ("WebhookCapReached",),
                422: ("InvalidWebhookId", "MissingField", "UnsupportedTopic",
                      "WebhookTargetRejected")}),
    Operation(
        "GET", "/v1/webhooks/{webhook_id}", webhooks.get_one, "getWebhook", "Webhooks",
        "Get a subscription", path_params=webhooks.WebhookPath,
        answers=(Answer(200, "The subscription", schemas.WebhookView,
                        example=examples.WEBHOOK),),
        errors=_WEBHOOK_ID_404),
    Operation(
        "DELETE", "/v1/webhooks/{webhook_id}", webhooks.delete, "deleteWebhook",
        "Webhooks", "Delete a subscription",
        description="Its delivery history and pending deliveries go with it.",
        path_params=webhooks.WebhookPath,
        answers=(Answer(200, "Deleted", schemas.WebhookDeleted,
                        example=examples.WEBHOOK_DELETED),),
        errors=_WEBHOOK_ID_404),
    Operation(
        "GET", "/v1/webhooks/{webhook_id}/deliveries", webhooks.list_deliveries,
        "listWebhookDeliveries", "Webhooks", "Recent delivery attempts",
        path_params=webhooks.WebhookPath,
        answers=(Answer(200, "Newest first, at most 100", schemas.DeliveryList,
                        example=examples.DELIVERIES),),
        errors=_WEBHOOK_ID_404),
    Operation(
        "POST", "/v1/webhooks/{webhook_id}/test", webhooks.send_test, "sendWebhookTest",
        "Webhooks", "Send a sample delivery",
        description="A `label.rendered` event with `data.test: true`, to this "
                    "subscription only.",
        path_params=webhooks.WebhookPath,
        answers=(Answer(202, "Queued", schemas.WebhookTestQueued,
                        example=examples.WEBHOOK_TEST),),
        errors=_WEBHOOK_ID_404),
)

SERVICE = (
    Operation(
        "GET", "/v1/files/{key}", files.get_file, "getFile", "Files",
        "A rendered label (signed URL)",
        description="The URLs the API returns, for the filesystem object store (S3 "
                    "gives presigned URLs instead). The signature is the credential: "
                    "no Authorization header.",
        query=files.FileQuery,
        answers=(Answer(200, "The PNG", content_type="image/png",
                        headers=("Cache-Control",)),),
        errors={403: ("SignedUrlRejected",), 404: ("FileNotFound",),
                503: ("ObjectStoreUnavailable",)}),
    Operation(
        "GET", "/healthz", health.healthz, "getHealthz", "Operations",
        "Liveness: the process answers",
        answers=(Answer(200, "Alive", schemas.Health, example={"status": "ok"}),),
        storage=False),
    Operation(
        "GET", "/readyz", health.readyz, "getReadyz", "Operations",
        "Readiness: Redis takes a write and reads it back, the object store answers "
        "(and under serve, a render worker can take a job)",
        answers=(Answer(200, "Ready", schemas.Readiness,
                        example={"status": "ok", "redis": "ok", "objects": "ok"}),
                 Answer(503, "A dependency does not work, or no render worker can take a "
                        "job yet", schemas.Readiness,
                        example={"status": "unavailable", "redis": "unreachable",
                                 "objects": "ok"})),
        storage=False),
    Operation(
        "GET", "/metrics", health.metrics, "getMetrics", "Operations",
        "Prometheus metrics",
        answers=(Answer(200, "Prometheus text format",
                        content_type=CONTENT_TYPE_LATEST),),
        storage=False),
    Operation(
        "GET", "/", home.home, "getHome", "Reference",
        "Where to go next: the studio, these docs, this document",
        description="A browser asking for HTML (`Accept: text/html`) is redirected "
                    "(302) to `/studio`; anything else gets the addresses as JSON.",
        answers=(Answer(200, "The addresses", schemas.Home, example=dict(home.LINKS)),),
        storage=False),
    Operation(
        "GET", "/studio", studio.page, "getStudio", "Studio",
        "The studio: preview ZPL, review a synthesized template, commit, render",
        description="A static page that calls this API with a key the browser keeps "
                    "for the session; the page itself needs no key.",
        answers=(Answer(200, "An HTML page", content_type="text/html",
                        headers=("Content-Security-Policy", "Cache-Control")),),
        storage=False),
    Operation(
        "GET", "/studio/", studio.page, "getStudioIndex", "Studio",
        "The studio (the same page)",
        answers=(Answer(200, "An HTML page", content_type="text/html",
                        headers=("Content-Security-Policy", "Cache-Control")),),
        storage=False),
    Operation(
        "GET", "/studio/{name}", studio.asset, "getStudioFile", "Studio",
        "The studio's script and style sheet", path_params=schemas.StudioFilePath,
        answers=(Answer(200, "The file", content_type="text/javascript", files=("text/css",),
                        headers=("Content-Security-Policy", "Cache-Control")),),
        errors={404: ("RouteNotFound",)}, storage=False),
    Operation(
        "GET", "/v1/openapi.json", serve.openapi_document, "getOpenapiDocument",
        "Reference", "This document",
        answers=(Answer(200, "The OpenAPI 3.1 document", content_type="application/json"),),
        storage=False),
    Operation(
        "GET", "/docs", serve.docs_page, "getDocs", "Reference",
        "Reference docs rendered from this document",
        answers=(Answer(200, "An HTML page (Redoc)", content_type="text/html",
                        headers=("Content-Security-Policy",)),),
        storage=False),
    Operation(
        "GET", "/docs/redoc.standalone.js", serve.docs_script, "getDocsScript",
        "Reference", "The page's renderer (Redoc, shipped in the package)",
        answers=(Answer(200, "JavaScript", content_type="text/javascript",
                        headers=("Cache-Control",)),),
        storage=False),
)

OPERATIONS: tuple[Operation, ...] = (LABELS + BATCHES + labelary_operations() + GRAPHICS
                                     + TEMPLATES + ACCOUNT + WEBHOOKS + SERVICE)
