"""Resync: on start and every resync period, Redis matches the cluster."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import redis

from labelrender.store import plans, templates
from labelrender.store.owners import Owner
from labelrender.store.settings import Settings, build_object_store
from labelrender.store.templates import Draft
from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import StartOperator
from tests.operator.harness import Cluster, ready

RESYNC_S = 2.0  # tests/operator/harness.py operator_settings
RESTART_RESYNC_S = 5.0  # the restart test's period: generous for a loaded machine


def labeltemplate(name: str) -> dict[str, Any]:
    obj = example("LabelTemplate")
    obj["metadata"]["name"] = name
    return obj


def plan(name: str) -> dict[str, Any]:
    obj = example("Plan")
    obj["metadata"]["name"] = name
    return obj


def global_ids(r: redis.Redis) -> set[str]:
    return {s.template_id for s in templates.list_templates(r, None)}


def stored_plans(r: redis.Redis) -> set[str]:
    return {p.name for p in plans.list_plans(r)} - set(plans.BUILTIN_PLANS)


def all_ready(cluster: Cluster, *names: str) -> bool:
    return all(ready(cluster.find("labeltemplates", name)) for name in names)


def by_hand(r: redis.Redis, settings: Settings, template_id: str) -> None:
    """A global template stored without an object (labelrender admin template)."""
    body = "^XA^FO20,20^A0N,30,30^FN1^FS^XZ"
    templates.commit(r, build_object_store(settings), None, template_id,
                     Draft(body=body, field_map={"name": 1}),
                     hashlib.sha256(body.encode()).hexdigest(), now=time.time())


def test_restart_brings_redis_in_line_with_the_cluster(
        cluster: Cluster, start_operator: StartOperator, redis_db: redis.Redis) -> None:
    operator = start_operator()
    for name in ("kept", "deleted", "force-deleted"):
        cluster.apply(labeltemplate(name))
    cluster.apply(plan("gold"))
    wait_for(lambda: all_ready(cluster, "kept", "deleted", "force-deleted")
             and ready(cluster.find("plans", "gold", None)), what="three templates and a plan")
    by_hand(redis_db, operator.settings, "stored-by-hand")
    assert global_ids(redis_db) == {"kept", "deleted", "force-deleted", "stored-by-hand"}
    operator.stop()

    # While no operator runs: a delete (held by the finalizer), two missed deletes
    # (the finalizer removed by force, as `kubectl patch` can), and a new object.
    cluster.delete("labeltemplates", "deleted")
    for plural, name, namespace in (("labeltemplates", "force-deleted", "default"),
                                    ("plans", "gold", None)):
        cluster.delete(plural, name, namespace)
        cluster.patch(plural, name, {"metadata": {"finalizers": None}}, namespace)
        assert cluster.find(plural, name, namespace) is None
    cluster.apply(labeltemplate("added"))
    assert cluster.find("labeltemplates", "deleted") is not None  # waiting for its finalizer

    start_operator(operator_resync_interval_s=RESTART_RESYNC_S)
    wait_for(lambda: global_ids(redis_db) == {"kept", "added", "stored-by-hand"}
             and not stored_plans(redis_db), timeout=RESTART_RESYNC_S,
             what="Redis to match the cluster within one resync period")
    wait_for(lambda: cluster.find("labeltemplates", "deleted") is None, what="the finalizer")
    assert ready(cluster.get("labeltemplates", "added"))["reason"] == "Stored"


def test_every_resync_period_repairs_redis(
        cluster: Cluster, start_operator: StartOperator, redis_db: redis.Redis) -> None:
    operator = start_operator()
    cluster.apply(labeltemplate("kept"))
    wait_for(lambda: all_ready(cluster, "kept"), what="kept")
    objects = build_object_store(operator.settings)
    # A template whose object is gone (its owner record names no object), and the
    # template of a live object removed behind the operator's back.
    by_hand(redis_db, operator.settings, "left-behind")
    gone = Owner("default/left-behind", "uid-of-a-deleted-object", cluster.cluster_id)
    assert templates.claim_global(redis_db, "left-behind", gone) is None
    templates.delete(redis_db, objects, None, "kept")
    wait_for(lambda: global_ids(redis_db) == {"kept"}, timeout=2 * RESYNC_S + 1,
             what="the next resync")
    latest = templates.get_version(redis_db, None, "kept")
    assert latest is not None and latest.version == 2  # stored again (numbers are never reused)
    assert cluster.get("labeltemplates", "kept")["status"]["version"] == 2
