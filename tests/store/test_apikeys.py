from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace

import pytest
import redis

from labelrender.store import (
    BUILTIN_PLANS,
    CreatedKey,
    InvalidValue,
    KeyCapReached,
    LastActiveKey,
    NotFound,
    authenticate,
    create_key,
    list_keys,
    put_plan,
    revoke_key,
)
from labelrender.store.redis_conn import text
from tests.store.conftest import NOW, MakeTenant

LATER = NOW + 3600


def every_stored_string(r: redis.Redis) -> list[str]:
    """Every key name and every value in the database, whatever its type."""
    found: list[str] = []
    for key in r.scan_iter():
        kind = text(r.type(key))
        if kind == "string":
            values: list[object] = [r.get(key)]
        elif kind == "hash":
            values = [x for pair in r.hgetall(key).items() for x in pair]
        elif kind == "set":
            values = list(r.smembers(key))
        elif kind == "zset":
            values = list(r.zrange(key, 0, -1))
        else:
            raise AssertionError(f"unexpected Redis type {kind} at {key!r}")
        found += [str(text(v)) for v in [key, *values]]
    return found


@pytest.mark.parametrize("label", [None, "", "ci deploy", "x" * 64, "étiquette ✓"])
def test_created_key_format(redis_db: redis.Redis, make_tenant: MakeTenant,
                            label: str | None) -> None:
    tenant = make_tenant()
    created = create_key(redis_db, tenant.tenant_id, now=NOW, label=label)
    assert re.fullmatch(r"svc_live_[0-9a-f]{64}", created.secret)
    assert created.key.key_prefix == created.secret[9:17]
    assert (created.key.tenant_id, created.key.label, created.key.status,
            created.key.created_at) == (tenant.tenant_id, label, "active", "2026-11-15T12:00:00Z")
    assert list_keys(redis_db, tenant.tenant_id) == [created.key]


def test_label_over_64_characters_is_refused(redis_db: redis.Redis,
                                             make_tenant: MakeTenant) -> None:
    tenant = make_tenant()
    with pytest.raises(InvalidValue):
        create_key(redis_db, tenant.tenant_id, now=NOW, label="x" * 65)
    assert list_keys(redis_db, tenant.tenant_id) == []


def test_only_the_hash_of_a_secret_is_stored(redis_db: redis.Redis,
                                             make_tenant: MakeTenant) -> None:
    tenant = make_tenant()
    created = [create_key(redis_db, tenant.tenant_id, now=NOW, label=f"k{i}") for i in range(3)]
    revoke_key(redis_db, tenant.tenant_id, created[0].key.key_prefix, now=LATER)
    stored = "\n".join(every_stored_string(redis_db))
    for key in created:
        assert key.secret not in stored
        assert key.secret[9:] not in stored  # not even without the svc_live_ prefix
        assert key.secret[9:40] not in stored
        assert hashlib.sha256(key.secret.encode()).hexdigest() in stored


def test_listing_shows_every_key_and_never_the_secret(redis_db: redis.Redis,
                                                      make_tenant: MakeTenant) -> None:
    tenant = make_tenant()
    first = create_key(redis_db, tenant.tenant_id, now=NOW, label="old")
    second = create_key(redis_db, tenant.tenant_id, now=LATER, label="new")
    revoke_key(redis_db, tenant.tenant_id, first.key.key_prefix, now=LATER + 1)
    listed = list_keys(redis_db, tenant.tenant_id)
    assert [(k.key_prefix, k.label, k.status) for k in listed] == [
        (first.key.key_prefix, "old", "revoked"), (second.key.key_prefix, "new", "active")]
    assert listed[0].revoked_at == "2026-11-15T13:00:01Z"
    for key in listed:
        assert not any(first.secret in str(v) or second.secret in str(v)
                       for v in asdict(key).values())


def test_keys_made_in_the_same_second_are_listed_in_the_order_made(
        redis_db: redis.Redis, make_tenant: MakeTenant) -> None:
    # (as `labelrender admin key create` twice within a second: the ISO time is the
    # same, and the random prefixes must not decide the order)
    tenant = make_tenant("pro")
    made = [create_key(redis_db, tenant.tenant_id, now=NOW + n / 10).key.key_prefix
            for n in range(5)]
    assert [k.key_prefix for k in list_keys(redis_db, tenant.tenant_id)] == made


def test_revoked_key_no_longer_authenticates(redis_db: redis.Redis,
                                             make_tenant: MakeTenant) -> None:
    tenant = make_tenant()
    old, new = (create_key(redis_db, tenant.tenant_id, now=NOW) for _ in range(2))
    assert authenticate(redis_db, old.secret) == old.key
    revoked = revoke_key(redis_db, tenant.tenant_id, old.key.key_prefix, now=LATER)
    assert revoked.status == "revoked"
    assert authenticate(redis_db, old.secret) is None
    assert authenticate(redis_db, new.secret) == new.key
    # Revoking again is a no-op that still reports the key as revoked.
    assert revoke_key(redis_db, tenant.tenant_id, old.key.key_prefix, now=LATER) == revoked


@pytest.mark.parametrize(
    "presented",
    ["", "svc_live_", "svc_live_" + "0" * 63, "svc_live_" + "A" * 64, "svc_test_" + "0" * 64,
     "Bearer svc_live_" + "0" * 64, "svc_live_" + "0" * 64 + " ", "svc_live_" + "0" * 64],
)
def test_malformed_or_unknown_secret_does_not_authenticate(
    redis_db: redis.Redis, make_tenant: MakeTenant, presented: str
) -> None:
    create_key(redis_db, make_tenant().tenant_id, now=NOW)
    assert authenticate(redis_db, presented) is None


