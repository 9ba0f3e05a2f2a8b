"""Proof that the stores work, for ``/readyz``: not a PING, which a Redis that
answers every real command with MOVED, READONLY or OOM still answers, but a
write and the read of it back, and a real object-store lookup."""

from __future__ import annotations

import secrets

import redis
import redis.asyncio

from labelrender.store import keys
from labelrender.store.errors import StoreUnavailable
from labelrender.store.objects import ObjectStore
from labelrender.store.redis_conn import text

PROBE_TTL_S = 60
PROBE_OBJECT = "readyz/probe"  # never stored: a lookup that must answer "absent"


def probe_redis(r: redis.Redis, writer: str) -> str:
    """Write a fresh token under the writer's key and read it back; a refused
    write or another value read raises (``StoreUnavailable`` for the latter).
    Returns the token, for ``probe_redis_async``."""
    token = secrets.token_hex(8)
    key = keys.readiness(writer)
    r.set(key, token, ex=PROBE_TTL_S)
    if text(r.get(key)) != token:
        raise StoreUnavailable("Redis did not read back the value just written")
    return token


async def probe_redis_async(client: redis.asyncio.Redis, writer: str, token: str) -> None:
    """Read the token ``probe_redis`` wrote back on the asyncio client too (the
    one every request's access check uses: on a Redis Cluster, a client of its
    own with its own view of the slots)."""
    if text(await client.get(keys.readiness(writer))) != token:
        raise StoreUnavailable("Redis did not read back the value just written "
                               "(asyncio client)")


def probe_objects(objects: ObjectStore) -> None:
    """Look an object up (S3: a HEAD in the bucket); raises ``ObjectStoreError``
    when the store does not answer or refuses."""
    objects.head(PROBE_OBJECT)
