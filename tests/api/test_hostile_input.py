"""Hostile input at the HTTP boundary, over real HTTP against the real server.

Every row is a request a hostile or broken client sent in the hardening probe
(or one of its kin): it must get a 4xx with an error kind in our JSON
envelope, within ``ANSWER_S``, and the service must answer ``/healthz`` and a
normal request afterwards. The server is started the way ``labelrender api``
starts it (``api.server``: our timeouts, backlog and error envelope), with
short body and idle timeouts so the Slowloris rows stay quick.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import pytest
import redis
from yarl import URL

from labelrender.api import ApiConfig, create_app
from labelrender.api.server import start
from labelrender.store.objects import FilesystemStore
from tests.api.conftest import Caller

ANSWER_S = 5.0  # a hung request fails the row
BODY_TIMEOUT_S = 1.0
IDLE_TIMEOUT_S = 1.0
DEEP = "[" * 1000 + "]" * 1000  # the probe's RecursionError started at 974
HUGE_INT = "1" * 5000  # Python refuses int() past 4,300 digits
LONG = "x" * 5000
ZPL = "^XA^FO20,20^A0N,40^FDHi^FS^XZ"


@dataclass
class Boundary:
    """The running server, a tenant allowed plenty of requests, and a client."""

    port: int
    caller: Caller
    session: aiohttp.ClientSession

    def url(self, path: str) -> URL:
        return URL(f"http://127.0.0.1:{self.port}{path}", encoded=True)

    @property
    def auth(self) -> bytes:
        return f"Authorization: Bearer {self.caller.secret}\r\n".encode()


StartBoundary = Callable[..., Any]


@pytest.fixture
async def start_boundary(redis_db: redis.Redis, object_store: FilesystemStore,
                         make_caller: Callable[..., Caller]) -> AsyncIterator[StartBoundary]:
    runners = []
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=ANSWER_S),
                                    connector=aiohttp.TCPConnector(limit=0))

    async def begin(**overrides: Any) -> Boundary:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = replace(ApiConfig(public_base_url=f"http://127.0.0.1:{port}/v1",
                                   render_timeout_s=5, body_timeout_s=BODY_TIMEOUT_S,
                                   idle_timeout_s=IDLE_TIMEOUT_S), **overrides)
        runners.append(await start(create_app(config, redis_db, object_store), sock=sock))
        return Boundary(port, make_caller("scale"), session)

    yield begin
    await session.close()
    for runner in runners:
        await runner.cleanup()


@pytest.fixture
async def boundary(start_boundary: StartBoundary) -> Boundary:
    service: Boundary = await start_boundary()
    return service


async def assert_still_serving(service: Boundary) -> None:
    async with service.session.get(service.url("/healthz")) as health:
        assert health.status == 200
    async with service.session.get(service.url("/v1/whoami"),
                                   headers=service.caller.headers) as whoami:
        assert whoami.status == 200
        assert (await whoami.json())["tenant_id"] == service.caller.tenant_id


def assert_envelope(body: dict[str, Any], kind: str, param: str | None) -> None:
    error = body["error"]
    assert error["kind"] == kind, error
    assert error["param"] == param, error
    assert error["type"] and error["message"] and error["request_id"].startswith("req_")


# --- JSON bodies, query strings, paths and methods (an HTTP client) ----------------

JSON_ENDPOINTS = [  # (path, a valid-looking body the hostile member is added to)
    ("/v1/labels", {"zpl": ZPL}),
    ("/v1/labels/from-data", {"template_id": "tpl_box", "fields": {"name": "x"}}),
    ("/v1/templates/synthesize", {"input_zpl": ZPL}),
    ("/v1/templates/synthesize/jobs", {"input_zpl": ZPL}),
    ("/v1/keys", {"label": "ci"}),
    ("/v1/webhooks/hook-1", {"url": "https://hooks.example.com/labels"}),
    ("/v1/templates/tpl_box", {"body": "^XA^FN1^FS^XZ", "field_map": {"name": 1}}),
]


def with_member(body: dict[str, Any], member: str, raw_value: str) -> str:
    """``body`` as JSON text with ``"member": raw_value`` spliced in verbatim."""
    return json.dumps(body)[:-1] + f', "{member}": {raw_value}}}'


def hostile_bodies() -> list[Any]:
    rows = []
    for path, body in JSON_ENDPOINTS:
        rows.append(pytest.param("POST", path, with_member(body, "nested", DEEP), {}, 400,
                                 "InvalidJson", None, "depth over 32", id=f"deep-json{path}"))
        rows.append(pytest.param("POST", path, with_member(body, "count", HUGE_INT), {}, 400,
                                 "InvalidJson", None, "over 100 digits", id=f"huge-int{path}"))
    return rows


def surrogate(body: dict[str, Any], member: str, value: Any) -> str:
    """``body`` with ``member`` set to ``value``, its lone surrogates as JSON escapes."""
    return json.dumps({**body, member: value})  # ensure_ascii writes "\ud800" as is


LABELS, FROM_DATA, SYNTH, JOBS, KEYS, HOOK, COMMIT = (body for _, body in JSON_ENDPOINTS)
SURROGATES = [
    ("/v1/labels", surrogate(LABELS, "zpl", "^XA^FD\ud800^FS^XZ"), "zpl"),
    ("/v1/labels/from-data", surrogate(FROM_DATA, "fields", {"name": "A\ud800"}),
     "fields.name"),
    ("/v1/labels/from-data", surrogate(FROM_DATA, "fields", {"na\udc00me": "A"}),
     "fields.na\\udc00me"),
    ("/v1/templates/synthesize", surrogate(SYNTH, "input_zpl", "^XA^FD\ud800^FS^XZ"),
     "input_zpl"),
    ("/v1/templates/synthesize", surrogate(SYNTH, "hint_field_names", ["ok", "b\udfff"]),
     "hint_field_names[1]"),
    ("/v1/templates/synthesize/jobs", surrogate(JOBS, "input_zpl", "^XA\ud800^XZ"),
     "input_zpl"),
    ("/v1/keys", surrogate(KEYS, "label", "\ud800"), "label"),  # was "at most 64 characters"
    ("/v1/webhooks/hook-1", surrogate(HOOK, "url", "https://x\ud800.example.com/"), "url"),
    ("/v1/templates/tpl_box", surrogate(COMMIT, "body", "^XA^FN1^FD\ud800^FS^XZ"), "body"),
    ("/v1/templates/tpl_box", json.dumps({"draft": {**COMMIT, "values": {"name": "\ud800"}}}),
     "draft.values.name"),
]

TEXT_AND_JSON = [
    pytest.param("POST", path, text, {}, 400, "InvalidText", param, "lone UTF-16 surrogate",
                 id=f"surrogate{path}:{param}")
    for path, text, param in SURROGATES
] + [
    pytest.param("POST", "/v1/labels", DEEP, {}, 400, "InvalidJson", None, "depth over 32",
                 id="deep-json-top-level"),
    pytest.param("POST", "/v1/labels", DEEP,
                 {"Idempotency-Key": "k-1"}, 400, "InvalidJson", None, "depth over 32",
                 id="deep-json-with-idempotency-key"),
    pytest.param("POST", "/v1/labels/from-data", with_member(FROM_DATA, "x", HUGE_INT),
                 {"Idempotency-Key": "k-2"}, 400, "InvalidJson", None, "over 100 digits",
                 id="huge-int-with-idempotency-key"),
    pytest.param("POST", "/v1/labels", with_member(LABELS, "x", "NaN"), {}, 400,
                 "InvalidJson", None, "NaN", id="nan"),
    pytest.param("POST", "/v1/labels", with_member(LABELS, "target_dpi", "1e999"), {}, 400,
                 "InvalidJson", None, "out of range", id="infinite-number"),
    pytest.param("POST", "/v1/keys", b'{"label": "\xff"}', {}, 400, "InvalidJson", None,
                 "not UTF-8", id="not-utf8"),
    pytest.param("POST", "/v1/keys", "[1]", {}, 400, "InvalidJson", None, "JSON object",
                 id="not-an-object"),
    # A surrogate *pair* is one character: accepted.
    pytest.param("POST", "/v1/keys", '{"label": "ok \\ud83d\\ude00"}', {}, 201, None, None,
                 None, id="surrogate-pair-is-fine"),
]

QUERIES_PATHS_HEADERS = [
    pytest.param("GET", f"/v1/labels?limit={HUGE_INT}", None, {}, 400, "InvalidLimit",
                 "limit", "integer", id="huge-int/v1/labels?limit"),
    pytest.param("GET", "/v1/labels?limit=%ED%A0%80", None, {}, 400, "InvalidLimit", "limit",
                 None, id="query-surrogate-limit"),
    pytest.param("GET", f"/v1/labels?cursor={LONG}", None, {}, 400, "InvalidCursor",
                 "cursor", None, id="query-long-cursor"),
    pytest.param("GET", "/v1/labels?cursor=%ED%A0%80%00", None, {}, 400, "InvalidCursor",
                 "cursor", None, id="query-odd-cursor"),
    pytest.param("GET", f"/v1/labels?template_id={LONG}", None, {}, 400,
                 "InvalidTemplateId", "template_id", None, id="query-long-template-id"),
    pytest.param("GET", "/v1/labels?template_id=%ff%fe", None, {}, 400,
                 "InvalidTemplateId", "template_id", None, id="query-odd-template-id"),
    pytest.param("GET", "/v1/templates?scope=%ED%A0%80", None, {}, 400, "InvalidScope",
                 "scope", None, id="query-odd-scope"),
    pytest.param("GET", f"/v1/templates?scope={LONG}", None, {}, 400, "InvalidScope",
                 "scope", None, id="query-long-scope"),
    pytest.param("DELETE", f"/v1/keys/{LONG}", None, {}, 404, "KeyNotFound", "prefix", None,
                 id="path-long-key-prefix"),
    pytest.param("DELETE", "/v1/keys/%ED%A0%80%00", None, {}, 404, "KeyNotFound", "prefix",
                 None, id="path-odd-key-prefix"),
    pytest.param("GET", f"/v1/webhooks/{LONG}", None, {}, 422, "InvalidWebhookId", "id",
                 None, id="path-long-webhook-id"),
    pytest.param("POST", "/v1/webhooks/a%00b/test", None, {}, 422, "InvalidWebhookId", "id",
                 None, id="path-odd-webhook-id"),
    pytest.param("POST", "/v1/templates/%ED%A0%80", COMMIT, {}, 422, "InvalidTemplateId",
                 "template_id", None, id="path-odd-template-id"),
    pytest.param("GET", f"/v1/templates/synthesize/jobs/{LONG}", None, {}, 404,
                 "SynthesisJobNotFound", "job_id", None, id="path-long-job-id"),
    pytest.param("GET", f"/v1/files/%ED%A0%80.png?exp={HUGE_INT}&sig=x", None, {}, 403,
                 "SignedUrlRejected", None, None, id="path-odd-file-huge-exp"),
    pytest.param("GET", "/v1/%ED%A0%80", None, {}, 404, "RouteNotFound", None, None,
                 id="path-unknown-route"),
    pytest.param("POST", "/v1/labels", LABELS, {"Idempotency-Key": "k" * 8000}, 400,
                 "InvalidIdempotencyKey", "Idempotency-Key", None, id="header-huge-idem-key"),
    pytest.param("PUT", "/v1/whoami", None, {}, 405, "MethodNotAllowed", None, None,
                 id="method-put-whoami"),
    pytest.param("PATCH", "/v1/labels", None, {}, 405, "MethodNotAllowed", None, None,
                 id="method-patch-labels"),
    pytest.param("DELETE", "/v1/labels/from-data", None, {}, 405, "MethodNotAllowed", None,
                 None, id="method-delete-from-data"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status", "kind", "param", "says"),
    hostile_bodies() + TEXT_AND_JSON + QUERIES_PATHS_HEADERS)
async def test_hostile_request_gets_a_4xx_with_a_kind(
        boundary: Boundary, method: str, path: str, body: str | bytes | dict[str, Any] | None,
        headers: dict[str, str], status: int, kind: str | None, param: str | None,
        says: str | None) -> None:
    data = json.dumps(body) if isinstance(body, dict) else body
    sent = {**boundary.caller.headers, **headers}
    if data is not None:
        sent["Content-Type"] = "application/json"
    async with boundary.session.request(method, boundary.url(path), data=data,
                                        headers=sent) as response:
        answer = await response.json()
        assert response.status == status, answer
        assert response.content_type == "application/json"
        if status == 405:
            assert response.headers["Allow"]
    if kind is not None:
        assert_envelope(answer, kind, param)
        assert says is None or says in answer["error"]["message"]
    await assert_still_serving(boundary)


# --- bytes aiohttp's parser refuses, and slow clients (raw sockets) ----------------

@dataclass(frozen=True)
class RawAnswer:
    status: int | None  # None: the server closed the connection without answering
    headers: dict[str, str]
    body: bytes
    version: str = ""

    @property
    def closes(self) -> bool:
        """The answer says the server closes the connection after it."""
        connection = self.headers.get("connection", "").lower()
        return connection == "close" or (self.version == "HTTP/1.0"
                                         and connection != "keep-alive")


async def exchange(port: int, chunks: list[bytes], pause_s: float = 0.0) -> RawAnswer:
    """Send ``chunks`` (pausing between them) and read one answer, or the close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        async with asyncio.timeout(ANSWER_S):
            for index, chunk in enumerate(chunks):
                if index and pause_s:
                    await asyncio.sleep(pause_s)
                writer.write(chunk)
                await writer.drain()
            return await read_answer(reader)
    finally:
        writer.close()


