"""Batch renders: one template, many rows, each row a template render.

Everything a batch is lives in Redis, so any API process can drive it and a
restart of any tier loses nothing:

- the record (hash): template version, options, state, counts;
- the rows (list), in order, each the JSON object of its field values;
- the results (hash): row index -> how the row ended, written once
  (``HSETNX``), so a row counts once however many drivers got to it;
- the lease (string): which process drives the batch now. A driver renews it
  while it works; when it dies the lease expires and another claims the batch
  and does the rows that have no result yet. A row rendered twice that way is
  a cache hit the second time (content-addressed), so it is stored and billed
  once.

A batch that has a result for every row is completed in one script: state,
finish time, the PDF's key, out of the active set, and its ``batch.completed``
event on the event stream, all or nothing.
"""

from __future__ import annotations

import base64
import json
import secrets
from dataclasses import asdict, dataclass
from typing import Any

import redis

from labelrender.store import events, keys
from labelrender.store.events import STREAM_MAX_LEN, LabelRendered
from labelrender.store.redis_conn import text, text_map

MAX_ROWS = 10_000
ROW_CHUNK = 1_000  # rows pushed or read per command
KEPT_S = 7 * 86400  # a completed batch's record and results, like synthesis jobs

QUEUED, COMPLETED = "queued", "completed"  # and "running" while a driver holds it
RENDERED, CACHED, FAILED = "rendered", "cached", "failed"

# KEYS: results, record. ARGV: row index, result JSON, counter field.
_RECORD_RESULT = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
return 1
"""

# KEYS: lease, record. ARGV: token, lease ms. Only a batch not completed, and
# held by nobody, is taken.
_CLAIM = """
local state = redis.call('HGET', KEYS[2], 'state')
if not state or state == 'completed' then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], 'state', 'running')
return 1
"""

# KEYS: lease. ARGV: token, lease ms. Renews only the holder's lease.
_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: record, lease, active set, event stream, rows, results. ARGV: token,
# member, finish time, pdf key, zip key, event JSON, stream cap, seconds kept.
# Only the lease holder completes, and only once. The rows are not needed any
# more; the record and the results are kept ``KEPT_S``.
_COMPLETE = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'state') == 'completed' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'completed', 'finished_at', ARGV[3],
           'pdf_key', ARGV[4], 'zip_key', ARGV[5])
redis.call('SREM', KEYS[3], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[5])
redis.call('EXPIRE', KEYS[1], ARGV[8])
redis.call('EXPIRE', KEYS[6], ARGV[8])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'event', ARGV[6])
return 1
"""


def new_batch_id() -> str:
    """``bat_`` plus 26 lower-case base32 characters, like tenant ids."""
    return "bat_" + base64.b32encode(secrets.token_bytes(16)).decode()[:26].lower()


@dataclass(frozen=True)
class BatchSpec:
    """What a batch renders: every row with this template version and options."""

    batch_id: str
    template_id: str
    template_version: int
    target_dpi: int
    threshold: bool
    row_count: int
    key_prefix: str  # the key that created it; rows are rendered on its tenant's plan
    created_at: float
    pdf_page: dict[str, Any] | None = None  # a ``PdfPage``'s fields: sheets
    zip: bool = False  # also a ZIP of the PNGs


@dataclass(frozen=True)
class Batch:
    spec: BatchSpec
    state: str
    rendered: int
    cached: int
    failed: int
    finished_at: float | None
    pdf_key: str | None
    zip_key: str | None

    @property
    def finished_rows(self) -> int:
        return self.rendered + self.cached + self.failed


@dataclass(frozen=True)
class RowResult:
    """How one row ended: ``rendered`` (a fresh, billed label), ``cached`` (a
    stored one, free) or ``failed`` with the error's kind, message and field."""

    status: str
    content_hash: str | None = None
    kind: str | None = None
    message: str | None = None
    field: str | None = None


def member(tenant_id: str, batch_id: str) -> str:
    return f"{tenant_id} {batch_id}"


def create_batch(r: redis.Redis, tenant_id: str, spec: BatchSpec,
                 rows: list[dict[str, Any]]) -> None:
    """The record, its rows and its place in the active set, in one MULTI."""
    record = [item for name, value in asdict(spec).items() for item in (name, json.dumps(value))]
    record += ["state", QUEUED, RENDERED, "0", CACHED, "0", FAILED, "0"]
    pipe = r.pipeline(transaction=True)
    pipe.hset(keys.batch(tenant_id, spec.batch_id), items=record)
    rows_key = keys.batch_rows(tenant_id, spec.batch_id)
    for first in range(0, len(rows), ROW_CHUNK):
        pipe.rpush(rows_key, *(json.dumps(row, separators=(",", ":"))
                               for row in rows[first:first + ROW_CHUNK]))
    pipe.sadd(keys.active_batches(keys.group(tenant_id)), member(tenant_id, spec.batch_id))
    pipe.execute()
    # After the batch: a driver that drops the group's note re-reads its set (below).
    r.sadd(keys.batch_groups(), keys.group(tenant_id))


