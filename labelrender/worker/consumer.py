"""The render consumer loop: read jobs from the stream, hand them to the handler.

One consumer per worker process, in the ``workers`` group of every tenant
group's render stream: it waits for a hint naming a group with new jobs and
reads that group's stream, sweeps every group when no hint comes and every
``claim_interval_s`` (a lost hint delays a job by that much at most), and
claims stale jobs from every group (``streams``). Jobs it has read
wait for a process of the worker's sandbox, which hands a free process to the
waiting tenant with the fewest renders running and never lets one tenant hold
all of them (``sandbox``, "Fair share"), so one tenant's slow labels never
occupy the whole worker. To give that rule something to choose from, the
consumer reads ahead: it holds up to ``read_ahead`` jobs beyond its render
processes, but reads only while a process is free, so jobs go to the workers
that can start them. Jobs held here are refreshed (``jobs.refresh``) so no
other consumer claims them as a dead one's.

It claims entries that a dead consumer left pending, answers and drops an
entry delivered too many times (``max_deliveries``), and on SIGTERM/SIGINT
stops reading, finishes the renders it has started, hands the jobs still
waiting for a process back to the stream at once (``jobs.hand_back``: another
consumer claims them on its next pass, not after the claim timeout), and
returns. Whatever it could not finish stays pending in Redis and is claimed
by another consumer.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from types import FrameType
from typing import Any

import redis

from labelrender.store import jobs, keys, worker_presence
from labelrender.store.jobs import Held, RenderJob
from labelrender.store.redis_conn import REDIS_ERRORS
from labelrender.store.streams import IDLE_CONSUMER_MS
from labelrender.worker import metrics
from labelrender.worker.render import JobHandler

log = logging.getLogger(__name__)

REDIS_RETRY_S = 1.0  # pause after a Redis error before reading again


def consumer_name(pid: int | None = None) -> str:
    """Unique per process and readable in XINFO CONSUMERS: ``<host>-<pid>``
    (this process's, or that of worker ``pid`` on this host)."""
    return f"{socket.gethostname()}-{os.getpid() if pid is None else pid}"


def worker_pid(name: str) -> int | None:
    """The process id in ``name`` if it is a consumer name of this host."""
    host, _, pid = name.rpartition("-")
    return int(pid) if host == socket.gethostname() and pid.isdigit() else None


PRESENCE_EVERY_S = 1.0
# Consumer names idle an hour are removed (``streams.IDLE_CONSUMER_MS``): looking
# every few minutes is enough, and each look reads every group's stream.
PRUNE_NAMES_EVERY_S = 300.0


class Consumer:
    """Reads the render stream and runs each job on a bounded set of threads."""

    def __init__(self, r: redis.Redis, handler: JobHandler, *, name: str, read_ahead: int,
                 claim_idle_ms: int, claim_interval_s: float, block_ms: int,
                 max_deliveries: int = 3, prune_idle_ms: int = IDLE_CONSUMER_MS) -> None:
        self.name = name
        self._redis = r
        self._handler = handler
        self._sandbox = handler.sandbox
        self._concurrency = handler.sandbox.processes + read_ahead
        self._claim_idle_ms = claim_idle_ms
        self._claim_interval_s = claim_interval_s
        self._block_ms = block_ms
        self._max_deliveries = max_deliveries
        self._prune_idle_ms = prune_idle_ms
        self._threads = ThreadPoolExecutor(self._concurrency,
                                           thread_name_prefix=f"job-{name}")
        # (tenant group, entry id): entry ids are unique within one group's stream only.
        self._in_flight: dict[tuple[int, str], tuple[RenderJob, Future[bool]]] = {}
        self._stop = threading.Event()
        self._next_claim = 0.0
        self._next_sweep = 0.0
        self._next_prune_names = 0.0
        self._next_refresh = 0.0
        self._last_turn = time.monotonic()
        self._next_presence = 0.0
        # Set once this consumer has told Redis it can take a job: the worker's
        # readiness (``health``), as the API's /readyz counts it.
        self.reading = threading.Event()

    def last_turn(self) -> float:
        """When the loop last went round (``time.monotonic``): each turn waits at
        most ``block_ms`` (or ``REDIS_RETRY_S`` after an error), so an old time
        means the loop is stuck (the worker's liveness probe, ``health``)."""
        return self._last_turn

    def stop(self) -> None:
        """Ask the loop to finish the renders it started, hand back the jobs it
        has not started, and return; safe from any thread (and signal handlers)."""
        self._stop.set()
        self._handler.stop_starting()

    def run(self) -> None:
        """Consume until ``stop``; returns once every job taken is done."""
        jobs.ensure_group(self._redis)
        worker_presence.preload_render_scripts(self._redis)
        self._warm_up()
        log.info("consumer %s started (%d render processes, holding up to %d jobs)", self.name,
                 self._sandbox.processes, self._concurrency)
        try:
            while not self._stop.is_set():
                self._last_turn = time.monotonic()
                try:
                    self._step()
                except REDIS_ERRORS as exc:
                    log.warning("consumer %s: Redis error, retrying: %s", self.name, exc)
                    self._stop.wait(REDIS_RETRY_S)
                except Exception:  # e.g. an entry that is not a job: keep serving the rest
                    log.exception("consumer %s: unexpected error, retrying", self.name)
                    self._stop.wait(REDIS_RETRY_S)
        finally:
            self._say_gone()
            self._threads.shutdown(wait=True)
            self._hand_back()
            self._prune()
            log.info("consumer %s stopped", self.name)

    def _warm_up(self) -> None:
        """Before the first ``_say_ready``: what the first jobs would otherwise
        pay for (``JobHandler.warm_up``), and a Redis connection for each job
        thread (the loop's own is busy in its blocking read when they settle).
        A failure here only leaves those costs to the first jobs. A cluster
        client opens its connections per node as the jobs' keys lead it there."""
        started = time.perf_counter()
        pool = getattr(self._redis, "connection_pool", None)  # None: a cluster client
        held: list[Any] = []
        try:
            self._handler.warm_up()
            if pool is not None:
                held.extend(pool.get_connection() for _ in range(self._concurrency))
        except Exception as exc:  # noqa: BLE001 - the jobs pay instead; never fatal
            log.warning("consumer %s: warm-up failed (%s); the first jobs pay for it",
                        self.name, exc)
            return
        finally:
            for connection in held:
                pool.release(connection)  # type: ignore[union-attr]  # held: a pool
        log.debug("consumer %s warmed up in %.0f ms", self.name,
                  (time.perf_counter() - started) * 1000)

    def _hand_back(self) -> None:
        """Jobs taken but not finished (not started, or failed): claimable now."""
        unfinished = [(entry_id, job) for (_, entry_id), (job, future) in self._in_flight.items()
                      if future.exception() is not None or not future.result()]
        try:
            jobs.hand_back(self._redis, self.name, unfinished, self._claim_idle_ms)
        except REDIS_ERRORS:
            log.warning("consumer %s could not hand back %d jobs; they are claimed after "
                        "the claim timeout", self.name, len(unfinished))
        if unfinished:
            log.info("consumer %s handed back %d jobs it had not finished", self.name,
                     len(unfinished))

    def _step(self) -> None:
        self._prune()
        self._refresh()
        self._say_ready()
        room = self._concurrency - len(self._in_flight)
        if room <= 0:
            wait([future for _, future in self._in_flight.values()],
                 timeout=self._block_ms / 1000, return_when=FIRST_COMPLETED)
            return
        idle = self._sandbox.idle()
        if not idle:  # leave the next job to a worker that can start it
            self._sandbox.wait_idle(self._block_ms / 1000)
            return
        count = min(room, idle)
        for entry_id, job in self._claim(count) or self._read(count):
            self._dispatch(entry_id, job)

    def _read(self, count: int) -> list[Held]:
        """New jobs: a sweep of every group each ``claim_interval_s`` (jobs whose
        hint was lost), else the group the next hint names."""
        if time.monotonic() >= self._next_sweep:
            self._next_sweep = time.monotonic() + self._claim_interval_s
            found = jobs.sweep(self._redis, self.name, count)
            if found:
                return found
        return jobs.read(self._redis, self.name, count=count, block_ms=self._block_ms)

    def _say_ready(self) -> None:
        """Every second: this worker's render processes are up and it reads the
        stream, so it can take a job (``worker_presence``)."""
        if time.monotonic() < self._next_presence:
            return
        worker_presence.mark_ready(self._redis, self.name, now=time.time())
        self._next_presence = time.monotonic() + PRESENCE_EVERY_S
        self.reading.set()

    def _say_gone(self) -> None:
        self.reading.clear()
        try:
            worker_presence.mark_gone(self._redis, self.name)
        except REDIS_ERRORS:  # it expires on its own
            log.warning("consumer %s could not withdraw its presence", self.name)

    def _refresh(self) -> None:
        """Every ``claim_interval_s``: reset the idle time of the jobs held here."""
        if time.monotonic() < self._next_refresh:
            return
        self._next_refresh = time.monotonic() + self._claim_interval_s
        jobs.refresh(self._redis, self.name,
                     [(entry_id, job) for (_, entry_id), (job, _) in self._in_flight.items()])

    def _claim(self, room: int) -> list[Held]:
        """Every ``claim_interval_s``: entries pending longer than ``claim_idle_ms``.

        That includes our own failed jobs (store down) and a dead consumer's.
        Entries we are still working on are skipped: claiming them again only
        resets their idle time.
        """
        if time.monotonic() < self._next_claim:
            return []
        self._next_claim = time.monotonic() + self._claim_interval_s
        claimed = jobs.claim_stale(self._redis, self.name, self._claim_idle_ms, count=room)
        fresh = self._drop_poison([(entry_id, job) for entry_id, job in claimed
                                   if _slot(entry_id, job) not in self._in_flight])
        if time.monotonic() >= self._next_prune_names:  # names of consumers long gone
            self._next_prune_names = time.monotonic() + PRUNE_NAMES_EVERY_S
            self._prune_consumers()
        if fresh:
            log.info("consumer %s claimed %d stale job(s)", self.name, len(fresh))
            metrics.CLAIMED.inc(len(fresh))
        return fresh

    def _drop_poison(self, claimed: list[Held]) -> list[Held]:
        """Claimed entries delivered more than ``max_deliveries`` times failed each
        time (their renderer died, or storage kept failing): answer them with an
        error instead of trying forever."""
        if not claimed:
            return claimed
        counts = jobs.delivery_counts(self._redis, claimed)
        keep: list[Held] = []
        for (entry_id, job), delivered in zip(claimed, counts, strict=True):
            if delivered <= self._max_deliveries:
                keep.append((entry_id, job))
                continue
            log.error("consumer %s: job %s failed %d deliveries; giving up", self.name,
                      job.job_id, delivered - 1)
            self._handler.abandon(entry_id, job,
                                  f"the render failed {delivered - 1} times and was abandoned")
        return keep

    def _prune_consumers(self) -> None:
        gone = jobs.prune_consumers(self._redis, self._prune_idle_ms, keep=self.name)
        if gone:
            log.info("consumer %s removed idle consumer names: %s", self.name, ", ".join(gone))

    def _dispatch(self, entry_id: str, job: RenderJob) -> None:
        self._in_flight[_slot(entry_id, job)] = (
            job, self._threads.submit(self._handler.handle, entry_id, job))
        metrics.IN_FLIGHT.set(len(self._in_flight))

    def _prune(self) -> None:
        for slot in [s for s, (_, future) in self._in_flight.items() if future.done()]:
            del self._in_flight[slot]
        metrics.IN_FLIGHT.set(len(self._in_flight))


def _slot(entry_id: str, job: RenderJob) -> tuple[int, str]:
    return keys.group(job.tenant), entry_id


def stop_on_signals(consumer: Consumer) -> None:
    """SIGTERM or SIGINT: graceful stop. A second signal kills at once (default action)."""

    def handle(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing in-flight jobs, then stopping", signum)
        consumer.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    signal.signal(signal.SIGTERM, handle)
    signal.signal(signal.SIGINT, handle)
