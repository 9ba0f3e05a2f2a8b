"""Two replicas: Kopf peering lets the one with the higher priority work while
the other stands by, and the standby takes over when the first stops."""

from __future__ import annotations

import pytest
import redis

from labelrender.store import templates
from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import StartOperator
from tests.operator.harness import Cluster, ready

NAME = "shipping-4x6"


def peers(cluster: Cluster) -> dict[str, int]:
    """The replicas in the peering object's status, with their priorities."""
    found = cluster.custom.get_cluster_custom_object("kopf.dev", "v1", "clusterkopfpeerings",
                                                     "labelrender")
    return {peer: info["priority"] for peer, info in (found.get("status") or {}).items()}


def served_version(cluster: Cluster) -> int | None:
    obj = cluster.find("labeltemplates", NAME)
    version = (obj or {}).get("status", {}).get("version")
    return int(version) if ready(obj) and version else None


def logged(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(text in record.getMessage() for record in caplog.records)


def test_one_replica_works_and_the_other_takes_over(
        cluster: Cluster, start_operator: StartOperator, redis_db: redis.Redis,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="kopf")
    standby = start_operator(operator_peering="mandatory", operator_priority=10)
    active = start_operator(operator_peering="mandatory", operator_priority=20)
    wait_for(lambda: sorted(peers(cluster).values()) == [10, 20], what="both replicas to peer")

    template = example("LabelTemplate")
    cluster.apply(template)
    wait_for(lambda: served_version(cluster) == 1, what="version 1")
    assert [e["reason"] for e in cluster.events(NAME)] == ["Stored"]
    assert logged(caplog, "Creation is processed") == 1  # by one replica only

    active.stop()  # a clean stop leaves the peering at once; the standby resumes
    wait_for(lambda: list(peers(cluster).values()) == [10], what="the active replica to leave")
    body = template["spec"]["body"].replace("^A0N,50,50", "^A0N,60,60")
    cluster.patch("labeltemplates", NAME, {"spec": {"body": body}})
    wait_for(lambda: served_version(cluster) == 2, what="the standby to store version 2")
    latest = templates.get_version(redis_db, None, NAME)
    assert latest is not None and latest.version == 2
    assert standby.alive
