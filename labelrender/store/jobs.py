"""Render jobs: the Redis Stream between the API tier and the render workers.

The API admits a job in one step (``admit``: the month's label quota, a
concurrency slot, the queue depth, then ``XADD``) and waits on a per-job reply
list. A worker renders, stores the PNG, settles the job (``finish``) and
pushes the reply; a worker that dies leaves its entry pending, and another
claims it (XAUTOCLAIM). Every effect is keyed by the content hash, so a job
run twice stores the same object and the same reply.

Billing: a label is billed exactly when its PNG is first stored.

- Admission counts one unit and puts the job on the stream in one script: a
  refusal takes nothing, and a reply lost on the way back leaves either
  nothing or a queued job carrying its unit (``billed_at``). The API never
  gives a render unit back.
- The job's unit is settled once, by ``finish``, in the same script that
  acknowledges the entry: ``XACK`` answers 1 to exactly one caller, so a job
  rendered twice (claimed from a worker that was only slow) settles once.
- ``finish`` keeps the unit when this job is the first to record its object
  in the object index (the index entry is the first-store marker: absent, or
  older than this object, which is the case after a retention purge), and
  gives it back otherwise: an object another job stored first, or a refusal.

Every crash point: before the PNG is stored, the entry is pending and the unit
counted; the entry is delivered again and settled, or abandoned (``finish``
with whatever is stored then). After the store and before ``finish``, the same:
the redelivery finds the object and settles as the first store. After
``finish``, the label is billed once and stored; only the reply may be lost
(the waiting request times out, and a retry is a cache hit). A job abandoned
while a slow worker still renders it is settled without an object; when that
worker stores it, its own ``finish`` finds the entry settled and the object
first in the index, and bills it then (``first_store_late``). So no label is
billed without being stored, and none is stored without being billed.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, cast

import redis
import redis.asyncio

from labelrender.store import keys, streams
from labelrender.store.clock import Now, unix
from labelrender.store.errors import QuotaExceeded, StoreError
from labelrender.store.labels import encode_record
from labelrender.store.limits import QUOTA_LUA, SLOT_LUA, Lease, period, quota_of
from labelrender.store.plans import Plan
from labelrender.store.redis_conn import text

GROUP = "workers"
GAVE_UP = "RenderFailed"  # error_kind of a job dropped after too many deliveries
REPLY_TTL_S = 120  # a reply nobody collected (the API call gave up) expires
STREAM_MAX_LEN = 100_000  # approximate cap; entries are small, acked ones are trimmed
# One render stream per tenant group (``streams``, "streams sharded by tenant group").
QUEUE = streams.Queue(keys.render_stream, GROUP, keys.wake("render"))


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
    # What changes the output besides the ZPL (all in the content hash):
    label_index: int | None = None  # None: the first label (PNG), every label (PDF)
    rotation: int = 0  # the image turned clockwise
    output_format: str = "png"  # "png" or "pdf"
    pdf_page: dict[str, Any] | None = None  # labelrender.zpl.PdfPage's fields
    fields: bool = False  # reply with (and record) each field's ink box
    job_id: str = ""
    # When its label unit was counted (unix time), at admission: the month it
    # is given back to if no label results (``finish``). None: nothing to settle.
    billed_at: float | None = None

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
    limit: str = ""  # the limit a RenderTooComplex went over ("time", "memory", ...)
    label_count: int = 1  # labels in the ZPL stream
    # Each field's ink box as [offset, command, fn, x, y, width, height], when asked.
    fields: list[list[Any]] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> RenderReply:
        return RenderReply(**json.loads(text))


def new_job_id() -> str:
    return "job_" + secrets.token_hex(12)


def ensure_group(r: redis.Redis) -> None:
    """Create every group's stream and its consumer group if they do not exist yet."""
    streams.ensure_groups(r, QUEUE)


def enqueue(r: redis.Redis, job: RenderJob) -> RenderJob:
    """Add a job to its tenant group's render stream; returns it with its job id
    set. No quota, slot or depth check: ``admit`` is the API's door."""
    if not job.job_id:
        job = RenderJob(**{**asdict(job), "job_id": new_job_id()})
    r.xadd(QUEUE.of(job.tenant), job.to_fields(), maxlen=STREAM_MAX_LEN, approximate=True)
    streams.hint(r, QUEUE, keys.group(job.tenant))
    return job


class SlotsTaken(StoreError):
    """Every one of the tenant's concurrent render slots is held (API: 429)."""


class QueueFull(StoreError):
    """The render backlog of the tenant's group is over the configured depth (API: 503)."""


