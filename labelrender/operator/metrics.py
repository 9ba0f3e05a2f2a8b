"""The operator's Prometheus metrics (helm/metrics.yaml lists them), served on
``LABELRENDER_OPERATOR_METRICS_PORT``."""

from __future__ import annotations

from prometheus_client import Counter

RECONCILES = Counter(
    "labelrender_operator_reconciles",
    "LabelTemplate and Plan reconciles, by kind and outcome (the Ready reason, or "
    "Removed for a finalizer's delete).",
    ["kind", "outcome"])
