"""Move a data set from the key names before tenant groups to today's.

Before tenant groups every key was untagged: ``lr:tenant:<tid>...``,
``lr:plan:<name>``, ``lr:global:...``, and one stream, schedule or set for all
tenants (``lr:stream:render``, ``lr:webhooks:schedule``...). Today a tenant's
keys, and its group's share of those structures, carry the group's hash tag
(``lr:{g:N}:...``), and plans and global templates the tag ``{global}``
(``keys``). ``migrate`` renames the first kind, and moves each stream entry,
schedule entry and set member that is still owed work to its group's copy:

- stream entries no consumer group has acknowledged (never read, or read and
  not finished: undelivered events, queued or running synthesis and render
  jobs) and every dead letter are added again to their group's stream, each in
  one transaction with its removal from the old stream; acknowledged entries
  are done and dropped with the old stream;
- scheduled deliveries keep their due time; retention tenants and active
  batches move as they are.

Every step is a single atomic command or transaction on one Redis, so a run
stopped anywhere is finished by the next, and a run with nothing left to move
changes nothing. A key whose new name already holds data is left where it is
and reported: the migration never overwrites.

It runs on the single Redis the earlier release used, with the service
stopped; on a Redis Cluster it refuses (``MigrationRefused``): migrate first,
then move the data into the cluster.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import redis

from labelrender.store import deliveries, jobs, keys, synthesis_jobs
from labelrender.store.errors import StoreError
from labelrender.store.redis_conn import text

ROOT = keys.ROOT
# The earlier release's names that are renamed whole: SCAN pattern -> new name.
_TENANT = f"{ROOT}:tenant:"
_GLOBAL_PATTERNS = (f"{ROOT}:plan:*", f"{ROOT}:plans", f"{ROOT}:plan-owners",
                    f"{ROOT}:global:*", f"{ROOT}:bootstrap:*")
# Streams shared by every tenant, with the consumer group reading each (None:
# the dead letters, read by no group, every entry is owed).
STREAMS: dict[str, str | None] = {
    "stream:render": jobs.GROUP, "stream:events": deliveries.GROUP,
    "stream:synthesis": synthesis_jobs.GROUP, "stream:webhooks:dead": None}
SORTED_SETS = ("webhooks:schedule",)
SETS = ("retention:tenants", "batches:active")
TENANT_ID = re.compile(r"tnt_[a-z2-7]{26}")
SCAN_COUNT = 1000


class MigrationRefused(StoreError):
    """What the migration cannot do, in one line that says what to do."""


@dataclass
class Report:
    """What one run did: keys renamed, entries and members moved (by old key)."""

    renamed: int = 0
    moved: dict[str, int] = field(default_factory=dict)
    dropped_acknowledged: dict[str, int] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)

    def count(self, into: dict[str, int], name: str, how_many: int = 1) -> None:
        into[name] = into.get(name, 0) + how_many

    def to_dict(self) -> dict[str, Any]:
        changed = self.renamed or self.moved or self.dropped_acknowledged
        return {"status": "migrated" if changed else "nothing to migrate",
                "renamed_keys": self.renamed, "moved": dict(sorted(self.moved.items())),
                "dropped_acknowledged": dict(sorted(self.dropped_acknowledged.items())),
                "kept": self.kept}


def new_name(old: str) -> str | None:
    """Today's name of an earlier release's key, None when it is not renamed
    (API keys, readiness and worker presence keep their untagged names)."""
    if old.startswith(_TENANT):
        tenant_id = old[len(_TENANT):].split(":", 1)[0]
        return f"{ROOT}:{keys.tenant_tag(tenant_id)}:{old[len(ROOT) + 1:]}"
    if old.startswith(f"{ROOT}:global:"):
        return f"{ROOT}:{keys.GLOBAL_TAG}:{old[len(ROOT) + len(':global:'):]}"
    tail = old[len(ROOT) + 1:]
    if tail in ("plans", "plan-owners") or tail.startswith(("plan:", "bootstrap:")):
        return f"{ROOT}:{keys.GLOBAL_TAG}:{tail}"
    return None


def group_name(tenant_id: str, shared: str) -> str:
    """The tenant group's copy of a structure shared by every tenant."""
    return f"{ROOT}:{keys.tenant_tag(tenant_id)}:{shared}"


def migrate(r: redis.Redis) -> Report:
    """Move everything the earlier release stored to today's names."""
    _refuse_cluster(r)
    report = Report()
    for pattern in (f"{_TENANT}*", *_GLOBAL_PATTERNS):
        for old in _scan(r, pattern):
            _rename(r, old, report)
    for shared, group in STREAMS.items():
        _move_stream(r, shared, group, report)
    for shared in (*SORTED_SETS, *SETS):
        _move_members(r, shared, report)
    return report


