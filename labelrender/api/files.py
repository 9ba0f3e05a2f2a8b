"""GET /v1/files/{key}: the filesystem store's signed label URLs.

No API key: the signature is the credential (spec: the URL is "fetched
directly without an auth header"). Tampered or expired: 403; purged: 404.
"""

from __future__ import annotations

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from labelrender.api import errors
from labelrender.api.context import PUBLIC, app_state, route_policy
from labelrender.store.objects import FilesystemStore, InvalidKeyError, SignedUrlRejected

CONTENT_TYPES = {".png": "image/png", ".pdf": "application/pdf", ".zip": "application/zip"}


class FileQuery(BaseModel):
    """The signature of a URL the API returned; a missing one is refused (403)."""

    model_config = ConfigDict(frozen=True)

    exp: str = Field(default="", description="Expiry, unix seconds")
    sig: str = Field(default="", description="HMAC-SHA256 over the key and `exp`")


@route_policy(PUBLIC)
async def get_file(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    store = state.objects
    key = request.match_info["key"]
    content_type = next((t for ext, t in CONTENT_TYPES.items() if key.endswith(ext)), None)
    if not isinstance(store, FilesystemStore) or content_type is None:
        raise errors.NotFound("no such file", kind="FileNotFound")
    signed = FileQuery.model_validate(dict(request.query))  # other parameters are ignored
    try:
        data = await state.call_objects(store.read_signed, key, signed.exp, signed.sig, state.now())
    except (SignedUrlRejected, InvalidKeyError) as exc:
        raise errors.PermissionDenied("the URL's signature is invalid or has expired",
                                      kind="SignedUrlRejected") from exc
    if data is None:
        raise errors.NotFound("the label is no longer stored (retention)", kind="FileNotFound")
    max_age = max(0, int(signed.exp) - int(state.now()))
    return web.Response(body=data, content_type=content_type,
                        headers={"Cache-Control": f"private, max-age={max_age}"})


def add_routes(app: web.Application) -> None:
    # [\s\S], not ".": a key with a line break still reaches the handler (404).
    # GET (and HEAD) only: any other method is 405 here, not the 401 the /v1
    # catch-all would answer for a URL that needs no key.
    app.router.add_get(r"/v1/files/{key:[\s\S]+}", get_file)
