"""What every Redis Stream with a consumer group here needs alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from labelrender.store import keys
from labelrender.store.redis_conn import is_cluster, text

IDLE_CONSUMER_MS = 3_600_000  # a consumer name idle this long with nothing pending is gone
_PAGE = 500


def prune_idle_consumers(r: redis.Redis, stream: str, group: str, idle_ms: int,
                         keep: str) -> list[str]:
    """Remove consumer names with nothing pending that have been idle ``idle_ms``:
    processes that stopped or died and whose entries were claimed. A live
    consumer removed this way is recreated by its next read. Returns the names."""
    try:
        consumers: Any = r.xinfo_consumers(stream, group)
    except redis.ResponseError as exc:
        if "NOGROUP" not in str(exc) and "no such key" not in str(exc):
            raise
        return []
    gone = [str(c["name"]) for c in consumers
            if int(c["pending"]) == 0 and int(c["idle"]) >= idle_ms and str(c["name"]) != keep]
    for name in gone:
        r.xgroup_delconsumer(stream, group, name)
    return gone


def release_consumer(r: redis.Redis, stream: str, group: str, consumer: str,
                     idle_ms: int) -> int:
    """Every entry ``consumer`` holds becomes claimable at once: its idle time
    is set to the claim threshold ``idle_ms``, so the next XAUTOCLAIM of any
    consumer takes it. Only for a consumer whose process is known to be gone
    (its supervisor reaped it): a live one would be working on them still.
    JUSTID, so no delivery is counted. Returns how many entries it held."""
    released = 0
    start = "-"
    while True:
        try:
            rows: Any = r.xpending_range(stream, group, min=start, max="+", count=_PAGE,
                                         consumername=consumer)
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            return 0
        ids = [str(row["message_id"]) for row in rows]
        if ids:
            r.xclaim(stream, group, consumer, 0, list(ids), idle=idle_ms, justid=True)
        released += len(ids)
        if len(ids) < _PAGE:
            return released
        start = f"({ids[-1]}"


def pending_consumers(r: redis.Redis, stream: str, group: str) -> dict[str, int]:
    """Consumer names holding entries, with how many each holds."""
    try:
        summary: Any = r.xpending(stream, group)
    except redis.ResponseError as exc:
        if "NOGROUP" not in str(exc):
            raise
        return {}
    return {str(c["name"]): int(c["pending"]) for c in summary.get("consumers") or []}


# --- streams sharded by tenant group ------------------------------------------
#
# Each queue (render jobs, synthesis jobs, webhook events) is one stream per
# tenant group, under the group's hash tag, so the scripts that add to or
# settle an entry touch one slot on a Redis Cluster. A blocking XREADGROUP over
# many streams is refused there (they hash to different slots), so consumers
# wait on one untagged list instead: whoever adds an entry pushes its group
# number (``hint``), a consumer pops one and reads that group's stream. A hint
# left over (an entry another consumer read first) costs one empty read. A hint
# lost (a crash between the two steps, or entries moved by ``admin migrate``)
# is made up for by ``sweep``: every consumer reads every group now and then
# (at start, then every few seconds: one pipelined XLEN of every stream, then a
# read where there is something), from a random group on, so none is left
# behind. An idle consumer costs one BLPOP a wait, not a read of every stream.

WAKE_MAX = 10_000  # hints kept at most (``sweep``; producers of ``trimmed`` queues)

Entry = tuple[int, str, Any]  # tenant group, stream entry id, its fields


@dataclass(frozen=True)
class Queue:
    """One queue: a stream per tenant group, read by one consumer group."""

    stream: Callable[[int], str]
    group: str
    wake: str
    # Producers trim the hints too: a queue whose producers are not bounded by
    # a backlog limit and may run while no consumer does (webhook events).
    trimmed: bool = False

    def of(self, tenant_id: str) -> str:
        """The stream of ``tenant_id``'s group."""
        return self.stream(keys.group(tenant_id))


