"""Status the way cert-manager reports it: a ``Ready`` condition with a CamelCase
reason and a message that says what is wrong, plus ``observedGeneration``;
beside it ``Reconciling`` and ``Stalled``, the abnormal-true conditions kstatus
(Flux, kpt, Config Sync) reads: Reconciling while a transient failure is
retried, Stalled when the spec is refused and only its author can fix it.

Every reconcile ends in an ``Outcome``. The status is patched only when it says
something new, and each condition's ``lastTransitionTime`` moves only when its
status flips.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

READY = "Ready"
RECONCILING = "Reconciling"
STALLED = "Stalled"


@dataclass(frozen=True)
class Outcome:
    """How one reconcile ended.

    ``served`` holds the status fields besides the conditions that the outcome
    sets (a LabelTemplate's ``version`` and ``fields``; None removes one).
    ``changed`` says Redis was written; ``retry`` that the failure is transient
    (Redis unreachable) and the reconcile runs again after a backoff.
    """

    ready: bool
    reason: str
    message: str
    served: Mapping[str, Any] = field(default_factory=dict)
    changed: bool = False
    retry: bool = False

    @property
    def event_type(self) -> str:
        return "Normal" if self.ready else "Warning"


def ready_condition(status: Mapping[str, Any]) -> Mapping[str, Any] | None:
    return _condition(status, READY)


def _condition(status: Mapping[str, Any], kind: str) -> Mapping[str, Any] | None:
    for condition in status.get("conditions") or ():
        if isinstance(condition, Mapping) and condition.get("type") == kind:
            return condition
    return None


def status_patch(status: Mapping[str, Any], outcome: Outcome, generation: int | None,
                 now: str) -> dict[str, Any] | None:
    """What to merge into ``status`` to report ``outcome``, or None when the
    status already reports it (no write, no event)."""
    reconciling, stalled = (not outcome.ready and outcome.retry,
                            not outcome.ready and not outcome.retry)
    quiet = "Ready" if outcome.ready else outcome.reason  # the reason of a False one
    conditions = [
        _build(status, READY, outcome.ready, outcome.reason, outcome.message, generation, now),
        _build(status, RECONCILING, reconciling, outcome.reason if reconciling else quiet,
               outcome.message if reconciling else "", generation, now),
        _build(status, STALLED, stalled, outcome.reason if stalled else quiet,
               outcome.message if stalled else "", generation, now)]
    wanted: dict[str, Any] = {"conditions": conditions, "observedGeneration": generation,
                              **outcome.served}
    if all(status.get(key) == value for key, value in wanted.items()):
        return None
    return wanted


def judged(status: Mapping[str, Any], generation: int | None, reasons: set[str]) -> bool:
    """Whether the status already judges this generation with one of ``reasons``
    (a spec found invalid stays invalid until it changes: no need to check again)."""
    condition = ready_condition(status)
    return (condition is not None and status.get("observedGeneration") == generation
            and condition.get("reason") in reasons)


def _build(status: Mapping[str, Any], kind: str, true: bool, reason: str, message: str,
           generation: int | None, now: str) -> dict[str, Any]:
    value = "True" if true else "False"
    previous = _condition(status, kind)
    since = (previous.get("lastTransitionTime") if previous is not None
             and previous.get("status") == value else None) or now
    return {"type": kind, "status": value, "reason": reason, "message": message,
            "lastTransitionTime": since, "observedGeneration": generation}