def get_batch(r: redis.Redis, tenant_id: str, batch_id: str) -> Batch | None:
    stored = text_map(r.hgetall(keys.batch(tenant_id, batch_id)))
    if not stored:
        return None
    spec = BatchSpec(**{name: json.loads(stored[name])
                        for name in BatchSpec.__dataclass_fields__})
    finished = stored.get("finished_at")
    return Batch(spec, stored["state"], int(stored[RENDERED]), int(stored[CACHED]),
                 int(stored[FAILED]), float(finished) if finished else None,
                 stored.get("pdf_key") or None, stored.get("zip_key") or None)


def load_rows(r: redis.Redis, tenant_id: str, batch_id: str) -> list[dict[str, Any]]:
    rows_key = keys.batch_rows(tenant_id, batch_id)
    rows: list[dict[str, Any]] = []
    while True:
        chunk = r.lrange(rows_key, len(rows), len(rows) + ROW_CHUNK - 1)
        rows.extend(json.loads(str(text(row))) for row in chunk)
        if len(chunk) < ROW_CHUNK:
            return rows


def load_results(r: redis.Redis, tenant_id: str, batch_id: str) -> dict[int, RowResult]:
    stored = text_map(r.hgetall(keys.batch_results(tenant_id, batch_id)))
    return {int(index): RowResult(**json.loads(result)) for index, result in stored.items()}


def record_result(r: redis.Redis, tenant_id: str, batch_id: str, index: int,
                  result: RowResult) -> bool:
    """Record row ``index``'s result unless it has one; True when this call did."""
    done = r.eval(_RECORD_RESULT, 2, keys.batch_results(tenant_id, batch_id),
                  keys.batch(tenant_id, batch_id), index,
                  json.dumps(asdict(result), sort_keys=True), result.status)
    return bool(done)


def active_batches(r: redis.Redis, *, every_group: bool = False) -> list[tuple[str, str]]:
    """(tenant, batch) of every batch not finished yet: the active sets of the
    groups noted in ``keys.batch_groups`` (a group whose set is empty loses its
    note), or of every group (``every_group``: a note a crash lost; drivers
    look there now and then)."""
    numbers: Any = (range(keys.GROUPS) if every_group
                    else sorted(int(text(n) or 0) for n in r.smembers(keys.batch_groups())))
    pipe = r.pipeline(transaction=False)
    for number in numbers:
        pipe.smembers(keys.active_batches(number))
    found: list[list[str]] = []
    for number, members in zip(numbers, pipe.execute(), strict=True):
        if not members and not every_group:
            _drop_note(r, number)
        found += [str(text(m)).split(" ", 1) for m in members]
    return [(parts[0], parts[1]) for parts in found if len(parts) == 2]


def _drop_note(r: redis.Redis, number: int) -> None:
    """Un-note an empty group, then look again: a batch created meanwhile noted
    its group after its set, so it is either seen here or notes it again."""
    r.srem(keys.batch_groups(), number)
    if r.scard(keys.active_batches(number)):
        r.sadd(keys.batch_groups(), number)


def claim(r: redis.Redis, tenant_id: str, batch_id: str, token: str, lease_s: float) -> bool:
    """Take the batch's lease if nobody holds it; the batch is running from then."""
    return bool(r.eval(_CLAIM, 2, keys.batch_lease(tenant_id, batch_id),
                       keys.batch(tenant_id, batch_id), token, int(lease_s * 1000)))


def renew(r: redis.Redis, tenant_id: str, batch_id: str, token: str, lease_s: float) -> bool:
    """Extend the lease; False when it is no longer this token's."""
    return bool(r.eval(_RENEW, 1, keys.batch_lease(tenant_id, batch_id), token,
                       int(lease_s * 1000)))


def release(r: redis.Redis, tenant_id: str, batch_id: str, token: str) -> None:
    """Give the lease up early (shutdown), so another process resumes at once."""
    if r.eval(_RENEW, 1, keys.batch_lease(tenant_id, batch_id), token, 1):
        r.delete(keys.batch_lease(tenant_id, batch_id))


def forget(r: redis.Redis, tenant_id: str, batch_id: str) -> None:
    """Drop an active-set entry whose batch is gone or completed."""
    r.srem(keys.active_batches(keys.group(tenant_id)), member(tenant_id, batch_id))


def complete(r: redis.Redis, tenant_id: str, batch_id: str, token: str, *, now: float,
             pdf_key: str, zip_key: str | None, event: LabelRendered) -> bool:
    """Mark the batch completed with its event, if ``token`` still drives it."""
    done = r.eval(_COMPLETE, 6, keys.batch(tenant_id, batch_id),
                  keys.batch_lease(tenant_id, batch_id), keys.active_batches(keys.group(tenant_id)),
                  events.QUEUE.of(tenant_id), keys.batch_rows(tenant_id, batch_id),
                  keys.batch_results(tenant_id, batch_id), token,
                  member(tenant_id, batch_id), now, pdf_key, zip_key or "",
                  event.to_fields()["event"], STREAM_MAX_LEN, KEPT_S)
    if done:
        events.added(r, event)
    return bool(done)
