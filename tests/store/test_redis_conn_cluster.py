"""store.redis_conn on a cluster-mode Redis: the client chosen by the setting
or by the server, and the API's pools queued rather than refused, as on a
single Redis (tests/store/test_redis_conn.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from labelrender.store import StoreUnavailable
from labelrender.store.redis_conn import (
    REDIS_ERRORS,
    ClusterMode,
    async_twin,
    close,
    connect,
    is_cluster,
    pooled_twin,
    shutdown_server,
    socket_url,
    start_embedded,
)
from labelrender.store.settings import Settings, connect_redis
from tests.fixtures.cluster_node import ClusterNode

HOLD_S = 0.1  # each caller holds its connection this long (BLPOP on an empty list)


@pytest.fixture
def clustered(cluster: ClusterNode) -> Iterator[redis.Redis]:
    client = connect(url=cluster.url)
    client.flushall()
    yield client
    close(client)


@pytest.mark.parametrize(("mode", "expected"), [("auto", True), ("true", True), ("false", False)])
def test_the_client_follows_the_setting_or_asks_the_server(
        cluster: ClusterNode, mode: ClusterMode, expected: bool) -> None:
    client = connect(url=cluster.url, cluster=mode)
    try:
        assert is_cluster(client) is expected
        client.set("lr:{g:3}:probe", "x")
        assert client.get("lr:{g:3}:probe") == "x"
    finally:
        close(client)


@pytest.fixture
def single(tmp_path: Path) -> Iterator[str]:
    """The unix socket URL of an embedded single Redis."""
    server = start_embedded(tmp_path / "single")
    url = socket_url(server)
    assert url is not None
    yield url
    shutdown_server(server, save=False)


@pytest.mark.parametrize(("mode", "expected"), [("auto", True), ("false", False)])
def test_the_settings_choose_the_client(cluster: ClusterNode, monkeypatch: pytest.MonkeyPatch,
                                        mode: str, expected: bool) -> None:
    monkeypatch.setenv("REDIS_URL", cluster.url)
    monkeypatch.setenv("LABELRENDER_REDIS_CLUSTER", mode)
    client = connect_redis(Settings())
    assert is_cluster(client) is expected
    close(client)


def test_auto_on_a_single_redis_is_the_plain_client(single: str) -> None:
    client = connect(url=single)
    assert not is_cluster(client)
    close(client)


def test_a_cluster_client_over_a_unix_socket_is_refused_in_one_line(single: str) -> None:
    with pytest.raises(StoreUnavailable, match="over TCP") as refused:
        connect(url=single, cluster="true")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("size", "callers"), [(1, 8), (2, 20)])
def test_a_burst_beyond_the_sync_cluster_pool_waits(
        clustered: redis.Redis, size: int, callers: int) -> None:
    twin = pooled_twin(clustered, max_connections=size, pool_timeout_s=10)
    assert is_cluster(twin)
    with ThreadPoolExecutor(callers) as threads:
        answers = list(threads.map(lambda _: twin.blpop(["lr:{g:1}:empty"], HOLD_S),
                                   range(callers)))
    assert answers == [None] * callers
    close(twin)


@pytest.mark.parametrize(("size", "callers"), [(1, 8), (2, 20)])
async def test_a_burst_beyond_the_async_cluster_pool_waits(
        clustered: redis.Redis, size: int, callers: int) -> None:
    twin = async_twin(clustered, max_connections=size, pool_timeout_s=10)
    assert is_cluster(twin)
    try:
        answers = await asyncio.gather(*(twin.blpop(["lr:{g:1}:empty"], HOLD_S)
                                         for _ in range(callers)))
    finally:
        await twin.aclose()
    assert answers == [None] * callers


def test_a_caller_finding_the_sync_cluster_pool_busy_past_its_timeout_fails(
        clustered: redis.Redis) -> None:
    twin = pooled_twin(clustered, max_connections=1, pool_timeout_s=0.05)
    with ThreadPoolExecutor(1) as threads:
        holder = threads.submit(twin.blpop, ["lr:{g:1}:empty"], 1)
        time.sleep(0.2)  # the holder has the only connection
        # redis-py's cluster client takes the pool's ConnectionError for a lost
        # node and reports the cluster unreachable: either is a 503 at the API.
        with pytest.raises(REDIS_ERRORS):
            twin.get("lr:{g:1}:other")
        assert holder.result() is None
    close(twin)


async def test_a_caller_finding_the_async_cluster_pool_busy_past_its_timeout_fails(
        clustered: redis.Redis) -> None:
    twin = async_twin(clustered, max_connections=1, pool_timeout_s=0.05)
    try:
        holder = asyncio.ensure_future(twin.blpop(["lr:{g:1}:empty"], 1))
        await asyncio.sleep(0.2)
        with pytest.raises(redis.ConnectionError):
            await twin.get("lr:{g:1}:other")
        assert await holder is None
    finally:
        await twin.aclose()


async def test_a_connection_closed_under_a_command_is_a_lost_connection(
        clustered: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    # (redis-py's asyncio cluster client, its slots moving, can find the writer of a
    # node's connection gone mid-command: an AttributeError, which the API answered 500)
    twin = async_twin(clustered, max_connections=1, pool_timeout_s=1)
    try:
        await twin.set("lr:{g:6}:before", "x")

        async def writer_gone(*args: object, **kwargs: object) -> object:
            raise AttributeError("'NoneType' object has no attribute 'writelines'")

        with monkeypatch.context() as patched:
            patched.setattr(redis.asyncio.cluster.ClusterNode, "execute_command", writer_gone)
            with pytest.raises(redis.ConnectionError, match="closed under the command"):
                await twin.get("lr:{g:6}:before")
        assert await twin.get("lr:{g:6}:before") == "x"  # (its turn was given back)
    finally:
        await twin.aclose()


def test_twins_reach_the_same_cluster(clustered: redis.Redis) -> None:
    pooled_twin(clustered).set("lr:{g:5}:twin", "seen")
    assert clustered.get("lr:{g:5}:twin") == "seen"
