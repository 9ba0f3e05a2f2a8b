"""networkPolicy: off by default; on, each tier's pods are selected by one
policy that lets in clients (API) and Prometheus (metrics ports) and lets out
only DNS, Redis, the object store, webhook receivers (workers, public addresses
only) and the Kubernetes API (operator)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helm.support import case_values, labels, merged, pod_spec, render, selects

PRIVATE = {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"}


def policies(values: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """component -> (its policy, its Deployment)."""
    rendered = render(values)
    found = {}
    for component, deployment in rendered.deployments():
        pods = deployment["spec"]["template"]["metadata"]["labels"]
        (policy,) = [p for p in rendered.of_kind("NetworkPolicy")
                     if selects(p["spec"]["podSelector"], pods)]
        found[component] = (policy, deployment)
    return found


def egress_ports(policy: dict[str, Any]) -> set[int]:
    return {p["port"] for rule in policy["spec"]["egress"] for p in rule["ports"]}


def test_none_unless_asked() -> None:
    assert render(case_values("defaults")).of_kind("NetworkPolicy") == []


def test_each_tier_has_its_policy() -> None:
    found = policies(case_values("network-policy"))
    assert set(found) == {"api", "worker", "operator"}
    for component, (policy, _) in found.items():
        assert labels(policy)["app.kubernetes.io/component"] == component
        assert policy["spec"]["policyTypes"] == ["Ingress", "Egress"]
        assert {53, 6380, 443} <= egress_ports(policy)  # DNS, Redis (the case's), S3


def test_ingress_reaches_named_ports_from_the_peers_given() -> None:
    values = case_values("network-policy")
    for component, (policy, deployment) in policies(values).items():
        (rule,) = policy["spec"]["ingress"]
        (container,) = pod_spec(deployment)["containers"]
        port_names = {p["name"] for p in container["ports"]}
        assert {p["port"] for p in rule["ports"]} <= port_names
        monitoring = values["networkPolicy"]["metricsFrom"]
        assert all(peer in rule["from"] for peer in monitoring)
        if component == "api":
            assert values["networkPolicy"]["apiFrom"][0] in rule["from"]


def test_only_workers_reach_webhook_receivers_and_never_private_ones() -> None:
    for component, (policy, _) in policies(case_values("network-policy")).items():
        blocks = [peer["ipBlock"] for rule in policy["spec"]["egress"]
                  for peer in rule["to"] if "ipBlock" in peer and 80 in
                  {p["port"] for p in rule["ports"]}]
        if component == "worker":
            (block,) = blocks
            assert set(block["except"]) >= PRIVATE
        else:
            assert blocks == []


@pytest.mark.parametrize(("component", "reaches_the_cluster"),
                         [("operator", True), ("api", False), ("worker", False)])
def test_only_the_operator_reaches_the_kubernetes_api(component: str,
                                                      reaches_the_cluster: bool) -> None:
    policy, _ = policies(case_values("network-policy"))[component]
    assert (6443 in egress_ports(policy)) is reaches_the_cluster


def test_the_filesystem_store_needs_no_egress_for_objects() -> None:
    values = merged(case_values("filesystem-store"), {"networkPolicy": {"enabled": True}})
    policy, _ = policies(values)["api"]
    assert egress_ports(policy) == {53, 6379}  # DNS and Redis only
