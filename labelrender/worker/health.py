"""The probes of the processes that serve no HTTP of their own, render workers
and the operator: ``GET /healthz`` (liveness) and ``GET /readyz`` (readiness)
on ``LABELRENDER_HOST``:``LABELRENDER_HEALTH_PORT``, as the chart's probes ask.

Each process says what its probes check, as ``Check``s: each finds None when
all is well, or the problem in a sentence. A check runs on a thread of its own
and gets ``CHECK_TIMEOUT_S`` to answer (a Redis that does not answer must not
hang the probe). Any problem makes the answer a 503 listing them all.

- worker: alive while its consumer loop goes round (``loop_turns``); ready
  while Redis answers;
- operator: alive while it answers; ready once Kopf has started
  (``flag_set``) and while Redis answers.

The operator serves the probes in its own event loop (``serve_probes``); a
worker, whose loop is not asyncio, on a thread of their own (``ProbeThread``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import redis
from aiohttp import web

from labelrender.store.redis_conn import REDIS_ERRORS

CHECK_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class Check:
    """``find()``: None, or what is wrong with ``what``."""

    what: str
    find: Callable[[], str | None]


@dataclass(frozen=True)
class Probes:
    """What ``/healthz`` (``live``) and ``/readyz`` (``ready``) check."""

    live: Sequence[Check] = ()
    ready: Sequence[Check] = ()


def redis_answers(r: redis.Redis) -> Check:
    def find() -> str | None:
        try:
            r.ping()
        except REDIS_ERRORS as exc:
            return f"Redis does not answer: {exc}"
        return None

    return Check("Redis", find)


def flag_set(flag: threading.Event, problem: str) -> Check:
    """Well once ``flag`` is set; ``problem`` until then."""
    return Check(problem, lambda: None if flag.is_set() else problem)


def loop_turns(last_turn: Callable[[], float], within_s: float, what: str) -> Check:
    """Well while ``last_turn()`` (a ``time.monotonic`` time) is under
    ``within_s`` seconds old: the loop it times is not stuck."""
    def find() -> str | None:
        idle = time.monotonic() - last_turn()
        if idle <= within_s:
            return None
        return f"{what} has not gone round for {idle:.0f} s (more than {within_s:.0f} s)"

    return Check(what, find)


async def problems_of(checks: Sequence[Check]) -> list[str]:
    """Every check at once, each on a thread and within ``CHECK_TIMEOUT_S``."""
    answers = await asyncio.gather(*(_run(check) for check in checks))
    return [problem for problem in answers if problem is not None]


async def _run(check: Check) -> str | None:
    try:
        return await asyncio.wait_for(asyncio.to_thread(check.find), CHECK_TIMEOUT_S)
    except TimeoutError:
        return f"{check.what}: no answer within {CHECK_TIMEOUT_S:.0f} s"


def probe_app(probes: Probes) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        return _answer(await problems_of(probes.live), ok="ok", failing="unhealthy")

    async def readyz(_request: web.Request) -> web.Response:
        return _answer(await problems_of(probes.ready), ok="ready", failing="unavailable")

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    return app


def _answer(problems: list[str], *, ok: str, failing: str) -> web.Response:
    if problems:
        return web.json_response({"status": failing, "problems": problems}, status=503)
    return web.json_response({"status": ok})


async def serve_probes(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Start serving ``app`` in the running event loop; the caller cleans the
    runner up. Raises OSError when the port cannot be bound."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


class ProbeThread:
    """``probes`` served on a daemon thread with its own event loop, for a
    process whose own loop is not asyncio."""

    def __init__(self, probes: Probes, host: str, port: int) -> None:
        self._app = probe_app(probes)
        self._where = (host, port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="health",
                                        daemon=True)
        self._runner: web.AppRunner | None = None

    def start(self) -> None:
        """Serving once this returns; raises OSError when the port cannot be bound."""
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(serve_probes(self._app, *self._where),
                                                  self._loop)
        try:
            self._runner = future.result()
        except BaseException:
            self._stop_loop()
            raise

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
            self._runner = None
        self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
