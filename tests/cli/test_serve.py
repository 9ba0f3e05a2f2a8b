"""``labelrender serve``: one command on a fresh data directory runs the whole
service, prints the demo key once, and keeps its state across a restart."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("labelrender.api.app", reason="serve needs the API tier")

ZPL = "^XA^FO50,50^A0N,40,40^FDServe me^FS^XZ"
KEY = re.compile(r"API key \(shown once\): (svc_live_[0-9a-f]{64})")
TENANT = re.compile(r"Sandbox demo tenant: (tnt_[a-z2-7]{26})")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(data_dir: Path, port: int) -> Iterator[list[str]]:
    """Run ``labelrender serve`` until the block ends; yields its stdout lines
    up to the API banner (its last line, the studio's address). Stopping it with
    SIGTERM must exit cleanly."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
    env.update(LABELRENDER_DATA_DIR=str(data_dir), LABELRENDER_WORKERS="1",
               LABELRENDER_RENDER_PROCESSES="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "labelrender.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True)
    assert process.stdout is not None
    try:
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Studio at"):
            line = process.stdout.readline()
            assert line, f"serve exited early: {lines}"
            lines.append(line.strip())
        wait_for_http(port)
        yield lines
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for_http(port: int) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert time.monotonic() < deadline, "the API never listened"
            time.sleep(0.1)


def render(port: int, api_key: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/labels", data=json.dumps({"zpl": ZPL}).encode(),
        headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def test_serve_renders_with_the_demo_key_and_survives_a_restart(tmp_path: Path) -> None:
    port = free_port()
    with serving(tmp_path / "data", port) as banner:
        assert banner[-1] == (f"Studio at http://127.0.0.1:{port}/studio; API reference at "
                              f"http://127.0.0.1:{port}/docs")
        [tenant_id] = [m[1] for line in banner if (m := TENANT.search(line))]
        [api_key] = [m[1] for line in banner if (m := KEY.search(line))]
        first = render(port, api_key)
        assert (first["status"], first["cached"]) == ("ok", False)
        with urllib.request.urlopen(first["url"], timeout=10) as png:
            assert png.read().startswith(b"\x89PNG")

    with serving(tmp_path / "data", port) as banner:
        assert not any(KEY.search(line) for line in banner)  # shown once, ever
        assert any(tenant_id in line for line in banner)
        again = render(port, api_key)  # same key, same tenant, same stored label
        assert (again["cached"], again["url"]) == (True, first["url"])


@pytest.mark.parametrize("command", ["serve", "api"])
def test_a_port_in_use_is_one_line_and_burns_no_key(tmp_path: Path, command: str) -> None:
    """The port is bound first: taken, the command says so in one line (how to pick
    another included) and exits 3, before a demo key is made or shown; the next start
    on a free port still shows the key."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
    env.update(LABELRENDER_DATA_DIR=str(tmp_path / "data"), LABELRENDER_EMBEDDED_REDIS="true",
               LABELRENDER_WORKERS="1",
               LABELRENDER_RENDER_PROCESSES="1")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "labelrender.cli", command, "--port", str(port)],
            env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    assert "Traceback" not in done.stderr and "API key" not in done.stdout
    assert "listening" not in done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert line == (f"labelrender {command}: port {port} on 127.0.0.1 is already in use "
                    "(another labelrender serve?); choose another with --port N or "
                    "LABELRENDER_PORT=N")
    if command == "serve":
        with serving(tmp_path / "data", free_port()) as lines:
            assert any(KEY.search(line) for line in lines), lines


def test_a_second_serve_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    """It would share the first one's Redis and labels without a word."""
    with serving(tmp_path / "data", free_port()):
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
        second = subprocess.run(
            [sys.executable, "-m", "labelrender.cli", "serve", "--port", str(free_port())],
            env={**env, "LABELRENDER_DATA_DIR": str(tmp_path / "data")},
            capture_output=True, text=True, timeout=120)
    assert second.returncode == 3, second.stderr
    assert "another labelrender serve (pid " in second.stderr
    assert "LABELRENDER_DATA_DIR=OTHER_DIR" in second.stderr and "Traceback" not in second.stderr
