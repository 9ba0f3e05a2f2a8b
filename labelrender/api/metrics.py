"""Prometheus metrics, one registry per app (so several apps in a process never clash).

``serve``'s API processes share theirs through prometheus_client's
multiprocess mode (``ApiConfig.metrics_dir``): counters and histograms add up
over the processes, and each fleet gauge is the value set last by a live one.

helm/metrics.yaml lists every metric with its meaning (the README's table).
The fleet-wide gauges (queue depth and lag, dead letters) are read from Redis
when ``/metrics`` is scraped (``api.health``), so every API replica serves the
same number: Prometheus aggregates them with ``max``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

# The plan limits a request can be refused by: 402, and the two 429s (which
# share the error kind ``RateLimitExceeded``).
Refusal = Literal["QuotaExceeded", "RateLimitExceeded", "ConcurrencyLimited"]
REFUSALS: tuple[Refusal, ...] = ("QuotaExceeded", "RateLimitExceeded",
                                  "ConcurrencyLimited")


@dataclass(frozen=True)
class Metrics:
    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    queue_depth: Gauge
    queue_lag: Gauge
    queue_pending: Gauge
    synthesis_lag: Gauge
    event_lag: Gauge
    renders: Counter
    cache_hits: Counter
    cache_requests: Counter
    dead_letters: Gauge
    limit_refusals: Counter
    synthesis_jobs: Counter
    redis_up: Gauge

    def refused(self, kind: Refusal) -> None:
        """Count a request refused by a plan limit, where the refusal is raised."""
        self.limit_refusals.labels(kind).inc()


def new_metrics() -> Metrics:
    registry = CollectorRegistry()
    metrics = Metrics(
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
            multiprocess_mode="livemostrecent",
        ),
        queue_lag=Gauge(
            "labelrender_render_queue_lag",
            "Render jobs no worker has taken yet: the consumer group's lag summed over "
            "every tenant group's stream, what KEDA scales on (read at scrape time).",
            registry=registry, multiprocess_mode="livemostrecent",
        ),
        queue_pending=Gauge(
            "labelrender_render_queue_pending",
            "Render jobs workers have taken and not finished (XPENDING, every tenant "
            "group's stream; read at scrape time).", registry=registry,
            multiprocess_mode="livemostrecent",
        ),
        synthesis_lag=Gauge(
            "labelrender_synthesis_queue_lag",
            "Synthesis jobs no worker has taken yet, every tenant group's stream (read "
            "at scrape time).", registry=registry, multiprocess_mode="livemostrecent",
        ),
        event_lag=Gauge(
            "labelrender_webhook_event_lag",
            "Webhook events no dispatcher has taken yet, every tenant group's stream "
            "(read at scrape time).", registry=registry, multiprocess_mode="livemostrecent",
        ),
        renders=Counter(
            "labelrender_renders", "Render jobs the API waited for, by outcome.",
            ["outcome"], registry=registry,
        ),
        cache_hits=Counter(
            "labelrender_render_cache_hits", "Renders answered from a stored object.",
            registry=registry,
        ),
        cache_requests=Counter(
            "labelrender_cache_requests",
            "Render requests looked up in the label cache, by result: hit (answered from "
            "a stored label) or miss.", ["result"], registry=registry,
        ),
        dead_letters=Gauge(
            "labelrender_webhook_dead_letters",
            "Webhook events in the dead-letter stream (read at scrape time).",
            registry=registry, multiprocess_mode="livemostrecent",
        ),
        limit_refusals=Counter(
            "labelrender_limit_refusals",
            "Requests refused by a plan limit, by kind: QuotaExceeded (402), RateLimitExceeded "
            "or ConcurrencyLimited (429).", ["kind"], registry=registry,
        ),
        synthesis_jobs=Counter(
            "labelrender_synthesis_jobs",
            "Synthesis jobs reaching a state; the API counts queued.", ["state"],
            registry=registry,
        ),
        redis_up=Gauge(
            "labelrender_redis_up",
            "1 when Redis answered this scrape's reads, else 0 (the queue and dead-letter "
            "gauges then keep their last values).", registry=registry,
        ),
    )
    # Every series of a closed set exists from the start, at 0, so rates and
    # ratios over them are defined before the first event.
    for result in ("hit", "miss"):
        metrics.cache_requests.labels(result)
    for kind in REFUSALS:
        metrics.limit_refusals.labels(kind)
    metrics.synthesis_jobs.labels("queued")
    return metrics
