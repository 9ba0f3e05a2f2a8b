"""Webhook subscriptions, one Redis hash per tenant (spec "Webhooks").

The record keeps the signing secret, because the dispatcher signs with it; the
secret leaves the store only in ``upsert_webhook``'s answer to a create
(DECISIONS.md "Webhooks": returned once, kept across updates). ``version`` is
1 on create and goes up by 1 on every update.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

import redis

from labelrender.store import keys
from labelrender.store.clock import Now, iso
from labelrender.store.errors import InvalidValue, NotFound, StoreError
from labelrender.store.redis_conn import text

MAX_WEBHOOKS = 10  # DECISIONS.md "Subscriptions"
SECRET_PREFIX = "whsec_"
WEBHOOK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

# Cap check, create-or-update in one step, so concurrent creates never pass
# the cap and an update never loses the secret.
# KEYS: webhooks hash, tenant; ARGV: id, cap, record of a create (JSON), url,
# topics (JSON), updated_at.
_UPSERT = """
if redis.call('EXISTS', KEYS[2]) == 0 then return {'no_tenant', ''} end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local record = cjson.decode(current)
  record['url'] = ARGV[4]
  record['topics'] = cjson.decode(ARGV[5])
  record['version'] = record['version'] + 1
  record['updated_at'] = ARGV[6]
  local encoded = cjson.encode(record)
  redis.call('HSET', KEYS[1], ARGV[1], encoded)
  return {'updated', encoded}
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return {'cap', ''} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return {'created', ARGV[3]}
"""


class WebhookCapReached(StoreError):
    """The tenant already has the most subscriptions allowed (API: 409)."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"a tenant may have at most {cap} webhook subscriptions")
        self.cap = cap


@dataclass(frozen=True)
class Webhook:
    """A subscription. ``signing_secret`` is for signing; views never show it."""

    tenant_id: str
    webhook_id: str
    url: str
    topics: tuple[str, ...]
    version: int
    signing_secret: str
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class Upserted:
    """What an upsert did; ``created`` tells whether to show the secret."""

    webhook: Webhook
    created: bool


def check_webhook_id(webhook_id: str) -> str:
    if not WEBHOOK_ID.match(webhook_id):
        raise InvalidValue("webhook id must be 1 to 64 letters, digits, '_', '.' or '-', "
                           "starting with a letter or digit")
    return webhook_id


def new_signing_secret() -> str:
    return SECRET_PREFIX + secrets.token_hex(24)


def upsert_webhook(r: redis.Redis, tenant_id: str, webhook_id: str, *, url: str,
                   topics: list[str], now: Now, cap: int = MAX_WEBHOOKS) -> Upserted:
    """Create the subscription (version 1, a new secret) or update its url and
    topics (version + 1, same secret). The url must already be checked.

    Raises NotFound (tenant), WebhookCapReached, InvalidValue (id).
    """
    check_webhook_id(webhook_id)
    stamp = iso(now)
    fresh = {"id": webhook_id, "url": url, "topics": topics, "version": 1,
             "signing_secret": new_signing_secret(), "created_at": stamp, "updated_at": stamp}
    outcome, record = r.register_script(_UPSERT)(
        keys=[keys.webhooks(tenant_id), keys.tenant(tenant_id)],
        args=[webhook_id, cap, json.dumps(fresh), url, json.dumps(topics), stamp])
    outcome = text(outcome)
    if outcome == "no_tenant":
        raise NotFound("tenant", tenant_id)
    if outcome == "cap":
        raise WebhookCapReached(cap)
    return Upserted(_from_record(tenant_id, str(text(record))), created=outcome == "created")


def get_webhook(r: redis.Redis, tenant_id: str, webhook_id: str) -> Webhook:
    """The tenant's subscription ``webhook_id``; NotFound otherwise."""
    raw = text(r.hget(keys.webhooks(tenant_id), webhook_id))
    if raw is None:
        raise NotFound("webhook", webhook_id)
    return _from_record(tenant_id, raw)


def find_webhook(r: redis.Redis, tenant_id: str, webhook_id: str) -> Webhook | None:
    try:
        return get_webhook(r, tenant_id, webhook_id)
    except NotFound:
        return None


def list_webhooks(r: redis.Redis, tenant_id: str, topic: str | None = None) -> list[Webhook]:
    """The tenant's subscriptions by id; only those on ``topic`` when given."""
    records: dict[Any, Any] = r.hgetall(keys.webhooks(tenant_id))
    found = [_from_record(tenant_id, str(text(raw))) for raw in records.values()]
    if topic is not None:
        found = [hook for hook in found if topic in hook.topics]
    return sorted(found, key=lambda hook: hook.webhook_id)


def delete_webhook(r: redis.Redis, tenant_id: str, webhook_id: str) -> None:
    """Delete the subscription and its delivery history; NotFound if absent.

    Deliveries still scheduled for it are dropped by the dispatcher when they
    come due (it finds no subscription), so nothing is sent after this.
    """
    pipe = r.pipeline(transaction=True)
    pipe.hdel(keys.webhooks(tenant_id), webhook_id)
    pipe.delete(keys.webhook_deliveries(tenant_id, webhook_id))
    removed, _ = pipe.execute()
    if not removed:
        raise NotFound("webhook", webhook_id)


def _from_record(tenant_id: str, raw: str) -> Webhook:
    record = json.loads(raw)
    return Webhook(tenant_id=tenant_id, webhook_id=record["id"], url=record["url"],
                   topics=tuple(record["topics"]), version=int(record["version"]),
                   signing_secret=record["signing_secret"],
                   created_at=record["created_at"], updated_at=record["updated_at"])
