"""The chart configures the service through the settings the code reads:
every setting that makes sense on a cluster is in the chart, every variable
the chart sets is a setting, and the values it renders pass their validation."""

from __future__ import annotations

import os
from typing import Any

import pytest
from pydantic import AliasChoices

from labelrender.store.settings import Settings
from tests.helm.support import CASES, MINIMAL, case_values, merged, pod_spec, render

# Settings the chart leaves alone, and why.
NOT_SET_BY_THE_CHART = {
    "workers": "only `labelrender serve` starts worker processes; the chart scales pods",
    "api_processes": "only `labelrender serve` runs several API processes; the chart scales "
                     "pods",
    "ready_min_workers": "an API pod ready only with workers would leave the Service empty "
                         "while workers restart; `serve` sets it for its own workers",
    "kubeconfig": "in a pod the operator uses its service account",
    "operator_context": "in a pod the operator uses its service account",
    "operator_priority": "each replica draws its own; one for all would pause them all",
    "operator_peering_name": "one release per cluster: the default object is enough",
    "embedded_redis": "every pod gets redis.existingSecret's URL: a private Redis is a mistake",
}
# Variables the chart sets ahead of the code that will read them (none now:
# the operator serves its health and metrics ports).
AHEAD_OF_THE_CODE: set[str] = set()
# Read by boto3, not by our settings.
FOR_BOTO3 = {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"}


def env_names(field: str) -> set[str]:
    """The environment variables that set one Settings field."""
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices):
        return {str(choice) for choice in alias.choices}
    return {f"LABELRENDER_{field.upper()}"}


def chart_environment(case: str) -> dict[str, dict[str, str | None]]:
    """Per tier: every variable the chart gives its container (None: from a Secret)."""
    rendered = render(case_values(case))
    config: dict[str, str] = rendered.of_kind("ConfigMap")[0]["data"]
    tiers: dict[str, dict[str, str | None]] = {}
    for component, deployment in rendered.deployments():
        (container,) = pod_spec(deployment)["containers"]
        env: dict[str, str | None] = dict(config)
        env.update({e["name"]: e.get("value") for e in container["env"]})
        tiers[component] = env
    return tiers


def test_every_setting_is_in_the_chart_or_left_out_for_a_reason() -> None:
    set_somewhere = {name for case in CASES for env in chart_environment(case).values()
                     for name in env}
    missing = {field for field in Settings.model_fields
               if not env_names(field) & set_somewhere and field not in NOT_SET_BY_THE_CHART}
    assert missing == set(), ("new settings: add them to the chart's ConfigMap (values.config) "
                              "or to NOT_SET_BY_THE_CHART with the reason")


def test_every_variable_the_chart_sets_is_read() -> None:
    known = {name for field in Settings.model_fields for name in env_names(field)}
    set_somewhere = {name for case in CASES for env in chart_environment(case).values()
                     for name in env}
    assert set_somewhere - known - FOR_BOTO3 == AHEAD_OF_THE_CODE


def test_the_settings_set_ahead_of_the_code_are_not_read_yet() -> None:
    """When the code reads them, move them out of AHEAD_OF_THE_CODE."""
    known = {name for field in Settings.model_fields for name in env_names(field)}
    assert AHEAD_OF_THE_CODE & known == set()


SECRET_STAND_INS = {"REDIS_URL": "redis://redis.example:6379/0",
                    "LABELRENDER_URL_SECRET": "0123456789abcdef0123456789abcdef",
                    "AWS_ACCESS_KEY_ID": "AKIA", "AWS_SECRET_ACCESS_KEY": "secret",
                    "AWS_SESSION_TOKEN": "token"}


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No setting of the machine running the tests leaks into Settings()."""
    for name in list(os.environ):
        if name.startswith(("LABELRENDER_", "S3_")) or name == "REDIS_URL":
            monkeypatch.delenv(name)
    return monkeypatch


@pytest.mark.parametrize("case", CASES)
@pytest.mark.usefixtures("clean_environment")
def test_each_tier_starts_with_valid_settings(case: str) -> None:
    for component, env in chart_environment(case).items():
        with pytest.MonkeyPatch.context() as patch:  # one tier's environment at a time
            for name, value in env.items():
                patch.setenv(name, value if value is not None else SECRET_STAND_INS[name])
            settings = Settings()
        assert settings.host == "0.0.0.0", component
        assert settings.redis_url == SECRET_STAND_INS["REDIS_URL"]


@pytest.mark.parametrize(("values", "expected"), [
    ({"config": {"renderProcesses": 6, "renderTimeoutSeconds": 12.5, "webhookJitter": 0.1,
                 "maxQueueDepth": 250000, "logLevel": "DEBUG"}},
     {"render_processes": 6, "render_timeout_s": 12.5, "webhook_jitter": 0.1,
      "max_queue_depth": 250000, "log_level": "DEBUG"}),
    ({"objectStore": {"s3": {"bucket": "b", "region": "us-east-2",
                             "endpointUrl": "https://minio.example:9000",
                             "addressingStyle": "path"}}},
     {"s3_bucket": "b", "s3_region": "us-east-2", "s3_endpoint_url": "https://minio.example:9000",
      "s3_addressing_style": "path"}),
    ({"api": {"port": 9000}, "publicBaseUrl": "https://x.example/v1"},
     {"port": 9000, "public_base_url": "https://x.example/v1"}),
])
def test_values_reach_the_settings(values: dict[str, Any], expected: dict[str, Any],
                                   clean_environment: pytest.MonkeyPatch) -> None:
    monkeypatch = clean_environment
    config = render(merged(MINIMAL, values)).of_kind("ConfigMap")[0]["data"]
    for name, value in config.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert {field: getattr(settings, field) for field in expected} == expected
