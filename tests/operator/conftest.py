"""Fixtures: the emulated cluster, the real operator against it, the real API."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import socket_url
from labelrender.store.settings import build_object_store
from tests.operator.harness import Cluster, Operator, Service, operator_settings

StartOperator = Callable[..., Operator]


def redis_url(r: redis.Redis) -> str:
    url = socket_url(r)
    if url is None and not hasattr(r, "connection_pool"):  # a cluster client
        url = os.environ["REDIS_URL"]
    if url is None:
        kwargs = r.connection_pool.connection_kwargs
        url = f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"
    return url


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    bench = Cluster(tmp_path)
    yield bench
    bench.close()


@pytest.fixture
def start_operator(redis_db: redis.Redis, tmp_path: Path, cluster: Cluster
                   ) -> Iterator[StartOperator]:
    """``start_operator(**settings)``: the operator on this test's Redis and data
    dir (stopped at the end, or by the test)."""
    running: list[Operator] = []

    def start(**extra: Any) -> Operator:
        settings = operator_settings(extra.pop("redis_url", redis_url(redis_db)), tmp_path,
                                     cluster, **extra)
        running.append(Operator(settings))
        return running[-1]

    yield start
    for operator in running:
        if operator.alive:
            operator.stop()


@pytest.fixture
def service(redis_db: redis.Redis, tmp_path: Path, cluster: Cluster) -> Iterator[Service]:
    settings = operator_settings(redis_url(redis_db), tmp_path, cluster)
    running = Service(redis_db, build_object_store(settings))
    yield running
    running.close()
