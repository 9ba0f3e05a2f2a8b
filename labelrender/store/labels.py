"""Rendered labels: the per-tenant registry of template labels, and the age
index of every stored label object that the retention sweeper works from.

- Registry (``GET /v1/labels``): one record per content hash of a template
  render, listed newest first by ``cached_at`` (the stored object's creation
  time). Raw renders have no record (spec "POST /v1/labels (raw ZPL)").
- Object index: every label object a worker stores, raw or template, scored by
  its creation time, so the sweeper finds what aged out without listing the
  object store.

A purge removes the index entry and the registry record only if the object is
still the one the sweeper saw (same creation time): a label rendered again in
the meantime is a new object and stays.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import asdict, dataclass
from typing import Any

import redis

from labelrender.store import keys
from labelrender.store.errors import InvalidValue
from labelrender.store.events import LabelRendered, add_event, added
from labelrender.store.redis_conn import text

MAX_PAGE = 100

# KEYS: objects index, registry hash, recent zset, warnings hash, the record's
# by-template zset. ARGV: object key, content hash, seen score, the template id
# that zset is for. Removes only what the sweeper saw.
_PURGE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) > tonumber(ARGV[3]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
local record = redis.call('HGET', KEYS[2], ARGV[2])
if record then
  local doc = cjson.decode(record)
  if tonumber(doc['cached_at']) <= tonumber(ARGV[3]) + 1 then
    redis.call('HDEL', KEYS[2], ARGV[2])
    redis.call('ZREM', KEYS[3], ARGV[2])
    if doc['template_id'] == ARGV[4] then redis.call('ZREM', KEYS[5], ARGV[2]) end
  end
end
return 1
"""


@dataclass(frozen=True)
class LabelRecord:
    """One rendered template label (DECISIONS.md ``GET /v1/labels``)."""

    content_hash: str
    object_key: str
    template_id: str
    template_version: int
    cached_at: float
    size_bytes: int


@dataclass(frozen=True)
class LabelPage:
    labels: list[LabelRecord]
    next_cursor: str | None


def record_label(pipe: redis.client.Pipeline, tenant_id: str, record: LabelRecord) -> None:
    """Queue the registry write on ``pipe`` (the caller's MULTI also carries the
    event). Idempotent: the same render records the same values again."""
    pipe.hset(keys.label_records(tenant_id), record.content_hash,
              json.dumps(asdict(record), sort_keys=True))
    pipe.zadd(keys.label_recent(tenant_id), {record.content_hash: record.cached_at})
    pipe.zadd(keys.label_by_template(tenant_id, record.template_id),
              {record.content_hash: record.cached_at})


def record_render(r: redis.Redis, tenant_id: str, record: LabelRecord,
                  event: LabelRendered) -> None:
    """The registry record and its ``label.rendered`` event, in one MULTI: a
    recorded render always has its event, and an event its record."""
    pipe = r.pipeline(transaction=True)
    record_label(pipe, tenant_id, record)
    add_event(pipe, event)
    pipe.execute()
    added(r, event)


def record_only(r: redis.Redis, tenant_id: str, record: LabelRecord) -> None:
    """The registry record of a label that has no event of its own (a batch row)."""
    pipe = r.pipeline(transaction=True)
    record_label(pipe, tenant_id, record)
    pipe.execute()


def get_label(r: redis.Redis, tenant_id: str, content_hash: str) -> LabelRecord | None:
    stored = text(r.hget(keys.label_records(tenant_id), content_hash))
    return LabelRecord(**json.loads(stored)) if stored is not None else None


def list_labels(r: redis.Redis, tenant_id: str, *, limit: int = 50,
                cursor: str | None = None, template_id: str | None = None,
                content_hash: str | None = None) -> LabelPage:
    """Newest first; ``cursor`` continues after the last label of a page."""
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidValue(f"limit must be 1 to {MAX_PAGE}")
    if content_hash is not None:
        found = get_label(r, tenant_id, content_hash)
        matches = found is not None and template_id in (None, found.template_id)
        return LabelPage([found] if matches and found is not None else [], None)
    index = (keys.label_by_template(tenant_id, template_id) if template_id is not None
             else keys.label_recent(tenant_id))
    hashes = _page_hashes(r, index, limit + 1, cursor)
    records = _records(r, tenant_id, [h for h, _ in hashes[:limit]])
    next_cursor = None
    if len(hashes) > limit:
        last_hash, last_score = hashes[limit - 1]
        next_cursor = encode_cursor(last_score, last_hash)
    return LabelPage(records, next_cursor)


def _page_hashes(r: redis.Redis, index: str, count: int, cursor: str | None
                 ) -> list[tuple[str, float]]:
    """(hash, score) pairs after ``cursor`` in (score, hash) descending order."""
    if cursor is None:
        found: Any = r.zrevrange(index, 0, count - 1, withscores=True)
        return [(str(text(m)), float(s)) for m, s in found]
    score, after = decode_cursor(cursor)
    ties = int(r.zcount(index, score, score))
    older: Any = r.zrevrangebyscore(index, score, "-inf", start=0, num=count + ties,
                                    withscores=True)
    pairs = [(str(text(m)), float(s)) for m, s in older]
    return [(m, s) for m, s in pairs if s < score or m < after][:count]


