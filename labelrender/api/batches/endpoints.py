"""POST /v1/labels/batches and GET /v1/labels/batches/{batch_id}.

Creating a batch checks what would fail every row (the template and its
version, the DPI against the plan, a CSV header against the template's
fields), pins the template version, stores the batch (``store.batches``) and
answers 202 at once; a driver (``batches.driver``) renders the rows.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from labelrender.api import errors
from labelrender.api.batches.driver import DRIVER
from labelrender.api.batches.rows import parse_csv_batch, parse_json_batch
from labelrender.api.context import AppState, RoutePolicy, app_state, auth_of, route_policy
from labelrender.api.from_data import TemplateRender, check_plan_dpi, resolve_version
from labelrender.api.idempotency import read_then_once
from labelrender.api.labelary import pdf_page
from labelrender.api.middleware import charge_rate
from labelrender.api.render import signed_url_for
from labelrender.store import batches
from labelrender.store.clock import iso
from labelrender.store.templates import TemplateVersion

BATCH_ID = re.compile(r"bat_[a-z2-7]{26}")
MAX_LISTED_ERRORS = 10_000


class BatchPath(BaseModel):
    """The id ``POST /v1/labels/batches`` answered with."""

    model_config = ConfigDict(frozen=True)

    batch_id: str = Field(pattern=BATCH_ID.pattern, examples=["bat_" + "a" * 26])


@route_policy(RoutePolicy(rate="handler"))
async def create_batch(request: web.Request) -> web.StreamResponse:
    return await read_then_once(request, _create, any_type=True)


async def _create(request: web.Request, raw: bytes) -> web.Response:
    await charge_rate(request)
    state = app_state(request)
    auth = auth_of(request)
    # JSON by its type; anything else is the CSV (``text/csv``, or what a plain
    # ``curl --data-binary @rows.csv`` labels it), as the Labelary route reads ZPL.
    if request.content_type == "application/json":
        batch_request = await state.parse(parse_json_batch, raw, dict(request.query))
    else:
        batch_request = await state.parse(parse_csv_batch, raw, dict(request.query))
    options = batch_request.options
    version = await resolve_version(state, auth.tenant_id, TemplateRender(
        options.template_id, {}, options.template_version, None, None, False))
    if batch_request.csv_header is not None:
        check_header(version, batch_request.csv_header)
    target_dpi = options.target_dpi or version.source_dpi
    check_plan_dpi(target_dpi, auth)
    spec = batches.BatchSpec(
        batches.new_batch_id(), version.template_id, version.version, target_dpi,
        options.threshold, len(batch_request.rows), auth.key.key_prefix, state.now(),
        sheets_of(request), options.zip)
    await state.call(batches.create_batch, state.redis, auth.tenant_id, spec, batch_request.rows)
    nudge_drivers(request)
    created = batches.Batch(spec, batches.QUEUED, 0, 0, 0, None, None, None)
    return web.json_response(batch_view(state, created, {}), status=202)


def check_header(version: TemplateVersion, header: list[str]) -> None:
    """A header naming a field the template lacks, or lacking one it has, would
    fail every row: 422 at once, every name listed."""
    unknown = sorted(set(header) - set(version.field_map))
    if unknown:
        raise errors.InvalidField(
            f"CSV columns the template does not use: {', '.join(unknown)}", param="rows",
            kind="UnknownField", extra={"unknown_fields": unknown})
    missing = sorted(set(version.field_map) - set(header))
    if missing:
        raise errors.MissingField(f"CSV columns missing for fields: {', '.join(missing)}",
                                  param="rows", extra={"missing_fields": missing})


def sheets_of(request: web.Request) -> dict[str, Any] | None:
    """The Labelary route's X-Page-* headers as the PDF's layout; without them
    every label is a page of its own size (None)."""
    page = pdf_page(request, (1.0, 1.0))
    if page["sheet"] is None and page["border"] == "none":
        return None
    return {**page, "label_size": None}


def nudge_drivers(request: web.Request) -> None:
    driver = request.app.get(DRIVER)
    if driver is not None:
        driver.nudge()


async def get_batch(request: web.Request) -> web.Response:
    state = app_state(request)
    tenant_id = auth_of(request).tenant_id
    batch_id = request.match_info["batch_id"]
    found = (await state.call(batches.get_batch, state.redis, tenant_id, batch_id)
             if BATCH_ID.fullmatch(batch_id) else None)
    if found is None:
        raise errors.NotFound(f"no batch {batch_id!r}", param="batch_id", kind="BatchNotFound")
    results = (await state.call(batches.load_results, state.redis, tenant_id, batch_id)
               if found.failed else {})
    return web.json_response(batch_view(state, found, results))


def batch_view(state: AppState, batch: batches.Batch,
               results: dict[int, batches.RowResult]) -> dict[str, Any]:
    spec = batch.spec
    failed = [(index, result) for index, result in sorted(results.items())
              if result.status == batches.FAILED]
    view: dict[str, Any] = {
        "batch_id": spec.batch_id, "state": batch.state, "template_id": spec.template_id,
        "template_version": spec.template_version, "target_dpi": spec.target_dpi,
        "rows": spec.row_count,
        "counts": {"done": batch.rendered + batch.cached, "rendered": batch.rendered,
                   "cached": batch.cached, "failed": batch.failed,
                   "pending": spec.row_count - batch.finished_rows},
        "progress": round(batch.finished_rows / spec.row_count, 4),
        "errors": [{"row": index + 1, "kind": result.kind, "message": result.message,
                    "field": result.field} for index, result in failed[:MAX_LISTED_ERRORS]],
        "created_at": iso(spec.created_at),
        "finished_at": iso(batch.finished_at) if batch.finished_at is not None else None,
        "pdf_url": None, "zip_url": None, "expires_at": None,
    }
    if batch.finished_at is not None:
        for name, key in (("pdf_url", batch.pdf_key), ("zip_url", batch.zip_key)):
            if key:
                view[name], expires_at = signed_url_for(state, key, batch.finished_at)
                view["expires_at"] = iso(expires_at)
    return view


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/labels/batches", create_batch)
    app.router.add_get("/v1/labels/batches/{batch_id}", get_batch)

