"""The studio: one page at ``/studio`` and its two assets, shipped in the package.

The page is static. It signs in with an API key kept in the browser's
``sessionStorage`` and calls the same public API as any integrator, so these
routes need no key and serve nothing but files. The Content-Security-Policy
keeps the page to its own scripts and styles (nothing from the internet) and
to this API; label images may come from an object store's signed URLs.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from labelrender.api import errors
from labelrender.api.context import PUBLIC, route_policy

STATIC = Path(__file__).resolve().parent / "static" / "studio"
ASSETS = {
    "studio.js": "text/javascript",
    "studio.css": "text/css",
}
_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
           "img-src 'self' data: blob: http: https:; form-action 'self'; base-uri 'none'; "
           "frame-ancestors 'none'")


def _file_response(name: str, content_type: str) -> web.Response:
    response = web.Response(body=(STATIC / name).read_bytes(), content_type=content_type,
                            charset="utf-8")
    response.headers["Content-Security-Policy"] = _POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-cache"
    return response


@route_policy(PUBLIC)
async def page(request: web.Request) -> web.Response:
    return _file_response("index.html", "text/html")


@route_policy(PUBLIC)
async def asset(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in ASSETS:
        raise errors.NotFound("no such studio file", kind="RouteNotFound")
    return _file_response(name, ASSETS[name])


def add_routes(app: web.Application) -> None:
    app.router.add_get("/studio", page)
    app.router.add_get("/studio/", page)
    app.router.add_get("/studio/{name}", asset)