def _records(r: redis.Redis, tenant_id: str, hashes: list[str]) -> list[LabelRecord]:
    if not hashes:
        return []
    stored = r.hmget(keys.label_records(tenant_id), hashes)
    return [LabelRecord(**json.loads(str(text(doc)))) for doc in stored if doc is not None]


def encode_cursor(score: float, content_hash: str) -> str:
    return base64.urlsafe_b64encode(f"{score!r}:{content_hash}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        score, content_hash = base64.urlsafe_b64decode(cursor.encode()).decode().split(":", 1)
        return float(score), content_hash
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise InvalidValue("cursor is not one this service returned") from exc


# --- object age index (retention) ------------------------------------------------

@dataclass(frozen=True)
class RenderRecord:
    """What the engine said of a stored label, kept with it so that a cache hit
    answers as the render did: its warnings, the labels in its ZPL stream, and
    each field's ink box ([offset, command, fn, x, y, width, height]) when a
    request asked for them (None: never asked)."""

    warnings: list[str]
    label_count: int = 1
    fields: list[list[Any]] | None = None


def encode_record(warnings: list[str], label_count: int = 1,
                  fields: list[list[Any]] | None = None) -> str:
    """The record as stored: '' when there is nothing to say (most labels: no
    warning, one label, no boxes asked for), a bare list of warnings when that is
    all (the form older records have), else an object."""
    if label_count == 1 and fields is None:
        return json.dumps(warnings) if warnings else ""
    record: dict[str, Any] = {"warnings": warnings, "label_count": label_count}
    if fields is not None:
        record["fields"] = fields
    return json.dumps(record, separators=(",", ":"))


def record_object(r: redis.Redis, tenant_id: str, object_key: str, created_at: float,
                  warnings: list[str] | None = None) -> None:
    """Note a stored label object, its creation time and the engine's warnings
    on it. An object stored again with the same bytes keeps its time (GT), a
    fresh one after a purge moves it."""
    pipe = r.pipeline(transaction=True)
    pipe.zadd(keys.label_objects(tenant_id), {object_key: created_at}, gt=True)
    pipe.sadd(keys.retention_tenants(keys.group(tenant_id)), tenant_id)
    if warnings:
        pipe.hset(keys.label_warnings(tenant_id), object_key, json.dumps(warnings))
    else:
        pipe.hdel(keys.label_warnings(tenant_id), object_key)
    pipe.execute()


def object_record(r: redis.Redis, tenant_id: str, object_key: str) -> RenderRecord:
    """What the engine said of a stored object (nothing, if unknown)."""
    stored = text(r.hget(keys.label_warnings(tenant_id), object_key))
    if not stored:
        return RenderRecord([])
    value = json.loads(stored)
    if isinstance(value, list):
        return RenderRecord([str(w) for w in value])
    return RenderRecord([str(w) for w in value.get("warnings", [])],
                        int(value.get("label_count", 1)), value.get("fields"))


def tenants_with_objects(r: redis.Redis) -> list[str]:
    """Every tenant with stored label objects: the retention sets of every group."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.smembers(keys.retention_tenants(number))
    return sorted(str(text(t)) for members in pipe.execute() for t in members)


def objects_older_than(r: redis.Redis, tenant_id: str, cutoff: float, count: int
                       ) -> list[tuple[str, float]]:
    """Up to ``count`` (object key, created_at) pairs created before ``cutoff``."""
    found: Any = r.zrangebyscore(keys.label_objects(tenant_id), "-inf", f"({cutoff!r}",
                            start=0, num=count, withscores=True)
    return [(str(text(m)), float(s)) for m, s in found]


def forget_object(r: redis.Redis, tenant_id: str, object_key: str, created_at: float) -> bool:
    """After the object is deleted: drop its index entry and registry record,
    unless it was stored again since (its time moved past ``created_at``)."""
    content_hash = object_key.rsplit("/", 1)[-1].split(".", 1)[0]
    # The by-template index is named by the record's template id: read here and
    # passed in, as a script may touch only the keys it is given (Redis Cluster).
    # A content hash covers its template id, so the record's never changes.
    stored = text(r.hget(keys.label_records(tenant_id), content_hash))
    template_id = str(json.loads(stored)["template_id"]) if stored else ""
    script = r.register_script(_PURGE)
    done = script(keys=[keys.label_objects(tenant_id), keys.label_records(tenant_id),
                        keys.label_recent(tenant_id), keys.label_warnings(tenant_id),
                        keys.label_by_template(tenant_id, template_id)],
                  args=[object_key, content_hash, repr(created_at), template_id])
    return bool(done)
