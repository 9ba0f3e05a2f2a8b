"""The circuit in front of the object store: open after a run of failures,
refuse for a while, then let one call try."""

from __future__ import annotations

import pytest

from labelrender.api.bulkhead import Circuit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_run_of_failures_opens_it_and_one_success_closes_it() -> None:
    clock = Clock()
    circuit = Circuit(threshold=3, open_s=5.0, clock=clock)
    for _ in range(2):
        assert circuit.admit()
        circuit.failed(OSError("timeout"))
    assert circuit.admit() and not circuit.refusing(since=clock.now)  # two: still closed
    circuit.failed(OSError("timeout"))
    assert (circuit.admit(), circuit.refusing(since=clock.now), circuit.retry_after()) == (
        False, True, 5.0)
    clock.now += 5.0
    assert circuit.admit()  # the one call that tries
    assert not circuit.admit()  # the others wait for it
    circuit.failed(OSError("still down"))
    assert not circuit.admit()
    clock.now += 5.0
    assert circuit.admit()
    circuit.succeeded()
    assert circuit.admit() and circuit.admit() and circuit.last_failure is None


def test_a_success_between_failures_starts_the_count_again() -> None:
    circuit = Circuit(threshold=2, open_s=1.0, clock=Clock())
    circuit.failed(OSError())
    circuit.succeeded()
    circuit.failed(OSError())
    assert circuit.admit()


def test_a_trial_that_ends_without_an_answer_lets_another_try() -> None:
    clock = Clock()
    circuit = Circuit(threshold=1, open_s=1.0, clock=clock)
    circuit.failed(OSError())
    clock.now += 1.0
    assert circuit.admit()
    circuit.settled()  # e.g. the request was cancelled
    assert circuit.admit()


@pytest.mark.parametrize(("threshold", "open_s"), [(0, 1.0), (1, 0.0)])
def test_nonsense_settings_are_refused(threshold: int, open_s: float) -> None:
    with pytest.raises(ValueError):
        Circuit(threshold, open_s)


def test_a_call_that_waited_while_another_failed_does_not_start() -> None:
    """The thread a failure frees must not start the next queued call before the
    failure is counted."""
    clock = Clock()
    circuit = Circuit(threshold=3, open_s=5.0, clock=clock)
    queued_at = clock.now
    clock.now += 1.0
    assert not circuit.refusing(since=queued_at)
    circuit.noted_failure()
    assert circuit.refusing(since=queued_at)
    assert not circuit.refusing(since=clock.now + 0.5)  # queued after it: may try