# KEYS: usage, inflight, stream. ARGV: unit, included, overages, usage ttl, now,
# cap, lease id, lease expiry, max depth, max stream length, job JSON.
# Everything is checked before anything is taken: a refusal takes nothing.
_ADMIT = QUOTA_LUA + SLOT_LUA + """
local room, used = quota_room(KEYS[1], ARGV[1], 1, tonumber(ARGV[2]), ARGV[3])
if not room then return {'quota', used} end
local now = tonumber(ARGV[5])
if not slot_free(KEYS[2], now, tonumber(ARGV[6])) then return {'slot', 0} end
if redis.call('XLEN', KEYS[3]) > tonumber(ARGV[9]) then return {'depth', 0} end
quota_take(KEYS[1], ARGV[1], 1, ARGV[4])
slot_take(KEYS[2], now, ARGV[7], tonumber(ARGV[8]))
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[10], '*', 'job', ARGV[11])
return {'ok', used + 1}
"""


def admit(r: redis.Redis, job: RenderJob, *, plan: Plan, overages: bool,
          lease_seconds: float, max_depth: int, now: Now) -> tuple[RenderJob, Lease]:
    """Count one label, take one of ``plan``'s concurrency slots and queue the
    job, all or nothing (the docstring's "Billing"). Returns the job as queued
    (its id and ``billed_at`` set) and the slot's lease. Raises QuotaExceeded,
    SlotsTaken or QueueFull, having taken nothing."""
    step = _Admission(job, plan=plan, overages=overages, lease_seconds=lease_seconds,
                      max_depth=max_depth, now=now)
    admitted = step.outcome(r.register_script(_ADMIT)(keys=step.keys, args=step.args))
    streams.hint(r, QUEUE, step.group)
    return admitted


async def admit_async(ar: redis.asyncio.Redis, job: RenderJob, *, plan: Plan,
                      overages: bool, lease_seconds: float, max_depth: int, now: Now
                      ) -> tuple[RenderJob, Lease]:
    """``admit`` on the asyncio client: the API's event loop runs it without a
    thread hop."""
    step = _Admission(job, plan=plan, overages=overages, lease_seconds=lease_seconds,
                      max_depth=max_depth, now=now)
    admitted = step.outcome(await ar.register_script(_ADMIT)(keys=step.keys, args=step.args))
    await ar.rpush(QUEUE.wake, step.group)  # ``streams.hint``
    return admitted


class _Admission:
    """``_ADMIT``'s keys and arguments for one job, and what its answer means. The
    keys are the tenant's and its group's render stream: one hash tag, one slot;
    ``max_depth`` limits that group's backlog."""

    def __init__(self, job: RenderJob, *, plan: Plan, overages: bool, lease_seconds: float,
                 max_depth: int, now: Now) -> None:
        at = unix(now)
        self.job = replace(job, job_id=job.job_id or new_job_id(), billed_at=at)
        self.plan = plan
        self.max_depth = max_depth
        self.quota = quota_of(job.tenant, "labels", plan, overages=overages, now=at)
        # The lease is named by the job, so the worker that settles the job gives the
        # slot back in the same step (``finish``).
        self.lease = Lease(job.tenant, self.job.job_id, at + lease_seconds)
        self.group = keys.group(job.tenant)
        self.keys = [self.quota.usage_key, keys.inflight(job.tenant), QUEUE.stream(self.group)]
        self.args: list[Any] = [
            "labels", self.quota.included, "1" if self.quota.overages else "0",
            self.quota.ttl_s, repr(at), plan.concurrent_renders, self.lease.lease_id,
            repr(self.lease.expires_at), max_depth, STREAM_MAX_LEN,
            self.job.to_fields()["job"]]

    def outcome(self, answer: Any) -> tuple[RenderJob, Lease]:
        outcome, used = text(answer[0]), answer[1]
        if outcome == "quota":
            raise QuotaExceeded("labels", int(used), self.quota.included)
        if outcome == "slot":
            raise SlotsTaken(f"{self.plan.concurrent_renders} renders already in flight")
        if outcome == "depth":
            raise QueueFull(f"more than {self.max_depth} render jobs of the tenant's group "
                            "are waiting")
        return self.job, self.lease


def backlog(r: redis.Redis) -> int:
    """Jobs not yet finished: waiting in the streams plus delivered but unacknowledged.
    Acknowledged entries are deleted (``ack``), so that is the streams' length."""
    return streams.length(r, QUEUE)


