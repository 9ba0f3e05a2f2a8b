"""Start one render worker process from the settings: ``labelrender worker``."""

from __future__ import annotations

import logging

import redis
from prometheus_client import start_http_server

from labelrender.store.settings import Settings, build_object_store, connect_redis
from labelrender.synth.engine import make_engine
from labelrender.worker.consumer import Consumer, consumer_name, stop_on_signals
from labelrender.worker.dispatcher import build_dispatcher
from labelrender.worker.health import (
    Probes,
    ProbeThread,
    flag_set,
    loop_turns,
    redis_answers,
)
from labelrender.worker.render import JobHandler
from labelrender.worker.retention import RetentionSweeper
from labelrender.worker.sandbox import Sandbox, SandboxLimits
from labelrender.worker.services import Service, ServiceThreads
from labelrender.worker.synthesis import SynthesisRunner

log = logging.getLogger(__name__)

# A consumer loop that has not gone round for this long (beyond one blocking
# read) is stuck: the liveness probe fails and the pod is restarted.
LOOP_STUCK_S = 60.0
NOT_READING = "the render consumer has not started reading jobs"


def build_sandbox(settings: Settings) -> Sandbox:
    """The worker's render processes, under the settings' limits."""
    return Sandbox(settings.render_processes, sandbox_limits(settings))


def sandbox_limits(settings: Settings) -> SandboxLimits:
    return SandboxLimits(deadline_s=settings.render_deadline_s,
                         memory_mb=settings.render_memory_mb)


def build_consumer(settings: Settings, r: redis.Redis, sandbox: Sandbox,
                   name: str | None = None) -> Consumer:
    """A consumer on ``r`` storing into the settings' object store."""
    handler = JobHandler(r, build_object_store(settings), sandbox)
    return Consumer(
        r, handler, name=name or consumer_name(), read_ahead=settings.job_read_ahead,
        claim_idle_ms=settings.job_claim_idle_ms,
        claim_interval_s=settings.job_claim_interval_s,
        block_ms=settings.job_read_block_ms,
        max_deliveries=settings.job_max_deliveries,
    )


def background_services(settings: Settings, r: redis.Redis,
                        sandbox: Sandbox | None = None) -> list[Service]:
    """The services this worker runs beside its render consumer (``services``).
    Each feature adds its own here: synthesis jobs, webhook delivery, retention.
    Synthesis runs the engine in the worker's ``sandbox``, sharing its
    processes; without one there is no synthesis runner."""
    services: list[Service] = []
    services.append(build_dispatcher(settings, r))
    services.append(RetentionSweeper(r, build_object_store(settings),
                                     interval_s=settings.retention_sweep_interval_s))
    if sandbox is not None:
        services.append(SynthesisRunner(r, make_engine(settings.synthesis_engine),
                                        consumer=consumer_name(), sandbox=sandbox,
                                        claim_idle_ms=settings.synthesis_claim_idle_ms,
                                        block_ms=settings.job_read_block_ms))
    return services


def run_worker(settings: Settings, r: redis.Redis | None = None) -> None:
    """Consume render jobs until SIGTERM or SIGINT, then finish in-flight jobs.

    ``r`` defaults to the settings' Redis; ``serve`` passes a client on its
    embedded server's socket instead.
    """
    client = r if r is not None else connect_redis(settings)
    if settings.worker_metrics_port is not None:
        start_http_server(settings.worker_metrics_port, addr=settings.host)
    sandbox = build_sandbox(settings)
    services = ServiceThreads(background_services(settings, client, sandbox))
    probes: ProbeThread | None = None
    try:
        consumer = build_consumer(settings, client, sandbox)
        probes = start_probes(settings, client, consumer)
        stop_on_signals(consumer)
        services.start()
        consumer.run()
    finally:
        services.stop()
        sandbox.close()
        if probes is not None:
            probes.stop()


def worker_probes(settings: Settings, r: redis.Redis, consumer: Consumer) -> Probes:
    """Alive while the consumer loop goes round; ready while Redis answers and
    once the consumer reads the stream (its render processes up): it can take a job."""
    stuck_after_s = LOOP_STUCK_S + settings.job_read_block_ms / 1000
    return Probes(live=[loop_turns(consumer.last_turn, stuck_after_s, "the render consumer")],
                  ready=[redis_answers(r), flag_set(consumer.reading, NOT_READING)])


def start_probes(settings: Settings, r: redis.Redis, consumer: Consumer) -> ProbeThread | None:
    """``/healthz`` and ``/readyz`` on ``LABELRENDER_HEALTH_PORT``, if set. A port
    already taken is logged, not fatal: the probes then fail, which says so."""
    if settings.health_port is None:
        return None
    probes = ProbeThread(worker_probes(settings, r, consumer), settings.host,
                         settings.health_port)
    try:
        probes.start()
    except OSError as exc:
        log.error("cannot serve the health probes on %s:%d: %s", settings.host,
                  settings.health_port, exc)
        return None
    return probes
