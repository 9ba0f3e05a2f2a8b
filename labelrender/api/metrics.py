"""Prometheus metrics, one registry per app (so several apps in a process never clash).

Workers are scaled on ``labelrender_render_queue_depth`` (ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


@dataclass(frozen=True)
class Metrics:
    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    queue_depth: Gauge
    renders: Counter
    cache_hits: Counter


def new_metrics() -> Metrics:
    registry = CollectorRegistry()
    return Metrics(
        registry=registry,
        requests=Counter(
            "labelrender_http_requests", "HTTP requests answered.",
            ["method", "route", "status"], registry=registry,
        ),
        latency=Histogram(
            "labelrender_http_request_duration_seconds", "Time to answer a request.",
            ["method", "route"], registry=registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
        ),
        queue_depth=Gauge(
            "labelrender_render_queue_depth",
            "Render jobs waiting or in progress (read at scrape time).", registry=registry,
        ),
        renders=Counter(
            "labelrender_renders", "Render jobs the API waited for, by outcome.",
            ["outcome"], registry=registry,
        ),
        cache_hits=Counter(
            "labelrender_render_cache_hits", "Renders answered from a stored object.",
            registry=registry,
        ),
    )
