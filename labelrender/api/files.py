"""GET /v1/files/{key}: the filesystem store's signed label URLs.

No API key: the signature is the credential (spec: the URL is "fetched
directly without an auth header"). Tampered or expired: 403; purged: 404.
"""

from __future__ import annotations

from aiohttp import web

from labelrender.api import errors
from labelrender.api.context import PUBLIC, app_state, route_policy
from labelrender.store.objects import FilesystemStore, InvalidKeyError, SignedUrlRejected

CONTENT_TYPES = {".png": "image/png", ".pdf": "application/pdf"}


@route_policy(PUBLIC)
async def get_file(request: web.Request) -> web.StreamResponse:
    state = app_state(request)
    store = state.objects
    key = request.match_info["key"]
    content_type = next((t for ext, t in CONTENT_TYPES.items() if key.endswith(ext)), None)
    if not isinstance(store, FilesystemStore) or content_type is None:
        raise errors.NotFound("no such file", kind="FileNotFound")
    exp, sig = request.query.get("exp", ""), request.query.get("sig", "")
    try:
        data = await state.call(store.read_signed, key, exp, sig, state.now())
    except (SignedUrlRejected, InvalidKeyError) as exc:
        raise errors.PermissionDenied("the URL's signature is invalid or has expired",
                                      kind="SignedUrlRejected") from exc
    if data is None:
        raise errors.NotFound("the label is no longer stored (retention)", kind="FileNotFound")
    max_age = max(0, int(exp) - int(state.now()))
    return web.Response(body=data, content_type=content_type,
                        headers={"Cache-Control": f"private, max-age={max_age}"})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/files/{key:.+}", get_file)
