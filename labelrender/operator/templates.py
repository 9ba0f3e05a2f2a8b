"""LabelTemplate -> global template: the reconcile and the finalizer's delete.

A valid spec becomes a new global version only when it differs from the
version served; an invalid one is never stored, and the version served stays
(a bad change never takes a working template away). The object's
``metadata.name`` is the template id; a second object of that name in another
namespace is refused (NameConflict) rather than fighting over the template.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from labelrender.operator.checks import InvalidTemplate
from labelrender.operator.context import UNAVAILABLE, ObjectRef, Store, unavailable
from labelrender.operator.resources import InvalidSpec, template_draft
from labelrender.operator.status import Outcome
from labelrender.store import templates
from labelrender.store.owners import Owner
from labelrender.store.templates import Draft, TemplateVersion

# A check's `param` (the API's field names) as the field of the resource.
_SPEC_FIELDS = {"body": "spec.body", "field_map": "spec.fieldMap",
                "values": "spec.sampleValues"}
NOT_SERVED: Mapping[str, Any] = {"version": None, "fields": None}


def reconcile_template(store: Store, ref: ObjectRef, spec: Mapping[str, Any]) -> Outcome:
    """Store the LabelTemplate's spec as its global template if it is valid and new."""
    try:
        return _reconcile(store, ref, spec)
    except UNAVAILABLE as exc:
        return unavailable(exc)


def remove_template(store: Store, ref: ObjectRef) -> Outcome:
    """The finalizer: remove the global template, every version, if this object
    is the one it is stored for (any uid of it: it may have been made again)."""
    try:
        removed = templates.release_global(store.redis, store.objects, ref.name, ref.owner,
                                           any_instance=True)
    except UNAVAILABLE as exc:
        return unavailable(exc)
    message = (f"removed global template {ref.name}, every version" if removed
               else f"global template {ref.name} was not stored for {ref}; nothing removed")
    return Outcome(True, "Removed", message, changed=removed)


def _reconcile(store: Store, ref: ObjectRef, spec: Mapping[str, Any]) -> Outcome:
    r = store.redis
    try:
        draft = template_draft(ref.name, spec)
    except InvalidSpec as exc:
        return _refused(store, ref, "InvalidSpec", str(exc))
    holder = templates.global_owner(r, ref.name)
    if holder is not None and not holder.is_for(ref.owner):
        return _conflict(ref, holder)
    latest = templates.get_version(r, None, ref.name)
    body_sha256 = hashlib.sha256(draft.body.encode()).hexdigest()
    if latest is not None and templates.same_spec(latest, draft, body_sha256):
        # Adopt it (stored by hand), or take it over (the object was made again).
        taken = templates.claim_global(r, ref.name, ref.owner) if holder != ref.owner else None
        return _conflict(ref, taken) if taken else _served(latest, changed=False)
    return _check_and_store(store, ref, draft)


def _check_and_store(store: Store, ref: ObjectRef, draft: Draft) -> Outcome:
    try:
        body_sha256 = store.check_template(draft)
    except InvalidTemplate as exc:
        where = _SPEC_FIELDS.get(exc.param, f"spec.{exc.param}")
        return _refused(store, ref, "InvalidTemplate", f"{where}: {exc.message} ({exc.kind})")
    if (taken := templates.claim_global(store.redis, ref.name, ref.owner)) is not None:
        return _conflict(ref, taken)
    version, created = templates.commit_if_changed(store.redis, store.objects, None, ref.name,
                                                   draft, body_sha256, now=store.clock())
    return _served(version, changed=created)


def _served(version: TemplateVersion, *, changed: bool) -> Outcome:
    message = (f"global template {version.template_id} version {version.version} is served "
               f"(fields: {', '.join(version.field_names) or 'none'})")
    return Outcome(True, "Stored", message, changed=changed,
                   served={"version": version.version, "fields": version.field_names})


def _refused(store: Store, ref: ObjectRef, reason: str, message: str) -> Outcome:
    """Nothing is stored; the status keeps naming the version still served."""
    holder = templates.global_owner(store.redis, ref.name)
    latest = (templates.get_version(store.redis, None, ref.name)
              if holder is None or holder.is_for(ref.owner) else None)
    if latest is None:
        return Outcome(False, reason, message, served=NOT_SERVED)
    return Outcome(False, reason, f"{message}; version {latest.version} is still served",
                   served={"version": latest.version, "fields": latest.field_names})


def _conflict(ref: ObjectRef, holder: Owner) -> Outcome:
    return Outcome(False, "NameConflict",
                   f"global template {ref.name} is stored for LabelTemplate "
                   f"{holder.describe(ref.cluster)}; template ids are shared by every "
                   "namespace and every cluster on this Redis, so only one object may use "
                   "a name", served=NOT_SERVED)
