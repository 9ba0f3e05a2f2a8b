"""The batch driver: feeds a batch's rows into the normal render flow.

Every API process runs one. It looks for active batches (``store.batches``)
and claims those nobody drives, with a lease it renews while it works; a
process that dies leaves its lease to expire, and another resumes the batch
at the rows that have no result yet.

Each row is a from-data render (``from_data.render_version``): its own content
hash, a stored label answers it free, a fresh one is billed by the worker that
stores it, quota and a concurrency slot are taken per row. At most
``batch_in_flight`` rows of a batch are in flight, and never more than the
plan's concurrent renders less one, so the tenant's own calls still find a
slot and the render workers' fair share (DECISIONS.md "Fair share") keeps
other tenants going. A row refused for a busy moment (429, 502-504) waits and
tries again; any other refusal is that row's result, and the batch goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
import time
from collections.abc import Iterator

from aiohttp import web

from labelrender.api import errors
from labelrender.api.batches.output import finish_batch
from labelrender.api.context import STATE, AppState, AuthContext, cancel_and_wait
from labelrender.api.from_data import TemplateRender, render_version
from labelrender.store import batches, get_plan, templates
from labelrender.store.apikeys import ApiKey
from labelrender.store.templates import TemplateVersion
from labelrender.store.tenants import get_tenant

log = logging.getLogger("labelrender.api.batches")

# Busy (no concurrency slot, the queue full, storage away): the row waits as long
# as it takes. A render that failed or timed out is tried a few times more.
# Every group's active set is read this often (a batch whose group note a crash
# lost); in between only the noted groups' (``batches.active_batches``).
FULL_LOOK_S = 60.0
_BUSY_STATUSES = (429, 503)
_FAILED_STATUSES = (502, 504)
_MAX_FAILURES = 5
_RETRY_S = (0.05, 0.2, 0.5, 1.0, 2.0)


class BatchDriver:
    """Drives the batches this process claims; ``nudge`` looks at once."""

    def __init__(self, state: AppState) -> None:
        self._state = state
        self._owner = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self._driving: dict[str, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._next_full_look = 0.0  # every group's active set (``batches.active_batches``)

    def nudge(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        """Look for batches to drive every ``batch_poll_s``, or when nudged."""
        while True:
            try:
                await self._claim_free()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep looking; all state is in Redis
                log.exception("batch driver: could not look for batches")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._state.config.batch_poll_s)
            self._wake.clear()

    async def stop(self) -> None:
        """Stop driving; the leases are given up so another process resumes at once."""
        tasks = list(self._driving.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _claim_free(self) -> None:
        state = self._state
        every_group = time.monotonic() >= self._next_full_look
        if every_group:
            self._next_full_look = time.monotonic() + FULL_LOOK_S
        found = await state.call(batches.active_batches, state.redis, every_group=every_group)
        for tenant_id, batch_id in found:
            ref = batches.member(tenant_id, batch_id)
            if ref in self._driving:
                continue
            token = f"{self._owner}-{secrets.token_hex(4)}"
            if await state.call(batches.claim, state.redis, tenant_id, batch_id, token,
                                state.config.batch_lease_s):
                task = asyncio.create_task(self._drive(tenant_id, batch_id, token))
                self._driving[ref] = task
                task.add_done_callback(functools.partial(self._forget, ref))

    def _forget(self, ref: str, _task: asyncio.Task[None]) -> None:
        self._driving.pop(ref, None)

    async def _drive(self, tenant_id: str, batch_id: str, token: str) -> None:
        state = self._state
        work = asyncio.current_task()
        assert work is not None
        keeper = asyncio.create_task(self._keep_lease(tenant_id, batch_id, token, work))
        try:
            await drive_batch(state, tenant_id, batch_id, token)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await state.call(batches.release, state.redis, tenant_id, batch_id, token)
            raise
        except Exception:  # noqa: BLE001 - the lease expires and someone tries again
            log.exception("batch %s: driving failed; it resumes when its lease expires",
                          batch_id)
        finally:
            keeper.cancel()

    async def _keep_lease(self, tenant_id: str, batch_id: str, token: str,
                          work: asyncio.Task[None]) -> None:
        """Renew the lease a few times per period; stop the work if it was lost."""
        state = self._state
        lease_s = state.config.batch_lease_s
        while True:
            await asyncio.sleep(lease_s / 3)
            try:
                held = await state.call(batches.renew, state.redis, tenant_id, batch_id,
                                        token, lease_s)
            except errors.ServiceUnavailable:
                continue
            if not held:
                log.warning("batch %s: lease lost; another process drives it", batch_id)
                work.cancel()
                return


async def drive_batch(state: AppState, tenant_id: str, batch_id: str, token: str) -> None:
    """Do every row without a result, then build the outputs and complete."""
    batch = await state.call(batches.get_batch, state.redis, tenant_id, batch_id)
    if batch is None:
        await state.call(batches.forget, state.redis, tenant_id, batch_id)
        return
    spec = batch.spec
    if batch.finished_rows < spec.row_count:
        auth = await state.call(_auth_for, state, tenant_id, spec.key_prefix)
        version = await state.call(templates.resolve, state.redis, tenant_id,
                                   spec.template_id, spec.template_version,
                                   state.global_templates)
        rows = await state.call(batches.load_rows, state.redis, tenant_id, batch_id)
        done = await state.call(batches.load_results, state.redis, tenant_id, batch_id)
        todo = iter([index for index in range(len(rows)) if index not in done])
        in_flight = max(1, min(state.config.batch_in_flight, auth.plan.concurrent_renders - 1))
        await asyncio.gather(*(_row_worker(state, auth, batch, version, rows, todo)
                               for _ in range(in_flight)))
    await finish_batch(state, tenant_id, batch_id, token)


DRIVER = web.AppKey("labelrender_batch_driver", BatchDriver)
_DRIVER_TASK = web.AppKey("labelrender_batch_driver_task", asyncio.Task[None])


async def start_driver(app: web.Application) -> None:
    driver = BatchDriver(app[STATE])
    app[DRIVER] = driver
    app[_DRIVER_TASK] = asyncio.create_task(driver.run())


async def stop_driver(app: web.Application) -> None:
    task = app.get(_DRIVER_TASK)
    if task is not None:
        await cancel_and_wait(task)
        await app[DRIVER].stop()


def _auth_for(state: AppState, tenant_id: str, key_prefix: str) -> AuthContext:
    """The batch's tenant on its plan as it is now (a key revoked since still
    lets its batch finish: the tenant asked for it while it was active)."""
    tenant = get_tenant(state.redis, tenant_id)
    key = ApiKey(tenant_id, key_prefix, None, "active", "")
    return AuthContext(key, tenant, get_plan(state.redis, tenant.plan))


async def _row_worker(state: AppState, auth: AuthContext, batch: batches.Batch,
                      version: TemplateVersion | None, rows: list[dict[str, object]],
                      todo: Iterator[int]) -> None:
    for index in todo:
        result = await render_row(state, auth, batch.spec, version, rows[index])
        await state.call(batches.record_result, state.redis, auth.tenant_id,
                         batch.spec.batch_id, index, result)


async def render_row(state: AppState, auth: AuthContext, spec: batches.BatchSpec,
                     version: TemplateVersion | None, fields: dict[str, object]
                     ) -> batches.RowResult:
    """One row as a from-data render, retried while it is refused for a busy moment."""
    if version is None:  # the template was deleted after the batch was accepted
        return batches.RowResult(batches.FAILED, kind="TemplateNotFound",
                                 message=f"no template {spec.template_id!r}",
                                 field="template_id")
    params = TemplateRender(spec.template_id, dict(fields), spec.template_version, None,
                            spec.target_dpi, spec.threshold)
    attempt = failures = 0
    while True:
        try:
            outcome = await render_version(state, auth, version, params, emit=False)
        except errors.ApiError as exc:
            failures += exc.status in _FAILED_STATUSES
            if exc.status not in _BUSY_STATUSES + _FAILED_STATUSES \
                    or failures >= _MAX_FAILURES:
                return failed_row(exc)
            await asyncio.sleep(_RETRY_S[min(attempt, len(_RETRY_S) - 1)])
            attempt += 1
            continue
        return batches.RowResult(batches.CACHED if outcome.cached else batches.RENDERED,
                                 outcome.content_hash)


def failed_row(exc: errors.ApiError) -> batches.RowResult:
    """The row's error: its kind and message, and the field it names (the first
    missing, unknown or invalid one, else the parameter)."""
    field = exc.param
    for listed in ("missing_fields", "unknown_fields", "invalid_fields"):
        names = exc.extra.get(listed)
        if names:
            field = str(names[0])
            break
    return batches.RowResult(batches.FAILED, kind=exc.kind, message=exc.message, field=field)