def test_case_changed_secret_does_not_authenticate(redis_db: redis.Redis,
                                                   make_tenant: MakeTenant) -> None:
    created = create_key(redis_db, make_tenant().tenant_id, now=NOW)
    assert authenticate(redis_db, created.secret.upper()) is None


@pytest.mark.parametrize("prefix", ["00000000", "zzzzzzzz", "", "lr:*", "0000000"])
def test_revoking_an_unknown_prefix_is_not_found(redis_db: redis.Redis,
                                                 make_tenant: MakeTenant, prefix: str) -> None:
    tenant = make_tenant()
    create_key(redis_db, tenant.tenant_id, now=NOW)
    with pytest.raises(NotFound):
        revoke_key(redis_db, tenant.tenant_id, prefix, now=NOW)


@pytest.mark.parametrize("key_count", [1, 2, 5])
def test_last_active_key_cannot_be_revoked(redis_db: redis.Redis, make_tenant: MakeTenant,
                                           key_count: int) -> None:
    tenant = make_tenant()
    created = [create_key(redis_db, tenant.tenant_id, now=NOW) for _ in range(key_count)]
    for key in created[:-1]:
        revoke_key(redis_db, tenant.tenant_id, key.key.key_prefix, now=NOW)
    with pytest.raises(LastActiveKey):
        revoke_key(redis_db, tenant.tenant_id, created[-1].key.key_prefix, now=NOW)
    assert authenticate(redis_db, created[-1].secret) == created[-1].key


def test_concurrent_revokes_leave_one_key_active(redis_db: redis.Redis,
                                                 make_tenant: MakeTenant) -> None:
    tenant = make_tenant()
    keys = [create_key(redis_db, tenant.tenant_id, now=NOW) for _ in range(6)]

    def revoke(key: CreatedKey) -> str:
        try:
            revoke_key(redis_db, tenant.tenant_id, key.key.key_prefix, now=NOW)
        except LastActiveKey:
            return "last"
        return "revoked"

    with ThreadPoolExecutor(len(keys)) as pool:
        outcomes = list(pool.map(revoke, keys))
    assert outcomes.count("last") == 1
    assert sum(authenticate(redis_db, k.secret) is not None for k in keys) == 1


@pytest.mark.parametrize(("plan", "cap"), [("sandbox", 5), ("pro", 10), ("warehouse", 25)])
def test_active_key_cap_per_plan(redis_db: redis.Redis, make_tenant: MakeTenant,
                                 plan: str, cap: int) -> None:
    tenant = make_tenant(plan)
    created = [create_key(redis_db, tenant.tenant_id, now=NOW) for _ in range(cap)]
    with pytest.raises(KeyCapReached) as caught:
        create_key(redis_db, tenant.tenant_id, now=NOW)
    assert caught.value.cap == cap
    # Rotation is create-then-revoke; a revoked key frees its slot.
    revoke_key(redis_db, tenant.tenant_id, created[0].key.key_prefix, now=NOW)
    create_key(redis_db, tenant.tenant_id, now=NOW)
    assert len(list_keys(redis_db, tenant.tenant_id)) == cap + 1


def test_plan_override_changes_the_cap(redis_db: redis.Redis, make_tenant: MakeTenant) -> None:
    put_plan(redis_db, replace(BUILTIN_PLANS["pro"], active_keys=2))
    tenant = make_tenant("pro")
    create_key(redis_db, tenant.tenant_id, now=NOW)
    create_key(redis_db, tenant.tenant_id, now=NOW)
    with pytest.raises(KeyCapReached):
        create_key(redis_db, tenant.tenant_id, now=NOW)


def test_concurrent_creates_never_exceed_the_cap(redis_db: redis.Redis,
                                                 make_tenant: MakeTenant) -> None:
    tenant = make_tenant("sandbox")

    def create(_: int) -> bool:
        try:
            create_key(redis_db, tenant.tenant_id, now=NOW)
        except KeyCapReached:
            return False
        return True

    with ThreadPoolExecutor(16) as pool:
        created = list(pool.map(create, range(60)))
    assert created.count(True) == 5
    assert len(list_keys(redis_db, tenant.tenant_id)) == 5


def test_keys_of_an_unknown_tenant(redis_db: redis.Redis) -> None:
    ghost = "tnt_" + "a" * 26
    with pytest.raises(NotFound):
        create_key(redis_db, ghost, now=NOW)
    assert list_keys(redis_db, ghost) == []
    assert redis_db.dbsize() == 0


def test_one_tenant_cannot_see_or_revoke_anothers_keys(redis_db: redis.Redis,
                                                       make_tenant: MakeTenant) -> None:
    alice, bob = make_tenant(name="Alice"), make_tenant(name="Bob")
    alice_keys = [create_key(redis_db, alice.tenant_id, now=NOW) for _ in range(2)]
    bob_key = create_key(redis_db, bob.tenant_id, now=NOW)
    assert list_keys(redis_db, bob.tenant_id) == [bob_key.key]
    with pytest.raises(NotFound):
        revoke_key(redis_db, bob.tenant_id, alice_keys[0].key.key_prefix, now=NOW)
    assert authenticate(redis_db, alice_keys[0].secret) == alice_keys[0].key
    found = authenticate(redis_db, bob_key.secret)
    assert found is not None and found.tenant_id == bob.tenant_id
