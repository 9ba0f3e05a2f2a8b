"""The chart over the matrix of values: it lints clean, every manifest validates
against the oldest and newest Kubernetes schemas kubernetes-validate ships, and
the pods are what a cluster admin expects (probes, no privilege, requests)."""

from __future__ import annotations

import helm_python
import kubernetes_validate
import pytest
from kubernetes_validate.utils import all_versions

from tests.helm import documented_kinds
from tests.helm.support import (
    CASES,
    CHART_DIR,
    COMPONENTS,
    GATED_SPEC_FIELDS,
    case_values,
    for_kube,
    merged,
    pod_spec,
    render,
)

# The oldest and newest Kubernetes the validator has schemas for (1.25 and 1.37
# with kubernetes-validate 1.37); the chart's kubeVersion starts at the oldest.
KUBE_VERSIONS = (all_versions()[0], all_versions()[-1])
WARNING = 2  # lint severities: 1 info, 2 warning, 3 error


@pytest.mark.parametrize("kube_version", KUBE_VERSIONS)
@pytest.mark.parametrize("case", CASES)
def test_lints_clean_in_strict_mode(case: str, kube_version: str) -> None:
    report = helm_python.lint(CHART_DIR, case_values(case), strict=True,
                              kube_version=f"v{kube_version}")
    problems = [m for m in report["messages"] if m["severity"] >= WARNING]
    assert report["errors"] == [] and problems == []


@pytest.mark.parametrize("kube_version", KUBE_VERSIONS)
@pytest.mark.parametrize("case", CASES)
def test_every_manifest_validates(case: str, kube_version: str) -> None:
    for manifest in render(case_values(case)).manifests:
        if (manifest["apiVersion"], manifest["kind"]) in documented_kinds.SCHEMAS:
            documented_kinds.validate(manifest)
        else:
            kubernetes_validate.validate(for_kube(manifest, kube_version), kube_version,
                                         strict=True)


def test_version_gated_fields_are_gated_in_the_templates() -> None:
    """What for_kube leaves out for older clusters, the templates leave out too."""
    pdb = (CHART_DIR / "templates" / "pdb.yaml").read_text()
    gate = pdb.index('semverCompare ">=1.27-0" $.Capabilities.KubeVersion.Version')
    assert gate < pdb.index("unhealthyPodEvictionPolicy: {{ . }}")
    assert GATED_SPEC_FIELDS == {("PodDisruptionBudget", "unhealthyPodEvictionPolicy"): (1, 27)}


def test_validation_can_fail() -> None:
    """The strict schemas refuse a field Kubernetes does not have."""
    deployment = render(case_values("defaults")).component("Deployment", "api")
    assert deployment is not None
    pod_spec(deployment)["containers"][0]["livenessProbes"] = {}
    with pytest.raises(kubernetes_validate.ValidationError, match="livenessProbes"):
        kubernetes_validate.validate(deployment, KUBE_VERSIONS[-1], strict=True)


@pytest.mark.parametrize("case", CASES)
def test_each_tier_runs_its_command_with_probes(case: str) -> None:
    rendered = render(case_values(case))
    expected = {c for c in COMPONENTS if c != "operator" or case != "without-operator"}
    found = dict(rendered.deployments())
    assert set(found) == expected
    for component, deployment in found.items():
        (container,) = pod_spec(deployment)["containers"]
        assert container["args"][0] == component
        port_names = {p["name"] for p in container["ports"]}
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
            assert container[probe]["httpGet"]["path"] == path
            assert container[probe]["httpGet"]["port"] in port_names


@pytest.mark.parametrize("case", CASES)
def test_no_container_has_privileges(case: str) -> None:
    for _, deployment in render(case_values(case)).deployments():
        spec = pod_spec(deployment)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] != 0
        for container in spec["containers"] + spec.get("initContainers", []):
            context = container["securityContext"]
            assert context["privileged"] is False
            assert context["allowPrivilegeEscalation"] is False
            assert context["readOnlyRootFilesystem"] is True
            assert context["runAsNonRoot"] is True
            assert context["capabilities"]["drop"] == ["ALL"]
        assert all("hostPath" not in v for v in spec["volumes"])
        assert not spec.get("hostNetwork") and not spec.get("hostPID")


@pytest.mark.parametrize("case", CASES)
def test_writable_paths_are_volumes(case: str) -> None:
    """The root filesystem is read-only: /tmp (multiprocessing's forkserver
    socket, tempfiles) is an emptyDir; the filesystem store is its volume, in
    every tier (the operator writes the global template bodies there)."""
    values = case_values(case)
    for component, deployment in render(values).deployments():
        (container,) = pod_spec(deployment)["containers"]
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        assert mounts["/tmp"] == "tmp"
        volumes = {v["name"]: v for v in pod_spec(deployment)["volumes"]}
        assert "emptyDir" in volumes["tmp"]
        shares_store = values["objectStore"].get("type") == "filesystem"
        assert ("/data" in mounts) == shares_store, component