def lag(r: redis.Redis) -> int:
    """Jobs no worker has taken yet: the consumer groups' lag summed over every
    tenant group's stream, the number the workers' autoscaler scales on.

    Per stream, Redis 7 reports it in XINFO GROUPS, and that number is used. Redis 6 has
    no lag there, and Redis 7 answers NULL once the entry last delivered has
    been deleted while an older one is still in the stream (a lag it cannot
    count past a deleted entry). Then it is the stream's length less the
    group's pending entries: the same number, because a job is deleted in the
    step that acknowledges it (``finish``, ``ack``), so every entry still in
    the stream is either pending or not delivered yet. On a single Redis every
    stream is read in one transaction, at one instant (``streams.snapshot``).
    Before the group exists every entry waits."""
    return streams.lag(r, QUEUE)


def in_progress(r: redis.Redis) -> int:
    """Jobs a worker has taken and not finished (XPENDING), summed over every group."""
    return streams.pending(r, QUEUE)


def pending_by_consumer(r: redis.Redis) -> dict[str, int]:
    """Delivered but unacknowledged jobs per consumer name (who is rendering what)."""
    return streams.pending_by_consumer(r, QUEUE)


def release_consumer(r: redis.Redis, consumer: str, idle_ms: int) -> int:
    """The jobs of a consumer whose process is gone become claimable at once
    (``streams.release_consumer``), not after ``idle_ms``; billing is
    unchanged: each job still carries its unit to whoever finishes it."""
    return streams.release(r, QUEUE, consumer, idle_ms)


def reply_key(job: RenderJob) -> str:
    """The job's reply list, under its tenant group's tag."""
    return keys.render_reply(keys.group(job.tenant), job.job_id)


def wait_reply(r: redis.Redis, job: RenderJob, timeout_s: float) -> RenderReply | None:
    """Block until the job's reply arrives, or None after ``timeout_s``."""
    item = r.blpop([reply_key(job)], timeout=timeout_s)
    if item is None:
        return None
    return RenderReply.from_json(str(item[1]))


async def wait_reply_async(ar: redis.asyncio.Redis, job: RenderJob, timeout_s: float
                           ) -> RenderReply | None:
    """``wait_reply`` on the asyncio client: the waiting API call holds no thread."""
    item: Any = await ar.blpop([reply_key(job)], timeout=timeout_s)
    if item is None:
        return None
    return RenderReply.from_json(str(item[1]))


def send_reply(r: redis.Redis, job: RenderJob, reply: RenderReply) -> None:
    """Push the reply for the waiting API call (kept briefly if nobody waits)."""
    name = reply_key(job)
    pipe = r.pipeline(transaction=True)
    pipe.delete(name)
    pipe.rpush(name, reply.to_json())
    pipe.expire(name, REPLY_TTL_S)
    pipe.execute()


Held = tuple[str, RenderJob]  # a stream entry id and its job (whose tenant names the stream)


def _jobs(entries: list[streams.Entry]) -> list[Held]:
    return [(entry_id, RenderJob.from_fields(fields)) for _group, entry_id, fields in entries]


def read(r: redis.Redis, consumer: str, count: int, block_ms: int) -> list[Held]:
    """Up to ``count`` new jobs for this consumer, of the group the next hint
    names, waiting up to ``block_ms`` for one (``streams.read``): (entry id, job)
    pairs. Jobs whose hint was lost are found by ``sweep``."""
    return _jobs(streams.read(r, QUEUE, consumer, count, block_ms))


def sweep(r: redis.Redis, consumer: str, count: int) -> list[Held]:
    """Up to ``count`` new jobs found by reading every group (``streams.sweep``)."""
    return _jobs(streams.sweep(r, QUEUE, consumer, count))


def claim_stale(r: redis.Redis, consumer: str, min_idle_ms: int, count: int
                ) -> list[Held]:
    """Jobs of any group a dead consumer left pending longer than ``min_idle_ms``,
    now ours."""
    return _jobs(streams.claim_stale(r, QUEUE, consumer, min_idle_ms, count))


