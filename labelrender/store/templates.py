"""Committed templates: immutable versions, an index in Redis, bodies in object storage.

Each commit of an id mints the next version (v1, v2, ...). A version is never
changed once written; renders pin to the latest one unless a request names
another. Two owners exist: a tenant (``tenant_id``) and the global set
(``None``), which operators provision (``labelrender admin template apply``)
and tenants may only read (DECISIONS.md "Templates").

A commit first stores the body under a key of its own, then records the version
in one Lua script that mints the number, so concurrent commits of one id get
distinct numbers and nobody sees a version whose body is not stored yet. The
version counter survives a delete: a number is part of the label content hash,
so reusing one would serve a label rendered from a deleted body.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Literal

import redis

from labelrender.store import keys, owners
from labelrender.store.errors import InvalidValue, StoreError
from labelrender.store.objects import ObjectStore
from labelrender.store.owners import Owner
from labelrender.store.redis_conn import text, text_map

if TYPE_CHECKING:
    from labelrender.store.global_cache import TemplateCache

Scope = Literal["tenant", "global"]
TEMPLATE_ID = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$")
BODY_CONTENT_TYPE = "text/plain; charset=utf-8"

# KEYS: seq, versions, record, index. ARGV: version JSON (without its number),
# template id, name, now. Mints the next number, stores the version with it,
# and moves the record's latest version; returns the number.
_COMMIT = """
local version = redis.call('INCR', KEYS[1])
local doc = cjson.decode(ARGV[1])
doc['version'] = version
redis.call('HSET', KEYS[2], tostring(version), cjson.encode(doc))
redis.call('HSETNX', KEYS[3], 'created_at', ARGV[4])
redis.call('HSET', KEYS[3], 'id', ARGV[2], 'name', ARGV[3], 'latest_version', version,
           'updated_at', ARGV[4])
