"""Every script and transaction of the store touches one hash slot (Redis Cluster).

Two guards. The Lua of every script names only keys passed in KEYS (a cluster
refuses a script that reaches a key it was not given, on another node). And
every store step, run on a real Redis 7 in cluster mode (one node holding
every slot), is accepted: Redis itself answers CROSSSLOT to a script or a
MULTI whose keys are in more than one slot, whichever node holds them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

import labelrender.store
from labelrender.store import (
    acquire_slot,
    consume,
    create_key,
    create_tenant,
    idempotency,
    labels,
    list_keys,
    list_tenants,
    plans,
    refund,
    render_claims,
    renew_slot,
    revoke_key,
    set_overages,
    set_plan,
    templates,
    webhooks,
)
from labelrender.store import keys as store_keys
from labelrender.store.access import Authorizer
from labelrender.store.apikeys import authenticate
from labelrender.store.bootstrap import mark_step_done
from labelrender.store.global_cache import PlanCache
from labelrender.store.limits import check_rate
from labelrender.store.objects import FilesystemStore
from labelrender.store.owners import Owner
from labelrender.store.readiness import probe_redis
from labelrender.store.redis_conn import async_twin
from labelrender.store.signing import UrlSigner
from tests.fixtures.cluster_node import ClusterNode
from tests.store.conftest import NOW

_CALL = re.compile(r"redis\.call\('(\w+)',\s*([^,)]+)")
_LOCAL_FUNCTION = re.compile(r"local function \w+\(([^)]*)\)")


def _scripts() -> Iterator[tuple[str, str]]:
    """(module.NAME, Lua) of every script text in labelrender.store."""
    for info in pkgutil.iter_modules(labelrender.store.__path__):
        module = importlib.import_module(f"labelrender.store.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, str) and "redis.call(" in value:
                yield f"{info.name}.{name}", value


@pytest.mark.parametrize(("name", "lua"), list(_scripts()))
def test_a_script_touches_only_the_keys_it_is_given(name: str, lua: str) -> None:
    parameters = {part.strip() for found in _LOCAL_FUNCTION.findall(lua)
                  for part in found.split(",")}
    for command, key in _CALL.findall(lua):
        key = key.strip()
        assert re.fullmatch(r"KEYS\[\d+\]", key) or key in parameters, (
            f"{name}: {command} on {key!r}, a key not passed in KEYS")


@pytest.fixture
def node(cluster: ClusterNode) -> Iterator[redis.Redis]:
    cluster.client.flushall()
    yield cluster.client


def test_the_node_refuses_a_transaction_across_slots(node: redis.Redis) -> None:
    """What the steps below rely on: Redis answers CROSSSLOT, not the client."""
    pipe = node.pipeline(transaction=True)
    pipe.set("lr:{g:1}:a", 1)
    pipe.set("lr:{g:2}:b", 1)
    with pytest.raises(redis.ResponseError, match="same slot|CROSSSLOT"):
        pipe.execute()


def test_tenant_and_key_steps(node: redis.Redis) -> None:
    tenant = create_tenant(node, "Acme", "pro", now=NOW)
    set_plan(node, tenant.tenant_id, "scale")
    set_overages(node, tenant.tenant_id, False)
    first = create_key(node, tenant.tenant_id, now=NOW)
    second = create_key(node, tenant.tenant_id, now=NOW)
    assert authenticate(node, second.secret) is not None
    revoke_key(node, tenant.tenant_id, second.key.key_prefix, now=NOW)
    assert authenticate(node, second.secret) is None
    assert [k.status for k in list_keys(node, tenant.tenant_id)] in (
        ["active", "revoked"], ["revoked", "active"])
    assert [t.tenant_id for t in list_tenants(node)] == [tenant.tenant_id]
    assert first.secret != second.secret


async def test_the_access_check(node: redis.Redis) -> None:
    tenant = create_tenant(node, "Acme", "sandbox", now=NOW)
    secret = create_key(node, tenant.tenant_id, now=NOW).secret
    client = async_twin(node)
    try:
        access = await Authorizer(client).authorize(secret, now=NOW, cost=1)
    finally:
        await client.aclose()
    assert access is not None and access.rate.remaining == 9


def test_limits_idempotency_and_render_claims(node: redis.Redis) -> None:
    tenant = create_tenant(node, "Acme", "pro", now=NOW).tenant_id
    assert check_rate(node, tenant, 100, now=NOW).allowed
    lease = acquire_slot(node, tenant, 4, now=NOW)
    assert lease is not None and renew_slot(node, lease, now=NOW) is not None
    consume(node, tenant, "labels", plans.BUILTIN_PLANS["pro"], overages=True, now=NOW)
    assert refund(node, tenant, "labels", now=NOW) == 0
    claimed = idempotency.claim(node, tenant, "k1", "h" * 64, now=NOW)
    assert claimed.token is not None
    assert idempotency.complete(node, tenant, "k1", claimed.token, "{}", now=NOW)
    again = idempotency.claim(node, tenant, "k2", "h" * 64, now=NOW)
    assert again.token is not None and idempotency.abandon(node, tenant, "k2", again.token)
    assert render_claims.claim_render(node, tenant, "c" * 64, "job_1", 5) == "job_1"
    render_claims.finish_render(node, tenant, "c" * 64, "job_1", "done")
    assert render_claims.render_state(node, tenant, "c" * 64, "job_1").outcome == "done"


def test_plan_and_bootstrap_steps(node: redis.Redis) -> None:
    owner = Owner("pro", "uid-1", "east")
    plans.put_plan(node, plans.BUILTIN_PLANS["pro"], owner)
    assert plans.stored_override(node, "pro")[1] == owner
    assert PlanCache().plans(node)["pro"] == plans.BUILTIN_PLANS["pro"]
    assert plans.release_plan(node, "pro", owner)
    plans.put_plan(node, plans.BUILTIN_PLANS["pro"])
    assert plans.delete_plan(node, "pro")
    assert [p.name for p in plans.list_plans(node)] == list(plans.BUILTIN_PLANS)
    assert mark_step_done(node, "demo", "x")
    probe_redis(node, "api-1")


@pytest.mark.parametrize("tenant_scope", [True, False])
def test_template_steps(node: redis.Redis, tmp_path: Path, tenant_scope: bool) -> None:
    objects = FilesystemStore(tmp_path, UrlSigner(b"s" * 32))
    owner_id = create_tenant(node, "Acme", "pro", now=NOW).tenant_id if tenant_scope else None
    draft = templates.Draft(body="^XA^FO1,1^FN1^FS^XZ", field_map={"ref": 1})
    templates.commit(node, objects, owner_id, "box", draft, "b" * 64, now=NOW)
    _, created = templates.commit_if_changed(node, objects, owner_id, "box", draft, "c" * 64,
                                             now=NOW)
    assert created
    assert [t.versions for t in templates.list_templates(node, owner_id)] == [[1, 2]]
    if owner_id is None:
        owner = Owner("ns/box", "uid-1")
        assert templates.claim_global(node, "box", owner) is None
        assert templates.release_global(node, objects, "box", owner)
    else:
        assert templates.delete(node, objects, owner_id, "box")


def test_label_registry_and_webhook_steps(node: redis.Redis) -> None:
    tenant = create_tenant(node, "Acme", "pro", now=NOW).tenant_id
    record = labels.LabelRecord("d" * 64, f"labels/{tenant}/{'d' * 64}.png", "box", 1, NOW, 10)
    labels.record_only(node, tenant, record)
    assert labels.list_labels(node, tenant).labels == [record]
    node.zadd(store_keys.label_objects(tenant), {record.object_key: NOW})
    assert labels.forget_object(node, tenant, record.object_key, NOW)
    assert labels.list_labels(node, tenant).labels == []
    webhooks.upsert_webhook(node, tenant, "hook", url="https://example.com/h",
                            topics=["label.rendered"], now=NOW)
    webhooks.delete_webhook(node, tenant, "hook")

