"""What GitOps tools and kubectl read: kstatus conditions (Ready, Reconciling,
Stalled) that tell a refused spec and a retried one from a working one, and
Events where `kubectl describe` looks for them, a cluster-scoped Plan's too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import StartOperator
from tests.operator.harness import Cluster, ready


def conditions(obj: dict[str, Any] | None) -> dict[str, tuple[str, str]]:
    """type -> (status, reason)."""
    return {c["type"]: (c["status"], c.get("reason", ""))
            for c in ((obj or {}).get("status") or {}).get("conditions") or ()}


def kstatus(obj: dict[str, Any]) -> str:
    """The status kstatus (sigs.k8s.io/cli-utils) computes for a custom resource
    from its generation and its conditions: Current, InProgress or Failed."""
    found = conditions(obj)
    if obj["status"].get("observedGeneration") != obj["metadata"].get("generation"):
        return "InProgress"
    if found.get("Reconciling", ("False",))[0] == "True":
        return "InProgress"
    if found.get("Stalled", ("False",))[0] == "True":
        return "Failed"
    if found.get("Ready", ("Unknown",))[0] != "True":
        return "InProgress"
    return "Current"


def settled(cluster: Cluster, name: str, reason: str) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        obj = cluster.find("labeltemplates", name)
        return obj if (ready(obj) or {}).get("reason") == reason else None
    return wait_for(check, what=f"{name} to say {reason}")


def test_kstatus_tells_served_refused_and_retried_apart(
        cluster: Cluster, start_operator: StartOperator) -> None:
    operator = start_operator()
    good = example("LabelTemplate")
    cluster.apply(good)
    served = settled(cluster, "shipping-4x6", "Stored")
    assert conditions(served) == {"Ready": ("True", "Stored"),
                                  "Reconciling": ("False", "Ready"),
                                  "Stalled": ("False", "Ready")}
    assert kstatus(served) == "Current"

    bad = example("LabelTemplate")
    bad["metadata"]["name"] = "refused"
    bad["spec"]["fieldMap"] = {"ship_to_name": 1}  # the body uses ^FN1 to ^FN4
    cluster.apply(bad)
    refused = settled(cluster, "refused", "InvalidTemplate")
    assert conditions(refused)["Stalled"] == ("True", "InvalidTemplate")
    assert conditions(refused)["Reconciling"][0] == "False"
    assert kstatus(refused) == "Failed"
    operator.stop()

    # Redis unreachable: retried, so Reconciling (not Stalled).
    start_operator(redis_url="redis://127.0.0.1:1/0")
    other = example("LabelTemplate")
    other["metadata"]["name"] = "waiting"
    cluster.apply(other)
    waiting = settled(cluster, "waiting", "RedisUnavailable")
    assert conditions(waiting)["Reconciling"] == ("True", "RedisUnavailable")
    assert conditions(waiting)["Stalled"][0] == "False"
    assert kstatus(waiting) == "InProgress"


@pytest.mark.parametrize(("kind", "plural", "namespace"), [
    ("Plan", "plans", None),
    ("LabelTemplate", "labeltemplates", "default"),
])
def test_kubectl_describe_finds_the_events(
        cluster: Cluster, start_operator: StartOperator, kind: str, plural: str,
        namespace: str | None) -> None:
    """The query `kubectl describe` makes: Events in every namespace whose
    involvedObject has the object's kind, name, uid and namespace ("" for a
    cluster-scoped one)."""
    start_operator()
    obj = example(kind)
    cluster.apply(obj)
    name = obj["metadata"]["name"]
    wait_for(lambda: ready(cluster.find(plural, name, namespace)), what=f"{kind} {name}")
    uid = cluster.get(plural, name, namespace)["metadata"]["uid"]
    selector = (f"involvedObject.kind={kind},involvedObject.name={name},"
                f"involvedObject.namespace={namespace or ''},involvedObject.uid={uid}")

    def described() -> list[str]:
        found = cluster.core.list_event_for_all_namespaces(field_selector=selector).items
        return [event.reason for event in found]

    assert wait_for(described, what=f"the Events kubectl describe {kind.lower()} shows") == [
        "Stored"]
