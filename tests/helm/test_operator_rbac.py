"""The operator's access: exactly what Kopf and its handlers need, bound to the
operator's own ServiceAccount; the API and workers get no API access at all."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helm.support import NAMESPACE, case_values, pod_spec, render

# (apiGroup, resource, verb): the operator's whole permission set.
OPERATOR_NEEDS = {
    # LabelTemplate and Plan (labelrender.io): watched, and patched by Kopf for
    # its finalizer and its state annotations.
    *{("labelrender.io", r, v) for r in ("labeltemplates", "plans")
      for v in ("get", "list", "watch", "patch")},
    # status.conditions, observedGeneration, version and fields.
    *{("labelrender.io", f"{r}/status", v) for r in ("labeltemplates", "plans")
      for v in ("get", "patch")},
    # Finalizers under the OwnerReferencesPermissionEnforcement admission plugin.
    *{("labelrender.io", f"{r}/finalizers", "update") for r in ("labeltemplates", "plans")},
    # One Event per outcome.
    ("", "events", "create"),
    # Kopf peering between replicas (cluster-wide and namespaced peering objects).
    *{("kopf.dev", r, v) for r in ("clusterkopfpeerings", "kopfpeerings")
      for v in ("get", "list", "watch", "patch")},
    # ... and the ClusterKopfPeering object they meet in, made at start.
    ("kopf.dev", "clusterkopfpeerings", "create"),
    # Kopf's discovery of resources and namespaces.
    ("apiextensions.k8s.io", "customresourcedefinitions", "list"),
    ("apiextensions.k8s.io", "customresourcedefinitions", "watch"),
    ("", "namespaces", "list"),
    ("", "namespaces", "watch"),
    # The kube-system namespace's uid, the cluster's default name in owner records.
    ("", "namespaces", "get"),
}


def permissions(role: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(group, resource, verb) for rule in role["rules"]
            for group in rule["apiGroups"] for resource in rule["resources"]
            for verb in rule["verbs"]}


@pytest.mark.parametrize("case", ["defaults", "two-replicas-each"])
def test_the_operator_may_do_exactly_what_it_needs(case: str) -> None:
    values = case_values(case)
    rendered = render(values)
    (role,) = rendered.of_kind("ClusterRole")
    named = values.get("operator", {}).get("clusterId")  # then kube-system is not read
    assert permissions(role) == OPERATOR_NEEDS - ({("", "namespaces", "get")} if named else set())
    assert rendered.of_kind("Role") == []  # and nothing namespaced besides
    assert all("*" not in (g, r, v) for g, r, v in permissions(role))


@pytest.mark.parametrize(("cluster_id", "reads_kube_system"), [("", True), ("eu-1", False)])
def test_the_cluster_id_is_read_from_kube_system_only_when_unset(
        cluster_id: str, reads_kube_system: bool) -> None:
    rendered = render(case_values("defaults") | {"operator": {"clusterId": cluster_id}})
    (role,) = rendered.of_kind("ClusterRole")
    gets = [rule for rule in role["rules"] if "get" in rule["verbs"] and rule["apiGroups"] == [""]]
    assert [rule.get("resourceNames") for rule in gets] == (
        [["kube-system"]] if reads_kube_system else [])
    operator = rendered.component("Deployment", "operator")
    assert operator is not None
    env = {e["name"]: e.get("value") for e in pod_spec(operator)["containers"][0]["env"]}
    assert env.get("LABELRENDER_OPERATOR_CLUSTER_ID") == (cluster_id or None)


def test_the_role_is_bound_to_the_operators_service_account() -> None:
    rendered = render(case_values("defaults"))
    (role,) = rendered.of_kind("ClusterRole")
    (binding,) = rendered.of_kind("ClusterRoleBinding")
    operator = rendered.component("Deployment", "operator")
    assert operator is not None
    account = pod_spec(operator)["serviceAccountName"]
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io",
                                  "kind": "ClusterRole", "name": role["metadata"]["name"]}
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": account,
                                    "namespace": NAMESPACE}]
    assert account in {a["metadata"]["name"] for a in rendered.of_kind("ServiceAccount")}


def test_the_other_tiers_have_no_kubernetes_credentials() -> None:
    rendered = render(case_values("defaults"))
    operator = rendered.component("Deployment", "operator")
    assert operator is not None
    operator_account = pod_spec(operator)["serviceAccountName"]
    for component in ("api", "worker"):
        deployment = rendered.component("Deployment", component)
        assert deployment is not None
        spec = pod_spec(deployment)
        assert spec["automountServiceAccountToken"] is False
        assert spec["serviceAccountName"] != operator_account


def test_without_the_operator_there_is_no_cluster_access() -> None:
    rendered = render(case_values("without-operator"))
    for kind in ("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"):
        assert rendered.of_kind(kind) == []