redis.call('SADD', KEYS[4], ARGV[2])
return version
"""

# The same, only while the record's latest version is still ARGV[5] ('' for
# none); else nothing is written and it returns -1. Two writers that compared
# a spec with the same latest version never both mint a version for it.
_COMMIT_IF_LATEST = """
local latest = redis.call('HGET', KEYS[3], 'latest_version') or ''
if latest ~= ARGV[5] then return -1 end
""" + _COMMIT
_COMMIT_ATTEMPTS = 5

# KEYS: owners, versions, record, index. ARGV: id, owner, instance, old key (see
# store/owners.py). Takes the global template's index entries out (every
# version) when that owner holds it, and returns 1 then 0 and the version docs
# (so their bodies can go), or just 0 when another owner holds it.
_RELEASE = owners.MATCH_LUA + """
if not matches then return {0} end
local docs = redis.call('HVALS', KEYS[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
return {1, unpack(docs)}
"""

# KEYS[1]: owners. ARGV: id, owner, instance, the owner's key in a record of
# before clusters. Records the owner unless another owner holds the id (a
# record of before clusters of the same name is taken over); returns that
# other owner's entry, or false.
_CLAIM = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
local holder = held and string.match(held, '^(.-) ')
if held and holder ~= ARGV[2] and holder ~= ARGV[4] then return held end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
return false
"""


@dataclass(frozen=True)
class Draft:
    """What a commit stores: the body with ``^FN`` placeholders and its fields."""

    body: str
    field_map: dict[str, int]
    values: dict[str, str] = field(default_factory=dict)
    name: str | None = None
    width_dots: int | None = None
    height_dots: int | None = None
    source_dpi: int = 203
    description: str | None = None


@dataclass(frozen=True)
class TemplateVersion:
    """One immutable version. ``tenant_id`` is None for a global template."""

    template_id: str
    tenant_id: str | None
    version: int
    body_key: str
    field_map: dict[str, int]
    values: dict[str, str]
    name: str
    width_dots: int | None
    height_dots: int | None
    source_dpi: int
    description: str | None
    body_sha256: str
    created_at: float

    @property
    def scope(self) -> Scope:
        return "tenant" if self.tenant_id is not None else "global"

    @property
    def field_names(self) -> list[str]:
        return sorted(self.field_map)


@dataclass(frozen=True)
class TemplateSummary:
    """One template as ``GET /v1/templates`` lists it."""

    template_id: str
    scope: Scope
    name: str
    latest_version: int
    versions: list[int]
    field_names: list[str]
    created_at: float
    updated_at: float


def check_template_id(template_id: str) -> str:
    """Ids are one object-key segment: letters, digits, ``.``, ``_``, ``-``."""
    if not TEMPLATE_ID.match(template_id):
        raise InvalidValue("a template id is 1 to 128 letters, digits, '.', '_' or '-', "
                           "not starting with '.'")
    return template_id


def body_key(tenant_id: str | None, template_id: str) -> str:
    """A fresh object key for one committed body (never shared between commits)."""
    owner = f"tenant/{tenant_id}" if tenant_id is not None else "global/all"
    return f"templates/{owner}/{check_template_id(template_id)}/{secrets.token_hex(8)}.zpl"


def commit(r: redis.Redis, objects: ObjectStore, tenant_id: str | None, template_id: str,
           draft: Draft, body_sha256: str, *, now: float) -> TemplateVersion:
    """Store ``draft`` as the next version of ``template_id`` and return it."""
    version = _commit(r, objects, tenant_id, template_id, draft, body_sha256, now=now)
    assert version is not None  # unconditional: always written
    return version


def commit_if_changed(r: redis.Redis, objects: ObjectStore, tenant_id: str | None,
                      template_id: str, draft: Draft, body_sha256: str, *, now: float
                      ) -> tuple[TemplateVersion, bool]:
    """Store ``draft`` as the next version unless the latest version already holds
    it; returns the version now served and whether it is new.

    Safe to call from several processes at once (operator replicas): a version
    is recorded only while the latest is still the one it was compared with.
    """
    for _ in range(_COMMIT_ATTEMPTS):
        latest = get_version(r, tenant_id, template_id)
        if latest is not None and same_spec(latest, draft, body_sha256):
            return latest, False
        expected = str(latest.version) if latest is not None else ""
        version = _commit(r, objects, tenant_id, template_id, draft, body_sha256, now=now,
                          expected_latest=expected)
        if version is not None:
            return version, True
    raise StoreError(f"template {template_id!r} kept changing while being committed")


def same_spec(latest: TemplateVersion, draft: Draft, body_sha256: str) -> bool:
    """Whether ``latest`` holds ``draft``: the same body and everything around it."""
    return (latest.body_sha256, latest.field_map, latest.values, latest.width_dots,
            latest.height_dots, latest.source_dpi, latest.description) == (
        body_sha256, draft.field_map, draft.values, draft.width_dots, draft.height_dots,
        draft.source_dpi, draft.description)


def _commit(r: redis.Redis, objects: ObjectStore, tenant_id: str | None, template_id: str,
            draft: Draft, body_sha256: str, *, now: float, expected_latest: str | None = None
            ) -> TemplateVersion | None:
    """Write the body, then record the version (only while the latest version is
    ``expected_latest``, when given); None, and the body removed, when it is not."""
    key = body_key(tenant_id, template_id)
    objects.put(key, draft.body.encode(), BODY_CONTENT_TYPE)
    name = draft.name or template_id
    doc = {"body_key": key, "field_map": draft.field_map, "values": draft.values,
           "name": name, "width_dots": draft.width_dots, "height_dots": draft.height_dots,
           "source_dpi": draft.source_dpi, "description": draft.description,
           "body_sha256": body_sha256, "created_at": now}
    args = [json.dumps(doc), template_id, name, repr(now)]
    if expected_latest is not None:
        args.append(expected_latest)
    script = r.register_script(_COMMIT if expected_latest is None else _COMMIT_IF_LATEST)
    version = int(str(script(keys=[keys.template_seq(tenant_id, template_id),
                                   keys.template_versions(tenant_id, template_id),
                                   keys.template(tenant_id, template_id),
                                   keys.templates(tenant_id)], args=args)))
    if version < 0:
        objects.delete(key)
        return None
    return _version_from(template_id, tenant_id, {**doc, "version": version})


def get_version(r: redis.Redis, tenant_id: str | None, template_id: str,
                version: int | None = None) -> TemplateVersion | None:
    """One version of one owner's template (default: the latest), or None."""
    if not TEMPLATE_ID.match(template_id):
        return None
    if version is None:
        latest = text(r.hget(keys.template(tenant_id, template_id), "latest_version"))
        if latest is None:
            return None
        version = int(latest)
    stored = text(r.hget(keys.template_versions(tenant_id, template_id), str(version)))
    if stored is None:
        return None
    return _version_from(template_id, tenant_id, json.loads(stored))


def resolve(r: redis.Redis, tenant_id: str, template_id: str,
            version: int | None = None, global_templates: TemplateCache | None = None
            ) -> TemplateVersion | None:
    """The template a tenant renders by id: its own first, then a global one
    (read through ``global_templates`` when given: up to its staleness old).
    Another tenant's template is never found (its keys are under that tenant).

    An id the tenant ever committed never falls through to a global template:
    after a delete its renders are 404, and a label rendered from the deleted
    version (same id and number, so the same content hash) is never served as
    the global template's."""
    own = get_version(r, tenant_id, template_id, version)
    if own is not None or r.exists(keys.template_seq(tenant_id, template_id)):
        return own
    if global_templates is not None:
        return global_templates.version(r, template_id, version)
    return get_version(r, None, template_id, version)


def is_global(r: redis.Redis, template_id: str) -> bool:
    return bool(r.sismember(keys.templates(None), template_id))


def exists(r: redis.Redis, tenant_id: str | None, template_id: str) -> bool:
    return bool(r.sismember(keys.templates(tenant_id), template_id))


def list_templates(r: redis.Redis, tenant_id: str | None) -> list[TemplateSummary]:
    """Every template of one owner, by id."""
    ids = sorted(str(text(i)) for i in r.smembers(keys.templates(tenant_id)))
    found = [_summary(r, tenant_id, template_id) for template_id in ids]
    return [summary for summary in found if summary is not None]


def _summary(r: redis.Redis, tenant_id: str | None, template_id: str) -> TemplateSummary | None:
    pipe = r.pipeline(transaction=True)
    pipe.hgetall(keys.template(tenant_id, template_id))
    pipe.hkeys(keys.template_versions(tenant_id, template_id))
    record_raw, version_keys = pipe.execute()
    record = text_map(record_raw)
    if "latest_version" not in record:
        return None  # deleted between the listing and this read
    latest = get_version(r, tenant_id, template_id, int(record["latest_version"]))
    field_names = latest.field_names if latest is not None else []
    return TemplateSummary(
        template_id=template_id, scope="tenant" if tenant_id is not None else "global",
        name=record.get("name", template_id), latest_version=int(record["latest_version"]),
        versions=sorted(int(str(text(v))) for v in version_keys), field_names=field_names,
        created_at=float(record["created_at"]), updated_at=float(record["updated_at"]))


def delete(r: redis.Redis, objects: ObjectStore, tenant_id: str | None,
           template_id: str) -> bool:
    """Remove every version, permanently; False when there was no such template.

    The index goes first, so no render starts from a body about to go; a render
    already holding its body keeps it (the job carries the body).
    """
    if not TEMPLATE_ID.match(template_id):
        return False
    pipe = r.pipeline(transaction=True)
    pipe.hvals(keys.template_versions(tenant_id, template_id))
    pipe.delete(keys.template_versions(tenant_id, template_id),
                keys.template(tenant_id, template_id))
    pipe.srem(keys.templates(tenant_id), template_id)
    stored, _, removed = pipe.execute()
    for doc in stored:
        objects.delete(json.loads(str(text(doc)))["body_key"])
    return bool(removed)


def claim_global(r: redis.Redis, template_id: str, owner: Owner) -> Owner | None:
    """Record ``owner`` as the object the global template is stored for; returns
    None when it is (now or already: a new instance of the same owner takes it
    over), else the other owner that holds it and nothing changes."""
    script = r.register_script(_CLAIM)
    held = script(keys=[keys.global_template_owners()],
                  args=[check_template_id(template_id), owner.key, owner.instance, owner.name])
    return owners.parse(held) if held else None


def global_owner(r: redis.Redis, template_id: str) -> Owner | None:
    """The object the global template is stored for (None: no such record)."""
    held = r.hget(keys.global_template_owners(), template_id)
    return owners.parse(held) if held is not None else None


def global_owners(r: redis.Redis) -> dict[str, Owner]:
    """Every global template the operator stores, with the object it is stored for."""
    return owners.read_all(r.hgetall(keys.global_template_owners()))


def release_global(r: redis.Redis, objects: ObjectStore, template_id: str, owner: Owner,
                   *, any_instance: bool = False) -> bool:
    """Delete the global template, every version, and its owner entry, only when
    ``owner`` holds it (any instance of that owner with ``any_instance``, a
    record of before clusters of that name included);
    returns whether it did. Another object's template of the same id stays."""
    if not TEMPLATE_ID.match(template_id):
        return False
    script = r.register_script(_RELEASE)
    answer = script(keys=[keys.global_template_owners(), keys.template_versions(None, template_id),
                          keys.template(None, template_id), keys.templates(None)],
                    args=[template_id, owner.key, "" if any_instance else owner.instance,
                          owner.name if any_instance else ""])
    released, docs = int(str(answer[0])), answer[1:]
    for doc in docs:
        objects.delete(json.loads(str(text(doc)))["body_key"])
    return released == 1


def load_body(objects: ObjectStore, version: TemplateVersion) -> str | None:
    """The version's body, or None when it is gone (deleted meanwhile)."""
    data = objects.get(version.body_key)
    return data.decode() if data is not None else None


def _version_from(template_id: str, tenant_id: str | None, doc: dict[str, object]
                  ) -> TemplateVersion:
    return TemplateVersion(template_id=template_id, tenant_id=tenant_id, **doc)  # type: ignore[arg-type]


def version_dict(version: TemplateVersion) -> dict[str, object]:
    return asdict(version)
