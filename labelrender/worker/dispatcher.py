"""The webhook dispatcher: a worker ``Service`` that turns ``label.rendered``
events into signed deliveries (spec "Events", DECISIONS.md "Webhooks").

Each worker process runs one, on its own thread and asyncio loop. It fans an
event out to the tenant's subscriptions, sends each delivery, and reschedules
a failure with backoff and jitter (5 s, 30 s, 2 min, 10 min, 1 h, +-20 %); a
failure after the fifth retry becomes a dead letter. All state is in Redis
(``store.deliveries``), so any dispatcher can pick up where a dead one
stopped: delivery is at least once, always under the same event id.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import redis
from prometheus_client import Counter, Histogram

from labelrender.store import deliveries as store
from labelrender.store.clock import iso
from labelrender.store.events import LabelRendered
from labelrender.store.objects import ObjectStore
from labelrender.store.redis_conn import REDIS_ERRORS
from labelrender.store.settings import Settings, build_object_store
from labelrender.store.streams import IDLE_CONSUMER_MS
from labelrender.store.webhook_targets import Resolver, TargetPolicy, system_resolver
from labelrender.store.webhooks import find_webhook, list_webhooks
from labelrender.worker.consumer import consumer_name
from labelrender.worker.delivery import Outcome, Sender, headers, payload

log = logging.getLogger(__name__)

DEFAULT_BACKOFF_S = (5.0, 30.0, 120.0, 600.0, 3600.0)
URL_VALID_S = 3600  # spec "Events": data.url is valid for one hour
REDIS_RETRY_S = 1.0
PRUNE_EVERY_S = 300.0  # consumer names idle an hour go (``streams.IDLE_CONSUMER_MS``)


ATTEMPTS = Counter(
    "labelrender_webhook_attempts_total",
    "Webhook delivery attempts, by outcome: delivered, retry (failed, retried later), "
    "dead_letter (failed its last retry) or dropped (subscription deleted).",
    ["outcome"],
)
ATTEMPT_SECONDS = Histogram(
    "labelrender_webhook_attempt_seconds", "Time one delivery POST took, until its answer.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


@dataclass(frozen=True)
class DispatcherConfig:
    """How a dispatcher delivers; the defaults are DECISIONS.md's."""

    public_base_url: str
    timeout_s: float = 10.0
    backoff_s: tuple[float, ...] = DEFAULT_BACKOFF_S
    jitter: float = 0.2
    lease_s: float = 30.0  # a claimed delivery is someone else's again after this
    poll_s: float = 0.25  # how often due retries are looked for, at most
    claim_idle_ms: int = 30_000  # an event pending this long belongs to a dead dispatcher
    concurrency: int = 64
    policy: TargetPolicy = field(default_factory=TargetPolicy)
    resolver: Resolver = system_resolver
    ca_file: Path | None = None
    clock: Callable[[], float] = field(default=time.time, compare=False)
    rng: random.Random = field(default_factory=random.Random, compare=False)

    def __post_init__(self) -> None:
        if self.lease_s <= self.timeout_s:
            raise ValueError("the delivery lease must outlast the delivery timeout")

    def retry_delay(self, attempt: int) -> float | None:
        """Seconds before the retry after failed attempt ``attempt`` (1 = the
        first try), or None when that was the last retry."""
        if attempt > len(self.backoff_s):
            return None
        spread = self.rng.uniform(1 - self.jitter, 1 + self.jitter)
        return float(self.backoff_s[attempt - 1] * spread)


def dispatcher_name(worker: str) -> str:
    """The event stream consumer name of the dispatcher in worker ``worker``."""
    return f"{worker}-webhooks"


