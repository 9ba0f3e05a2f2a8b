"""A finished batch's outputs: one PDF of every label in row order, and
optionally a ZIP of the PNGs, then the batch completed with its event.

The PDF is ``labelrender.zpl.pdf``'s (each label a 1-bit image mask at its
physical size, or placed on sheets as the Labelary route's ``X-Page-*``
headers say): packing PNGs the workers already rendered, not a render, so it
runs here on the parse threads. Rows that failed have no page. Both files are
content-addressed (the labels' hashes in order, the DPI and the page layout)
and deterministic: a repeated batch finds them stored and builds nothing, and
a process that dies between storing them and completing the batch leaves
nothing a retry would change.
"""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from collections.abc import Awaitable, Callable
from typing import Any

from labelrender.api.body import canonical_json
from labelrender.api.context import AppState
from labelrender.api.render import label_object_key, stored_object
from labelrender.store import batches, labels
from labelrender.store.events import BATCH_COMPLETED, LabelRendered, new_event_id
from labelrender.zpl.pdf import PdfPage, pdf_document

log = logging.getLogger("labelrender.api.batches")

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same labels give the same bytes


def output_key(tenant_id: str, spec: batches.BatchSpec, labelled: list[tuple[int, str]],
               extension: str) -> str:
    """Content-addressed, like labels: the same labels on the same rows on the
    same pages are the same file, so a repeated batch finds its PDF stored."""
    digest = hashlib.sha256(canonical_json({
        "labels": labelled, "dpi": spec.target_dpi, "pages": spec.pdf_page,
        "format": extension})).hexdigest()
    return f"tenants/{tenant_id}/batches/{digest}.{extension}"


async def _store_once(state: AppState, tenant_id: str, key: str,
                      build: Callable[[], Awaitable[bytes]], content_type: str) -> None:
    """Store the file unless it is stored; either way it goes in the tenant's
    object index, so the retention sweeper purges it with the labels."""
    found = await state.call_objects(stored_object, state, key)
    if found is None:
        await state.call_objects(state.objects.put, key, await build(), content_type)
        found = await state.call_objects(stored_object, state, key)
    if found is not None:
        await state.call(labels.record_object, state.redis, tenant_id, key,
                         found[1].created_at)


async def finish_batch(state: AppState, tenant_id: str, batch_id: str, token: str) -> None:
    batch = await state.call(batches.get_batch, state.redis, tenant_id, batch_id)
    if batch is None or batch.state == batches.COMPLETED:
        return
    spec = batch.spec
    results = await state.call(batches.load_results, state.redis, tenant_id, batch_id)
    labelled = [(index, str(results[index].content_hash)) for index in sorted(results)
                if results[index].status != batches.FAILED]
    pdf_key = zip_key = ""
    if labelled:
        pngs: list[tuple[int, bytes]] = []

        async def labels() -> list[tuple[int, bytes]]:
            if not pngs:
                pngs.extend(await _load(state, tenant_id, batch_id, labelled))
            return pngs

        async def pdf() -> bytes:
            page = PdfPage(**_page_args(spec.pdf_page)) if spec.pdf_page else None
            return await state.parse(pdf_document, [png for _, png in await labels()],
                                     spec.target_dpi, page)

        async def archive() -> bytes:
            return await state.parse(zip_of, await labels())

        pdf_key = output_key(tenant_id, spec, labelled, "pdf")
        await _store_once(state, tenant_id, pdf_key, pdf, "application/pdf")
        if spec.zip:
            zip_key = output_key(tenant_id, spec, labelled, "zip")
            await _store_once(state, tenant_id, zip_key, archive, "application/zip")
    now = state.now()
    event = LabelRendered(
        event_id=new_event_id(now), tenant_id=tenant_id, content_hash="", object_key=pdf_key,
        template_id=spec.template_id, template_version=spec.template_version,
        external_ref=None, cached=False, created_at=now, topic=BATCH_COMPLETED,
        batch={"batch_id": batch_id, "template_id": spec.template_id,
               "template_version": spec.template_version, "rows": spec.row_count,
               "done": batch.rendered + batch.cached, "cached": batch.cached,
               "failed": batch.failed})
    await state.call(batches.complete, state.redis, tenant_id, batch_id, token, now=now,
                     pdf_key=pdf_key, zip_key=zip_key or None, event=event)


async def _load(state: AppState, tenant_id: str, batch_id: str,
                labelled: list[tuple[int, str]]) -> list[tuple[int, bytes]]:
    """The rows' PNGs in row order; one purged since (retention) has no page."""
    pngs = []
    for index, content_hash in labelled:
        png = await state.call_objects(state.objects.get,
                                       label_object_key(tenant_id, content_hash))
        if png is None:
            log.warning("batch %s: row %d's label is no longer stored", batch_id, index + 1)
            continue
        pngs.append((index, png))
    return pngs


def _page_args(page: dict[str, Any]) -> dict[str, Any]:
    """PdfPage's fields; its sizes, which JSON carried as lists, as tuples."""
    return {**page, **{name: tuple(page[name]) for name in ("label_size", "sheet")
                       if page.get(name)}}


def zip_of(pngs: list[tuple[int, bytes]]) -> bytes:
    """The PNGs as ``row-00001.png`` ... (row numbers from 1), stored as they are."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for index, png in pngs:
            archive.writestr(zipfile.ZipInfo(f"row-{index + 1:05d}.png", _ZIP_TIME), png)
    return out.getvalue()
