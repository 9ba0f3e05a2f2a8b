"""Store test helpers. The Redis fixtures (``redis_db``) are in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
import redis

from labelrender.store import Tenant, create_tenant
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
