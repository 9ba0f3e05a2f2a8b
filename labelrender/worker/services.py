"""Background services a worker process runs beside its render consumer.

Synthesis jobs, webhook delivery and the retention sweeper each run as one
``Service``: a loop on its own thread that returns soon after ``stop`` is set.
The render consumer owns shutdown; when it stops, every service is asked to
stop too, and the process waits for them (each finishes or leaves its work
pending in Redis for another worker to claim).
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

log = logging.getLogger(__name__)

JOIN_TIMEOUT_S = 30.0


class Service(Protocol):
    """A loop that runs until ``stop`` is set; it must not raise out of ``run``."""

    name: str

    def run(self, stop: threading.Event) -> None: ...


class ServiceThreads:
    """Starts services on daemon threads and stops them together."""

    def __init__(self, services: list[Service]) -> None:
        self._services = services
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for service in self._services:
            thread = threading.Thread(target=self._run_one, args=(service,),
                                      name=f"service-{service.name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT_S)
            if thread.is_alive():
                log.warning("service thread %s did not stop in time", thread.name)

    def _run_one(self, service: Service) -> None:
        log.info("service %s started", service.name)
        try:
            service.run(self._stop)
        except Exception:  # a service that dies must not take the renders with it
            log.exception("service %s stopped on an error", service.name)
        else:
            log.info("service %s stopped", service.name)
