"""The template check the operator runs before it stores a LabelTemplate.

It is ``check_draft``, the one check behind every door that stores a template
(the API commit and ``labelrender admin template`` call it too). It renders
the body with the engine, so the operator runs it the way the API does: in a
``Sandbox`` process under the render deadline and memory ceiling, never in the
operator's own process (ARCHITECTURE.md "Limits around every render").
"""

from __future__ import annotations

from labelrender.store.templates import Draft
from labelrender.synth.template_checks import InvalidTemplate
from labelrender.worker.engine_calls import TOO_COMPLEX, Refused, check_template
from labelrender.worker.sandbox import OverLimit, Sandbox, SandboxLimits

__all__ = ["InvalidTemplate", "SandboxedCheck"]

_TENANT = "operator"  # the sandbox's fair share is per caller; the operator is one


class SandboxedCheck:
    """``check_draft`` in one engine process of its own. A call returns the
    body's SHA-256 or raises ``InvalidTemplate`` naming the field at fault; a
    body over a render limit is ``InvalidTemplate`` of kind RenderTooComplex.
    Other sandbox failures (a process lost) propagate, and the reconcile is
    retried."""

    def __init__(self, limits: SandboxLimits) -> None:
        self._sandbox = Sandbox(1, limits, fair_share=False)

    def __call__(self, draft: Draft) -> str:
        try:
            outcome = self._sandbox.call(_TENANT, check_template, draft)
        except OverLimit as exc:
            raise InvalidTemplate(exc.message, param="body", kind=TOO_COMPLEX) from exc
        if isinstance(outcome, Refused):
            raise InvalidTemplate(outcome.message, param=outcome.param, kind=outcome.kind)
        return outcome

    def close(self) -> None:
        self._sandbox.close()
