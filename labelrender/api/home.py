"""GET /: where a person who opened the service's address goes next. A browser
asking for HTML is sent to the studio; anything else gets the addresses as JSON."""

from __future__ import annotations

from aiohttp import web

from labelrender.api.context import PUBLIC, route_policy

LINKS = {"name": "labelrender", "studio": "/studio", "docs": "/docs",
         "openapi": "/v1/openapi.json", "health": "/readyz"}


@route_policy(PUBLIC)
async def home(request: web.Request) -> web.StreamResponse:
    if "text/html" in request.headers.get("Accept", ""):
        return web.Response(status=302, headers={"Location": "/studio"})
    return web.json_response(LINKS)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", home)