class WebhookDispatcher:
    """The ``webhooks`` service (``labelrender.worker.services``)."""

    name = "webhooks"

    def __init__(self, r: redis.Redis, objects: ObjectStore, config: DispatcherConfig,
                 consumer: str | None = None) -> None:
        self._redis = r
        self._objects = objects
        self._config = config
        self._consumer = consumer or dispatcher_name(consumer_name())
        self._tasks: set[asyncio.Task[None]] = set()
        self._next_claim = 0.0
        self._next_prune = 0.0

    def run(self, stop: threading.Event) -> None:
        asyncio.run(self.serve(stop))

    async def serve(self, stop: threading.Event) -> None:
        """Deliver until ``stop`` is set, then let in-flight attempts end."""
        config = self._config
        sender = Sender(resolver=config.resolver, policy=config.policy,
                        timeout_s=config.timeout_s, ca_file=config.ca_file)
        try:
            await asyncio.to_thread(store.ensure_group, self._redis)
            while not stop.is_set():
                try:
                    await self._step(sender)
                except REDIS_ERRORS as exc:
                    log.warning("webhook dispatcher: Redis error, retrying: %s", exc)
                    await asyncio.sleep(REDIS_RETRY_S)
                except Exception:  # keep delivering; what failed stays in Redis
                    log.exception("webhook dispatcher: unexpected error, retrying")
                    await asyncio.sleep(REDIS_RETRY_S)
            await self._drain()
        finally:
            await sender.close()

    async def _step(self, sender: Sender) -> None:
        started = time.monotonic()
        free = self._config.concurrency - len(self._tasks)
        if free > 0:
            for entry_id, event in await self._new_events(free):
                await self._fan_out(sender, entry_id, event)
        free = self._config.concurrency - len(self._tasks)
        if free > 0:
            due = await asyncio.to_thread(store.claim_due, self._redis, self._config.clock(),
                                          self._config.lease_s, free)
            for delivery in due:
                self._start(sender, delivery)
        rest = self._config.poll_s - (time.monotonic() - started)
        if rest > 0:
            await asyncio.sleep(rest)

    async def _new_events(self, count: int) -> list[tuple[str, LabelRendered]]:
        """Events a dead dispatcher left pending (now and then), else new ones."""
        now = time.monotonic()
        if now >= self._next_claim:
            self._next_claim = now + self._config.claim_idle_ms / 2000
            stale = await asyncio.to_thread(store.claim_stale_events, self._redis,
                                            self._consumer, self._config.claim_idle_ms, count)
            if now >= self._next_prune:  # names of dispatchers long gone
                self._next_prune = now + PRUNE_EVERY_S
                await asyncio.to_thread(store.prune_consumers, self._redis, IDLE_CONSUMER_MS,
                                        self._consumer)
            # Due deliveries whose note a crash lost (``deliveries``, "the schedules").
            await asyncio.to_thread(store.repair_due, self._redis)
            # And events whose wake-up hint was lost (``streams``).
            stale += await asyncio.to_thread(store.sweep_events, self._redis, self._consumer,
                                             count - len(stale))
            if stale:
                return stale
        block_ms = max(1, int(self._config.poll_s * 1000))
        return await asyncio.to_thread(store.read_events, self._redis, self._consumer, count,
                                       block_ms)

    async def _fan_out(self, sender: Sender, entry_id: str, event: LabelRendered) -> None:
        """One delivery per subscription of the tenant, scheduled as leased to
        this dispatcher and sent right away."""
        hooks = await asyncio.to_thread(list_webhooks, self._redis, event.tenant_id,
                                        event.topic)
        batch = [store.Delivery(event, hook.webhook_id) for hook in hooks]
        lease_until = self._config.clock() + self._config.lease_s
        await asyncio.to_thread(store.schedule_event, self._redis, entry_id, event, batch,
                                lease_until)
        for delivery in batch:
            self._start(sender, delivery)

    def _start(self, sender: Sender, delivery: store.Delivery) -> None:
        task = asyncio.create_task(self._deliver(sender, delivery))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, sender: Sender, delivery: store.Delivery) -> None:
        try:
            await self._attempt(sender, delivery)
        except Exception:  # the lease runs out and the delivery comes due again
            log.exception("webhook delivery %s to %s failed unexpectedly",
                          delivery.event.event_id, delivery.webhook_id)

    async def _attempt(self, sender: Sender, delivery: store.Delivery) -> None:
        hook = await asyncio.to_thread(find_webhook, self._redis, delivery.tenant_id,
                                       delivery.webhook_id)
        if hook is None:  # deleted before delivery: drop it (DECISIONS.md)
            await asyncio.to_thread(store.drop, self._redis, delivery)
            ATTEMPTS.labels("dropped").inc()
            return
        now = self._config.clock()
        body = payload(delivery.event, self._signed_url(delivery.event, now), now)
        outcome = await sender.post(hook.url, body,
                                    headers(delivery.event, hook.signing_secret, int(now), body))
        await asyncio.to_thread(self._record, delivery, outcome, now)

    def _signed_url(self, event: LabelRendered, now: float) -> str:
        return self._objects.signed_url(event.object_key, int(now) + URL_VALID_S,
                                        self._config.public_base_url)

    def _record(self, delivery: store.Delivery, outcome: Outcome, attempted_at: float) -> None:
        delay = None if outcome.ok else self._config.retry_delay(delivery.attempt)
        retry_at = None if delay is None else self._config.clock() + delay
        attempt = store.Attempt(
            event_id=delivery.event.event_id, attempt=delivery.attempt,
            status_code=outcome.status_code, ok=outcome.ok, error=_error_text(outcome),
            duration_ms=outcome.duration_ms, attempted_at=iso(attempted_at),
            next_attempt_at=None if retry_at is None else iso(retry_at))
        dead = None
        if not outcome.ok and retry_at is None:
            dead = {"failed_at": iso(self._config.clock()), "last_error": attempt.error}
            log.warning("webhook delivery %s to %s dead-lettered after %d attempts",
                        delivery.event.event_id, delivery.webhook_id, delivery.attempt)
        store.finish(self._redis, delivery, attempt, retry_at=retry_at, dead_letter=dead)
        ATTEMPT_SECONDS.observe(outcome.duration_ms / 1000)
        ATTEMPTS.labels("delivered" if outcome.ok else "retry" if dead is None
                        else "dead_letter").inc()

    async def _drain(self) -> None:
        """Let in-flight attempts end (each is bounded by the timeout); whatever
        is cut short stays leased and is sent again once the lease runs out."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=self._config.timeout_s + 2)


def _error_text(outcome: Outcome) -> str | None:
    if outcome.error is not None:
        return outcome.error
    if not outcome.ok:
        return f"HTTP {outcome.status_code}"
    return None


def build_dispatcher(settings: Settings, r: redis.Redis) -> WebhookDispatcher:
    """A dispatcher configured from ``LABELRENDER_WEBHOOK_*`` (``Settings``)."""
    config = DispatcherConfig(
        public_base_url=settings.public_base_url, timeout_s=settings.webhook_timeout_s,
        backoff_s=settings.webhook_backoff(), jitter=settings.webhook_jitter,
        lease_s=settings.webhook_lease_s, poll_s=settings.webhook_poll_s,
        claim_idle_ms=settings.webhook_claim_idle_ms,
        policy=TargetPolicy.from_text(settings.webhook_networks()),
        ca_file=settings.webhook_ca_file)
    return WebhookDispatcher(r, build_object_store(settings), config)
