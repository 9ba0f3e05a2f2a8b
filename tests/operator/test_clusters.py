"""Several clusters on one Redis, and standby replicas: an operator removes only
what its own cluster stored, and only the active replica of a cluster sweeps.

Each emulated cluster has its own kube-system namespace uid, the operator's
default name for its cluster in the owner records it writes.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import plans, templates
from labelrender.store.owners import Owner
from tests.fixtures.polling import wait_for
from tests.operator.conftest import StartOperator, redis_url
from tests.operator.harness import Cluster, Operator, operator_settings, ready
from tests.operator.test_resync import by_hand, global_ids, labeltemplate, plan, stored_plans

SWEEPS = 3  # resyncs each operator goes through while the other works
SWEPT = re.compile(r"resync of cluster (\S+): swept")
STANDING_BY = re.compile(r"resync of cluster (\S+): standing by")


@pytest.fixture
def other_cluster(tmp_path: Path) -> Iterator[Cluster]:
    (tmp_path / "other").mkdir()
    bench = Cluster(tmp_path / "other")
    yield bench
    bench.close()


def logged(caplog: pytest.LogCaptureFixture, pattern: re.Pattern[str], cluster_id: str) -> int:
    return sum(bool((found := pattern.search(record.getMessage()))
                    and found.group(1) == cluster_id) for record in caplog.records)


def condition(cluster: Cluster, plural: str, name: str, namespace: str | None = "default"
              ) -> dict[str, Any]:
    found = ready(cluster.find(plural, name, namespace))
    return found or {}


def test_two_clusters_keep_each_others_templates_and_plans(
        cluster: Cluster, other_cluster: Cluster, start_operator: StartOperator,
        redis_db: redis.Redis, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG", logger="labelrender.operator.resync")
    first, second = cluster.cluster_id, other_cluster.cluster_id
    assert first != second
    cluster.apply(labeltemplate("first-only"))
    cluster.apply(labeltemplate("shared-name"))
    cluster.apply(plan("gold"))
    start_operator()
    wait_for(lambda: ready(cluster.find("labeltemplates", "shared-name"))
             and ready(cluster.find("plans", "gold", None)), what="the first cluster")

    other_cluster.apply(labeltemplate("second-only"))
    other_cluster.apply(labeltemplate("shared-name"))
    other_cluster.apply(plan("silver"))
    other_cluster.apply(plan("gold"))
    other = Operator(operator_settings(redis_url(redis_db), tmp_path, other_cluster))
    try:
        wait_for(lambda: condition(other_cluster, "labeltemplates", "second-only").get(
                     "reason") == "Stored"
                 and condition(other_cluster, "plans", "silver", None).get("reason") == "Stored"
                 and condition(other_cluster, "labeltemplates", "shared-name").get("reason")
                 == "NameConflict"
                 and condition(other_cluster, "plans", "gold", None).get("reason")
                 == "NameConflict", what="the second cluster's objects")
        # Several resyncs of each, the second one's first sweep (at its start) included.
        wait_for(lambda: logged(caplog, SWEPT, first) >= SWEEPS
                 and logged(caplog, SWEPT, second) >= SWEEPS, timeout=60,
                 what=f"{SWEEPS} sweeps of each cluster")
        assert global_ids(redis_db) == {"first-only", "shared-name", "second-only"}
        assert stored_plans(redis_db) == {"gold", "silver"}
    finally:
        other.stop()

    conflict = condition(other_cluster, "labeltemplates", "shared-name")
    assert f"LabelTemplate default/shared-name of cluster {first}" in conflict["message"]
    assert f"Plan gold of cluster {first}" in condition(other_cluster, "plans", "gold",
                                                         None)["message"]
    owners = templates.global_owners(redis_db)
    assert owners["shared-name"].cluster == first
    assert owners["second-only"].cluster == second
    assert plans.plan_owners(redis_db)["gold"].cluster == first
    assert not any("resync: removed" in record.getMessage() for record in caplog.records)


def test_a_standby_replica_never_sweeps(
        cluster: Cluster, start_operator: StartOperator, redis_db: redis.Redis,
        caplog: pytest.LogCaptureFixture) -> None:
    """A live replica of higher priority is in the peering object (as a working pod
    would be): this replica stands by and leaves a record of a deleted object
    alone, resync after resync; once the other one is gone, it sweeps."""
    caplog.set_level("DEBUG", logger="labelrender.operator.resync")
    now = datetime.datetime.now(datetime.UTC).isoformat()
    cluster.custom.create_cluster_custom_object("kopf.dev", "v1", "clusterkopfpeerings", {
        "apiVersion": "kopf.dev/v1", "kind": "ClusterKopfPeering",
        "metadata": {"name": "labelrender"},
        "status": {"working-replica": {"priority": 1000, "lastseen": now, "lifetime": 3600}}})
    operator = start_operator(operator_peering="mandatory", operator_priority=10)
    by_hand(redis_db, operator.settings, "left-behind")
    gone = Owner("default/left-behind", "uid-of-a-deleted-object", cluster.cluster_id)
    assert templates.claim_global(redis_db, "left-behind", gone) is None

    wait_for(lambda: logged(caplog, STANDING_BY, cluster.cluster_id) >= SWEEPS, timeout=60,
             what="the standby to look several times")
    assert logged(caplog, SWEPT, cluster.cluster_id) == 0
    assert "left-behind" in global_ids(redis_db)

    cluster.custom.patch_cluster_custom_object("kopf.dev", "v1", "clusterkopfpeerings",
                                               "labelrender", {"status": {"working-replica": None}})
    wait_for(lambda: "left-behind" not in global_ids(redis_db), what="the sweep, now active")
    assert logged(caplog, SWEPT, cluster.cluster_id) >= 1
