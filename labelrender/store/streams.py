"""What every Redis Stream with a consumer group here needs alike."""

from __future__ import annotations

from typing import Any

import redis

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
