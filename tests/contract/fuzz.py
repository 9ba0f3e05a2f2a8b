"""Contract fuzzing: schemathesis against a live ``labelrender serve``.

``python -m tests.contract.fuzz [--examples N] [--seed S] [--max-time S]``

It starts ``labelrender serve`` on a fresh data directory, creates a Scale
tenant with ``labelrender admin tenant create`` (so the rate limit does not
dominate) and runs schemathesis on every operation of ``/v1/openapi.json``,
positive and negative data, with the checks: no 5xx, status code documented,
content type as documented, body matching its schema, and invalid data
refused. It prints the figures and exits 1 on any failure.

The whole run happens in a private network namespace (``unshare --net``)
with only loopback up: the fuzzer subscribes webhooks to made-up public
addresses and names, and nothing it makes the service resolve or deliver to
may leave this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

IN_NAMESPACE = "LABELRENDER_FUZZ_NETNS"
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_schema_conformance,negative_data_rejection")
EXIT_NO_NAMESPACE = 4


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.contract.fuzz",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--examples", type=int, default=30, help="examples per operation")
    parser.add_argument("--seed", type=int, default=None, help="schemathesis seed")
    parser.add_argument("--max-time", type=float, default=None,
                        help="keep fuzzing until this many seconds have passed")
    # One worker: several threads in one schemathesis process have raised
    # internal errors on Python 3.11 (a race in its source inspection).
    parser.add_argument("--workers", type=int, default=1, help="schemathesis workers")
    parser.add_argument("--report", type=Path, default=None, help="JSON summary to write")
    args = parser.parse_args(argv)
    if os.environ.get(IN_NAMESPACE) != "1":
        return in_private_network(argv)
    with tempfile.TemporaryDirectory(prefix="labelrender-fuzz-") as scratch:
        return fuzz(args, Path(scratch))


def in_private_network(argv: list[str]) -> int:
    """Run this module again inside a new network namespace with loopback up."""
    command = f"ip link set lo up && exec {sys.executable} -m tests.contract.fuzz \"$@\""
    env = {**os.environ, IN_NAMESPACE: "1"}
    for unshare in (["unshare", "--net"], ["unshare", "--user", "--map-root-user", "--net"]):
        probe = subprocess.run([*unshare, "true"], capture_output=True)
        if probe.returncode == 0:
            return subprocess.call([*unshare, "sh", "-c", command, "fuzz", *argv], env=env)
    print("no private network namespace (unshare --net) can be made here; refusing to fuzz "
          "on the host's network", file=sys.stderr)
    return EXIT_NO_NAMESPACE


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def service_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "S3_BUCKET", "S3_ENDPOINT_URL")}
    env.update(LABELRENDER_DATA_DIR=str(data_dir), LABELRENDER_WORKERS="1",
               LABELRENDER_RENDER_PROCESSES="2", LABELRENDER_LOG_LEVEL="WARNING")
    return env


def start_serve(data_dir: Path, port: int, log: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "labelrender.cli", "serve", "--port", str(port)],
        env=service_env(data_dir), stdout=subprocess.PIPE, stderr=log.open("w"), text=True,
        start_new_session=True)
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"serve exited early; see {log}")
        if line.startswith("API at"):
            break
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("the API never listened") from None
            time.sleep(0.1)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def scale_key(data_dir: Path) -> str:
    created = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "admin", "tenant", "create",
         "--name", "Contract fuzzing", "--plan", "scale"],
        env=service_env(data_dir), capture_output=True, text=True, check=True)
    return str(json.loads(created.stdout)["api_key"])


def seed_data(base: str, key: str) -> None:
    """What the document's examples name, so the examples phase reaches real
    resources: the template ``tpl_shipping`` and the webhook ``warehouse-1``
    (on a public address: deliveries to it fail at once in this namespace)."""
    from labelrender.api.openapi import examples

    for path, body in (("/v1/templates/tpl_shipping", examples.COMMIT_REQUEST),
                       ("/v1/webhooks/warehouse-1", {"url": "https://93.184.216.34/hooks"})):
        request = urllib.request.Request(
            base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 201, (path, response.status)


def key_still_works(base: str, key: str) -> bool:
    """The run's key must survive it (a revoked key would turn the rest into 401s)."""
    request = urllib.request.Request(base + "/v1/whoami",
                                     headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return bool(response.status == 200)
    except urllib.error.HTTPError:
        return False


def fetch_document(base: str, into: Path) -> Path:
    """The served document, as a file: schemathesis leaves out the operation it
    loaded the document from, and ``GET /v1/openapi.json`` is fuzzed too."""
    with urllib.request.urlopen(base + "/v1/openapi.json", timeout=30) as response:
        into.write_bytes(response.read())
    return into


def schemathesis_command(args: argparse.Namespace, document: Path, base: str, key: str,
                         report: Path) -> list[str]:
    # The module, not the ``st`` script: pip may put scripts off the PATH.
    command = [sys.executable, "-m", "schemathesis.cli", "run", str(document), "--url", base,
               "--checks", CHECKS, "--max-examples", str(args.examples),
               "--workers", str(args.workers), "--header", f"Authorization: Bearer {key}",
               "--request-timeout", "60", "--suppress-health-check", "all",
               "--report", "json", "--report-json-path", str(report),
               "--continue-on-failure", "--no-color"]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    if args.max_time is not None:
        command += ["--max-time", str(args.max_time)]
    return command


def fuzz(args: argparse.Namespace, scratch: Path) -> int:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server_log = scratch / "serve.log"
    started = time.monotonic()
    serve = start_serve(scratch / "data", port, server_log)
    try:
        key = scale_key(scratch / "data")
        seed_data(base, key)
        report = scratch / "schemathesis.json"
        document = fetch_document(base, scratch / "openapi.json")
        # In the scratch directory: schemathesis keeps a cache where it runs.
        result = subprocess.run(schemathesis_command(args, document, base, key, report),
                                env={**os.environ, "NO_COLOR": "1"}, cwd=scratch)
        key_survived = key_still_works(base, key)
    finally:
        stop(serve)
    summary = summarize(report, time.monotonic() - started, result.returncode)
    summary["key_survived"] = key_survived
    print(json.dumps(summary, indent=1))
    if args.report is not None:
        args.report.write_text(json.dumps(summary, indent=1) + "\n")
    if result.returncode != 0:
        print(f"serve's log: {server_log_tail(server_log)}", file=sys.stderr)
    return 0 if result.returncode == 0 and key_survived else 1


def server_log_tail(log: Path) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-40:])


def summarize(report: Path, seconds: float, exit_code: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    return {"seconds": round(seconds, 1), "schemathesis_exit": exit_code, "report": data}


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
