"""``serve`` with two API processes behind one port, over real processes and
real HTTP: a render asked of both at once is rendered once and answered by
both, and answered to the one waiting even when the process that claimed it
dies; a plan changed elsewhere is in force in both on their next request;
/metrics adds both processes up, whichever answers it; another serve cannot
join the port; a killed API process
is replaced and leaves nothing behind; SIGINT (Ctrl-C) stops everything and
``serve`` exits 0.

Which API process holds a connection is read from the kernel's tables (the
server end of the connection in ``/proc/net/tcp``, its socket among the
process's descriptors), so each test drives both processes on purpose.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from labelrender.cli.api_processes import api_settings
from labelrender.store import (
    BUILTIN_PLANS,
    connect,
    get_plan,
    jobs,
    plan_from_dict,
    put_plan,
    read_usage,
)
from labelrender.store.settings import Settings
from tests.cli.test_serve import free_port, wait_for_http
from tests.cli.test_supervision import (
    SETTLE_S,
    create_tenant,
    descendants,
    kill_embedded_redis,
    label,
    left_behind,
    processes,
    wait_until,
)
from tests.fixtures.polling import wait_for

pytest.importorskip("labelrender.api.app", reason="serve needs the API tier")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc; SO_REUSEPORT spreading is Linux's")

API_PROCESSES = 2
PROCESS_NAME = "labelrender-api"
REQUEST_TIMEOUT_S = 60.0
TRIES = 200  # new connections until each API process holds one


@dataclass
class Serve:
    process: subprocess.Popen[str]
    port: int
    data_dir: Path
    log: Path
    tenant_id: str
    api_key: str
    conns: list[http.client.HTTPConnection] = field(default_factory=list)

    def api_pids(self) -> set[int]:
        return api_processes_of(self.process.pid)

    def connection_to(self, pid: int) -> http.client.HTTPConnection:
        """A keep-alive connection that API process ``pid`` accepted."""
        for _ in range(TRIES):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT_S)
            status, _ = ask(conn, "GET", "/healthz")
            assert status == 200
            if holder(conn, self.port, self.api_pids()) == pid:
                self.conns.append(conn)
                return conn
            conn.close()
        raise AssertionError(f"no connection reached API process {pid} in {TRIES} tries")

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


def api_processes_of(serve_pid: int) -> set[int]:
    found = set()
    for proc in processes():
        if proc.ppid == serve_pid and proc.state != "Z":
            try:
                if Path(f"/proc/{proc.pid}/comm").read_text().strip() == PROCESS_NAME:
                    found.add(proc.pid)
            except OSError:
                continue
    return found


def holder(conn: http.client.HTTPConnection, port: int, pids: set[int]) -> int | None:
    """The process holding the server end of ``conn``."""
    assert conn.sock is not None
    client_port = conn.sock.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1], fields[2]
        if int(local.split(":")[1], 16) == port and int(remote.split(":")[1], 16) == client_port:
            inode = fields[9]
    assert inode is not None, "the server end of the connection is not in /proc/net/tcp"
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                if os.readlink(fd) == f"socket:[{inode}]":
                    return pid
        except OSError:
            continue
    return None


def ask(conn: http.client.HTTPConnection, method: str, path: str, body: dict[str, Any] | None
        = None, api_key: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if api_key is not None:
        headers["Authorization"] = f"Bearer {api_key}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, json.loads(data) if data else {}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """``serve`` with two API processes and one worker; stopped with SIGINT at the
    end, which must leave nothing running and exit 0."""
    tmp = tmp_path_factory.mktemp("api-processes")
    data_dir, log, port = tmp / "data", tmp / "serve.log", free_port()
    tenant_id, api_key = create_tenant(data_dir)
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "S3_BUCKET") and not k.startswith("LABELRENDER_")}
    env.update(LABELRENDER_DATA_DIR=str(data_dir), LABELRENDER_RENDER_PROCESSES="2",
               LABELRENDER_RENDER_DEADLINE_S="30",  # a busy machine must not turn renders 422
               LABELRENDER_RENDER_TIMEOUT_S="120")  # a render claim outlasts the client
    with log.open("a") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "labelrender.cli", "serve", "--port", str(port),
             "--api-processes", str(API_PROCESSES), "--workers", "1"],
            env=env, stdout=subprocess.PIPE, stderr=sink, text=True, start_new_session=True)
    assert process.stdout is not None
    service = Serve(process, port, data_dir, log, tenant_id, api_key)
    try:
        lines = []
        while not (line := process.stdout.readline()).startswith("API at"):
            assert line, f"serve exited early: {log.read_text()[-3000:]}"
            lines.append(line)
        assert f"serve: {API_PROCESSES} API processes, 1 workers x 2 render processes" in \
            lines[0], lines
        wait_for_http(port)
        assert len(service.api_pids()) == API_PROCESSES
        yield service
        service.close()
        tree = descendants(process.pid)
        process.send_signal(signal.SIGINT)  # Ctrl-C at the terminal reaches serve only
        assert process.wait(timeout=90) == 0, log.read_text()[-3000:]
        wait_until(lambda: not [p for p in processes()
                                if p.pid in {q.pid for q in tree} and p.state != "Z"],
                   SETTLE_S, "a process outlived serve")
        assert "Traceback" not in log.read_text()
    finally:
        if process.poll() is None:  # a failed test: leave nothing running
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            kill_embedded_redis(data_dir)


def test_a_render_asked_of_both_processes_at_once_is_rendered_once(serve: Serve) -> None:
    first, second = sorted(serve.api_pids())
    conns = [serve.connection_to(first), serve.connection_to(second)]
    body = {"zpl": label(f"both-{time.time_ns()}", fields=12)}  # about a third of a second
    answers: list[tuple[int, dict[str, Any]]] = []
    start = threading.Barrier(len(conns))

    def post(conn: http.client.HTTPConnection) -> None:
        start.wait()
        answers.append(ask(conn, "POST", "/v1/labels", body, serve.api_key))

    threads = [threading.Thread(target=post, args=(conn,)) for conn in conns]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(REQUEST_TIMEOUT_S + 10)
    assert [status for status, _ in answers] == [200, 200], answers
    (_, one), (_, other) = answers
    assert (one["content_hash"], one["url"]) == (other["content_hash"], other["url"])
    assert sorted([one["cached"], other["cached"]]) == [False, True]
    r = connect(data_dir=serve.data_dir)  # serve's embedded Redis, as admin joins it
    try:
        usage = read_usage(r, serve.tenant_id, get_plan(r, "scale"), now=time.time())
        assert usage["labels"].used == 1  # billed once, by the process that rendered
    finally:
        r.close()


def test_a_plan_changed_elsewhere_is_in_force_in_every_process_within_seconds(
        serve: Serve) -> None:
    conns = [serve.connection_to(pid) for pid in sorted(serve.api_pids())]
    for conn in conns:
        status, whoami = ask(conn, "GET", "/v1/whoami", api_key=serve.api_key)
        assert (status, whoami["plan"]["max_dpi"]) == (200, 600), whoami
    r = connect(data_dir=serve.data_dir)
    try:
        # As the operator or `admin` does: the stored plan, through Redis.
        put_plan(r, plan_from_dict({"max_dpi": 300}, base=BUILTIN_PLANS["scale"]))
        for conn in conns:  # each process reads plans at most STALENESS_S late
            wait_for(lambda conn=conn: ask(conn, "GET", "/v1/whoami", api_key=serve.api_key
                                           )[1]["plan"]["max_dpi"] == 300,
                     what="the process to read the plan", every_s=0.2)
            status, refused = ask(conn, "POST", "/v1/labels",
                                  {"zpl": label("dpi"), "target_dpi": 600}, serve.api_key)
            assert status == 403 and "300 dpi" in refused["error"]["message"], refused
    finally:
        put_plan(r, BUILTIN_PLANS["scale"])
        r.close()


def test_a_waiter_is_answered_when_the_holders_process_dies(serve: Serve) -> None:
    """The process that claimed a render is killed once its job is queued; the
    worker still renders and stores the label, and the request waiting on the
    claim in the other process is answered with it, well before the claim
    expires (120 s of render timeout here, past the client's patience)."""
    holder_pid, waiter_pid = sorted(serve.api_pids())
    conns = [serve.connection_to(holder_pid), serve.connection_to(waiter_pid)]
    [worker] = workers_of(serve.process.pid)
    body = {"zpl": label(f"orphan-{time.time_ns()}")}
    answers: dict[int, tuple[int, dict[str, Any]] | None] = {}

    def post(index: int) -> None:
        try:
            answers[index] = ask(conns[index], "POST", "/v1/labels", body, serve.api_key)
        except (OSError, http.client.HTTPException):  # the holder's connection dies with it
            answers[index] = None

    r = connect(data_dir=serve.data_dir)
    os.kill(worker, signal.SIGSTOP)  # the job waits in the stream
    try:
        holder = threading.Thread(target=post, args=(0,))
        holder.start()
        wait_until(lambda: jobs.backlog(r) > 0, SETTLE_S, "the job was never queued")
        waiter = threading.Thread(target=post, args=(1,))
        waiter.start()
        time.sleep(0.5)  # the waiter on the claim (if it is later, it finds a stored label)
        os.kill(holder_pid, signal.SIGKILL)
        holder.join(REQUEST_TIMEOUT_S)
    finally:
        os.kill(worker, signal.SIGCONT)
    waiter.join(REQUEST_TIMEOUT_S + 10)
    assert answers[0] is None
    status, answer = answers[1] or (0, {})
    assert (status, answer.get("cached")) == (200, True), answers
    wait_until(lambda: len(serve.api_pids()) == API_PROCESSES
               and all(listening(pid, serve.port) for pid in serve.api_pids()),
               SETTLE_S, "the killed API process was not replaced")
    r.close()


def workers_of(serve_pid: int) -> set[int]:
    return {p.pid for p in processes() if p.ppid == serve_pid and "spawn_main" in p.cmdline
            and p.state != "Z"} - api_processes_of(serve_pid)


def test_metrics_add_up_over_the_processes(serve: Serve) -> None:
    """Whichever process a scrape reaches, /metrics counts every process's requests."""
    conns = [serve.connection_to(pid) for pid in sorted(serve.api_pids())]
    before = healthz_answered(scrape(conns[0]))
    for n, conn in enumerate(conns):
        for _ in range(n + 2):  # 2 on the first process, 3 on the second
            assert ask(conn, "GET", "/healthz")[0] == 200
    scrapes = [scrape(conn) for conn in conns]
    assert [healthz_answered(text) for text in scrapes] == [before + 5, before + 5]
    for text in scrapes:  # a fleet gauge once, not once a process
        assert len([line for line in text.splitlines()
                    if line.startswith("labelrender_render_queue_depth ")]) == 1, text


def scrape(conn: http.client.HTTPConnection) -> str:
    conn.request("GET", "/metrics")
    return conn.getresponse().read().decode()


def healthz_answered(metrics: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
               if line.startswith("labelrender_http_requests_total{")
               and 'route="/healthz"' in line and 'status="200"' in line)


def test_a_second_serve_on_the_port_is_refused(serve: Serve, tmp_path: Path) -> None:
    """The API processes share the port with each other only: another serve
    (its own data dir, several API processes too) finds it taken, in one line."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "S3_BUCKET") and not k.startswith("LABELRENDER_")}
    env.update(LABELRENDER_DATA_DIR=str(tmp_path / "other"))
    done = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "serve", "--port", str(serve.port),
         "--api-processes", "2", "--workers", "1"],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"port {serve.port} on 127.0.0.1 is already in use" in line


def test_a_killed_api_process_is_replaced_and_leaves_nothing(serve: Serve) -> None:
    before = serve.api_pids()
    victim = min(before)
    survivor_conn = serve.connection_to(max(before))
    os.kill(victim, signal.SIGKILL)
    wait_until(lambda: len(serve.api_pids() - before) == 1 and victim not in serve.api_pids(),
               SETTLE_S, "no new API process")
    wait_until(lambda: not left_behind({victim}), SETTLE_S,
               f"the dead API process left processes: {left_behind({victim})}")
    wait_until(lambda: not [p for p in processes()
                            if p.ppid == serve.process.pid and p.state == "Z"],
               SETTLE_S, "serve left a zombie")
    status, _ = ask(survivor_conn, "GET", "/v1/whoami", api_key=serve.api_key)
    assert status == 200  # the other one answered throughout
    [heir] = serve.api_pids() - before
    wait_until(lambda: listening(heir, serve.port), SETTLE_S, "the new API process never listened")
    conn = serve.connection_to(heir)
    status, answer = ask(conn, "POST", "/v1/labels", {"zpl": label(f"heir-{time.time_ns()}")},
                         serve.api_key)
    assert (status, answer["cached"]) == (200, False), answer
    assert f"(pid {victim}) was killed by SIGKILL" in serve.log.read_text()


def listening(pid: int, port: int) -> bool:
    """``pid`` holds a socket listening on ``port``."""
    inodes = {line.split()[9] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
              if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16) == port}
    try:
        return any(os.readlink(fd).removeprefix("socket:[").rstrip("]") in inodes
                   for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


@pytest.mark.parametrize(("variables", "count", "engine_processes"), [
    ({}, 1, 2),  # one API process: as `labelrender api`
    ({}, 4, 1),  # several: one engine process each, unless set
    ({"LABELRENDER_API_ENGINE_PROCESSES": "3"}, 4, 3),
])
def test_what_the_api_processes_run_with(monkeypatch: pytest.MonkeyPatch,
                                         variables: dict[str, str], count: int,
                                         engine_processes: int) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    child = api_settings(Settings(health_port=9100), "unix:///tmp/r.sock", 8123, count)
    assert (child.redis_url, child.port, child.health_port) == ("unix:///tmp/r.sock", 8123, None)
    assert child.api_engine_processes == engine_processes
