"""The operator's probes: ``GET /healthz`` (the process answers) and ``GET
/readyz`` (Kopf has started and Redis answers), on ``LABELRENDER_HEALTH_PORT``,
as the chart's liveness and readiness probes ask."""

from __future__ import annotations

import asyncio
import threading

import redis
from aiohttp import web

PING_TIMEOUT_S = 2.0


def probe_app(r: redis.Redis, started: threading.Event) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def readyz(_request: web.Request) -> web.Response:
        problems = [] if started.is_set() else ["the operator is starting"]
        try:
            await asyncio.wait_for(asyncio.to_thread(r.ping), PING_TIMEOUT_S)
        except (redis.RedisError, TimeoutError) as exc:
            problems.append(f"Redis does not answer: {exc or 'timeout'}")
        if problems:
            return web.json_response({"status": "unavailable", "problems": problems},
                                     status=503)
        return web.json_response({"status": "ready"})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    return app


async def serve_probes(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Start serving ``app``; the caller cleans the runner up."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
