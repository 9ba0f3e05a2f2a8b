"""Synthesis jobs: a record per job under its tenant, and a stream for the workers.

``create`` writes the record (state ``queued``) and adds ``{tenant, job_id}`` to
the synthesis stream in one transaction. A worker of the ``synthesis`` consumer
group reads the entry, moves the record to ``running``, then to ``succeeded``
or ``failed`` with the result, and only then acknowledges the entry; a worker
that dies leaves it pending for another to claim (XAUTOCLAIM). Records live
7 days from creation (DECISIONS.md "Synthesis jobs"); the stream holds only
unfinished work, so an API restart loses nothing.
"""

from __future__ import annotations

import json
import math
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

import redis

from labelrender.store import keys, streams
from labelrender.store.redis_conn import text

GROUP = "synthesis"
JOB_TTL_S = 7 * 86400
STREAM_MAX_LEN = 100_000
# One synthesis stream per tenant group (``streams``, "streams sharded by tenant group").
QUEUE = streams.Queue(keys.synthesis_stream, GROUP, keys.wake("synthesis"), trimmed=True)

State = Literal["queued", "running", "succeeded", "failed"]
FINISHED: tuple[State, ...] = ("succeeded", "failed")


@dataclass(frozen=True)
class SynthesisJob:
    """One job: the validated request, its state and, once finished, the answer."""

    job_id: str
    tenant_id: str
    request: dict[str, Any]  # the synchronous endpoint's validated body
    request_id: str  # the POST's X-Request-Id, echoed in _synthesis_meta
    created_at: float
    billed_at: float  # when its synthesis unit was counted (for a refund)
    state: State = "queued"
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = field(default=None)

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> SynthesisJob:
        return SynthesisJob(**json.loads(text))


def new_job_id() -> str:
    return "job_" + secrets.token_hex(12)


def _ttl_ms(job: SynthesisJob, now: float) -> int:
    return max(1, math.ceil((job.created_at + JOB_TTL_S - now) * 1000))


def ensure_group(r: redis.Redis) -> None:
    """Create every group's stream and its consumer group if they do not exist yet."""
    streams.ensure_groups(r, QUEUE)


def create(r: redis.Redis, tenant_id: str, request: dict[str, Any], request_id: str, *,
           now: float, billed_at: float) -> SynthesisJob:
    """Store a queued job and hand it to the workers, atomically (the record and
    its group's stream share the tag), then wake a worker (``streams.hint``)."""
    job = SynthesisJob(new_job_id(), tenant_id, request, request_id, now, billed_at)
    pipe = r.pipeline(transaction=True)
    pipe.set(keys.synthesis_job(tenant_id, job.job_id), job.to_json(), px=_ttl_ms(job, now))
    pipe.xadd(QUEUE.of(tenant_id), {"tenant": tenant_id, "job_id": job.job_id},
              maxlen=STREAM_MAX_LEN, approximate=True)
    pipe.execute()
    streams.hint(r, QUEUE, keys.group(tenant_id))
    return job


def get(r: redis.Redis, tenant_id: str, job_id: str) -> SynthesisJob | None:
    """The tenant's job, or None: unknown, expired, or another tenant's."""
    text = r.get(keys.synthesis_job(tenant_id, job_id))
    return SynthesisJob.from_json(str(text)) if text else None


def save(r: redis.Redis, job: SynthesisJob, *, now: float) -> None:
    """Write the record back, keeping its 7-day life from creation."""
    r.set(keys.synthesis_job(job.tenant_id, job.job_id), job.to_json(), px=_ttl_ms(job, now))


def start(r: redis.Redis, job: SynthesisJob, *, now: float) -> SynthesisJob:
    running = replace(job, state="running")
    save(r, running, now=now)
    return running


def finish(r: redis.Redis, job: SynthesisJob, *, now: float,
           result: dict[str, Any] | None = None,
           error: dict[str, Any] | None = None) -> SynthesisJob:
    """``succeeded`` with ``result`` or ``failed`` with ``error``."""
    done = replace(job, state="failed" if error is not None else "succeeded",
                   finished_at=now, result=result, error=error)
    save(r, done, now=now)
    return done


Entry = tuple[str, str, str]  # stream entry id, tenant id, job id


def _entries(entries: list[streams.Entry]) -> list[Entry]:
    return [(entry_id, str(text(fields["tenant"])), str(text(fields["job_id"])))
            for _group, entry_id, fields in entries]


def read(r: redis.Redis, consumer: str, count: int, block_ms: int) -> list[Entry]:
    """New entries of any group for this consumer (``streams.read``)."""
    return _entries(streams.read(r, QUEUE, consumer, count, block_ms))


def sweep(r: redis.Redis, consumer: str, count: int) -> list[Entry]:
    """New entries found by reading every group (``streams.sweep``)."""
    return _entries(streams.sweep(r, QUEUE, consumer, count))


def claim_stale(r: redis.Redis, consumer: str, min_idle_ms: int, count: int) -> list[Entry]:
    """Entries of any group a dead consumer left pending longer than
    ``min_idle_ms``, now ours."""
    return _entries(streams.claim_stale(r, QUEUE, consumer, min_idle_ms, count))


def ack(r: redis.Redis, entry_id: str, tenant_id: str) -> None:
    """The job's record is final: drop its entry from its group's stream."""
    streams.ack(r, QUEUE, keys.group(tenant_id), entry_id)


def prune_consumers(r: redis.Redis, idle_ms: int, keep: str) -> list[str]:
    """Idle synthesis consumer names with nothing pending, removed (``streams``)."""
    return streams.prune(r, QUEUE, idle_ms, keep)


def release_consumer(r: redis.Redis, consumer: str, idle_ms: int) -> int:
    """The jobs of a consumer whose process is gone become claimable at once
    (``streams.release``)."""
    return streams.release(r, QUEUE, consumer, idle_ms)


def backlog(r: redis.Redis) -> int:
    """Jobs not finished yet (acknowledged entries are deleted), every group's."""
    return streams.length(r, QUEUE)
