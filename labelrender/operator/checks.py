"""The template check the operator runs before it stores a LabelTemplate.

It is ``check_draft``, the one check behind every door that stores a template
(the API commit and ``labelrender admin template`` call it too). It renders
the body with the engine; every call from the operator goes through
``check_template``, so routing engine work elsewhere (a sandboxed process with
a deadline and a memory ceiling) is a change to this one function.
"""

from __future__ import annotations

from labelrender.store.templates import Draft
from labelrender.synth.template_checks import InvalidTemplate, check_draft

__all__ = ["InvalidTemplate", "check_template"]


def check_template(draft: Draft) -> str:
    """Check ``draft`` as a commit through the API does; returns the body's
    SHA-256, raises ``InvalidTemplate`` naming the field at fault."""
    return check_draft(draft)
