"""Which render workers can take a job now: each consumer, once its render
processes are up and it reads the stream, says so every second with an
expiry (a sorted set, member the consumer name, score the expiry time), and
takes it back when it stops. ``/readyz`` asks before it says ready, so the
first render after ready is as fast as the rest."""

from __future__ import annotations

import redis

from labelrender.store import keys

# A worker missing this many seconds of heartbeats (each loop turn waits at most
# the read block, 1 s by default) is no longer counted.
PRESENCE_TTL_S = 15.0


def mark_ready(r: redis.Redis, consumer: str, *, now: float,
               ttl_s: float = PRESENCE_TTL_S) -> None:
    """``consumer`` can take a job until ``now + ttl_s`` (or until it says again)."""
    pipe = r.pipeline(transaction=False)
    pipe.zadd(keys.ready_workers(), {consumer: now + ttl_s})
    pipe.zremrangebyscore(keys.ready_workers(), "-inf", now)  # the long gone
    pipe.execute()


def mark_gone(r: redis.Redis, consumer: str) -> None:
    r.zrem(keys.ready_workers(), consumer)


def ready_count(r: redis.Redis, *, now: float) -> int:
    """How many workers said they can take a job, and have not expired."""
    return int(r.zcount(keys.ready_workers(), f"({now}", "+inf"))


def preload_render_scripts(r: redis.Redis) -> None:
    """Load the Lua scripts a render's path runs (admission, the single-flight
    claim, the worker's settlement) into the server's script cache, so the
    first render does not pay for loading them. The cache is the server's:
    every client, blocking or asyncio, then finds them."""
    from labelrender.store import jobs, render_claims

    for script in (jobs._ADMIT, jobs._FINISH, render_claims._CLAIM, render_claims._FINISH):
        r.script_load(script)
