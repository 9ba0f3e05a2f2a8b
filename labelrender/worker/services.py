"""Background services a worker process runs beside its render consumer.

Synthesis jobs, webhook delivery and the retention sweeper each run as one
``Service``: a loop on its own thread that returns soon after ``stop`` is set.
The render consumer owns shutdown; when it stops, every service is asked to
stop too, and the process waits for them (each finishes or leaves its work
pending in Redis for another worker to claim).

A service whose ``run`` raises (its loop catches what it expects, but the
dispatcher's start-up, for one, meets Redis before its loop does) or returns
while the worker is not stopping is logged and started again on the same
thread, after ``RESTART_DELAYS_S``: 1 s, then longer while it keeps dying
within ``STABLE_AFTER_S`` of starting, so a service that cannot start does
not spin. Its work is in Redis, so a fresh ``run`` picks it up where the dead
one left it. The renders never wait for a service.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Protocol

log = logging.getLogger(__name__)

JOIN_TIMEOUT_S = 30.0
RESTART_DELAYS_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # the last repeats
STABLE_AFTER_S = 60.0  # a run this long resets the delays


class Service(Protocol):
    """A loop that runs until ``stop`` is set; it should not raise out of ``run``."""

    name: str

    def run(self, stop: threading.Event) -> None: ...


class ServiceThreads:
    """Starts services on daemon threads, restarts one that dies, and stops
    them together."""

    def __init__(self, services: list[Service]) -> None:
        self._services = services
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for service in self._services:
            thread = threading.Thread(target=self._supervise, args=(service,),
                                      name=f"service-{service.name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT_S)
            if thread.is_alive():
                log.warning("service thread %s did not stop in time", thread.name)

    def _supervise(self, service: Service) -> None:
        """Run ``service`` until the worker stops, starting it again after each death."""
        deaths = 0
        while not self._stop.is_set():
            started = time.monotonic()
            if not self._run_once(service):
                log.info("service %s stopped", service.name)
                return
            deaths = 1 if time.monotonic() - started >= STABLE_AFTER_S else deaths + 1
            delay = RESTART_DELAYS_S[min(deaths, len(RESTART_DELAYS_S)) - 1]
            log.warning("service %s: starting it again in %.0f s (restart %d)",
                        service.name, delay, deaths)
            self._stop.wait(delay)

    def _run_once(self, service: Service) -> bool:
        """One run of ``service``; True when it died (raised, or returned while
        the worker is not stopping)."""
        log.info("service %s started", service.name)
        try:
            service.run(self._stop)
        except Exception:  # a service that dies must not take the renders with it
            log.exception("service %s died on an error", service.name)
            return not self._stop.is_set()
        if self._stop.is_set():
            return False
        log.error("service %s returned while the worker runs", service.name)
        return True
