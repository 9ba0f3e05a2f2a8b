"""Webhook subscriptions: /v1/webhooks and /v1/webhooks/{id} (spec "Webhooks",
DECISIONS.md "Webhooks").

``POST /v1/webhooks/{id}`` creates or updates; the signing secret is shown on
create only. The url is checked against the target rules (``webhook_targets``)
before anything is stored; the tenant always comes from the key.
"""

from __future__ import annotations

from typing import Any, Literal

import redis
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labelrender.api import errors
from labelrender.api.body import SMALL_BODY_BYTES, parse_object, read_body
from labelrender.api.config import ApiConfig
from labelrender.api.context import app_state, auth_of
from labelrender.store import NotFound as StoreNotFound
from labelrender.store import deliveries
from labelrender.store.clock import Now
from labelrender.store.events import BATCH_COMPLETED, LABEL_RENDERED, LabelRendered, new_event_id
from labelrender.store.webhook_targets import (
    MAX_URL_LENGTH,
    TargetPolicy,
    TargetRejected,
    check_url,
    system_resolver,
)
from labelrender.store.webhooks import (
    MAX_WEBHOOKS,
    WEBHOOK_ID,
    Upserted,
    Webhook,
    WebhookCapReached,
    delete_webhook,
    get_webhook,
    list_webhooks,
    upsert_webhook,
)

TOPICS = (LABEL_RENDERED, BATCH_COMPLETED)  # spec "Events", and batch renders
Topic = Literal["label.rendered", "batch.completed"]
SAMPLE_HASH = "0" * 64