def snapshot(r: redis.Redis) -> Any:
    """A pipeline whose reads across groups are one instant on a single Redis (a
    transaction); on a cluster, where a transaction holds one slot, a plain one."""
    return r.pipeline(transaction=not is_cluster(r))


def ensure_groups(r: redis.Redis, queue: Queue) -> None:
    """Create every group's stream and its consumer group (reading from the
    start) if they do not exist yet."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.xgroup_create(queue.stream(number), queue.group, id="0", mkstream=True)
    for answer in pipe.execute(raise_on_error=False):
        if isinstance(answer, Exception) and "BUSYGROUP" not in str(answer):
            raise answer


def hint(r: redis.Redis, queue: Queue, number: int) -> None:
    """Tell a waiting consumer that group ``number`` has a new entry (hints are
    taken first in, first out)."""
    if not queue.trimmed:
        r.rpush(queue.wake, number)
        return
    pipe = r.pipeline(transaction=False)  # one key: one round trip, on a cluster too
    pipe.rpush(queue.wake, number)
    pipe.ltrim(queue.wake, -WAKE_MAX, -1)
    pipe.execute()


def read(r: redis.Redis, queue: Queue, consumer: str, count: int, block_ms: int | None
         ) -> list[Entry]:
    """Up to ``count`` new entries for ``consumer`` of the group the next hint
    names, waiting up to ``block_ms`` for one; with no wait (0 or None), a sweep
    of every group."""
    if not block_ms:
        return sweep(r, queue, consumer, count)
    # BLPOP rounds a timeout under 10 ms down to 0, which means forever.
    popped: Any = r.blpop([queue.wake], timeout=max(0.01, block_ms / 1000))
    if popped is None:
        return []
    return _read_one(r, queue, consumer, int(popped[1]), count)


def _read_one(r: redis.Redis, queue: Queue, consumer: str, number: int, count: int
              ) -> list[Entry]:
    answer: Any = r.xreadgroup(queue.group, consumer, {queue.stream(number): ">"},
                               count=count)
    return [(number, str(text(entry_id)), fields)
            for _stream, rows in answer or [] for entry_id, fields in rows]


def _busy_groups(r: redis.Redis, queue: Queue) -> list[int]:
    """Groups whose stream has entries (waiting or pending: finished ones are
    deleted), in one pipelined XLEN, from a random group on: no group is always
    read last."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.xlen(queue.stream(number))
    found = [number for number, size in enumerate(pipe.execute()) if int(size)]
    start = random.randrange(keys.GROUPS)
    return sorted(found, key=lambda n: (n - start) % keys.GROUPS)


def sweep(r: redis.Redis, queue: Queue, consumer: str, count: int) -> list[Entry]:
    """Up to ``count`` new entries from any group; trims the hints left over."""
    r.ltrim(queue.wake, -WAKE_MAX, -1)
    entries: list[Entry] = []
    if count <= 0:  # XREADGROUP's COUNT 0 would mean no limit
        return entries
    for number in _busy_groups(r, queue):
        entries += _read_one(r, queue, consumer, number, count - len(entries))
        if len(entries) >= count:
            break
    return entries


def claim_stale(r: redis.Redis, queue: Queue, consumer: str, min_idle_ms: int, count: int
                ) -> list[Entry]:
    """Up to ``count`` entries, of any group, that a consumer left pending longer
    than ``min_idle_ms`` (XAUTOCLAIM on each group with pending entries), now
    ``consumer``'s. Entries deleted meanwhile are left out."""
    entries: list[Entry] = []
    if count <= 0:
        return entries
    for number in _busy_groups(r, queue):
        answer: Any = r.xautoclaim(queue.stream(number), queue.group, consumer,
                                   min_idle_time=min_idle_ms, start_id="0-0",
                                   count=count - len(entries))
        entries += [(number, str(text(entry_id)), fields)
                    for entry_id, fields in answer[1] if fields]
        if len(entries) >= count:
            break
    return entries


