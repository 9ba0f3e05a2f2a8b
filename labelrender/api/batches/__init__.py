"""Batch renders: one template, up to 10,000 rows, one PDF (``endpoints``
answers, ``rows`` reads the body, ``driver`` renders the rows, ``output``
builds the PDF and ZIP)."""

from __future__ import annotations

from aiohttp import web

from labelrender.api.batches import endpoints
from labelrender.api.batches.driver import start_driver, stop_driver
from labelrender.api.context import STATE


def add_routes(app: web.Application) -> None:
    """The routes, and the driver: every API process drives batches unless
    ``batch_drivers`` is off."""
    endpoints.add_routes(app)
    if app[STATE].config.batch_drivers:
        app.on_startup.append(start_driver)
        app.on_cleanup.append(stop_driver)
