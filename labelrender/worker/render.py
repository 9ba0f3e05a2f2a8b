"""The render job handler: the engine in a sandbox process, the PNG (or PDF) to object
storage, the job settled, the reply sent.

The engine runs in a ``Sandbox`` process under a deadline and a memory ceiling
(``labelrender.worker.sandbox``); everything else (storage, Redis) is I/O done
by the thread that handles the job. What happens per outcome (STYLE.md "Every
step can be redone"):

- rendered: the PNG is stored under the job's content-addressed key, then
  ``jobs.finish`` acknowledges the entry and settles its label unit in one step
  (kept when this is the object's first store, given back when another job
  stored it first), then the reply;
- refused, and final: the engine cannot render the input (``InvalidZpl``,
  ``InvalidOptions``) or it went over a limit (``RenderTooComplex``: the
  engine's ``LimitExceeded``, or the sandbox's deadline, memory ceiling, or a
  crash of the render process). The same input fails the same way, so it is
  acknowledged at once, never redelivered, never stored, and its unit is
  given back (``jobs.finish`` with nothing stored);
- anything else (object store or Redis down, a render process killed from
  outside, the sandbox closing): no acknowledgement. The entry stays pending
  and a consumer claims it again; the store put is idempotent.
- not started because the worker is stopping (``stop_starting``): no
  acknowledgement either; the consumer hands the entry back at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from redis.exceptions import AskError, ClusterDownError, MovedError, TryAgainError

from labelrender.store import jobs
from labelrender.store.jobs import RenderJob, RenderReply
from labelrender.store.objects import ObjectStore, ObjectStoreError
from labelrender.worker import metrics
from labelrender.worker.engine_calls import (
    INVALID_ZPL,
    TOO_COMPLEX,
    WARM_UP_LABEL,
    Rejected,
    Rendered,
    render_label,
)
from labelrender.worker.sandbox import CallFailed, OverLimit, ProcessLost, Sandbox

log = logging.getLogger(__name__)

# A cluster moving a slot or failing over: moments, not faults. A reshard on a
# loaded machine can hold one slot half moved for longer than 6 s: settling keeps
# trying for about 19 s, well inside the API's wait for the reply (30 s by default),
# so the request still gets its answer rather than a 504.
CLUSTER_MOVING = (TryAgainError, AskError, MovedError, ClusterDownError)
SETTLE_RETRY_PAUSES_S = (0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 3.2, 3.2, 3.2, 3.2)

# The warm-up's job belongs to no tenant, and its object key to no label.
WARM_UP_TENANT = "warm-up"
WARM_UP_OBJECT = "warm-up/absent.png"


class NotStarted(Exception):  # noqa: N818 - a state, not a failure
    """The worker is stopping: a job whose turn came is left for another."""


class JobHandler:
    """Handles one render job end to end; safe to call from several threads.

    ``on_rendered`` is told of every job the engine ran on, whatever its
    answer, before the reply (tests count renders with it; a cache hit never
    reaches a worker)."""

    def __init__(self, r: redis.Redis, object_store: ObjectStore, sandbox: Sandbox, *,
                 on_rendered: Callable[[RenderJob], None] | None = None) -> None:
        self._redis = r
        self._store = object_store
        self._sandbox = sandbox
        self._on_rendered = on_rendered
        self._stopping = threading.Event()

    def stop_starting(self) -> None:
        """Start no more renders: jobs still waiting for a process return False
        at once, without rendering (the worker is stopping)."""
        self._stopping.set()

    @property
    def sandbox(self) -> Sandbox:
        return self._sandbox

    def handle(self, entry_id: str, job: RenderJob) -> bool:
        """Render, store, settle (acknowledges), reply. True when the entry was
        settled; False leaves it pending to be claimed again."""
        started = time.perf_counter()
        try:
            outcome = self._render(job)
            reply = self._finish(entry_id, job, outcome)
        except NotStarted:
            metrics.JOBS.labels(outcome="handed_back").inc()
            return False
        except Exception:  # a failure of any kind must leave the entry pending
            log.exception("render job %s (entry %s) failed; left pending for a retry",
                          job.job_id, entry_id)
            metrics.JOBS.labels(outcome="retry").inc()
            metrics.RENDER_SECONDS.labels(outcome="retry").observe(
                time.perf_counter() - started)
            return False
        elapsed = time.perf_counter() - started
        answer = "rendered" if reply.ok else reply.error_kind
        metrics.JOBS.labels(outcome=answer).inc()
        metrics.JOB_SECONDS.observe(elapsed)
        metrics.RENDER_SECONDS.labels(outcome=answer).observe(elapsed)
        return True

    def warm_up(self) -> None:
        """The first job's one-time costs, paid before the worker says it can take
        one: each render process's first call over its pipe (the real job
        function, on a label of no tenant) and the object store's first lookup
        (a key no label has). Nothing is stored, counted or answered."""
        job = RenderJob(tenant=WARM_UP_TENANT, content_hash="0" * 64,
                        object_key=WARM_UP_OBJECT, zpl=WARM_UP_LABEL.decode())
        self._sandbox.call_each(render_label, job, self._sandbox.limits.engine_budget_s)
        self._store.head(WARM_UP_OBJECT)

    def abandon(self, entry_id: str, job: RenderJob, reason: str) -> None:
        """A job handed out too many times without finishing (its workers kept
        dying, or storage kept failing): settle it with whatever is stored and
        answer, so it does not circle the stream forever."""
        info = self._store.head(job.object_key)
        if info is not None:  # a worker stored it before dying: a label after all
            reply = RenderReply(ok=True, size_bytes=info.size)
        else:
            reply = RenderReply(ok=False, error_kind=jobs.GAVE_UP, error_message=reason)
        settled = jobs.finish(self._redis, entry_id, job,
                              stored_at=info.created_at if info is not None else None,
                              reply=reply)
        metrics.SETTLED.labels(settlement=settled).inc()
        metrics.JOBS.labels(outcome="abandoned").inc()

    def _render(self, job: RenderJob) -> Rendered | Rejected:
        """The engine's answer, in a sandbox process. A render process killed
        from outside, or the sandbox closing, raises (the job is retried)."""
        try:
            with self._sandbox.turn(job.tenant) as turn:
                if self._stopping.is_set():
                    raise NotStarted(job.job_id)
                return turn.call(render_label, job, self._sandbox.limits.engine_budget_s)
        except OverLimit as exc:  # its process was replaced
            metrics.RENDER_PROCESSES_REPLACED.labels(limit=exc.limit).inc()
            return Rejected(TOO_COMPLEX, exc.message, exc.limit)
        except ProcessLost:  # killed from outside (the OOM killer): replaced, job retried
            metrics.RENDER_PROCESSES_REPLACED.labels(limit="lost").inc()
            raise
        except CallFailed as exc:  # render_label answers every engine error itself
            return Rejected(INVALID_ZPL, f"the label cannot be rendered: {exc}", unexpected=True)

    def _finish(self, entry_id: str, job: RenderJob, outcome: Rendered | Rejected
                ) -> RenderReply:
        """Store the PNG (if any), then settle the job and reply in one step."""
        if isinstance(outcome, Rejected):
            if outcome.unexpected:
                log.error("render job %s: the engine failed: %s", job.job_id, outcome.message)
            reply = RenderReply(ok=False, error_kind=outcome.kind,
                                error_message=outcome.message, limit=outcome.limit)
            self._told(job)
            settled = self._settle(lambda: jobs.finish(self._redis, entry_id, job,
                                                       stored_at=None, reply=reply))
        else:
            # A PNG without sync: one a power cut tore renders again (store.disk_flush,
            # ObjectStore.intact); other files (PDF) reach the disk before their link.
            self._store.put(job.object_key, outcome.png, outcome.content_type,
                            sync=outcome.content_type != "image/png")
            info = self._store.head(job.object_key)
            if info is None:
                raise ObjectStoreError(f"{job.object_key} is not there right after its put")
            reply = RenderReply(ok=True, size_bytes=len(outcome.png), width=outcome.width,
                                height=outcome.height, warnings=outcome.warnings,
                                label_count=outcome.label_count, fields=outcome.fields)
            self._told(job)
            stored_at = info.created_at
            settled = self._settle(lambda: jobs.finish(
                self._redis, entry_id, job, stored_at=stored_at, warnings=outcome.warnings,
                label_count=outcome.label_count, fields=outcome.fields, reply=reply))
        metrics.SETTLED.labels(settlement=settled).inc()
        return reply

    @staticmethod
    def _settle(step: Callable[[], jobs.Settlement]) -> jobs.Settlement:
        """``step`` (``jobs.finish``), tried again for up to about 19 s while a
        Redis Cluster moves the job's slot or fails over (TRYAGAIN, ASK or MOVED
        past the client's own retries, CLUSTERDOWN): the waiting request gets
        its answer instead of the entry waiting out the claim timeout. Safe to
        repeat: a settled entry settles as ``finished_before``."""
        for pause in SETTLE_RETRY_PAUSES_S:
            try:
                return step()
            except CLUSTER_MOVING as exc:
                log.info("settling waits %.1f s for the cluster: %s", pause, exc)
                time.sleep(pause)
        return step()

    def _told(self, job: RenderJob) -> None:
        """``on_rendered``, before the reply."""
        if self._on_rendered is not None:
            self._on_rendered(job)
