"""``labelrender admin template``: operators provision global templates.

Until the operator reconciles ``LabelTemplate`` custom resources, operators
apply the same YAML by hand (the templates issue)::

    apiVersion: labelrender.io/v1
    kind: LabelTemplate
    metadata: {name: carrier-std}
    spec: {body: "^XA...^XZ", fieldMap: {tracking: 1}, sampleValues: {...},
           widthDots: 812, heightDots: 1218, sourceDpi: 203, description: "..."}

``apply`` checks each template as a commit does (the body renders, fieldMap
matches its ``^FN`` indexes) and stores a new global version only when the
spec changed, so applying the same file twice is a no-op. Tenants can render
global templates but never change or delete them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import redis
import yaml

from labelrender.store import templates
from labelrender.store.errors import InvalidValue
from labelrender.store.settings import Settings, build_object_store
from labelrender.store.templates import Draft, TemplateVersion
from labelrender.synth.template_checks import InvalidTemplate, check_draft

API_VERSION = "labelrender.io/v1"
KIND = "LabelTemplate"
_SPEC_FIELDS = {"body": "body", "fieldMap": "field_map", "sampleValues": "values",
                "widthDots": "width_dots", "heightDots": "height_dots",
                "sourceDpi": "source_dpi", "description": "description"}


def add_template_parser(objects: argparse._SubParsersAction[argparse.ArgumentParser],
                        run: Any) -> None:
    template = objects.add_parser("template", help="global templates (LabelTemplate YAML)")
    cmds = template.add_subparsers(dest="action", required=True)
    p = cmds.add_parser("apply", help="create or update global templates from a YAML file")
    p.add_argument("-f", "--file", required=True, type=Path, metavar="FILE.yaml")
    p.set_defaults(run=run, admin=template_apply)
    p = cmds.add_parser("list", help="every global template")
    p.set_defaults(run=run, admin=template_list)
    p = cmds.add_parser("delete", help="delete a global template, every version")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(run=run, admin=template_delete)


def read_resources(path: Path) -> list[tuple[str, Draft]]:
    """Every LabelTemplate in the file (``---`` separates several)."""
    try:
        documents = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    except (OSError, yaml.YAMLError) as exc:
        raise InvalidValue(f"cannot read {path}: {exc}") from exc
    if not documents:
        raise InvalidValue(f"{path} holds no LabelTemplate")
    return [resource_draft(doc) for doc in documents]


def resource_draft(doc: Any) -> tuple[str, Draft]:
    """(name, draft) from one resource; refuses anything it does not know."""
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise InvalidValue(f"expected kind: {KIND}")
    if doc.get("apiVersion") != API_VERSION:
        raise InvalidValue(f"expected apiVersion: {API_VERSION}")
    metadata, spec = doc.get("metadata"), doc.get("spec")
    if not isinstance(metadata, dict) or not isinstance(spec, dict):
        raise InvalidValue("a LabelTemplate needs metadata and spec")
    name = templates.check_template_id(str(metadata.get("name", "")))
    unknown = sorted(set(spec) - set(_SPEC_FIELDS))
    if unknown:
        raise InvalidValue(f"{name}: unknown spec fields: {', '.join(unknown)}")
    fields = {_SPEC_FIELDS[key]: value for key, value in spec.items()}
    if not isinstance(fields.get("body"), str) or not isinstance(fields.get("field_map"), dict):
        raise InvalidValue(f"{name}: spec.body (text) and spec.fieldMap are required")
    fields["field_map"] = {str(k): _int(name, "fieldMap", v)
                           for k, v in fields["field_map"].items()}
    fields["values"] = {str(k): str(v) for k, v in (fields.get("values") or {}).items()}
    for key in ("width_dots", "height_dots", "source_dpi"):
        if fields.get(key) is not None:
            fields[key] = _int(name, key, fields[key])
    fields.setdefault("source_dpi", 203)
    return name, Draft(name=name, **fields)


def _int(name: str, field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidValue(f"{name}: {field} values must be whole numbers, not {value!r}")
    return value


def _unchanged(latest: TemplateVersion | None, draft: Draft, body_sha256: str) -> bool:
    if latest is None:
        return False
    return (latest.body_sha256, latest.field_map, latest.values, latest.width_dots,
            latest.height_dots, latest.source_dpi, latest.description) == (
        body_sha256, draft.field_map, draft.values, draft.width_dots, draft.height_dots,
        draft.source_dpi, draft.description)


def apply_resources(r: redis.Redis, settings: Settings, path: Path) -> list[dict[str, Any]]:
    """Check every resource first, then store the ones that changed."""
    checked = []
    for name, draft in read_resources(path):
        try:
            checked.append((name, draft, check_draft(draft)))
        except InvalidTemplate as exc:
            raise InvalidValue(f"{name}: {exc.message}") from exc
    objects = build_object_store(settings)
    applied = []
    for name, draft, body_sha256 in checked:
        latest = templates.get_version(r, None, name)
        if _unchanged(latest, draft, body_sha256) and latest is not None:
            applied.append({"template_id": name, "version": latest.version,
                            "status": "unchanged"})
            continue
        version = templates.commit(r, objects, None, name, draft, body_sha256, now=time.time())
        applied.append({"template_id": name, "version": version.version,
                        "status": "created" if latest is None else "updated"})
    return applied


def template_apply(r: redis.Redis, args: argparse.Namespace) -> object:
    return {"scope": "global", "applied": apply_resources(r, args.settings, args.file)}


def template_list(r: redis.Redis, _args: argparse.Namespace) -> object:
    return {"templates": [{"id": s.template_id, "name": s.name,
                           "latest_version": s.latest_version, "versions": s.versions,
                           "field_names": s.field_names}
                          for s in templates.list_templates(r, None)]}


def template_delete(r: redis.Redis, args: argparse.Namespace) -> object:
    if not templates.delete(r, build_object_store(args.settings), None, args.name):
        raise InvalidValue(f"no global template {args.name!r}")
    return {"status": "deleted", "template_id": args.name}