async def read_answer(reader: asyncio.StreamReader) -> RawAnswer:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as closed:
        assert closed.partial == b""
        return RawAnswer(None, {}, b"")
    status_line, *lines = head.decode("latin-1").strip().split("\r\n")
    headers = {name.strip().lower(): value.strip()
               for name, value in (line.split(":", 1) for line in lines)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    version, status = status_line.split()[:2]
    return RawAnswer(int(status), headers, body, version)


AUTH = b"{auth}"  # replaced by the caller's Authorization header line
POST_LABEL = b"POST /v1/labels HTTP/1.1\r\nHost: t\r\n" + AUTH
JSON_TYPE = b"Content-Type: application/json\r\n"
LABEL_BODY = json.dumps(LABELS).encode()


def post_label(*header_lines: bytes, body: bytes = LABEL_BODY) -> bytes:
    return (POST_LABEL + b"".join(header_lines) + JSON_TYPE
            + b"Content-Length: %d\r\n\r\n" % len(body) + body)


RAW = [
    # (chunks, pause between them, status or None for no answer, kind, the answer
    # closes the connection)
    pytest.param([POST_LABEL + JSON_TYPE + b"Content-Length: 1000\r\n\r\n" + LABEL_BODY[:17]],
                 0.0, 408, "RequestTimeout", True, id="slow-body-declares-1000-sends-17"),
    pytest.param([b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: "], 0.0, None, None, True,
                 id="slow-headers-never-finished"),
    pytest.param([b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: a\x01b\r\n\r\n"], 0.0, 400,
                 "MalformedRequest", True, id="header-control-byte"),
    pytest.param([b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n"],
                 0.0, 400, "LineTooLong", True, id="header-over-8190-bytes"),
    pytest.param([b"GET /healthz HTTP/1.1\r\nHost: t\r\n"
                  + b"".join(b"X-H%d: v\r\n" % n for n in range(200)) + b"\r\n"],
                 0.0, 400, "MalformedRequest", True, id="header-200-of-them"),
    pytest.param([b"GET /healthz HTTP/1.1\r\nHost: t\r\nX A: b\r\n\r\n"], 0.0, 400,
                 "MalformedRequest", True, id="header-name-with-a-space"),
    pytest.param([post_label(b"Content-Length: 2\r\n")], 0.0, 400, "MalformedRequest", True,
                 id="content-length-twice"),
    pytest.param([b"GET /healthz HTTP/9.1\r\nHost: t\r\n\r\n"], 0.0, 400,
                 "MalformedRequest", True, id="http-version-unknown"),
    pytest.param([b"GET /" + b"a/" * 5000 + b" HTTP/1.1\r\nHost: t\r\n\r\n"], 0.0, 400,
                 "LineTooLong", True, id="request-line-over-8190-bytes"),
    pytest.param([POST_LABEL + JSON_TYPE
                  + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
                 0.0, 400, "MalformedRequest", True, id="content-length-with-chunked"),
    pytest.param([POST_LABEL + JSON_TYPE + b"Content-Length: -1\r\n\r\n"], 0.0, 400,
                 "MalformedRequest", True, id="content-length-negative"),
    pytest.param([POST_LABEL + JSON_TYPE + b"Content-Length: " + HUGE_INT.encode()[:40]
                  + b"\r\n\r\n"], 0.0, 400, "MalformedRequest", True,
                 id="content-length-overflowing"),
    pytest.param([POST_LABEL + JSON_TYPE + b"Transfer-Encoding: chunked\r\n\r\nZZ\r\nab\r\n"],
                 0.0, 400, "MalformedRequest", True, id="chunk-size-not-hex"),
    # aiohttp's parser drops a body that turns malformed after the handler has
    # started, and the body stays unfinished: the body timeout answers it.
    pytest.param([POST_LABEL + JSON_TYPE + b"Transfer-Encoding: chunked\r\n\r\n",
                  b"4\r\n{\"zp\r\nZZ\r\n"], 0.2, 408, "RequestTimeout", True,
                 id="chunk-size-not-hex-after-the-headers"),
    pytest.param([b"G\x01T /v1/whoami HTTP/1.1\r\nHost: t\r\n\r\n"], 0.0, 400,
                 "InvalidMethod", True, id="method-with-control-byte"),
    pytest.param([b"FOO /v1/whoami HTTP/1.1\r\nHost: t\r\n" + AUTH + b"\r\n"], 0.0, 400,
                 "InvalidMethod", True, id="method-unknown"),
    pytest.param([b"GET /v1/whoami?\x01 HTTP/1.1\r\nHost: t\r\n\r\n"], 0.0, 400,
                 "InvalidUrl", True, id="query-control-byte"),
    pytest.param([post_label().replace(AUTH, b"Authorization: Bearer \xff\xfe\x80\r\n")],
                 0.0, 401, "Unauthorized", False, id="authorization-non-ascii"),
    pytest.param([post_label().replace(AUTH, b"Authorization: Bearer " + b"k" * 8000
                                       + b"\r\n")],
                 0.0, 401, "Unauthorized", False, id="authorization-8000-bytes"),
    pytest.param([post_label().replace(AUTH, b"Authorization: Bearer a\x7fb\r\n")], 0.0, 400,
                 "MalformedRequest", True, id="authorization-control-byte"),
    pytest.param([post_label(b"Idempotency-Key: \xe9\xff\r\n")], 0.0, 400,
                 "InvalidIdempotencyKey", False, id="idempotency-key-non-ascii"),
    pytest.param([post_label(b"Content-Encoding: gzip\r\n", body=b"not gzip")], 0.0, 400,
                 "IncompleteBody", False, id="body-not-the-declared-gzip"),
]


@pytest.mark.parametrize(("chunks", "pause_s", "status", "kind", "closes"), RAW)
async def test_hostile_bytes_get_our_envelope_or_a_close(
        boundary: Boundary, chunks: list[bytes], pause_s: float, status: int | None,
        kind: str | None, closes: bool) -> None:
    sent = [chunk.replace(AUTH, boundary.auth) for chunk in chunks]
    answer = await exchange(boundary.port, sent, pause_s)
    assert answer.status == status, answer
    if status is not None:
        assert answer.headers["content-type"].startswith("application/json"), answer
        assert answer.headers["x-request-id"].startswith("req_")
        body = json.loads(answer.body)
        assert_envelope(body, str(kind), body["error"]["param"])
        assert answer.closes == closes, answer
    await assert_still_serving(boundary)


async def test_an_idle_keep_alive_connection_is_closed(boundary: Boundary) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", boundary.port)
    try:
        async with asyncio.timeout(ANSWER_S):
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            answer = await read_answer(reader)
            assert answer.status == 200 and "connection" not in answer.headers  # kept alive
            assert await reader.read() == b""  # then closed, idle, by the server
    finally:
        writer.close()
    await assert_still_serving(boundary)


# --- bursts: the Redis pools queue instead of refusing -----------------------------

@pytest.mark.parametrize(("path", "concurrent", "pool"), [
    ("/v1/whoami", 500, 100),  # authentication: the asyncio pool
    ("/v1/usage", 300, 4),  # store calls through AppState.call: the blocking sync pool
    ("/v1/whoami", 300, 2),
])
async def test_a_burst_of_concurrent_requests_all_succeed(
        start_boundary: StartBoundary, path: str, concurrent: int, pool: int) -> None:
    service: Boundary = await start_boundary(redis_max_connections=pool,
                                            redis_pool_timeout_s=ANSWER_S)

    async def one() -> int:
        async with service.session.get(service.url(path),
                                       headers=service.caller.headers) as response:
            await response.read()
            return response.status

    statuses = await asyncio.gather(*(one() for _ in range(concurrent)))
    assert statuses == [200] * concurrent
    await assert_still_serving(service)
