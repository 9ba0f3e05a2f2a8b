"""API keys: POST/GET /v1/keys, DELETE /v1/keys/{prefix} (spec "API keys",
DECISIONS.md "Keys and account")."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labelrender.api import errors
from labelrender.api.body import SMALL_BODY_BYTES, parse_object, read_body
from labelrender.api.context import app_state, auth_of
from labelrender.store import ApiKey, create_key, list_keys, revoke_key
from labelrender.store import KeyCapReached as StoreKeyCapReached
from labelrender.store import LastActiveKey as StoreLastActiveKey
from labelrender.store import NotFound as StoreNotFound
from labelrender.store.apikeys import MAX_LABEL_LENGTH


class CreateKeyBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    label: str | None = Field(None, max_length=MAX_LABEL_LENGTH)


def _parse_create(raw: bytes) -> CreateKeyBody:
    payload = parse_object(raw) if raw.strip() else {}
    try:
        return CreateKeyBody.model_validate(payload)
    except ValidationError as exc:
        detail = exc.errors()[0]
        field = str(detail["loc"][0]) if detail["loc"] else None
        if detail["type"] == "extra_forbidden":
            raise errors.UnknownField(f"unrecognized field {field!r}", param=field) from exc
        raise errors.ValidationFailed(
            f"label must be a string of at most {MAX_LABEL_LENGTH} characters",
            param="label", kind="InvalidLabel") from exc


def key_view(key: ApiKey) -> dict[str, Any]:
    """A key as listed: never the secret (spec "API keys")."""
    return {"key_prefix": key.key_prefix, "label": key.label, "status": key.status,
            "created_at": key.created_at}


async def create(request: web.Request) -> web.StreamResponse:
    body = _parse_create(await read_body(request, SMALL_BODY_BYTES, allow_empty=True))
    state, auth = app_state(request), auth_of(request)
    try:
        created = await state.call(create_key, state.redis, auth.tenant_id, now=state.now(),
                                   label=body.label)
    except StoreKeyCapReached as exc:
        raise errors.KeyCapReached(
            f"the {auth.plan.name} plan allows {exc.cap} active keys; revoke one first"
        ) from exc
    # The one answer that carries the key: no cache, shared or private, keeps it.
    return web.json_response(
        {"apiKey": created.secret, **key_view(created.key)}, status=201,
        headers={"Cache-Control": "no-store"})


async def list_all(request: web.Request) -> web.StreamResponse:
    state, auth = app_state(request), auth_of(request)
    tenant_keys = await state.call(list_keys, state.redis, auth.tenant_id)
    return web.json_response({"keys": [key_view(key) for key in tenant_keys]})


async def revoke(request: web.Request) -> web.StreamResponse:
    state, auth = app_state(request), auth_of(request)
    prefix = request.match_info["prefix"]
    try:
        key = await state.call(revoke_key, state.redis, auth.tenant_id, prefix, now=state.now())
    except StoreNotFound as exc:
        raise errors.NotFound(f"no key with prefix {prefix!r}", param="prefix",
                              kind="KeyNotFound") from exc
    except StoreLastActiveKey as exc:
        raise errors.LastActiveKey(
            "this is the tenant's last active key; create another before revoking it",
            param="prefix") from exc
    return web.json_response({"status": "revoked", "key_prefix": key.key_prefix})


def add_routes(app: web.Application) -> None:
    app.router.add_post("/v1/keys", create)
    app.router.add_get("/v1/keys", list_all)
    app.router.add_delete("/v1/keys/{prefix}", revoke)