def _by_stream(held: Sequence[Held]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for entry_id, job in held:
        found.setdefault(QUEUE.of(job.tenant), []).append(entry_id)
    return found


def delivery_counts(r: redis.Redis, held: Sequence[Held]) -> list[int]:
    """How many times each pending job has been handed to a consumer (XREADGROUP,
    then every XAUTOCLAIM), in ``held``'s order; 0 for one no longer pending."""
    pipe = r.pipeline(transaction=False)
    for entry_id, job in held:
        pipe.xpending_range(QUEUE.of(job.tenant), GROUP, min=entry_id, max=entry_id, count=1)
    return [sum(int(row["times_delivered"]) for row in rows) for rows in pipe.execute()]


def refresh(r: redis.Redis, consumer: str, held: Sequence[Held]) -> None:
    """Reset the idle time of jobs this consumer holds (XCLAIM JUSTID, which
    does not count a delivery), so jobs waiting here for a render process are
    not claimed by another consumer as a dead one's."""
    for stream, entry_ids in _by_stream(held).items():
        r.xclaim(stream, GROUP, consumer, 0, list(entry_ids), justid=True)


def hand_back(r: redis.Redis, consumer: str, held: Sequence[Held], idle_ms: int) -> None:
    """Jobs this consumer holds but will not finish (it is stopping) become
    claimable at once: their idle time is set to the claim threshold
    ``idle_ms``, so the next consumer's XAUTOCLAIM takes them."""
    for stream, entry_ids in _by_stream(held).items():
        r.xclaim(stream, GROUP, consumer, 0, list(entry_ids), idle=idle_ms, justid=True)


Settlement = Literal["first_store", "stored_before", "refused", "finished_before",
                     "first_store_late"]

# KEYS: stream, object index, object records, retention tenants, usage (the
# month of billed_at), the job's reply list, the tenant's slots in flight. ARGV:
# group, entry id, object key, the stored object's created_at ('' = nothing stored),
# its record JSON ('' = nothing to say), tenant, billed ('1' = the job carries a
# unit), the reply JSON ('' = none), the reply's time to live, the job id (its
# slot's lease).
_FINISH = QUOTA_LUA + """
redis.call('ZREM', KEYS[7], ARGV[10])
if ARGV[8] ~= '' then
  redis.call('DEL', KEYS[6])
  redis.call('RPUSH', KEYS[6], ARGV[8])
  redis.call('EXPIRE', KEYS[6], ARGV[9])
end
local acked = redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
if acked == 1 then redis.call('XDEL', KEYS[1], ARGV[2]) end
local first = false
if ARGV[4] ~= '' then
  local seen = redis.call('ZSCORE', KEYS[2], ARGV[3])
  if not seen or tonumber(ARGV[4]) > tonumber(seen) then
    redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
    first = true
  end
  redis.call('SADD', KEYS[4], ARGV[6])
  if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[3], ARGV[5])
  else redis.call('HDEL', KEYS[3], ARGV[3]) end
end
local billed = ARGV[7] == '1'
if acked == 0 then
  -- Settled already, without this object: its unit was given back, take it again.
  if first and billed then redis.call('HINCRBY', KEYS[5], 'labels', 1) end
  return first and 'first_store_late' or 'finished_before'
end
if first then return 'first_store' end
if billed then quota_give_back(KEYS[5], 'labels', 1) end
return ARGV[4] ~= '' and 'stored_before' or 'refused'
"""


def finish(r: redis.Redis, entry_id: str, job: RenderJob, *, stored_at: float | None,
           warnings: list[str] | None = None, label_count: int = 1,
           fields: list[list[Any]] | None = None, reply: RenderReply | None = None
           ) -> Settlement:
    """Acknowledge the job and settle its unit, in one step (the docstring's
    "Billing"). ``stored_at`` is the creation time of the job's object in the
    object store, None when there is none (a refusal). Records the object in
    the retention index with what the engine said of it (``labels.RenderRecord``:
    its ``warnings``, ``label_count`` and, when asked, ``fields``), for cache hits.

    ``finished_before``: another consumer (or an abandon) settled this entry
    already. ``first_store_late``: it was settled without an object and this
    call recorded the first one, so the unit given back then is taken again.

    The job's concurrency slot is given back (its lease is named by the job,
    ``admit``), and ``reply``, if given, is sent (``send_reply``), in the same
    step: the API call waiting on the job learns of it without another round
    trip, and finds the slot free."""
    billed_at = job.billed_at
    usage_month = billed_at if billed_at is not None else 0.0
    script = r.register_script(_FINISH)
    settled = script(
        keys=[QUEUE.of(job.tenant), keys.label_objects(job.tenant),
              keys.label_warnings(job.tenant), keys.retention_tenants(keys.group(job.tenant)),
              keys.usage(job.tenant, period(usage_month)), reply_key(job),
              keys.inflight(job.tenant)],
        args=[GROUP, entry_id, job.object_key, "" if stored_at is None else repr(stored_at),
              encode_record(warnings or [], label_count, fields), job.tenant,
              "1" if billed_at is not None else "0",
              "" if reply is None else reply.to_json(), REPLY_TTL_S, job.job_id])
    return cast(Settlement, str(settled))


def prune_consumers(r: redis.Redis, idle_ms: int, keep: str) -> list[str]:
    """Idle render consumer names with nothing pending, removed (``streams``)."""
    return streams.prune(r, QUEUE, idle_ms, keep)


def ack(r: redis.Redis, entry_id: str, job: RenderJob) -> None:
    """The job's effects are stored and replied to: drop it from its stream."""
    streams.ack(r, QUEUE, keys.group(job.tenant), entry_id)
