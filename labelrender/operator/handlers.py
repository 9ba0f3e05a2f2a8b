"""Kopf handlers: every change, start and resync tick of a LabelTemplate or Plan
runs one reconcile, and its outcome becomes the status and an Event.

Handlers are registered on a registry of their own (one per running operator),
bound to the store they write to; nothing that matters is kept in memory.
Kopf's own bookkeeping lives in ``labelrender.io/`` annotations (run.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import kopf

from labelrender.operator.context import ObjectRef, Store
from labelrender.operator.events import Events
from labelrender.operator.metrics import READINESS, RECONCILES
from labelrender.operator.plans import reconcile_plan, remove_plan
from labelrender.operator.resources import GROUP, LABEL_TEMPLATES, PLANS, VERSION
from labelrender.operator.status import Outcome, judged, status_patch
from labelrender.operator.templates import reconcile_template, remove_template
from labelrender.store.clock import iso

Reconcile = Callable[[Store, ObjectRef, Mapping[str, Any]], Outcome]
Remove = Callable[[Store, ObjectRef], Outcome]
# Reasons a spec keeps until it changes: a resync tick need not check it again.
_SETTLED_REFUSALS = {"InvalidSpec", "InvalidTemplate"}


@dataclass(frozen=True)
class Tuning:
    """How often each object is resynced, and the retry backoff (seconds)."""

    resync_interval_s: float
    backoff_s: float
    backoff_max_s: float

    def backoff(self, retry: int) -> float:
        """The delay before retry ``retry + 1``: doubling, capped."""
        return float(min(self.backoff_max_s, self.backoff_s * 2 ** min(retry, 30)))


@dataclass(frozen=True)
class Kind:
    """One custom resource kind and what reconciles it."""

    name: str
    plural: str
    reconcile: Reconcile
    remove: Remove


KINDS = (Kind("LabelTemplate", LABEL_TEMPLATES, reconcile_template, remove_template),
         Kind("Plan", PLANS, reconcile_plan, remove_plan))


def register(registry: kopf.OperatorRegistry, store: Store, tuning: Tuning,
             events: Events) -> None:
    """Handlers for both kinds: create, update (of the spec), resume at start,
    a resync timer, and delete (behind a finalizer)."""
    for kind in KINDS:
        _register_kind(registry, store, tuning, kind, events)


def _register_kind(registry: kopf.OperatorRegistry, store: Store, tuning: Tuning,
                   kind: Kind, events: Events) -> None:
    async def changed(body: kopf.Body, retry: int, patch: kopf.Patch, **_: Any) -> None:
        await _reconcile(store, tuning, kind, events, body, patch, retry)

    async def tick(body: kopf.Body, patch: kopf.Patch, **kwargs: Any) -> None:
        if judged(body.status, body.meta.get("generation"), _SETTLED_REFUSALS):
            return  # this spec was judged and refused; it is checked again when it changes
        await _reconcile(store, tuning, kind, events, body, patch, int(kwargs.get("retry", 0)))

    async def deleted(body: kopf.Body, retry: int, patch: kopf.Patch, **_: Any) -> None:
        ref = _ref(store, kind, body)
        outcome = await asyncio.to_thread(kind.remove, store, ref)
        RECONCILES.labels(kind.name, outcome.reason).inc()
        if not outcome.retry:
            READINESS.forget(kind.name, ref.owner.name)
        if outcome.retry:  # the object stays (finalizer) until Redis is back
            await _report(events, body, patch, outcome, tuning, retry)
        await events.post(body, outcome)

    resource = (GROUP, VERSION, kind.plural)
    kopf.on.create(*resource, id="reconcile", registry=registry)(changed)
    kopf.on.update(*resource, id="reconcile", field="spec", registry=registry)(changed)
    kopf.on.resume(*resource, id="reconcile", registry=registry)(changed)
    kopf.timer(*resource, id="resync", interval=tuning.resync_interval_s,
               initial_delay=tuning.resync_interval_s, registry=registry)(tick)
    kopf.on.delete(*resource, id="remove", registry=registry)(deleted)


async def _reconcile(store: Store, tuning: Tuning, kind: Kind, events: Events,
                     body: kopf.Body, patch: kopf.Patch, retry: int) -> None:
    spec = dict(body.spec)
    ref = _ref(store, kind, body)
    outcome = await asyncio.to_thread(kind.reconcile, store, ref, spec)
    RECONCILES.labels(kind.name, outcome.reason).inc()
    READINESS.report(kind.name, ref.owner.name, outcome.ready, outcome.reason)
    await _report(events, body, patch, outcome, tuning, retry)


async def _report(events: Events, body: kopf.Body, patch: kopf.Patch, outcome: Outcome,
                  tuning: Tuning, retry: int) -> None:
    """The outcome as the status and an Event (when either is new); a transient
    failure is raised for Kopf to retry after the backoff."""
    changes = status_patch(body.status, outcome, body.meta.get("generation"), iso(time.time()))
    if changes is not None:
        for key, value in changes.items():
            patch.status[key] = value
    if changes is not None or outcome.changed:
        await events.post(body, outcome)
    if outcome.retry:
        raise kopf.TemporaryError(outcome.message, delay=tuning.backoff(retry))


def _ref(store: Store, kind: Kind, body: kopf.Body) -> ObjectRef:
    meta = body.meta
    return ObjectRef(kind.name, meta.namespace, str(meta.name), str(meta.uid or ""),
                     store.cluster)

