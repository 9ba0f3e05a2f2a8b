"""The render job handler: engine in a process pool, PNG to object storage, reply, ack.

The engine is CPU-bound, so renders run in a pool of processes; everything
else (storage, Redis) is I/O done by the thread that handles the job.

A job is acknowledged only after its effect is stored and replied to (STYLE.md
"Every step can be redone"). What that means per outcome:

- rendered: PNG stored under the job's content-addressed key, ok reply, ack;
- the engine refuses the input (``ZplError``): an ``InvalidZpl`` reply, ack.
  A bad label fails the same way every time, so it is not retried;
- anything else (object store or Redis down, a pool process killed): no ack.
  The entry stays pending and a consumer claims it again (XAUTOCLAIM); the
  store put is idempotent for the same key and bytes.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import redis

from labelrender.store import jobs, labels
from labelrender.store.jobs import RenderJob, RenderReply
from labelrender.store.objects import ObjectStore
from labelrender.worker import metrics
from labelrender.zpl import RenderOptions, ZplError, render

log = logging.getLogger(__name__)

PNG_CONTENT_TYPE = "image/png"
INVALID_ZPL = "InvalidZpl"  # the spec's 422 kind for unparseable ZPL
INVALID_OPTIONS = "InvalidOptions"  # DPI or font profile the API should have refused


@dataclass(frozen=True)
class Rendered:
    """The engine's output, in plain types so it crosses the process boundary."""

    png: bytes
    width: int
    height: int
    warnings: list[str]


@dataclass(frozen=True)
class Rejected:
    """Input the engine cannot render; ``kind`` is the reply's error_kind."""

    kind: str
    message: str


def render_in_process(job: RenderJob) -> Rendered | Rejected:
    """Run the engine on one job. Runs in a pool process.

    Refusals come back as values, not exceptions: ``ZplError`` keeps extra
    constructor arguments that do not survive pickling intact.
    """
    options = RenderOptions(
        dpi=job.target_dpi, source_dpi=job.source_dpi, width_dots=job.width_dots,
        height_dots=job.height_dots, threshold=job.threshold, font_profile=job.font_profile,
    )
    try:
        result = render(job.zpl, options)
    except ZplError as exc:
        return Rejected(INVALID_ZPL, str(exc))
    except ValueError as exc:  # option checks: render() raises plain ValueError
        return Rejected(INVALID_OPTIONS, str(exc))
    return Rendered(result.png, result.width, result.height,
                    [str(warning) for warning in result.warnings])


class PoolCrashed(RuntimeError):
    """A pool process died mid-render (killed, out of memory); the job is retried."""


def _ignore_stop_signals() -> None:
    # The consumer owns shutdown: it stops reading, lets in-flight renders
    # finish, then closes the pool. A Ctrl-C sent to the whole process group
    # must not kill the pool processes under those renders.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class RenderPool:
    """A process pool that replaces itself when one of its processes dies."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._lock = threading.Lock()
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        # forkserver: the consumer has threads (Redis, handlers), and forking a
        # threaded process can copy a held lock into the child.
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.processes, mp_context=context,
                                   initializer=_ignore_stop_signals)

    def render(self, job: RenderJob) -> Rendered | Rejected:
        with self._lock:
            executor = self._executor
        try:
            return executor.submit(render_in_process, job).result()
        except BrokenProcessPool as exc:
            self._replace(executor)
            raise PoolCrashed(f"render process died on job {job.job_id}") from exc

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:  # several handlers see one crash
                self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        with self._lock:
            self._executor.shutdown(wait=True, cancel_futures=False)


class JobHandler:
    """Handles one render job end to end; safe to call from several threads."""

    def __init__(self, r: redis.Redis, object_store: ObjectStore, pool: RenderPool) -> None:
        self._redis = r
        self._store = object_store
        self._pool = pool

    def handle(self, entry_id: str, job: RenderJob) -> bool:
        """Render, store, reply, ack. True when the entry was acknowledged;
        False leaves it pending to be claimed again."""
        started = time.perf_counter()
        try:
            outcome = self._pool.render(job)
            reply = self._finish(job, outcome)
            jobs.ack(self._redis, entry_id)
        except Exception:  # a failure of any kind must leave the entry pending
            log.exception("render job %s (entry %s) failed; left pending for a retry",
                          job.job_id, entry_id)
            metrics.JOBS.labels(outcome="retry").inc()
            return False
        metrics.JOBS.labels(outcome="rendered" if reply.ok else reply.error_kind).inc()
        metrics.JOB_SECONDS.observe(time.perf_counter() - started)
        return True

    def _finish(self, job: RenderJob, outcome: Rendered | Rejected) -> RenderReply:
        """Store the PNG (if any) and send the reply; both before the ack."""
        if isinstance(outcome, Rejected):
            reply = RenderReply(ok=False, error_kind=outcome.kind,
                                error_message=outcome.message)
        else:
            self._store.put(job.object_key, outcome.png, PNG_CONTENT_TYPE)
            self._index_object(job, outcome.warnings)
            reply = RenderReply(ok=True, size_bytes=len(outcome.png), width=outcome.width,
                                height=outcome.height, warnings=outcome.warnings)
        jobs.send_reply(self._redis, job.job_id, reply)
        return reply

    def _index_object(self, job: RenderJob, warnings: list[str]) -> None:
        """Record the object's creation time for the retention sweeper, before
        the reply: an object the index does not know would never be purged.
        Its warnings go with it, for cache hits to answer with."""
        info = self._store.head(job.object_key)
        if info is not None:
            labels.record_object(self._redis, job.tenant, job.object_key, info.created_at,
                                 warnings)
