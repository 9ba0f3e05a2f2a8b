"""Prometheus metrics of the render workers (SREs scale workers on these).

The queue depth itself is read from Redis (``jobs.backlog``) by whoever
scrapes the API, so it is one number for the whole fleet; these are per worker.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

JOBS = Counter(
    "labelrender_worker_jobs_total",
    "Render jobs handled, by outcome: rendered, InvalidZpl, InvalidOptions, "
    "RenderTooComplex (over a limit), retry (left pending after a failure) or abandoned.",
    ["outcome"],
)
RENDER_SECONDS = Histogram(
    "labelrender_render_duration_seconds",
    "Time from taking a render job to its answer, by outcome: rendered, InvalidZpl, "
    "InvalidOptions, RenderTooComplex, or retry (left pending after a failure).",
    ["outcome"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
JOB_SECONDS = Histogram(
    "labelrender_worker_job_seconds",
    "Time from taking a render job to acknowledging it.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
IN_FLIGHT = Gauge("labelrender_worker_jobs_in_flight", "Render jobs taken and not yet done.")
CLAIMED = Counter("labelrender_worker_claimed_total",
                  "Pending jobs claimed from consumers that stopped answering.")
SETTLED = Counter(
    "labelrender_worker_labels_settled_total",
    "Render jobs settled, by how their label unit went: first_store (billed), "
    "stored_before (given back: another job stored it first), refused (given back), "
    "finished_before (settled elsewhere), first_store_late (billed after an abandon).",
    ["settlement"],
)
RENDER_PROCESSES_REPLACED = Counter(
    "labelrender_worker_render_processes_replaced_total",
    "Render processes killed or lost and replaced, by the limit that ended them (time, "
    "memory, crash) or lost (killed from outside, such as by the OOM killer).",
    ["limit"],
)
SYNTHESIS_JOBS = Counter(
    "labelrender_synthesis_jobs",
    "Synthesis jobs reaching a state; workers count succeeded and failed.",
    ["state"],
)
for _state in ("succeeded", "failed"):  # both series exist from the start, at 0
    SYNTHESIS_JOBS.labels(_state)