class UpsertBody(BaseModel):
    """Create or update a subscription; the tenant comes from the key."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    url: str = Field(max_length=MAX_URL_LENGTH, json_schema_extra={"format": "uri"},
                     description="Public HTTPS endpoint; loopback, private, link-local and "
                                 "metadata addresses and names are refused")
    topics: list[Topic] = Field(default=["label.rendered"], min_length=1,
                                description="`label.rendered` (each from-data label) "
                                            "and/or `batch.completed` (a batch render "
                                            "finished)")


class WebhookPath(BaseModel):
    """The subscription id, chosen by the caller."""

    model_config = ConfigDict(frozen=True)

    webhook_id: str = Field(pattern=WEBHOOK_ID.pattern, examples=["warehouse-1"],
                            description="1 to 64 letters, digits, '_', '.' or '-', starting "
                                        "with a letter or digit")


def _parse_upsert(raw: bytes) -> UpsertBody:
    payload = parse_object(raw)
    try:
        return UpsertBody.model_validate(payload)
    except ValidationError as exc:
        raise _upsert_error(exc, payload) from exc


def _upsert_error(exc: ValidationError, payload: dict[str, Any]) -> errors.ApiError:
    """The first problem pydantic names, with the kind the field answers with."""
    detail = exc.errors()[0]
    field = str(detail["loc"][0]) if detail["loc"] else None
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized field {field!r}", param=field)
    if field == "topics":
        if detail["type"] == "list_type":
            return errors.UnsupportedTopic("topics must be a list of topic names",
                                           param="topics")
        return errors.UnsupportedTopic(f"topics must be a non-empty subset of {list(TOPICS)}; "
                                       f"got {payload.get('topics')}", param="topics")
    if detail["type"] == "missing":
        return errors.ValidationFailed("url is required", param="url", kind="MissingField")
    if detail["type"] == "string_too_long":
        return errors.WebhookTargetRejected(
            f"webhook url refused: url is longer than {MAX_URL_LENGTH} characters", param="url")
    return errors.WebhookTargetRejected("url must be a string", param="url")


def webhook_view(hook: Webhook) -> dict[str, Any]:
    """A subscription as shown: never the secret (that is on create only)."""
    return {"id": hook.webhook_id, "scope": "tenant", "version": hook.version,
            "url": hook.url, "topics": list(hook.topics), "created_at": hook.created_at,
            "updated_at": hook.updated_at}


def subscribe(r: redis.Redis, config: ApiConfig, tenant_id: str, webhook_id: str,
              body: UpsertBody, now: Now) -> Upserted:
    """Check the target, then create or update the subscription."""
    policy = TargetPolicy.from_text(config.webhook_allow_networks)
    check_url(body.url, config.webhook_resolver or system_resolver, policy)
    return upsert_webhook(r, tenant_id, webhook_id, url=body.url,
                          topics=list(dict.fromkeys(body.topics)), now=now)


def queue_test(r: redis.Redis, tenant_id: str, webhook_id: str, now: float) -> str:
    """Schedule a sample ``label.rendered`` (``data.test: true``) to this
    subscription only; the event id it will carry."""
    get_webhook(r, tenant_id, webhook_id)
    event = LabelRendered(
        event_id=new_event_id(now), tenant_id=tenant_id, content_hash=SAMPLE_HASH,
        object_key=f"tenants/{tenant_id}/labels/{SAMPLE_HASH}.png",
        template_id="tpl_sample", template_version=1, external_ref="sample",
        cached=False, created_at=now, test=True)
    deliveries.schedule(r, deliveries.Delivery(event, webhook_id), due=now)
    return event.event_id


def _webhook_id(request: web.Request) -> str:
    try:
        return WebhookPath(webhook_id=request.match_info["webhook_id"]).webhook_id
    except ValidationError as exc:
        raise errors.InvalidWebhookId(
            "webhook id must be 1 to 64 letters, digits, '_', '.' or '-', starting with a "
            "letter or digit", param="id") from exc


def _not_found(webhook_id: str) -> errors.ApiError:
    return errors.WebhookNotFound(f"no webhook with id {webhook_id!r}", param="id")


async def upsert(request: web.Request) -> web.StreamResponse:
    webhook_id = _webhook_id(request)
    body = _parse_upsert(await read_body(request, SMALL_BODY_BYTES))
    state, auth = app_state(request), auth_of(request)
    try:
        done = await state.call(subscribe, state.redis, state.config, auth.tenant_id,
                                webhook_id, body, state.now())
    except TargetRejected as exc:
        raise errors.WebhookTargetRejected(f"webhook url refused: {exc}", param="url") from exc
    except WebhookCapReached as exc:
        raise errors.WebhookCapReached(
            f"a tenant may have at most {MAX_WEBHOOKS} webhooks; delete one first",
            param="id") from exc
    view = {"status": "created" if done.created else "updated", **webhook_view(done.webhook)}
    if done.created:  # the one answer that carries the secret: never cached
        view["signing_secret"] = done.webhook.signing_secret
    return web.json_response(view, status=201 if done.created else 200,
                             headers={"Cache-Control": "no-store"})


async def list_all(request: web.Request) -> web.StreamResponse:
    state, auth = app_state(request), auth_of(request)
    hooks = await state.call(list_webhooks, state.redis, auth.tenant_id)
    return web.json_response({"webhooks": [webhook_view(hook) for hook in hooks]})


async def get_one(request: web.Request) -> web.StreamResponse:
    webhook_id = _webhook_id(request)
    state, auth = app_state(request), auth_of(request)
    try:
        hook = await state.call(get_webhook, state.redis, auth.tenant_id, webhook_id)
    except StoreNotFound as exc:
        raise _not_found(webhook_id) from exc
    return web.json_response(webhook_view(hook))


async def delete(request: web.Request) -> web.StreamResponse:
    webhook_id = _webhook_id(request)
    state, auth = app_state(request), auth_of(request)
    try:
        await state.call(delete_webhook, state.redis, auth.tenant_id, webhook_id)
    except StoreNotFound as exc:
        raise _not_found(webhook_id) from exc
    return web.json_response({"status": "deleted", "id": webhook_id})


async def list_deliveries(request: web.Request) -> web.StreamResponse:
    webhook_id = _webhook_id(request)
    state, auth = app_state(request), auth_of(request)
    try:
        await state.call(get_webhook, state.redis, auth.tenant_id, webhook_id)
    except StoreNotFound as exc:
        raise _not_found(webhook_id) from exc
    attempts = await state.call(deliveries.list_attempts, state.redis, auth.tenant_id,
                                webhook_id)
    return web.json_response({"deliveries": [a.to_dict() for a in attempts]})


async def send_test(request: web.Request) -> web.StreamResponse:
    webhook_id = _webhook_id(request)
    state, auth = app_state(request), auth_of(request)
    try:
        event_id = await state.call(queue_test, state.redis, auth.tenant_id, webhook_id,
                                    state.now())
    except StoreNotFound as exc:
        raise _not_found(webhook_id) from exc
    return web.json_response({"status": "queued", "event_id": event_id}, status=202)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/webhooks", list_all)
    app.router.add_post("/v1/webhooks/{webhook_id}", upsert)
    app.router.add_get("/v1/webhooks/{webhook_id}", get_one)
    app.router.add_delete("/v1/webhooks/{webhook_id}", delete)
    app.router.add_get("/v1/webhooks/{webhook_id}/deliveries", list_deliveries)
    app.router.add_post("/v1/webhooks/{webhook_id}/test", send_test)
