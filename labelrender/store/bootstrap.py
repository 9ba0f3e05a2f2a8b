"""One-time setup steps, marked in Redis so a restart does not repeat them.

``labelrender serve`` creates a demo tenant on its first start only; the mark
lives in Redis next to the data it describes, so it survives exactly as long
as that data does.
"""

from __future__ import annotations

import redis

from labelrender.store import keys
from labelrender.store.redis_conn import text


def step_done(r: redis.Redis, step: str) -> str | None:
    """The value recorded when ``step`` was done, or None if it never was."""
    return text(r.get(keys.bootstrap(step)))


def mark_step_done(r: redis.Redis, step: str, value: str) -> bool:
    """Record ``step`` as done with ``value``; False if it was already recorded."""
    return bool(r.set(keys.bootstrap(step), value, nx=True))
