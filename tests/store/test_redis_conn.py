from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from labelrender.store import StoreUnavailable, connect, shutdown_server, socket_url
from labelrender.store.redis_conn import REDIS_ERRORS, async_twin, close, pooled_twin


def test_embedded_server_keeps_writes_across_a_restart(tmp_path: Path) -> None:
    first = connect(data_dir=tmp_path)
    assert first.config_get("appendonly") == {"appendonly": "yes"}
    first.set("lr:test", "kept")
    shutdown_server(first, save=False)  # no RDB snapshot: only the AOF can bring it back
    second = connect(data_dir=tmp_path)
    try:
        assert second.get("lr:test") == "kept"
    finally:
        shutdown_server(second)


def test_other_processes_can_join_the_embedded_server(tmp_path: Path) -> None:
    server = connect(data_dir=tmp_path)
    try:
        url = socket_url(server)
        assert url is not None and url.startswith("unix://")
        joined = connect(url=url)
        joined.set("lr:test", "shared")
        assert server.get("lr:test") == "shared"
        assert socket_url(joined) is None
        joined.close()
    finally:
        shutdown_server(server)


@pytest.mark.parametrize(
    ("url", "data_dir"),
    [("redis://127.0.0.1:1/0", None), ("unix:///nonexistent/redis.sock", None), (None, None)],
)
def test_unreachable_redis_is_store_unavailable(url: str | None, data_dir: Path | None) -> None:
    with pytest.raises(StoreUnavailable):
        connect(url=url, data_dir=data_dir)


# --- the API's pools: sized, and queued rather than refused ------------------------

HOLD_S = 0.1  # each caller holds its connection this long (BLPOP on an empty list)


@pytest.mark.parametrize(("size", "callers"), [(1, 8), (2, 20)])
def test_a_burst_beyond_the_sync_pool_waits_for_a_connection(
        redis_db: redis.Redis, size: int, callers: int) -> None:
    twin = pooled_twin(redis_db, max_connections=size, pool_timeout_s=10)
    with ThreadPoolExecutor(callers) as threads:
        answers = list(threads.map(lambda _: twin.blpop(["lr:test:empty"], HOLD_S),
                                   range(callers)))
    assert answers == [None] * callers
    close(twin)


@pytest.mark.parametrize(("size", "callers"), [(1, 8), (2, 20)])
async def test_a_burst_beyond_the_async_pool_waits_for_a_connection(
        redis_db: redis.Redis, size: int, callers: int) -> None:
    twin = async_twin(redis_db, max_connections=size, pool_timeout_s=10)
    try:
        answers = await asyncio.gather(*(twin.blpop(["lr:test:empty"], HOLD_S)
                                         for _ in range(callers)))
    finally:
        await twin.aclose()
    assert answers == [None] * callers


def test_a_caller_finding_the_sync_pool_busy_past_its_timeout_fails(
        redis_db: redis.Redis) -> None:
    twin = pooled_twin(redis_db, max_connections=1, pool_timeout_s=0.05)
    with ThreadPoolExecutor(1) as threads:
        holder = threads.submit(twin.blpop, ["lr:test:empty"], 1)
        time.sleep(0.2)  # the holder has the only connection
        with pytest.raises(REDIS_ERRORS):  # a cluster client says the cluster is unreachable
            twin.get("lr:test:other")
        assert holder.result() is None
    close(twin)


async def test_a_caller_finding_the_async_pool_busy_past_its_timeout_fails(
        redis_db: redis.Redis) -> None:
    twin = async_twin(redis_db, max_connections=1, pool_timeout_s=0.05)
    try:
        holder = asyncio.ensure_future(twin.blpop(["lr:test:empty"], 1))
        await asyncio.sleep(0.2)
        with pytest.raises(redis.ConnectionError):
            await twin.get("lr:test:other")
        assert await holder is None
    finally:
        await twin.aclose()


def test_twins_reach_the_same_database(redis_db: redis.Redis) -> None:
    pooled_twin(redis_db).set("lr:test:twin", "seen")
    assert redis_db.get("lr:test:twin") == "seen"


def test_the_embedded_servers_files_are_private(tmp_path: Path) -> None:
    """The data directory is 0700 and the AOF and snapshot 0600: they hold webhook
    signing secrets in clear. Files an older version left 0644 are fixed too."""
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)
    (data_dir / "appendonly.aof").touch(mode=0o644)
    (data_dir / "appendonly.aof").chmod(0o644)
    r = connect(data_dir=data_dir)
    try:
        r.set("secret", "whsec_x")
        r.save()
        r.bgrewriteaof()
        deadline = time.monotonic() + 30
        while r.info("persistence")["aof_rewrite_in_progress"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert data_dir.stat().st_mode & 0o777 == 0o700
        for name in ("redis.db", "appendonly.aof"):
            assert (data_dir / name).stat().st_mode & 0o777 == 0o600, name
    finally:
        shutdown_server(r, save=False)