@pytest.mark.parametrize("case", CASES)
def test_requests_and_memory_limits_are_set(case: str) -> None:
    for _, deployment in render(case_values(case)).deployments():
        for container in pod_spec(deployment)["containers"]:
            resources = container["resources"]
            assert {"cpu", "memory"} <= set(resources["requests"])
            assert "memory" in resources["limits"]


@pytest.mark.parametrize("case", CASES)
def test_graceful_termination_outlasts_the_work_in_hand(case: str) -> None:
    """The API waits up to the render timeout for a render; a worker finishes
    the jobs it holds: two rounds of the engine's 10 s budget, plus storage."""
    values = case_values(case)
    rendered = render(values)
    config = rendered.of_kind("ConfigMap")[0]["data"]
    periods = {component: pod_spec(d)["terminationGracePeriodSeconds"]
               for component, d in rendered.deployments()}
    assert periods["api"] > float(config["LABELRENDER_RENDER_TIMEOUT_S"])
    assert periods["worker"] >= 2 * 10 + 10


@pytest.mark.parametrize("case", CASES)
def test_replicas_spread_over_nodes_and_survive_drains(case: str) -> None:
    rendered = render(case_values(case))
    for component, deployment in rendered.deployments():
        terms = pod_spec(deployment)["affinity"]["podAntiAffinity"][
            "preferredDuringSchedulingIgnoredDuringExecution"]
        assert terms[0]["podAffinityTerm"]["labelSelector"]["matchLabels"] == \
            deployment["spec"]["selector"]["matchLabels"]
        budget = rendered.component("PodDisruptionBudget", component)
        assert budget is not None
        assert budget["spec"]["selector"] == deployment["spec"]["selector"]
        assert budget["spec"]["maxUnavailable"] >= 1


@pytest.mark.parametrize("case", CASES)
def test_no_secret_value_is_in_the_chart(case: str) -> None:
    """Redis, S3 keys and the URL secret come only from existing Secrets."""
    rendered = render(case_values(case))
    assert rendered.of_kind("Secret") == []
    secret_names = {"REDIS_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                    "AWS_SESSION_TOKEN", "LABELRENDER_URL_SECRET"}
    config = rendered.of_kind("ConfigMap")[0]["data"]
    assert not secret_names & set(config)
    for _, deployment in rendered.deployments():
        for entry in pod_spec(deployment)["containers"][0]["env"]:
            if entry["name"] in secret_names:
                assert set(entry) == {"name", "valueFrom"}
                assert "secretKeyRef" in entry["valueFrom"]


@pytest.mark.parametrize(("case", "secrets"), [
    ("defaults", {"api": {"lr-redis"}, "worker": {"lr-redis"}, "operator": {"lr-redis"}}),
    ("external-redis-and-s3", {
        "api": {"managed-redis", "labels-s3", "labels-url-secret"},
        "worker": {"managed-redis", "labels-s3", "labels-url-secret"},
        "operator": {"managed-redis", "labels-s3", "labels-url-secret"}}),
])
def test_each_tier_reads_only_the_secrets_it_needs(case: str,
                                                   secrets: dict[str, set[str]]) -> None:
    for component, deployment in render(case_values(case)).deployments():
        used = {e["valueFrom"]["secretKeyRef"]["name"]
                for e in pod_spec(deployment)["containers"][0]["env"]
                if "secretKeyRef" in e.get("valueFrom", {})}
        assert used == secrets[component]


@pytest.mark.parametrize(("public_pages", "paths"), [
    (True, ["/v1", "/studio", "/docs"]),
    (False, ["/v1"]),
])
def test_the_ingress_serves_the_api_and_its_pages_only(public_pages: bool,
                                                       paths: list[str]) -> None:
    """/v1, the studio and the reference pages; /healthz, /readyz and /metrics stay inside."""
    values = merged(case_values("ingress"), {"ingress": {"publicPages": public_pages}})
    rendered = render(values)
    (ingress,) = rendered.of_kind("Ingress")
    (rule,) = ingress["spec"]["rules"]
    assert [p["path"] for p in rule["http"]["paths"]] == paths
    api_service = rendered.component("Service", "api")
    assert api_service is not None
    for path in rule["http"]["paths"]:
        backend = path["backend"]["service"]
        assert backend["name"] == api_service["metadata"]["name"]
        assert backend["port"]["name"] in {p["name"] for p in api_service["spec"]["ports"]}
    config = rendered.of_kind("ConfigMap")[0]["data"]
    assert config["LABELRENDER_PUBLIC_BASE_URL"] == "https://labels.example.com/v1"


def test_the_chart_and_the_package_share_a_version() -> None:
    import tomllib

    from tests.helm.support import REPO, chart

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert chart().metadata["appVersion"] == project["version"]

