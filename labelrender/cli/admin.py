"""``labelrender admin``: operator commands on tenants, keys, plans, global
templates (``admin_template``) and webhook dead letters (``admin_dlq``).

Tenants are created by operators, never through the public API (DECISIONS.md
"Tenants"). Every command runs against the Redis the settings name: the
``REDIS_URL`` server, else the embedded one in the data directory (joined if
``labelrender serve`` is running, started for the command otherwise). Results
are JSON on stdout; errors are one line on stderr.

Exit codes: 0 done, 1 refused (unknown tenant or plan, key cap, bad value),
2 bad usage or configuration, 3 Redis unreachable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import redis

from labelrender.cli.admin_dlq import add_dlq_parser
from labelrender.cli.admin_migrate import add_migrate_parser
from labelrender.cli.admin_template import add_template_parser
from labelrender.cli.common import settings_from_env
from labelrender.store import (
    LastActiveKey,
    NotFound,
    StoreError,
    StoreUnavailable,
    create_key,
    create_tenant,
    get_plan,
    get_tenant,
    list_keys,
    list_plans,
    list_tenants,
    revoke_key,
    set_plan,
)
from labelrender.store.apikeys import ApiKey
from labelrender.store.redis_conn import REDIS_ERRORS
from labelrender.store.settings import Settings, connect_redis
from labelrender.store.tenants import Tenant

EXIT_REFUSED = 1
EXIT_UNAVAILABLE = 3

Command = Callable[[redis.Redis, argparse.Namespace], object]
OBJECTS = ("tenants", "API keys", "plans", "global templates", "webhook dead letters")
DESCRIPTION = (
    "Operator commands on tenants, API keys, plans, global templates and webhook dead "
    "letters, run against the Redis the settings name (REDIS_URL, else the embedded one "
    "in the data directory). Results are JSON on stdout; errors are one line on stderr. "
    "Exit codes: 0 done, 1 refused, 2 bad usage or configuration, 3 Redis unreachable.")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = admin_command
    admin = sub.add_parser("admin", help=f"operator commands: {', '.join(OBJECTS)}",
                           description=DESCRIPTION)
    objects = admin.add_subparsers(dest="object", required=True)
    tenant = objects.add_parser("tenant", help="create, inspect and re-plan tenants")
    tenant_cmds = tenant.add_subparsers(dest="action", required=True)
    p = tenant_cmds.add_parser("create", help="create a tenant and its first API key")
    p.add_argument("--name", required=True)
    p.add_argument("--plan", required=True, help="plan name (see `admin plan list`)")
    p.add_argument("--overages", choices=("on", "off"), default=None,
                   help="overage switch (default: the plan's; never on for Sandbox)")
    p.set_defaults(run=run, admin=tenant_create)
    p = tenant_cmds.add_parser("set-plan", help="move a tenant to another plan")
    p.add_argument("tenant", metavar="TENANT")
    p.add_argument("plan", metavar="PLAN")
    p.set_defaults(run=run, admin=tenant_set_plan)
    p = tenant_cmds.add_parser("show", help="a tenant, its plan and its keys")
    p.add_argument("tenant", metavar="TENANT")
    p.set_defaults(run=run, admin=tenant_show)
    tenant_cmds.add_parser("list", help="every tenant, oldest first").set_defaults(
        run=run, admin=tenant_list)
    key = objects.add_parser("key", help="API keys")
    key_cmds = key.add_subparsers(dest="action", required=True)
    p = key_cmds.add_parser("create", help="create an API key for a tenant (shown once)")
    p.add_argument("tenant", metavar="TENANT")
    p.add_argument("--label", default=None, help="human label, at most 64 characters")
    p.set_defaults(run=run, admin=key_create)
    p = key_cmds.add_parser("list", help="a tenant's keys, active and revoked (no secrets)")
    p.add_argument("tenant", metavar="TENANT")
    p.set_defaults(run=run, admin=key_list)
    p = key_cmds.add_parser("revoke", help="revoke a tenant's key by its prefix")
    p.add_argument("tenant", metavar="TENANT")
    p.add_argument("prefix", metavar="KEY_PREFIX")
    p.set_defaults(run=run, admin=key_revoke)
    plan = objects.add_parser("plan", help="plans")
    plan_cmds = plan.add_subparsers(dest="action", required=True)
    plan_cmds.add_parser("list", help="every effective plan").set_defaults(run=run,
                                                                           admin=plan_list)
    add_template_parser(objects, run)
    add_dlq_parser(objects, run)
    add_migrate_parser(objects, run)


def admin_command(args: argparse.Namespace) -> int:
    return run_admin(settings_from_env(), args)


def run_admin(settings: Settings, args: argparse.Namespace) -> int:
    """Run the chosen admin command and print its JSON result."""
    command: Command = args.admin
    try:
        client = connect_redis(settings)
    except StoreUnavailable as exc:
        return _fail(str(exc), EXIT_UNAVAILABLE)
    args.settings = settings  # commands that need more than Redis (object storage)
    try:
        result = command(client, args)
    except StoreError as exc:
        return _fail(f"{exc}{_hint(exc)}", EXIT_REFUSED)
    except REDIS_ERRORS as exc:
        return _fail(f"Redis error: {exc}", EXIT_UNAVAILABLE)
    finally:
        client.close()
    print(json.dumps(result, indent=2))
    return 0


LIST_COMMANDS = {"tenant": "admin tenant list", "plan": "admin plan list",
                 "key": "admin key list TENANT"}


def _hint(exc: StoreError) -> str:
    """Where to look for the right name, after a name that was not found."""
    if isinstance(exc, NotFound) and exc.what in LIST_COMMANDS:
        return f"; `labelrender {LIST_COMMANDS[exc.what]}` lists them"
    if isinstance(exc, LastActiveKey):
        return "; create another first (`labelrender admin key create TENANT`)"
    return ""


def _fail(message: str, code: int) -> int:
    print(f"labelrender admin: {message}", file=sys.stderr)
    return code


def tenant_create(r: redis.Redis, args: argparse.Namespace) -> object:
    overages = None if args.overages is None else args.overages == "on"
    tenant = create_tenant(r, args.name, args.plan, now=time.time(), overages=overages)
    created = create_key(r, tenant.tenant_id, label=None, now=time.time())
    return {"tenant_id": tenant.tenant_id, **_secret(created.secret),
            "key_prefix": created.key.key_prefix}


def tenant_set_plan(r: redis.Redis, args: argparse.Namespace) -> object:
    return tenant_report(r, set_plan(r, args.tenant, args.plan))


def tenant_show(r: redis.Redis, args: argparse.Namespace) -> object:
    tenant = get_tenant(r, args.tenant)
    return {**tenant_report(r, tenant),
            "keys": [_key_report(key) for key in list_keys(r, tenant.tenant_id)]}


def tenant_list(r: redis.Redis, _args: argparse.Namespace) -> object:
    return {"tenants": [tenant_report(r, tenant) for tenant in list_tenants(r)]}


def key_list(r: redis.Redis, args: argparse.Namespace) -> object:
    tenant = get_tenant(r, args.tenant)
    return {"tenant_id": tenant.tenant_id,
            "keys": [_key_report(key) for key in list_keys(r, tenant.tenant_id)]}


def key_revoke(r: redis.Redis, args: argparse.Namespace) -> object:
    get_tenant(r, args.tenant)
    revoked = revoke_key(r, args.tenant, args.prefix, now=time.time())
    return {"tenant_id": revoked.tenant_id, **_key_report(revoked)}


def key_create(r: redis.Redis, args: argparse.Namespace) -> object:
    created = create_key(r, args.tenant, label=args.label, now=time.time())
    return {"tenant_id": created.key.tenant_id, **_secret(created.secret),
            "key_prefix": created.key.key_prefix, "label": created.key.label}


def _secret(secret: str) -> dict[str, str]:
    """A new key's secret under the name ``POST /v1/keys`` gives it (``apiKey``, the
    spec's) and under the snake_case name of every other field here."""
    return {"apiKey": secret, "api_key": secret}


def plan_list(r: redis.Redis, _args: argparse.Namespace) -> object:
    return {"plans": [plan.to_dict() for plan in list_plans(r)]}


def tenant_report(r: redis.Redis, tenant: Tenant) -> dict[str, Any]:
    plan = get_plan(r, tenant.plan)
    return {"tenant_id": tenant.tenant_id, "name": tenant.name, "plan": plan.name,
            "overages_enabled": tenant.overages_enabled(plan),
            "created_at": tenant.created_at}


def _key_report(key: ApiKey) -> dict[str, Any]:
    return {"key_prefix": key.key_prefix, "label": key.label, "status": key.status,
            "created_at": key.created_at, "revoked_at": key.revoked_at}
