"""JSON Schemas of the custom kinds the chart renders, from their projects' docs.

kubernetes-validate knows only built-in kinds, so the KEDA and Prometheus
Operator objects are checked here against the fields their projects document
(unknown fields are refused, as the API server's structural schemas do):

- ScaledObject: https://keda.sh/docs/2.17/reference/scaledobject-spec/
- the metrics-api trigger: https://keda.sh/docs/2.17/scalers/metrics-api/
- TriggerAuthentication: https://keda.sh/docs/2.17/concepts/authentication/
- ServiceMonitor: https://prometheus-operator.dev/docs/api-reference/api/#monitoring.coreos.com/v1.ServiceMonitor
- PrometheusRule: https://prometheus-operator.dev/docs/api-reference/api/#monitoring.coreos.com/v1.PrometheusRule
"""

from __future__ import annotations

from typing import Any

import jsonschema

STRING = {"type": "string"}
INT = {"type": "integer", "minimum": 0}
STRMAP = {"type": "object", "additionalProperties": STRING}
ANY_OBJECT = {"type": "object"}


def closed(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "properties": properties,
            "required": list(required)}


METADATA = {"type": "object", "required": ["name"],
            "properties": {"name": STRING, "namespace": STRING, "labels": STRMAP,
                           "annotations": STRMAP}}


