"""What every Redis Stream with a consumer group here needs alike."""

from __future__ import annotations

from typing import Any

import redis

IDLE_CONSUMER_MS = 3_600_000  # a consumer name idle this long with nothing pending is gone


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
