"""The operator's Prometheus metrics (helm/metrics.yaml lists them), served on
``LABELRENDER_OPERATOR_METRICS_PORT``."""

from __future__ import annotations

import threading

from prometheus_client import Counter, Gauge

RECONCILES = Counter(
    "labelrender_operator_reconciles",
    "LabelTemplate and Plan reconciles, by kind and outcome (the Ready reason, or "
    "Removed for a finalizer's delete).",
    ["kind", "outcome"])

NOT_READY = Gauge(
    "labelrender_operator_objects_not_ready",
    "LabelTemplates and Plans whose Ready condition is False, by kind and reason, as the "
    "active replica last reconciled them (standby replicas report none).",
    ["kind", "reason"])


class Readiness:
    """The last Ready reason of each object this replica reconciled, behind the
    ``NOT_READY`` gauge (a count per kind and reason, 0 once none is left)."""

    def __init__(self, gauge: Gauge = NOT_READY) -> None:
        self._gauge = gauge
        self._not_ready: dict[tuple[str, str], str] = {}  # (kind, object) -> reason
        self._shown: set[tuple[str, str]] = set()  # (kind, reason) pairs ever set
        self._lock = threading.Lock()

    def report(self, kind: str, name: str, ready: bool, reason: str) -> None:
        with self._lock:
            if ready:
                self._not_ready.pop((kind, name), None)
            else:
                self._not_ready[(kind, name)] = reason
            self._publish()

    def forget(self, kind: str, name: str) -> None:
        """The object is gone."""
        self.report(kind, name, True, "")

    def _publish(self) -> None:
        counts: dict[tuple[str, str], int] = {}
        for (kind, _), reason in self._not_ready.items():
            counts[(kind, reason)] = counts.get((kind, reason), 0) + 1
        self._shown |= set(counts)
        for labels in self._shown:
            self._gauge.labels(*labels).set(counts.get(labels, 0))


READINESS = Readiness()
