"""API keys: ``svc_live_`` + 64 hex characters, stored only as a SHA-256.

The secret is returned once, by ``create_key``. Afterwards a key is named by
its ``key_prefix``: the first 8 hex characters after ``svc_live_``. (The first
8 characters of the whole secret would be ``svc_live`` for every key.) The
prefix is unique within a tenant and reveals 32 of the secret's 256 bits.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Literal

import redis
from redis.typing import EncodableT, FieldT

from labelrender.store import keys
from labelrender.store.clock import CREATED_TS, Now, creation_order, instant, iso
from labelrender.store.errors import (
    InvalidValue,
    KeyCapReached,
    LastActiveKey,
    NotFound,
    StoreError,
)
from labelrender.store.plans import get_plan
from labelrender.store.redis_conn import text, text_map
from labelrender.store.tenants import get_tenant

SECRET_PREFIX = "svc_live_"
SECRET_FORMAT = re.compile(r"^svc_live_[0-9a-f]{64}$")
PREFIX_FORMAT = re.compile(r"^[0-9a-f]{8}$")
MAX_LABEL_LENGTH = 64
_PREFIX_ATTEMPTS = 5

KeyStatus = Literal["active", "revoked"]

# A key lives in two places: its record ``lr:apikey:<sha256>`` (untagged: a
# request finds its tenant by the hash alone) and the tenant's key hash and
# active set, under the tenant's tag. No script spans both (they are in other
# slots on a Redis Cluster); the tenant's side is the truth of whether a key is
# active, and the access check reads both. The record is written first on
# create and updated last on revoke, so a crash between the two steps leaves a
# key refused, never one that works while listed as revoked.

# Cap check and insert in one step, so concurrent creates never pass the cap.
# KEYS: tenant, tenant_keys, tenant_active_keys; ARGV: cap, key_prefix, key_hash
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no_tenant' end
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[1]) then return 'cap' end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'prefix_taken' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[2])
return 'ok'
"""