def kind_schema(api_version: str, kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    return closed({"apiVersion": {"const": api_version}, "kind": {"const": kind},
                   "metadata": METADATA, "spec": spec},
                  required=("apiVersion", "kind", "metadata", "spec"))


# The metrics-api trigger's metadata keys (every value a string).
METRICS_API_METADATA = (
    "url", "format", "valueLocation", "targetValue", "activationTargetValue", "unsafeSsl",
    "authMode", "method", "keyParamName", "aggregateFromKubeServiceEndpoints",
    "aggregationType",
)
METRICS_API_FORMATS = ("json", "xml", "yaml", "prometheus")

TRIGGER = closed({
    "type": STRING,
    "name": STRING,
    "metadata": STRMAP,
    "useCachedMetrics": {"type": "boolean"},
    "authenticationRef": closed({"name": STRING, "kind": {
        "enum": ["TriggerAuthentication", "ClusterTriggerAuthentication"]}}, ("name",)),
    "metricType": {"enum": ["AverageValue", "Value", "Utilization"]},
}, ("type", "metadata"))

SCALED_OBJECT = kind_schema("keda.sh/v1alpha1", "ScaledObject", closed({
    "scaleTargetRef": closed({"apiVersion": STRING, "kind": STRING, "name": STRING,
                              "envSourceContainerName": STRING}, ("name",)),
    "pollingInterval": INT,
    "cooldownPeriod": INT,
    "initialCooldownPeriod": INT,
    "idleReplicaCount": INT,
    "minReplicaCount": INT,
    "maxReplicaCount": INT,
    "fallback": closed({"failureThreshold": INT, "replicas": INT, "behavior": {
        "enum": ["static", "currentReplicas", "currentReplicasIfHigher",
                 "currentReplicasIfLower"]}}, ("failureThreshold", "replicas")),
    "advanced": closed({
        "restoreToOriginalReplicaCount": {"type": "boolean"},
        "horizontalPodAutoscalerConfig": closed({"name": STRING, "behavior": ANY_OBJECT}),
        "scalingModifiers": closed({"target": STRING, "activationTarget": STRING,
                                    "metricType": STRING, "formula": STRING},
                                   ("target", "formula")),
    }),
    "triggers": {"type": "array", "minItems": 1, "items": TRIGGER},
}, ("scaleTargetRef", "triggers")))

TRIGGER_AUTHENTICATION = kind_schema("keda.sh/v1alpha1", "TriggerAuthentication", closed({
    "secretTargetRef": {"type": "array", "items": closed(
        {"parameter": STRING, "name": STRING, "key": STRING}, ("parameter", "name", "key"))},
    "env": {"type": "array", "items": closed(
        {"parameter": STRING, "name": STRING, "containerName": STRING}, ("parameter", "name"))},
    "podIdentity": ANY_OBJECT,
}))

DURATION = {"type": "string",
            "pattern": r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?"
                       r"(([0-9]+)s)?(([0-9]+)ms)?)$"}
LABEL_SELECTOR = closed({
    "matchLabels": STRMAP,
    "matchExpressions": {"type": "array", "items": closed({
        "key": STRING, "operator": {"enum": ["In", "NotIn", "Exists", "DoesNotExist"]},
        "values": {"type": "array", "items": STRING}}, ("key", "operator"))},
})
ENDPOINT = closed({
    "port": STRING, "targetPort": {"type": ["string", "integer"]}, "path": STRING,
    "scheme": {"enum": ["http", "https"]}, "params": ANY_OBJECT, "interval": DURATION,
    "scrapeTimeout": DURATION, "tlsConfig": ANY_OBJECT, "bearerTokenSecret": ANY_OBJECT,
    "authorization": ANY_OBJECT, "basicAuth": ANY_OBJECT, "oauth2": ANY_OBJECT,
    "honorLabels": {"type": "boolean"}, "honorTimestamps": {"type": "boolean"},
    "trackTimestampsStaleness": {"type": "boolean"},
    "metricRelabelings": {"type": "array"}, "relabelings": {"type": "array"},
    "proxyUrl": STRING, "followRedirects": {"type": "boolean"},
    "enableHttp2": {"type": "boolean"}, "filterRunning": {"type": "boolean"},
})
SERVICE_MONITOR = kind_schema("monitoring.coreos.com/v1", "ServiceMonitor", closed({
    "jobLabel": STRING,
    "targetLabels": {"type": "array", "items": STRING},
    "podTargetLabels": {"type": "array", "items": STRING},
    "endpoints": {"type": "array", "items": ENDPOINT},
    "selector": LABEL_SELECTOR,
    "namespaceSelector": closed({"any": {"type": "boolean"},
                                 "matchNames": {"type": "array", "items": STRING}}),
    "sampleLimit": INT, "targetLimit": INT, "labelLimit": INT,
    "labelNameLengthLimit": INT, "labelValueLengthLimit": INT,
    "keepDroppedTargets": INT, "attachMetadata": ANY_OBJECT,
}, ("selector",)))

DURATION = {"type": "string", "pattern": "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?"
            "(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"}
ALERTING_RULE = closed({"alert": STRING, "expr": STRING, "for": DURATION,
                        "keep_firing_for": DURATION, "labels": STRMAP, "annotations": STRMAP},
                       ("alert", "expr"))
PROMETHEUS_RULE = kind_schema("monitoring.coreos.com/v1", "PrometheusRule", closed({
    "groups": {"type": "array", "items": closed({
        "name": STRING, "interval": DURATION, "limit": INT, "partial_response_strategy": STRING,
        "rules": {"type": "array", "items": ALERTING_RULE}}, ("name",))},
}))

SCHEMAS = {
    ("monitoring.coreos.com/v1", "PrometheusRule"): PROMETHEUS_RULE,
    ("keda.sh/v1alpha1", "ScaledObject"): SCALED_OBJECT,
    ("keda.sh/v1alpha1", "TriggerAuthentication"): TRIGGER_AUTHENTICATION,
    ("monitoring.coreos.com/v1", "ServiceMonitor"): SERVICE_MONITOR,
}


def validate(manifest: dict[str, Any]) -> None:
    """Raise jsonschema.ValidationError unless the object uses documented fields only."""
    schema = SCHEMAS[(manifest["apiVersion"], manifest["kind"])]
    jsonschema.Draft202012Validator(schema).validate(manifest)
    if manifest["kind"] == "ScaledObject":
        for trigger in manifest["spec"]["triggers"]:
            check_metrics_api_trigger(trigger)


def check_metrics_api_trigger(trigger: dict[str, Any]) -> None:
    """The metrics-api rules KEDA's docs give beyond field names."""
    if trigger["type"] != "metrics-api":
        raise jsonschema.ValidationError(f"unexpected trigger type {trigger['type']}")
    metadata = trigger["metadata"]
    unknown = set(metadata) - set(METRICS_API_METADATA)
    if unknown:
        raise jsonschema.ValidationError(f"metrics-api metadata has unknown keys {unknown}")
    if not {"url", "valueLocation", "targetValue"} <= set(metadata):
        raise jsonschema.ValidationError("metrics-api needs url, valueLocation and targetValue")
    if metadata.get("format", "json") not in METRICS_API_FORMATS:
        raise jsonschema.ValidationError(f"metrics-api format {metadata['format']} is unknown")
    for key in ("targetValue", "activationTargetValue"):
        if key in metadata and not metadata[key].replace(".", "", 1).isdigit():
            raise jsonschema.ValidationError(f"metrics-api {key} must be a number string")
