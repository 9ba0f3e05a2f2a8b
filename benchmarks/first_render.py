"""The first render after ``/readyz`` says ready, against the renders after it.

Starts ``labelrender serve`` on a fresh data directory (its tenant made
beforehand with ``labelrender admin tenant create``), polls ``/readyz`` every
20 ms, then times the first render at once and ``--renders`` more, each a
different label (no cache hit). Prints the time to ready, the first render, the
median of the rest and their ratio (target: at most 2x).

    python benchmarks/first_render.py [--renders 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def make_key(env: dict[str, str]) -> str:
    created = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "admin", "tenant", "create", "--name",
         "bench", "--plan", "scale"], env=env, capture_output=True, text=True, check=True)
    return str(json.loads(created.stdout)["api_key"])


def ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def render_s(port: int, key: str, text: str) -> float:
    body = json.dumps({"zpl": f"^XA^FO50,50^A0N,50^FD{text}^FS^FO50,150^BCN,80^FD{text}^FS^XZ"})
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/labels", data=body.encode(), method="POST",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        answer.read()
    return time.perf_counter() - start


def one_run(renders: int, run: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "LABELRENDER_DATA_DIR": data, "LABELRENDER_LOG_LEVEL": "WARNING"}
        key = make_key(env)
        port = free_port()
        start = time.perf_counter()
        serve = subprocess.Popen([sys.executable, "-m", "labelrender.cli", "serve", "--port",
                                  str(port)], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            while not ready(port):
                if serve.poll() is not None:
                    raise SystemExit(f"serve exited {serve.returncode}")
                time.sleep(0.02)
            to_ready = time.perf_counter() - start
            first = render_s(port, key, f"R{run}FIRST")
            rest = [render_s(port, key, f"R{run}N{n}") for n in range(renders)]
        finally:
            os.killpg(serve.pid, signal.SIGINT)
            serve.wait(timeout=90)
    return to_ready, first, statistics.median(rest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    firsts: list[float] = []
    medians: list[float] = []
    for run in range(args.runs):
        to_ready, first, median = one_run(args.renders, run)
        firsts.append(first)
        medians.append(median)
        print(f"run {run + 1}: ready after {to_ready:.2f} s; first render {first * 1000:.1f} ms, "
              f"median of the next {args.renders} {median * 1000:.1f} ms: "
              f"{first / median:.1f}x")
    if args.runs > 1:
        first, median = statistics.median(firsts), statistics.median(medians)
        print(f"over {args.runs} runs: first render median {first * 1000:.1f} ms, median "
              f"render {median * 1000:.1f} ms: {first / median:.1f}x (target at most 2x); "
              f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
