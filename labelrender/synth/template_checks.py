"""What a template draft must satisfy before it is stored (the templates issue):
its ``field_map`` names exactly the body's ``^FN`` indexes, and the body renders.

The one check behind every door that stores a template: ``POST
/v1/templates/:id``, ``labelrender admin template apply`` and the operator.
The render check runs the engine in the calling thread.
"""

from __future__ import annotations

import hashlib

from labelrender.store.templates import Draft
from labelrender.synth.fill import fill_body, placeholder_indexes
from labelrender.zpl import RenderOptions, render


class InvalidTemplate(ValueError):
    """A draft that cannot be stored: ``param`` names the field at fault and
    ``kind`` the reason (the API's error kinds)."""

    def __init__(self, message: str, *, param: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.kind = kind


def check_field_map(draft: Draft) -> None:
    """Every ``^FN`` index has one name and every name an index in the body."""
    used = placeholder_indexes(draft.body)
    mapped = list(draft.field_map.values())
    doubled = sorted({i for i in mapped if mapped.count(i) > 1})
    if doubled:
        raise InvalidTemplate(f"field_map maps several names to ^FN{doubled[0]}",
                              param="field_map", kind="FieldMapMismatch")
    unnamed, unused = sorted(used - set(mapped)), sorted(set(mapped) - used)
    if unnamed or unused:
        parts = ([f"^FN{i} in the body has no name" for i in unnamed]
                 + [f"^FN{i} is not in the body" for i in unused])
        raise InvalidTemplate("field_map does not match the body: " + "; ".join(parts),
                              param="field_map", kind="FieldMapMismatch")
    strangers = sorted(set(draft.values) - set(draft.field_map))
    if strangers:
        raise InvalidTemplate(f"values name fields not in field_map: {', '.join(strangers)}",
                              param="values", kind="FieldMapMismatch")


def check_renders(draft: Draft) -> None:
    """The body renders: filled with the sample values when there is one for every
    field, else as it stands (the printer ignores ``^FN`` outside a stored format)."""
    zpl = draft.body
    try:
        if draft.field_map and set(draft.values) == set(draft.field_map):
            zpl = fill_body(draft.body, draft.field_map, draft.values)
        render(zpl, RenderOptions(dpi=draft.source_dpi, source_dpi=draft.source_dpi,
                                  width_dots=draft.width_dots, height_dots=draft.height_dots))
    except ValueError as exc:  # ZplError and FillError are ValueErrors
        raise InvalidTemplate(f"the body does not render: {exc}", param="body",
                              kind="InvalidZpl") from exc


def check_draft(draft: Draft) -> str:
    """Both checks; returns the body's SHA-256 (recorded with the version)."""
    if not draft.body.strip():
        raise InvalidTemplate("body must not be empty", param="body", kind="MissingBody")
    check_field_map(draft)
    check_renders(draft)
    return hashlib.sha256(draft.body.encode()).hexdigest()
