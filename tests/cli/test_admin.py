"""``labelrender admin``, run as the operator runs it: a subprocess on a real Redis."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from labelrender.store import authenticate
from tests.fixtures.admin_cli import admin, admin_json
from tests.fixtures.admin_cli import env as env  # the fixture


def test_tenant_create_prints_a_working_key(env: dict[str, str], redis_db: redis.Redis) -> None:
    created = admin_json(env, "tenant", "create", "--name", "Acme Shipping", "--plan", "pro")
    assert set(created) == {"tenant_id", "apiKey", "api_key", "key_prefix"}
    assert created["apiKey"] == created["api_key"]  # POST /v1/keys's name, and ours
    key = authenticate(redis_db, created["api_key"])
    assert key is not None and key.tenant_id == created["tenant_id"]
    assert key.key_prefix == created["key_prefix"] == created["api_key"][9:17]


def test_show_set_plan_and_key_create(env: dict[str, str], redis_db: redis.Redis) -> None:
    tenant_id = admin_json(env, "tenant", "create", "--name", "Acme", "--plan", "pro",
                           "--overages", "off")["tenant_id"]
    shown = admin_json(env, "tenant", "show", tenant_id)
    assert (shown["name"], shown["plan"], shown["overages_enabled"]) == ("Acme", "pro", False)
    assert [key["status"] for key in shown["keys"]] == ["active"]

    moved = admin_json(env, "tenant", "set-plan", tenant_id, "Warehouse")
    assert (moved["tenant_id"], moved["plan"]) == (tenant_id, "warehouse")

    key = admin_json(env, "key", "create", tenant_id, "--label", "ci")
    assert (key["tenant_id"], key["label"]) == (tenant_id, "ci")
    found = authenticate(redis_db, key["api_key"])
    assert found is not None and found.tenant_id == tenant_id
    shown = admin_json(env, "tenant", "show", tenant_id)
    assert shown["plan"] == "warehouse"
    assert [k["label"] for k in shown["keys"]].count("ci") == 1 and len(shown["keys"]) == 2


def test_plan_list(env: dict[str, str]) -> None:
    plans = admin_json(env, "plan", "list")["plans"]
    assert [plan["name"] for plan in plans] == ["sandbox", "pro", "warehouse", "scale"]
    assert plans[0]["overages_allowed"] is False and plans[1]["monthly_price"] == "49"


@pytest.mark.parametrize(("args", "code", "message"), [
    (["tenant", "create", "--name", "X", "--plan", "gold"], 1, "plan 'gold' not found"),
    (["tenant", "create", "--name", "X", "--plan", "sandbox", "--overages", "on"], 1,
     "hard cap"),
    (["tenant", "create", "--name", "  ", "--plan", "pro"], 1, "tenant name"),
    (["tenant", "show", "tnt_nope"], 1, "tenant 'tnt_nope' not found"),
    (["tenant", "set-plan", "tnt_" + "a" * 26, "pro"], 1, "not found"),
    (["key", "create", "tnt_" + "a" * 26], 1, "not found"),
    (["key", "create", "tnt_" + "a" * 26, "--label", "x" * 65], 1, "at most 64"),
    (["tenant", "create", "--name", "X"], 2, "--plan"),
    (["tenant", "create", "--name", "X", "--plan", "pro", "--overages", "maybe"], 2,
     "invalid choice"),
    (["tenant"], 2, "required"),
])
def test_bad_input_is_refused_with_a_clear_error(
        env: dict[str, str], args: list[str], code: int, message: str) -> None:
    done = admin(env, *args)
    assert (done.returncode, done.stdout) == (code, "")
    assert message in done.stderr


def test_the_key_cap_of_the_plan_holds(env: dict[str, str]) -> None:
    tenant_id = admin_json(env, "tenant", "create", "--name", "Tiny", "--plan",
                           "sandbox")["tenant_id"]
    for _ in range(4):  # Sandbox allows 5 active keys; the tenant has one
        admin_json(env, "key", "create", tenant_id)
    done = admin(env, "key", "create", tenant_id)
    assert done.returncode == 1 and "cap of 5" in done.stderr


@pytest.mark.parametrize(("variables", "code", "message"), [
    ({"REDIS_URL": "redis://127.0.0.1:1/0"}, 3, "not reachable"),
    ({"LABELRENDER_RENDER_PROCESSES": "zero"}, 2, "invalid configuration"),
])
def test_configuration_problems(env: dict[str, str], variables: dict[str, str], code: int,
                                message: str) -> None:
    done = admin({**env, **variables}, "plan", "list")
    assert done.returncode == code and message in done.stderr


def test_embedded_data_dir_keeps_tenants_between_commands(tmp_path: Path) -> None:
    """No REDIS_URL: each command runs on the embedded server in the data dir,
    and what one command wrote the next one reads."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["LABELRENDER_DATA_DIR"] = str(tmp_path / "data")
    created = admin_json(env, "tenant", "create", "--name", "Local", "--plan", "sandbox")
    shown = admin_json(env, "tenant", "show", created["tenant_id"])
    assert shown["name"] == "Local"
    assert [key["key_prefix"] for key in shown["keys"]] == [created["key_prefix"]]


def test_tenant_list_key_list_and_revoke(env: dict[str, str], redis_db: redis.Redis) -> None:
    created = admin_json(env, "tenant", "create", "--name", "Listed", "--plan", "pro")
    tenant_id = created["tenant_id"]
    listed = admin_json(env, "tenant", "list")["tenants"]
    assert [t["name"] for t in listed if t["tenant_id"] == tenant_id] == ["Listed"]

    second = admin_json(env, "key", "create", tenant_id, "--label", "ci")
    keys = admin_json(env, "key", "list", tenant_id)["keys"]
    assert [k["key_prefix"] for k in keys] == [created["key_prefix"], second["key_prefix"]]
    assert all("api_key" not in k and "apiKey" not in k for k in keys)  # never secrets

    revoked = admin_json(env, "key", "revoke", tenant_id, second["key_prefix"])
    assert (revoked["key_prefix"], revoked["status"]) == (second["key_prefix"], "revoked")
    assert authenticate(redis_db, second["api_key"]) is None
    last = admin(env, "key", "revoke", tenant_id, created["key_prefix"])
    assert last.returncode == 1 and "create another first" in last.stderr