def _refuse_cluster(r: redis.Redis) -> None:
    info: dict[str, Any] = r.info("cluster")
    if int(info.get("cluster_enabled", 0)):
        raise MigrationRefused(
            "this Redis is a cluster; run `labelrender admin migrate` against the single "
            "Redis the earlier release used, then move its data into the cluster "
            "(`redis-cli --cluster import`)")


def _scan(r: redis.Redis, pattern: str) -> list[str]:
    """Every key matching ``pattern``, collected before anything is renamed."""
    return sorted({str(text(name)) for name in r.scan_iter(match=pattern, count=SCAN_COUNT)})


def _rename(r: redis.Redis, old: str, report: Report) -> None:
    target = new_name(old)
    if target is None:
        return
    # RENAMENX is atomic and never overwrites: a key the new release already
    # wrote under the new name is reported, and the old one kept.
    if r.renamenx(old, target):
        report.renamed += 1
    elif r.exists(old):
        report.kept.append(old)


def _tenant_of(values: Iterable[object]) -> str | None:
    """The one tenant an entry or member names (ids are distinctive enough to
    find in any of the JSON it carries), None when it names none or several."""
    found = {match for value in values for match in TENANT_ID.findall(str(text(value)))}
    return found.pop() if len(found) == 1 else None


def _owed(r: redis.Redis, stream: str, group: str | None) -> Callable[[str], bool]:
    """Whether an entry is still owed work: never read by ``group``, or read and
    not acknowledged (still pending). Without a group, every entry is."""
    if group is None:
        return lambda _entry_id: True
    found = [g for g in r.xinfo_groups(stream) if str(text(g["name"])) == group]
    if not found:
        return lambda _entry_id: True
    last = _entry_key(str(text(found[0]["last-delivered-id"])))
    pending = {str(text(p["message_id"])) for p in
               r.xpending_range(stream, group, min="-", max="+", count=1_000_000)}
    return lambda entry_id: entry_id in pending or _entry_key(entry_id) > last


def _entry_key(entry_id: str) -> tuple[int, int]:
    millis, _, sequence = entry_id.partition("-")
    return int(millis), int(sequence or 0)


def _move_stream(r: redis.Redis, shared: str, group: str | None, report: Report) -> None:
    old = f"{ROOT}:{shared}"
    if not r.exists(old):
        return
    owed = _owed(r, old, group)
    unassigned = 0
    entries: Any = r.xrange(old, "-", "+")
    for entry_id, fields in entries:
        name = str(text(entry_id))
        if not owed(name):
            report.count(report.dropped_acknowledged, old)
            continue
        tenant_id = _tenant_of(fields.values())
        if tenant_id is None:
            unassigned += 1
            continue
        target = group_name(tenant_id, shared)
        if group is not None:
            _ensure_group(r, target, group)
        pipe = r.pipeline(transaction=True)
        pipe.xadd(target, fields)
        pipe.xdel(old, name)
        pipe.execute()
        report.count(report.moved, old)
    if unassigned:
        report.kept.append(f"{old} ({unassigned} entries that name no single tenant)")
    else:
        r.delete(old)


def _ensure_group(r: redis.Redis, stream: str, group: str) -> None:
    """The group's consumer group from the start of the stream, so the entries
    moved in are read whether or not a worker made it first."""
    try:
        r.xgroup_create(stream, group, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def _move_members(r: redis.Redis, shared: str, report: Report) -> None:
    """Each member to its tenant group's copy (a schedule entry with its due
    time), in one transaction with its removal from the old key."""
    old = f"{ROOT}:{shared}"
    scored = shared in SORTED_SETS
    members: Any = (r.zrange(old, 0, -1, withscores=True) if scored
                    else [(member, 0.0) for member in sorted(r.smembers(old))])
    for raw, due in members:
        member = str(text(raw))
        tenant_id = _tenant_of([member])
        if tenant_id is None:
            report.kept.append(f"{old} member {member[:60]!r} (it names no single tenant)")
            continue
        target = group_name(tenant_id, shared)
        pipe = r.pipeline(transaction=True)
        if scored:
            pipe.zadd(target, {member: due})
            pipe.zrem(old, member)
        else:
            pipe.sadd(target, member)
            pipe.srem(old, member)
        pipe.execute()
        report.count(report.moved, old)
