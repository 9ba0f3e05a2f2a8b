"""One webhook delivery on the wire: payload, signature, and a guarded POST.

The POST goes only to addresses ``webhook_targets`` allows, checked on the
address actually connected to: names are resolved by ``CheckedResolver``,
which returns only checked addresses (DNS rebinding gets nothing to connect
to), and literal addresses, which aiohttp never resolves, are checked before
the request. TLS still verifies the certificate against the URL's host name.
Redirects are not followed (DECISIONS.md "Timeouts").
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import socket
import ssl
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from labelrender.store.clock import iso
from labelrender.store.events import EVENT_VERSION, LabelRendered
from labelrender.store.webhook_targets import (
    Address,
    Resolver,
    TargetPolicy,
    TargetRejected,
    check_address,
    check_host_name,
    literal_address,
    normal_host,
    resolve_checked,
    split_target,
)

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_ID_HEADER = "X-Service-Event-Id"
TOPIC_HEADER = "X-Service-Topic"
USER_AGENT = "labelrender-webhooks/1"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """``t=<unix>,v1=<hex>``: HMAC-SHA256 of ``"<t>."`` + raw body (spec "Events")."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def payload(event: LabelRendered, url: str, delivered_at: float) -> bytes:
    """The JSON body of spec "Events"; ``data.test`` only on test deliveries. A
    ``batch.completed`` event's data is the batch's summary and its PDF's URL."""
    data: dict[str, Any] = {**event.batch, "url": url} if event.batch is not None else {
        "content_hash": event.content_hash, "external_ref": event.external_ref,
        "template_id": event.template_id, "template_version": event.template_version,
        "url": url, "cached": event.cached,
    }
    if event.test:
        data["test"] = True
    body = {"event": event.topic, "event_id": event.event_id, "event_version": EVENT_VERSION,
            "delivered_at": iso(delivered_at), "tenant_id": event.tenant_id, "data": data}
    return json.dumps(body, separators=(",", ":")).encode()


def headers(event: LabelRendered, secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {"Content-Type": "application/json",
            SIGNATURE_HEADER: signature(secret, timestamp, body),
            EVENT_ID_HEADER: event.event_id, TOPIC_HEADER: event.topic,
            "User-Agent": USER_AGENT}


@dataclass(frozen=True)
class Outcome:
    """How one POST ended: a status code, or an error (timeout, network, refused)."""

    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class RefusedAddress(OSError):
    """Raised inside the connector: the name resolves only to refused addresses."""


class CheckedResolver(AbstractResolver):
    """Resolves with ``resolver`` and hands aiohttp only addresses the policy allows."""

    def __init__(self, resolver: Resolver, policy: TargetPolicy) -> None:
        self._resolver = resolver
        self._policy = policy

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            addresses = await asyncio.to_thread(self._checked, host, port)
        except TargetRejected as exc:
            raise RefusedAddress(str(exc)) from exc
        wanted = [a for a in addresses if family in (socket.AF_UNSPEC, _family(a))]
        if not wanted:
            raise RefusedAddress(f"{host!r} has no allowed address of the wanted family")
        return [ResolveResult(hostname=host, host=str(a), port=port, family=_family(a),
                              proto=0, flags=socket.AI_NUMERICHOST) for a in wanted]

    def _checked(self, host: str, port: int) -> list[Address]:
        literal = literal_address(host)
        if literal is not None:
            return [check_address(literal, self._policy)]
        name = normal_host(host)
        check_host_name(name)
        return resolve_checked(name, port, self._resolver, self._policy)

    async def close(self) -> None:
        return None


def _family(address: Address) -> socket.AddressFamily:
    return socket.AF_INET6 if address.version == 6 else socket.AF_INET


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """The system's trusted CAs, plus the operator's ``ca_file`` when given
    (a private install's CA, or the test receiver's)."""
    context = ssl.create_default_context()
    if ca_file is not None:
        context.load_verify_locations(cafile=str(ca_file))
    return context


class Sender:
    """An aiohttp session whose every connection passed the target checks."""

    def __init__(self, *, resolver: Resolver, policy: TargetPolicy, timeout_s: float,
                 ca_file: Path | None) -> None:
        self._policy = policy
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._timeout_s = timeout_s
        connector = aiohttp.TCPConnector(resolver=CheckedResolver(resolver, policy),
                                         use_dns_cache=False, ssl=tls_context(ca_file),
                                         limit=0)
        self._session = aiohttp.ClientSession(connector=connector, trust_env=False)

    async def close(self) -> None:
        await self._session.close()

    async def post(self, url: str, body: bytes, request_headers: dict[str, str]) -> Outcome:
        started = time.perf_counter()
        status, error = await self._post(url, body, request_headers)
        return Outcome(status, error, int((time.perf_counter() - started) * 1000))

    async def _post(self, url: str, body: bytes, request_headers: dict[str, str]
                    ) -> tuple[int | None, str | None]:
        try:
            self._check_literal(url)
            async with self._session.post(url, data=body, headers=request_headers,
                                          allow_redirects=False,
                                          timeout=self._timeout) as response:
                return response.status, None
        except TargetRejected as exc:
            return None, f"target refused: {exc}"
        except TimeoutError:
            return None, f"timed out after {self._timeout_s:g} s"
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, RefusedAddress):
                return None, f"target refused: {exc.os_error}"
            return None, f"connection failed: {exc}"
        except (aiohttp.ClientError, OSError) as exc:
            return None, f"network error: {type(exc).__name__}: {exc}"

    def _check_literal(self, url: str) -> None:
        """aiohttp connects to an IP-literal host without resolving it, so the
        resolver never sees it: check it here."""
        host, _port = split_target(url)
        literal = literal_address(host)
        if literal is not None:
            check_address(literal, self._policy)
