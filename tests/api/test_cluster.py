"""The API on a cluster-mode Redis: it serves, and while the cluster is down
(CLUSTERDOWN, no node for a slot) every request needing Redis is a retriable
503 and /readyz says so, never a 500; back up, it serves again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
import redis

from labelrender.store import create_key, create_tenant
from labelrender.store.redis_conn import close, connect, is_cluster
from tests.api.conftest import Api, StartApi
from tests.fixtures.cluster_node import ClusterNode, cluster_node


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterNode]:
    with cluster_node(tmp_path_factory.mktemp("cluster-node")) as node:
        yield node


@pytest.fixture
def clustered(cluster: ClusterNode) -> Iterator[redis.Redis]:
    client = connect(url=cluster.url)
    yield client
    close(client)


async def answer(api: Api, path: str, secret: str | None = None
                 ) -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    async with api.session.get(api.url(path), headers=headers) as resp:
        return resp.status, await resp.json()


async def until_status(api: Api, path: str, secret: str, status: int) -> dict[str, object]:
    deadline = time.monotonic() + 30
    while (found := await answer(api, path, secret))[0] != status:
        assert time.monotonic() < deadline, f"{path} stayed {found}"
        await asyncio.sleep(0.1)
    return found[1]


async def test_a_cluster_down_is_503_and_not_ready_then_serves_again(
        start_api: StartApi, cluster: ClusterNode, clustered: redis.Redis) -> None:
    assert is_cluster(clustered)
    tenant = create_tenant(clustered, "Acme", "pro", now=time.time())
    secret = create_key(clustered, tenant.tenant_id, now=time.time()).secret
    api = await start_api(redis_client=clustered)
    assert (await answer(api, "/v1/whoami", secret))[0] == 200
    assert (await answer(api, "/readyz"))[0] == 200

    cluster.drop_slots()
    for path in ("/v1/whoami", "/v1/usage", "/v1/keys"):
        body = await until_status(api, path, secret, 503)
        error = body["error"]
        assert isinstance(error, dict) and error["kind"] == "ServiceUnavailable", body
    assert (await answer(api, "/readyz"))[0] == 503

    cluster.take_slots()
    whoami = await until_status(api, "/v1/whoami", secret, 200)
    assert whoami["tenant_id"] == tenant.tenant_id
    assert (await answer(api, "/readyz"))[0] == 200