def ack(r: redis.Redis, queue: Queue, number: int, entry_id: str) -> None:
    """The entry's effects are stored: acknowledge it and drop it from its stream."""
    pipe = r.pipeline(transaction=True)
    pipe.xack(queue.stream(number), queue.group, entry_id)
    pipe.xdel(queue.stream(number), entry_id)
    pipe.execute()


def length(r: redis.Redis, queue: Queue) -> int:
    """Entries in every group's stream."""
    pipe = snapshot(r)
    for number in range(keys.GROUPS):
        pipe.xlen(queue.stream(number))
    return sum(int(n) for n in pipe.execute())


def lag(r: redis.Redis, queue: Queue) -> int:
    """Entries no consumer has taken yet, summed over the groups (each group's
    as ``jobs.lag`` explains; 0 where the stream does not exist)."""
    pipe = snapshot(r)
    for number in range(keys.GROUPS):
        pipe.xlen(queue.stream(number))
        pipe.xinfo_groups(queue.stream(number))
    answers = pipe.execute(raise_on_error=False)
    return sum(_group_lag(queue.group, answers[i], answers[i + 1])
               for i in range(0, len(answers), 2))


def _group_lag(group: str, size: Any, groups: Any) -> int:
    if isinstance(groups, Exception):
        if "no such key" not in str(groups):
            raise groups
        return 0
    for found in groups:
        if text(found["name"]) != group:
            continue
        if found.get("lag") is not None:
            return int(found["lag"])
        return max(0, int(size) - int(found["pending"]))
    return int(size)


def _per_group(r: redis.Redis, queue: Queue, command: str) -> list[tuple[int, Any]]:
    """``command`` (``xpending`` or ``xinfo_consumers``) on every group's stream
    in one pipeline; the groups whose stream and consumer group exist."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        getattr(pipe, command)(queue.stream(number), queue.group)
    found = []
    for number, answer in enumerate(pipe.execute(raise_on_error=False)):
        if isinstance(answer, Exception):
            if "NOGROUP" not in str(answer) and "no such key" not in str(answer):
                raise answer
            continue
        found.append((number, answer))
    return found


def pending(r: redis.Redis, queue: Queue) -> int:
    """Entries taken by a consumer and not acknowledged yet, every group's."""
    return sum(int(summary["pending"]) for _number, summary in _per_group(r, queue, "xpending"))


def pending_by_consumer(r: redis.Redis, queue: Queue) -> dict[str, int]:
    """Consumer names holding entries in any group, with how many in all."""
    held: dict[str, int] = {}
    for _number, summary in _per_group(r, queue, "xpending"):
        for row in summary.get("consumers") or []:
            name = str(text(row["name"]))
            held[name] = held.get(name, 0) + int(row["pending"])
    return held


def release(r: redis.Redis, queue: Queue, consumer: str, idle_ms: int) -> int:
    """``release_consumer`` on every group where ``consumer`` holds entries."""
    return sum(release_consumer(r, queue.stream(number), queue.group, consumer, idle_ms)
               for number, summary in _per_group(r, queue, "xpending")
               if any(str(text(row["name"])) == consumer
                      for row in summary.get("consumers") or []))


def prune(r: redis.Redis, queue: Queue, idle_ms: int, keep: str) -> list[str]:
    """Consumer names idle ``idle_ms`` with nothing pending, removed from every
    group's stream (as ``prune_idle_consumers``); the names removed."""
    pipe = r.pipeline(transaction=False)
    gone: set[str] = set()
    for number, consumers in _per_group(r, queue, "xinfo_consumers"):
        for c in consumers:
            name = str(text(c["name"]))
            if int(c["pending"]) == 0 and int(c["idle"]) >= idle_ms and name != keep:
                pipe.xgroup_delconsumer(queue.stream(number), queue.group, name)
                gone.add(name)
    if gone:
        pipe.execute()
    return sorted(gone)
