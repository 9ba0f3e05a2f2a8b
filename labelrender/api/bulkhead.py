"""A circuit in front of a dependency: after ``threshold`` failures in a row it
opens, and calls are refused at once for ``open_s``; then one call at a time
is let through to try, and its success closes the circuit again.

Without it every request that needs a stalled object store would hold a thread
for the store's whole timeout, and the requests behind it would queue for
those threads: the first few callers learn the store is down the slow way, the
rest are told at once. All methods run on the event loop thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class CircuitOpen(Exception):
    """The circuit opened while the call waited for a thread: it never started."""


class Circuit:
    """Closed (calls go through), open (refused) or trying (one call through)."""

    def __init__(self, threshold: int, open_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if threshold < 1 or open_s <= 0:
            raise ValueError("a circuit needs threshold >= 1 and open_s > 0")
        self._threshold = threshold
        self._open_s = open_s
        self._clock = clock
        self._failures = 0
        self._open_until = 0.0
        self._trying = False
        self._failed_at = float("-inf")
        self.last_failure: BaseException | None = None

    @property
    def is_open(self) -> bool:
        return self._failures >= self._threshold

    def admit(self) -> bool:
        """Whether a call may go to the dependency now."""
        if not self.is_open:
            return True
        if self._trying or self._clock() < self._open_until:
            return False
        self._trying = True  # this call finds out whether the dependency is back
        return True

    def now(self) -> float:
        return self._clock()

    def refusing(self, since: float) -> bool:
        """For a call that waited for a thread, asked from that thread as it
        starts: whether the circuit is open now, or a call failed while this one
        waited (a thread freed by a failure must not start the next call before
        the loop has counted it). Plain reads: a stale answer only lets one
        more call try."""
        return (self.is_open and self._clock() < self._open_until) or self._failed_at > since

    def noted_failure(self) -> None:
        """A call failed (said from its thread, before ``failed`` on the loop)."""
        self._failed_at = self._clock()

    def retry_after(self) -> float:
        """Seconds until the next call will be let through to try."""
        return max(0.0, self._open_until - self._clock())

    def succeeded(self) -> None:
        self._failures = 0
        self._trying = False
        self.last_failure = None

    def failed(self, cause: BaseException) -> None:
        self._failures += 1
        self._trying = False
        self.last_failure = cause
        if self.is_open:
            self._open_until = self._clock() + self._open_s

    def settled(self) -> None:
        """The call ended without telling whether the dependency works."""
        self._trying = False