# Last-key check and revoke in one step, so two concurrent revokes of the last
# two keys cannot both succeed.
# KEYS: tenant_keys, tenant_active_keys; ARGV: key_prefix, key_hash
_REVOKE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 'not_found' end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then return 'already' end
if redis.call('SCARD', KEYS[2]) <= 1 then return 'last' end
redis.call('SREM', KEYS[2], ARGV[1])
return 'ok'
"""


@dataclass(frozen=True)
class ApiKey:
    """A key as listed: never the secret, never its hash."""

    tenant_id: str
    key_prefix: str
    label: str | None
    status: KeyStatus
    created_at: str
    revoked_at: str | None = None


@dataclass(frozen=True)
class CreatedKey:
    """A new key. ``secret`` is the full key, to be shown once and dropped."""

    secret: str
    key: ApiKey


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(
    r: redis.Redis, tenant_id: str, *, now: Now, label: str | None = None
) -> CreatedKey:
    """Create an active key, within the tenant's plan cap of active keys.

    Raises NotFound (tenant), KeyCapReached, InvalidValue (label over 64 chars).
    """
    if label is not None and len(label) > MAX_LABEL_LENGTH:
        raise InvalidValue(f"label must be at most {MAX_LABEL_LENGTH} characters")
    cap = get_plan(r, get_tenant(r, tenant_id).plan).active_keys
    script = r.register_script(_CREATE)
    for _ in range(_PREFIX_ATTEMPTS):
        secret = SECRET_PREFIX + secrets.token_hex(32)
        key = ApiKey(tenant_id, secret[len(SECRET_PREFIX):][:8], label, "active", iso(now))
        key_hash = hash_secret(secret)
        r.hset(keys.apikey(key_hash), mapping={**_record_fields(key), CREATED_TS: instant(now)})
        outcome = text(script(
            keys=[keys.tenant(tenant_id), keys.tenant_keys(tenant_id),
                  keys.tenant_active_keys(tenant_id)],
            args=[cap, key.key_prefix, key_hash]))
        if outcome == "ok":
            return CreatedKey(secret, key)
        r.delete(keys.apikey(key_hash))
        if outcome == "cap":
            raise KeyCapReached(cap)
        if outcome == "no_tenant":
            raise NotFound("tenant", tenant_id)
    raise StoreError("could not draw a key prefix unused by this tenant")


def list_keys(r: redis.Redis, tenant_id: str) -> list[ApiKey]:
    """Every key the tenant created, active and revoked, oldest first."""
    hashes = text_map(r.hgetall(keys.tenant_keys(tenant_id)))
    active = {str(text(prefix)) for prefix in r.smembers(keys.tenant_active_keys(tenant_id))}
    pipe = r.pipeline(transaction=False)
    for key_hash in hashes.values():
        pipe.hgetall(keys.apikey(key_hash))
    raws = [text_map(raw) for raw in pipe.execute() if raw]
    order = {raw["key_prefix"]: creation_order(raw, raw["key_prefix"]) for raw in raws}
    records = [key_from_record(raw) for raw in raws]
    listed = [key if key.key_prefix in active else _as_revoked(key) for key in records]
    return sorted(listed, key=lambda k: order[k.key_prefix])


def _as_revoked(key: ApiKey) -> ApiKey:
    """A key the tenant's side says is revoked, whatever its record says (a
    revoke that stopped before updating the record)."""
    return ApiKey(key.tenant_id, key.key_prefix, key.label, "revoked", key.created_at,
                  key.revoked_at)


def revoke_key(r: redis.Redis, tenant_id: str, key_prefix: str, *, now: Now) -> ApiKey:
    """Revoke the tenant's key ``key_prefix``; revoking it again is a no-op.

    Raises NotFound for a prefix the tenant does not have, LastActiveKey when
    it is the tenant's only active key.
    """
    key_hash = None
    if PREFIX_FORMAT.match(key_prefix):
        key_hash = text(r.hget(keys.tenant_keys(tenant_id), key_prefix))
    if key_hash is None:
        raise NotFound("key", key_prefix)
    script = r.register_script(_REVOKE)
    outcome = text(script(keys=[keys.tenant_keys(tenant_id), keys.tenant_active_keys(tenant_id)],
                          args=[key_prefix, key_hash]))
    if outcome == "not_found":
        raise NotFound("key", key_prefix)
    if outcome == "last":
        raise LastActiveKey(key_prefix)
    # Revoked on the tenant's side; the record follows (again, after a revoke
    # that stopped here), keeping the first revoked_at.
    pipe = r.pipeline(transaction=True)
    pipe.hset(keys.apikey(key_hash), "status", "revoked")
    pipe.hsetnx(keys.apikey(key_hash), "revoked_at", iso(now))
    pipe.hgetall(keys.apikey(key_hash))
    return key_from_record(text_map(pipe.execute()[-1]))


def authenticate(r: redis.Redis, secret: str) -> ApiKey | None:
    """The active key behind ``secret``, whose ``tenant_id`` is the caller's
    tenant; None for a malformed, unknown or revoked key (all 401)."""
    if not SECRET_FORMAT.match(secret):
        return None
    key_hash = hash_secret(secret)
    record = text_map(r.hgetall(keys.apikey(key_hash)))
    if not record or record.get("status") != "active":
        return None
    key = key_from_record(record)
    pipe = r.pipeline(transaction=False)
    pipe.hget(keys.tenant_keys(key.tenant_id), key.key_prefix)
    pipe.sismember(keys.tenant_active_keys(key.tenant_id), key.key_prefix)
    held, active = pipe.execute()
    return key if text(held) == key_hash and active else None


def _record_fields(key: ApiKey) -> dict[FieldT, EncodableT]:
    fields: dict[FieldT, EncodableT] = {
        "tenant_id": key.tenant_id, "key_prefix": key.key_prefix, "status": key.status,
        "created_at": key.created_at}
    if key.label is not None:
        fields["label"] = key.label
    return fields


def key_from_record(record: dict[str, str]) -> ApiKey:
    status: KeyStatus = "revoked" if record["status"] == "revoked" else "active"
    return ApiKey(
        tenant_id=record["tenant_id"],
        key_prefix=record["key_prefix"],
        label=record.get("label"),
        status=status,
        created_at=record["created_at"],
        revoked_at=record.get("revoked_at"),
    )
