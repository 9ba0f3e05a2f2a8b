"""Render jobs: the Redis Stream between the API tier and the render workers.

The API adds a job to one stream read by the ``workers`` consumer group and
waits on a per-job reply list. A worker renders, stores the PNG, pushes the
reply, then acknowledges the entry; a worker that dies leaves its entry
pending, and another claims it (XAUTOCLAIM). Every effect is keyed by the
content hash, so a job run twice stores the same object and the same reply.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

import redis
import redis.asyncio

from labelrender.store import keys
from labelrender.store.streams import prune_idle_consumers

GROUP = "workers"
GAVE_UP = "RenderFailed"  # error_kind of a job dropped after too many deliveries
REPLY_TTL_S = 120  # a reply nobody collected (the API call gave up) expires
STREAM_MAX_LEN = 100_000  # approximate cap; entries are small, acked ones are trimmed


@dataclass(frozen=True)
class RenderJob:
    """One render: everything a worker needs, no lookups required."""

    tenant: str
    content_hash: str
    object_key: str
    zpl: str
    source_dpi: int = 203
    target_dpi: int = 203
    threshold: bool = False
    font_profile: str | None = None
    width_dots: int | None = None
    height_dots: int | None = None
    kind: str = "raw"  # "raw" or "template"
    extra: dict[str, Any] = field(default_factory=dict)  # template id, version, external_ref
    job_id: str = ""

    def to_fields(self) -> dict[Any, Any]:
        return {"job": json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)}

    @staticmethod
    def from_fields(fields: Any) -> RenderJob:
        return RenderJob(**json.loads(fields["job"]))


@dataclass(frozen=True)
class RenderReply:
    """A worker's answer: ``ok`` with the stored object's size, or an engine error."""

    ok: bool
    size_bytes: int = 0
    width: int = 0
    height: int = 0
    warnings: list[str] = field(default_factory=list)
    error_kind: str = ""
    error_message: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> RenderReply:
        return RenderReply(**json.loads(text))


def new_job_id() -> str:
    return "job_" + secrets.token_hex(12)


def ensure_group(r: redis.Redis) -> None:
    """Create the stream and its consumer group if they do not exist yet."""
    try:
        r.xgroup_create(keys.render_stream(), GROUP, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def enqueue(r: redis.Redis, job: RenderJob) -> RenderJob:
    """Add a job to the render stream; returns it with its job id set."""
    if not job.job_id:
        job = RenderJob(**{**asdict(job), "job_id": new_job_id()})
    r.xadd(keys.render_stream(), job.to_fields(), maxlen=STREAM_MAX_LEN, approximate=True)
    return job


def backlog(r: redis.Redis) -> int:
    """Jobs not yet finished: waiting in the stream plus delivered but unacknowledged.
    Acknowledged entries are deleted (``ack``), so that is the stream's length."""
    return int(r.xlen(keys.render_stream()))


def pending_by_consumer(r: redis.Redis) -> dict[str, int]:
    """Delivered but unacknowledged jobs per consumer name (who is rendering what)."""
    try:
        summary: Any = r.xpending(keys.render_stream(), GROUP)
    except redis.ResponseError as exc:
        if "NOGROUP" not in str(exc):
            raise
        return {}  # no worker has started yet
    return {str(c["name"]): int(c["pending"]) for c in summary.get("consumers") or []}


def wait_reply(r: redis.Redis, job_id: str, timeout_s: float) -> RenderReply | None:
    """Block until the job's reply arrives, or None after ``timeout_s``."""
    item = r.blpop([keys.render_reply(job_id)], timeout=timeout_s)
    if item is None:
        return None
    return RenderReply.from_json(str(item[1]))


async def wait_reply_async(ar: redis.asyncio.Redis, job_id: str, timeout_s: float
                           ) -> RenderReply | None:
    """``wait_reply`` on the asyncio client: the waiting API call holds no thread."""
    item: Any = await ar.blpop([keys.render_reply(job_id)], timeout=timeout_s)
    if item is None:
        return None
    return RenderReply.from_json(str(item[1]))


def send_reply(r: redis.Redis, job_id: str, reply: RenderReply) -> None:
    """Push the reply for the waiting API call (kept briefly if nobody waits)."""
    name = keys.render_reply(job_id)
    pipe = r.pipeline(transaction=True)
    pipe.delete(name)
    pipe.rpush(name, reply.to_json())
    pipe.expire(name, REPLY_TTL_S)
    pipe.execute()


def read(r: redis.Redis, consumer: str, count: int, block_ms: int
         ) -> list[tuple[str, RenderJob]]:
    """New entries for this consumer: (entry id, job) pairs."""
    answer: Any = r.xreadgroup(GROUP, consumer, {keys.render_stream(): ">"}, count=count,
                               block=block_ms)
    return [(str(entry_id), RenderJob.from_fields(fields))
            for _stream, entries in answer or [] for entry_id, fields in entries]


def claim_stale(r: redis.Redis, consumer: str, min_idle_ms: int, count: int
                ) -> list[tuple[str, RenderJob]]:
    """Entries a dead consumer left pending longer than ``min_idle_ms``, now ours."""
    answer: Any = r.xautoclaim(keys.render_stream(), GROUP, consumer,
                               min_idle_time=min_idle_ms, start_id="0-0", count=count)
    entries = answer[1]
    return [(str(entry_id), RenderJob.from_fields(fields))
            for entry_id, fields in entries if fields]


def delivery_counts(r: redis.Redis, entry_ids: list[str]) -> dict[str, int]:
    """How many times each pending entry has been handed to a consumer
    (XREADGROUP, then every XAUTOCLAIM). Entries no longer pending are left out."""
    pipe = r.pipeline(transaction=False)
    for entry_id in entry_ids:
        pipe.xpending_range(keys.render_stream(), GROUP, min=entry_id, max=entry_id, count=1)
    counts: dict[str, int] = {}
    for entry_id, rows in zip(entry_ids, pipe.execute(), strict=True):
        for row in rows:
            counts[entry_id] = int(row["times_delivered"])
    return counts


def give_up(r: redis.Redis, entry_id: str, job: RenderJob, reason: str) -> None:
    """Answer a job that cannot be finished with an error and drop it, so one
    label that keeps killing its renderer does not circle the stream forever."""
    send_reply(r, job.job_id, RenderReply(ok=False, error_kind=GAVE_UP, error_message=reason))
    ack(r, entry_id)


def prune_consumers(r: redis.Redis, idle_ms: int, keep: str) -> list[str]:
    """Idle render consumer names with nothing pending, removed (``streams``)."""
    return prune_idle_consumers(r, keys.render_stream(), GROUP, idle_ms, keep)


def ack(r: redis.Redis, entry_id: str) -> None:
    """The job's effects are stored and replied to: drop it from the stream."""
    pipe = r.pipeline(transaction=True)
    pipe.xack(keys.render_stream(), GROUP, entry_id)
    pipe.xdel(keys.render_stream(), entry_id)
    pipe.execute()
