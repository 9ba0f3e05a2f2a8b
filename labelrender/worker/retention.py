"""The retention sweeper: purge label objects older than the tenant plan's window.

Spec "Rendered label": a label exists behind its signed URL for the plan's
retention window, then is purged; afterwards a lookup is 404 and identical
inputs render afresh (a billable cache miss, because the content-addressed
object is gone). Every worker runs one sweeper; they may overlap safely:
deleting an object twice is not an error, and the index entry is dropped only
while it still describes the object the sweeper saw (``labels.forget_object``).

The object comes first, then its index entry and registry record: a crash in
between leaves an entry whose object is gone, which the next sweep finishes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis

from labelrender.store import get_plan, get_tenant, labels
from labelrender.store.errors import NotFound
from labelrender.store.objects import ObjectStore

log = logging.getLogger(__name__)

DAY_S = 86400


@dataclass
class RetentionSweeper:
    """A worker ``Service``. ``clock`` is injectable so tests move time instead
    of waiting for it."""

    redis: redis.Redis
    objects: ObjectStore
    interval_s: float = 600.0
    batch: int = 500
    clock: Callable[[], float] = time.time
    name: str = "retention"

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                purged = self.sweep_once()
                if purged:
                    log.info("retention: purged %d label object(s)", purged)
            except Exception:  # Redis or storage down: try again next round
                log.exception("retention sweep failed; retrying in %.0f s", self.interval_s)
            stop.wait(self.interval_s)

    def sweep_once(self) -> int:
        """One pass over every tenant with stored labels; returns objects purged."""
        now = self.clock()
        purged = 0
        for tenant_id in labels.tenants_with_objects(self.redis):
            days = self._retention_days(tenant_id)
            if days is not None:
                purged += self._purge_tenant(tenant_id, now - days * DAY_S)
        return purged

    def _retention_days(self, tenant_id: str) -> int | None:
        try:
            tenant = get_tenant(self.redis, tenant_id)
            return get_plan(self.redis, tenant.plan).retention_days
        except NotFound:
            log.warning("retention: tenant %s or its plan is unknown; skipped", tenant_id)
            return None

    def _purge_tenant(self, tenant_id: str, cutoff: float) -> int:
        purged = 0
        while True:
            expired = labels.objects_older_than(self.redis, tenant_id, cutoff, self.batch)
            for object_key, created_at in expired:
                self.objects.delete(object_key)
                if labels.forget_object(self.redis, tenant_id, object_key, created_at):
                    purged += 1
            if len(expired) < self.batch:
                return purged
