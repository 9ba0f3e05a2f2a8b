"""Store test helpers. The Redis fixtures (``redis_db``) are in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
import redis

from labelrender.store import Tenant, create_tenant
from tests.fixtures.cluster_node import ClusterNode, cluster_node
from tests.fixtures.s3 import moto_endpoint, s3_bucket, s3_client  # noqa: F401 (S3 fixtures)

# A fixed clock: mid-month, so month rollover is always an explicit step.
NOW = datetime(2026, 11, 15, 12, 0, 0, tzinfo=UTC).timestamp()

MakeTenant = Callable[..., Tenant]


@pytest.fixture
def make_tenant(redis_db: redis.Redis) -> MakeTenant:
    """Create tenants: ``make_tenant("pro")``, ``make_tenant("pro", overages=False)``."""

    def make(plan: str = "pro", name: str = "Acme Shipping", **options: object) -> Tenant:
        return create_tenant(redis_db, name, plan, now=NOW, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterNode]:
    """A cluster-mode Redis 7 node for one test module; each test starts from
    the state it needs (its module's fixtures flush it)."""
    with cluster_node(tmp_path_factory.mktemp("cluster-node")) as node:
        yield node
