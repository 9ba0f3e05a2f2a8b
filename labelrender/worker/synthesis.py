"""The synthesis job runner: a worker ``Service`` reading the synthesis stream.

Each entry names a job record (store.synthesis_jobs). The runner moves it to
``running``, synthesizes, stores ``succeeded`` with the synchronous response or
``failed`` with an error, and acknowledges the entry only after that, so a
worker that dies mid-job leaves the entry for another to claim. A job already
finished (claimed after its runner stored the result but before the ack) is
only acknowledged. A failed job gives its synthesis unit back.

Synthesis renders the label, so it runs in the worker's render sandbox, under
the same deadline and memory ceiling as a render and in the same fair share;
over a limit, the job fails with ``RenderTooComplex``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import redis

from labelrender.store import refund
from labelrender.store import synthesis_jobs as jobs
from labelrender.store.streams import IDLE_CONSUMER_MS
from labelrender.synth.engine import SynthesisEngine
from labelrender.synth.service import SynthesisInput
from labelrender.worker import metrics
from labelrender.worker.engine_calls import TOO_COMPLEX, Refused, synthesize_draft
from labelrender.worker.sandbox import CallFailed, OverLimit, Sandbox, SandboxError

log = logging.getLogger(__name__)

PRUNE_INTERVAL_S = 600.0
# Every group's stream is looked at this often: stale entries claimed, and jobs
# whose wake-up hint was lost read (each a pipelined XLEN of every stream).
SWEEP_INTERVAL_S = 5.0


@dataclass
class SynthesisRunner:
    """``clock`` is injectable so tests control job times without sleeping."""

    redis: redis.Redis
    engine: SynthesisEngine
    consumer: str
    sandbox: Sandbox
    claim_idle_ms: int = 60_000
    block_ms: int = 1000
    batch: int = 4
    clock: Callable[[], float] = time.time
    name: str = "synthesis"
    _group_ready: bool = field(default=False, init=False, repr=False)
    _next_prune: float = field(default=0.0, init=False, repr=False)
    _next_sweep: float = field(default=0.0, init=False, repr=False)

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.run_once(block_ms=self.block_ms)
            except Exception:  # Redis down: try again shortly
                log.exception("synthesis jobs: read failed; retrying")
                stop.wait(1.0)

    def run_once(self, block_ms: int = 0) -> int:
        """Now and then claim stale entries and sweep every group; then read new
        ones; run them all. Returns jobs run."""
        if not self._group_ready:  # the group reads from 0: jobs queued before it count
            jobs.ensure_group(self.redis)
            self._group_ready = True
        entries: list[jobs.Entry] = []
        if time.monotonic() >= self._next_sweep:
            self._next_sweep = time.monotonic() + SWEEP_INTERVAL_S
            entries = jobs.claim_stale(self.redis, self.consumer, self.claim_idle_ms, self.batch)
            entries += jobs.sweep(self.redis, self.consumer, self.batch - len(entries))
        if time.monotonic() >= self._next_prune:  # names of runners long gone
            self._next_prune = time.monotonic() + PRUNE_INTERVAL_S
            jobs.prune_consumers(self.redis, IDLE_CONSUMER_MS, keep=self.consumer)
        entries += jobs.read(self.redis, self.consumer, self.batch, max(1, block_ms))
        for entry in entries:
            self.process(*entry)
        return len(entries)

    def process(self, entry_id: str, tenant_id: str, job_id: str) -> None:
        job = jobs.get(self.redis, tenant_id, job_id)
        if job is None or job.finished:  # expired, or finished before a crash
            jobs.ack(self.redis, entry_id, tenant_id)
            return
        job = jobs.start(self.redis, job, now=self.clock())
        request = SynthesisInput.from_json(job.request)
        try:
            answer = self.sandbox.call(tenant_id, synthesize_draft, self.engine, request,
                                       tenant_id, job.request_id)
        except OverLimit as exc:
            self._fail(job, TOO_COMPLEX, exc.message)
        except CallFailed as exc:  # a bug must fail the job, not loop on it
            log.error("synthesis job %s failed: %s", job_id, exc)
            self._fail(job, "InternalError", f"synthesis failed: {exc.kind}")
        except SandboxError:  # a process killed from outside, or stopping: left pending
            log.warning("synthesis job %s left pending for a retry", job_id, exc_info=True)
            return
        else:
            if isinstance(answer, Refused):
                self._fail(job, answer.kind, answer.message)
            else:
                jobs.finish(self.redis, job, now=self.clock(), result=answer)
                metrics.SYNTHESIS_JOBS.labels(state="succeeded").inc()
        jobs.ack(self.redis, entry_id, tenant_id)

    def _fail(self, job: jobs.SynthesisJob, kind: str, message: str) -> None:
        jobs.finish(self.redis, job, now=self.clock(),
                    error={"kind": kind, "message": message})
        refund(self.redis, job.tenant_id, "syntheses", now=job.billed_at)
        metrics.SYNTHESIS_JOBS.labels(state="failed").inc()
