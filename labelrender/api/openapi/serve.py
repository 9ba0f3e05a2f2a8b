"""Serving the contract: ``GET /v1/openapi.json`` and the reference page at ``/docs``.

Neither needs a key. The page is Redoc (``labelrender/api/docs``, shipped in
the package); its Content-Security-Policy lets it load from this origin only,
so a browser never fetches anything from the internet for it (Redoc's badge
image is refused, and the page works without it).
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from aiohttp import web

from labelrender.api.context import PUBLIC, route_policy

DOCS_CSP = ("default-src 'none'; script-src 'self' blob:; worker-src 'self' blob:; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_STATIC_MAX_AGE = "public, max-age=3600"


@functools.cache
def document_bytes() -> bytes:
    """The document as served, and as ``docs/openapi.json`` holds it."""
    from labelrender.api.openapi.document import build_document  # it imports the handlers

    return (json.dumps(build_document(), indent=2, ensure_ascii=False) + "\n").encode()


@functools.cache
def static_file(name: str) -> bytes:
    return resources.files("labelrender.api").joinpath("docs", name).read_bytes()


@route_policy(PUBLIC)
async def openapi_document(request: web.Request) -> web.StreamResponse:
    return web.Response(body=document_bytes(), content_type="application/json",
                        headers={"Access-Control-Allow-Origin": "*"})


@route_policy(PUBLIC)
async def docs_page(request: web.Request) -> web.StreamResponse:
    return web.Response(body=static_file("index.html"), content_type="text/html",
                        charset="utf-8", headers={"Content-Security-Policy": DOCS_CSP})


@route_policy(PUBLIC)
async def docs_script(request: web.Request) -> web.StreamResponse:
    return web.Response(body=static_file("redoc.standalone.js"), content_type="text/javascript",
                        charset="utf-8", headers={"Cache-Control": _STATIC_MAX_AGE})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/openapi.json", openapi_document)
    app.router.add_get("/docs", docs_page)
    app.router.add_get("/docs/redoc.standalone.js", docs_script)
