"""Serving the app: aiohttp's server with our timeouts, backlog and error envelope.

aiohttp answers a request it cannot parse (control bytes in a header, a line
over 8190 bytes, Content-Length with Transfer-Encoding...) itself, before any
route or middleware runs, with a ``text/plain`` 400 built by
``RequestHandler.handle_error``. aiohttp offers no public hook there, so
``ApiRunner`` makes its server build connections with ``EnvelopeHandler``,
whose ``handle_error`` answers with our JSON envelope instead. That relies on
two internals of aiohttp 3.x, pinned by ``tests/api/test_hostile_input.py``:
``AppRunner._make_server`` and ``Server``'s ``_loop``/``_kwargs``.

What still gets no envelope, because no answer is sent at all: a connection
closed by the idle timer (idle, or its headers unfinished, for
``idle_timeout_s``), and a connection whose answer had already started when
the error came.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal
import socket
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from aiohttp import http_exceptions, web
from aiohttp.web_protocol import RequestHandler

from labelrender.api.context import STATE

log = logging.getLogger("labelrender.api")

# aiohttp's parser errors, most specific first: (exception class, kind).
_PARSE_ERROR_KINDS: tuple[tuple[type[Exception], str], ...] = (
    (http_exceptions.LineTooLong, "LineTooLong"),
    (http_exceptions.BadHttpMethod, "InvalidMethod"),
    (http_exceptions.InvalidURLError, "InvalidUrl"),
    (http_exceptions.InvalidHeader, "InvalidHeader"),
    # The rest (BadStatusLine, framing: Content-Length with Transfer-Encoding,
    # a bad chunk size...) is "MalformedRequest".
)
# Every kind aiohttp's parser errors are answered with (the OpenAPI document's 400s).
PARSE_ERROR_KINDS = tuple(kind for _, kind in _PARSE_ERROR_KINDS) + ("MalformedRequest",)
_MAX_MESSAGE_CHARS = 200  # aiohttp quotes the offending bytes; keep the gist


def parse_error_kind(exc: BaseException | None) -> str:
    for error_class, kind in _PARSE_ERROR_KINDS:
        if isinstance(exc, error_class):
            return kind
    return "MalformedRequest"


def _first_line(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return first.rstrip(":")[:_MAX_MESSAGE_CHARS]


class EnvelopeHandler(RequestHandler):
    """aiohttp's connection handler, with its own error answers in our envelope."""

    __slots__ = ()

    def handle_error(self, request: web.BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if request.writer.output_size > 0:  # as aiohttp: too late for an answer
            raise ConnectionError("an answer was already started; closing the connection")
        request_id = "req_" + secrets.token_hex(12)
        if status >= 500:
            log.error("error outside the app (request %s)", request_id, exc_info=exc)
            kind, text = "InternalError", "internal error; quote the request id when reporting it"
        else:
            kind = parse_error_kind(exc)
            reason = _first_line(message or "") or HTTPStatus(status).phrase
            text = f"the request could not be parsed: {reason}"
            log.info("unparseable request from %s (%s): %s", request.remote, request_id, reason)
        body = {"error": {"type": "invalid_request_error" if status < 500 else "api_error",
                          "message": text, "param": None, "kind": kind,
                          "request_id": request_id}}
        response = web.json_response(body, status=status, headers={
            "X-Request-Id": request_id, "X-Content-Type-Options": "nosniff"})
        response.force_close()
        return response


class EnvelopeServer(web.Server):
    """The protocol factory: one ``EnvelopeHandler`` per connection."""

    def __call__(self) -> RequestHandler:
        return EnvelopeHandler(self, loop=self._loop, **self._kwargs)


class ApiRunner(web.AppRunner):
    """``AppRunner`` for the API: the envelope on parse errors, and the idle
    (keep-alive) timeout from the app's ``ApiConfig``."""

    def __init__(self, app: web.Application, **kwargs: Any) -> None:
        kwargs.setdefault("keepalive_timeout", app[STATE].config.idle_timeout_s)
        super().__init__(app, **kwargs)

    async def _make_server(self) -> web.Server:
        base = await super()._make_server()
        return EnvelopeServer(base.request_handler, request_factory=base.request_factory,
                              handler_cancellation=base.handler_cancellation,
                              loop=base._loop, **base._kwargs)


async def start(app: web.Application, *, host: str | None = None, port: int | None = None,
                sock: socket.socket | None = None, **runner_kwargs: Any) -> ApiRunner:
    """Start serving ``app`` on ``host``:``port`` (or an already bound ``sock``),
    with the app's listen backlog; ``await runner.cleanup()`` stops it."""
    backlog = app[STATE].config.listen_backlog
    runner = ApiRunner(app, **runner_kwargs)
    await runner.setup()
    site: web.BaseSite
    if sock is not None:
        site = web.SockSite(runner, sock, backlog=backlog)
    else:
        site = web.TCPSite(runner, host, port, backlog=backlog)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def listen(host: str, port: int, backlog: int, *, reuse_port: bool = False) -> socket.socket:
    """A socket bound and listening on ``host``:``port``, so a port already in use
    is found before anything else starts; ``OSError`` (EADDRINUSE) otherwise.

    ``reuse_port``: ``SO_REUSEPORT``, so each of ``serve``'s API processes listens
    on the port with a socket of its own and the kernel spreads new connections
    over them. Only sockets that all ask for it share a port: a listener
    without it (another ``serve`` checking its port) still finds the port taken."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        # As aiohttp's own sites: a port in TIME_WAIT binds, one with a listener does not.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    return sock


async def serve(app: web.Application, host: str, port: int, *,
                sock: socket.socket | None = None, ready: Callable[[], None] | None = None
                ) -> None:
    """Serve until SIGINT or SIGTERM, then finish in-flight requests and clean up;
    a second signal meanwhile acts as it would without us (Ctrl-C interrupts).
    ``sock``: a socket ``listen`` made; ``ready`` is called once requests are served."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        loop.add_signal_handler(signum, stop.set)
    runner = await (start(app, sock=sock) if sock is not None
                    else start(app, host=host, port=port))
    if ready is not None:
        ready()
    try:
        await stop.wait()
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
        await runner.cleanup()


def run(app: web.Application, host: str, port: int, *, sock: socket.socket | None = None,
        ready: Callable[[], None] | None = None) -> None:
    """Blocking ``serve`` in a new event loop (the ``api`` and ``serve`` commands):
    uvloop's, whose transports cost a third of asyncio's own per request on a
    cached hit, or asyncio's where uvloop is not installed (Windows)."""
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(serve(app, host, port, sock=sock, ready=ready))


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop
