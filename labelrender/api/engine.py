"""The API's engine processes (ARCHITECTURE.md "No engine work runs in the API
process").

Synchronous synthesis (``POST /v1/templates/synthesize``) and the template
check of a commit (``POST /v1/templates/:id``) render labels. They run in a
small ``Sandbox`` of their own, the one the render workers use: each call under
the render deadline and memory ceiling, in the tenants' fair share, so the
API process's memory stays flat whatever the input. At most
``engine_processes + engine_queue`` calls are in progress at once; past that
the answer is 503 ``AgentOverloaded`` at once, never a growing queue.

The sandbox starts when the app does (its first start imports the engine in a
forkserver, about a second) and stops with it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from aiohttp import web

from labelrender.api import errors
from labelrender.api.config import ApiConfig
from labelrender.api.context import STATE
from labelrender.worker.sandbox import (
    OverLimit,
    ProcessLost,
    Sandbox,
    SandboxBusy,
    SandboxClosed,
    SandboxLimits,
)

log = logging.getLogger("labelrender.api")

T = TypeVar("T")


class EngineProcesses:
    """The app's sandbox, started in the background and used from handlers."""

    def __init__(self, config: ApiConfig) -> None:
        self._config = config
        self._capacity = config.engine_processes + config.engine_queue
        self._in_progress = 0
        self._lock = threading.Lock()
        self._sandbox: Sandbox | None = config.engine_sandbox
        self._owned = config.engine_sandbox is None
        # One thread per call in progress: never more, so none waits for a thread.
        self._threads = ThreadPoolExecutor(self._capacity,
                                           thread_name_prefix="labelrender-engine")

    async def call(self, tenant_id: str, param: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in an engine process. Over a limit: 422
        ``RenderTooComplex`` naming ``param``; too many calls: 503."""
        if self._in_progress >= self._capacity:
            raise errors.AgentOverloaded(
                "too many template checks and syntheses are in progress; retry shortly",
                retry_after=self._config.retry_after_s)
        self._in_progress += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._threads, self._call, tenant_id, fn, args)
        except OverLimit as exc:
            raise errors.RenderTooComplex(exc.message, param=param,
                                          extra={"limit": exc.limit}) from exc
        except SandboxBusy as exc:
            raise errors.AgentOverloaded(str(exc), retry_after=self._config.retry_after_s) \
                from exc
        except (ProcessLost, SandboxClosed) as exc:
            raise errors.ServiceUnavailable("the engine was interrupted; retry shortly",
                                            retry_after=self._config.retry_after_s) from exc
        finally:
            self._in_progress -= 1

    def start(self) -> None:
        """Start the sandbox (blocking: run it off the event loop)."""
        self._get()

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            sandbox, self._sandbox = self._sandbox, None
        if sandbox is not None and self._owned:
            sandbox.close()

    def _call(self, tenant_id: str, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        return self._get().call(tenant_id, fn, *args)

    def _get(self) -> Sandbox:
        with self._lock:
            if self._sandbox is None:
                config = self._config
                self._sandbox = Sandbox(
                    config.engine_processes,
                    SandboxLimits(config.render_deadline_s, config.render_memory_mb),
                    max_waiting=config.engine_queue)
            return self._sandbox


ENGINE_PROCESSES = web.AppKey("labelrender_engine_processes", EngineProcesses)


def engine_processes(app: web.Application) -> EngineProcesses:
    """The app's engine processes, made on first use while the routes are added."""
    if ENGINE_PROCESSES not in app:
        engine = EngineProcesses(app[STATE].config)
        app[ENGINE_PROCESSES] = engine

        async def start(_app: web.Application) -> None:
            asyncio.get_running_loop().run_in_executor(None, _start_quietly, engine)

        async def stop(_app: web.Application) -> None:
            await asyncio.get_running_loop().run_in_executor(None, engine.close)

        app.on_startup.append(start)
        app.on_cleanup.append(stop)
    return app[ENGINE_PROCESSES]


def _start_quietly(engine: EngineProcesses) -> None:
    """Start in the background; a failure here is retried by the first call."""
    try:
        engine.start()
    except Exception:
        log.exception("the engine processes did not start; the first call tries again")
