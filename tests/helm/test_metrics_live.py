"""Every metric in helm/metrics.yaml appears on a live /metrics after the
activity that drives it: ``labelrender api``, ``labelrender worker`` and
``labelrender operator`` run as processes (tests/fixtures/tiers.py) against
the session's Redis, a filesystem store and the Kubernetes emulator, driven
over real HTTP, and scraped as Prometheus scrapes them."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import BUILTIN_PLANS, create_key, create_tenant, events, jobs, put_plan
from labelrender.store.plans import plan_from_dict
from tests.api.conftest import slow_zpl
from tests.fixtures.polling import wait_for
from tests.fixtures.tiers import Tier, Tiers, clean_env, free_port, redis_url
from tests.helm.support import metric_list
from tests.operator.bad_input import example
from tests.operator.harness import Cluster, ready

RENDER_DEADLINE_S = 2.0  # the render deadline (the engine stops itself half a second before)
CLAIM_IDLE_MS = 2000  # a job a dead consumer holds is claimed after this
NO_LABELS_PLAN = "metrics-no-labels"


@dataclass
class Caller:
    """A tenant's key and JSON calls to the API."""

    base: str
    secret: str

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.secret}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as answer:
            return answer.code, json.loads(answer.read())


@dataclass
class Live:
    """The three tiers, the Redis they share, the emulated cluster."""

    redis: redis.Redis
    api: Tier
    worker: Tier
    operator: Tier
    cluster: Cluster
    background: list[threading.Thread] = field(default_factory=list)

    def caller(self, plan: str = "pro") -> Caller:
        tenant = create_tenant(self.redis, "Metrics Tests", plan, now=time.time())
        key = create_key(self.redis, tenant.tenant_id, now=time.time())
        return Caller(self.api.url("http", ""), key.secret)

    def in_background(self, work: Callable[[], object]) -> None:
        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        self.background.append(thread)

    def settle(self) -> None:
        """After each test: the worker runs, and requests sent aside are answered."""
        self.worker.resume()
        for thread in self.background:
            thread.join(90)
        self.background.clear()


@pytest.fixture(scope="module")
def tiers(redis_server: redis.Redis, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[Live]:
    redis_server.flushdb()
    tmp = tmp_path_factory.mktemp("tiers")
    cluster = Cluster(tmp)
    put_plan(redis_server, plan_from_dict({"name": NO_LABELS_PLAN, "labels_per_month": 0},
                                          base=BUILTIN_PLANS["sandbox"]))
    running = Tiers(clean_env(
        REDIS_URL=redis_url(redis_server), LABELRENDER_DATA_DIR=str(tmp / "data"),
        LABELRENDER_WEBHOOK_ALLOW_NETWORKS="127.0.0.0/8",
        LABELRENDER_WEBHOOK_BACKOFF_S="0,0,0,0,0", LABELRENDER_WEBHOOK_POLL_S="0.05",
        LABELRENDER_RENDER_DEADLINE_S=str(RENDER_DEADLINE_S),
        LABELRENDER_JOB_CLAIM_IDLE_MS=str(CLAIM_IDLE_MS), LABELRENDER_JOB_CLAIM_INTERVAL_S="0.5",
        LABELRENDER_JOB_READ_BLOCK_MS="100", LABELRENDER_OPERATOR_PEERING="standalone",
        LABELRENDER_RENDER_TIMEOUT_S="60"), tmp)
    try:
        api = running.start_api()
        worker = running.start_worker()
        operator = running.start_operator(cluster.kubeconfig)
        yield Live(redis_server, api, worker, operator, cluster)
    finally:
        running.close()
        cluster.close()
        redis_server.flushdb()


@pytest.fixture
def live(tiers: Live) -> Iterator[Live]:
    yield tiers
    tiers.settle()


# --- the activities ----------------------------------------------------------------

def label(text: str = "") -> str:
    return f"^XA^FO20,20^A0N,40,40^FD{text or uuid.uuid4().hex}^FS^XZ"


def render_new(live: Live) -> None:
    status, body = live.caller().call("POST", "/v1/labels", {"zpl": label()})
    assert status == 200, body


def render_twice(live: Live) -> None:
    caller, zpl = live.caller(), label()
    for cached in (False, True):
        status, body = caller.call("POST", "/v1/labels", {"zpl": zpl})
        assert (status, body.get("cached")) == (200, cached), body


def render_invalid(live: Live) -> None:
    zpl = f"no label here {uuid.uuid4().hex}"  # the engine finds no ^XA: the worker says so
    status, body = live.caller().call("POST", "/v1/labels", {"zpl": zpl})
    assert (status, body["error"]["kind"]) == (422, "InvalidZpl"), body


def render_too_slow(live: Live) -> None:
    """A label over the render limits: the engine works on it up to its work
    cap or its time budget, then refuses it (422 RenderTooComplex)."""
    caller = live.caller()

    def send() -> None:
        status, body = caller.call("POST", "/v1/labels",
                                   {"zpl": slow_zpl(uuid.uuid4().hex, fields=150)})
        assert (status, body["error"]["kind"], body.get("limit") in ("work", "time")) == \
            (422, "RenderTooComplex", True), body

    live.in_background(send)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def render_process_killed(live: Live) -> None:
    """A render process killed from outside mid-render (as the OOM killer
    does): the sandbox replaces it and the job is retried."""
    series, lost = "labelrender_worker_render_processes_replaced_total", {"limit": "lost"}
    before = live.worker.scrape().value(series, **lost)
    caller = live.caller()
    live.in_background(lambda: caller.call(
        "POST", "/v1/labels", {"zpl": slow_zpl(uuid.uuid4().hex, fields=100)}))
    wait_for(lambda: live.worker.scrape().value("labelrender_worker_jobs_in_flight") >= 1,
             timeout=30, what="the worker to take the render")
    # Kill the render processes (the worker's forkserver's children) until one dies
    # mid-render: a single kill after a fixed wait could land before the job reached a
    # process or after a fast machine had finished it.
    deadline = time.monotonic() + 20
    while live.worker.scrape().value(series, **lost) <= before \
            and time.monotonic() < deadline:
        for server in _children(live.worker.process.pid):
            for render_process in _children(server):
                os.kill(render_process, signal.SIGKILL)
        time.sleep(0.1)


def queued_while_paused(live: Live) -> None:
    """A render sent while the worker is stopped waits in the stream (it is
    answered once the worker runs again, after the check)."""
    live.worker.pause()
    time.sleep(0.5)  # a read the worker had open before it stopped has ended
    caller = live.caller()
    live.in_background(lambda: caller.call("POST", "/v1/labels", {"zpl": label()}))


def held_by_a_dead_worker(live: Live) -> None:
    """A job a consumer that died had taken: the live worker claims it."""
    caller = live.caller()
    status, whoami = caller.call("GET", "/v1/whoami")
    assert status == 200
    tenant, content_hash = whoami["tenant_id"], uuid.uuid4().hex + uuid.uuid4().hex
    live.worker.pause()  # so the job goes to the consumer that then dies
    time.sleep(0.5)
    jobs.enqueue(live.redis, jobs.RenderJob(
        tenant=tenant, content_hash=content_hash,
        object_key=f"tenants/{tenant}/labels/{content_hash}.png", zpl=label()))
    assert len(jobs.read(live.redis, "worker-that-died", count=1, block_ms=100)) == 1
    live.worker.resume()


def taken_by_a_consumer(live: Live) -> None:
    """A job a consumer has read and not finished (the worker is stopped, so
    none of its own reads is under way): the jobs in progress rise."""
    caller = live.caller()
    status, whoami = caller.call("GET", "/v1/whoami")
    assert status == 200
    tenant, content_hash = whoami["tenant_id"], uuid.uuid4().hex + uuid.uuid4().hex
    live.worker.pause()
    time.sleep(0.5)
    jobs.enqueue(live.redis, jobs.RenderJob(
        tenant=tenant, content_hash=content_hash,
        object_key=f"tenants/{tenant}/labels/{content_hash}.png", zpl=label()))
    assert len(jobs.read(live.redis, "a-busy-consumer", count=1, block_ms=100)) == 1


def synthesis_queued_while_paused(live: Live) -> None:
    """A synthesis job sent while the worker is stopped waits in its stream."""
    live.worker.pause()
    time.sleep(0.5)
    status, body = live.caller().call("POST", "/v1/templates/synthesize/jobs",
                                      {"input_zpl": SYNTHESIS_OK})
    assert status == 202, body


def event_queued_while_paused(live: Live) -> None:
    """A label event added while the worker (its dispatcher) is stopped waits."""
    status, whoami = live.caller().call("GET", "/v1/whoami")
    assert status == 200
    live.worker.pause()
    time.sleep(0.5)
    tenant = whoami["tenant_id"]
    events.publish(live.redis, events.LabelRendered(
        event_id=events.new_event_id(time.time()), tenant_id=tenant, content_hash="e" * 64,
        object_key=f"tenants/{tenant}/labels/e.png", template_id="tpl_box",
        template_version=1, external_ref=None, cached=True, created_at=time.time()))


def dead_letter(live: Live) -> None:
    """A subscription whose target refuses connections: six attempts, then
    the event goes to the dead-letter stream."""
    caller = live.caller()
    url = f"https://127.0.0.1:{free_port()}/hook"
    status, body = caller.call("POST", "/v1/webhooks/closed-port", {"url": url})
    assert status == 201, body
    status, body = caller.call("POST", "/v1/webhooks/closed-port/test")
    assert status == 202, body


def over_rate(live: Live) -> None:
    caller = live.caller("sandbox")  # 10 requests a minute, 10 at once
    statuses = [caller.call("GET", "/v1/whoami")[0] for _ in range(11)]
    assert statuses[-1] == 429, statuses


def over_quota(live: Live) -> None:
    status, body = live.caller(NO_LABELS_PLAN).call("POST", "/v1/labels", {"zpl": label()})
    assert (status, body["error"]["kind"]) == (402, "QuotaExceeded"), body


def over_concurrency(live: Live) -> None:
    """The sandbox plan renders one label at a time: a second while the first
    waits (the worker is stopped) is refused."""
    caller = live.caller("sandbox")
    live.worker.pause()
    live.in_background(lambda: caller.call("POST", "/v1/labels", {"zpl": label()}))
    wait_for(lambda: live.api.scrape().value("labelrender_render_queue_depth") >= 1,
             what="the first render to be queued")
    status, body = caller.call("POST", "/v1/labels", {"zpl": label()})
    assert (status, body["error"]["kind"]) == (429, "RateLimitExceeded"), body


def synthesis_job(zpl: str) -> Callable[[Live], None]:
    def activity(live: Live) -> None:
        status, body = live.caller().call("POST", "/v1/templates/synthesize/jobs",
                                          {"input_zpl": zpl})
        assert status == 202, body

    return activity


def apply_invalid_template(live: Live) -> None:
    template = example("LabelTemplate")
    template["metadata"]["name"] = f"refused-{uuid.uuid4().hex[:8]}"
    template["spec"]["fieldMap"] = {"ship_to_name": 1}  # the body uses ^FN1 to ^FN4
    live.cluster.apply(template)


def apply_template(live: Live) -> None:
    template = example("LabelTemplate")
    live.cluster.apply(template)
    wait_for(lambda: ready(live.cluster.find("labeltemplates", template["metadata"]["name"])),
             what="the template to be ready")


def whoami(live: Live) -> None:
    assert live.caller().call("GET", "/v1/whoami")[0] == 200


SYNTHESIS_OK = "^XA^FO30,20^A0N,30^FDSHIP TO: GRACE HOPPER^FS^FO30,240^BCN,100^FD1Z999^FS^XZ"
SYNTHESIS_FAILS = "^XA^PW32000^LL32000^FO1,1^A0N,30^FDREF 12345^FS^XZ"  # InvalidInputZpl

# (series, tier, labels, activity): the series rises after the activity.
ROWS: list[tuple[str, str, dict[str, str], Callable[[Live], None]]] = [
    ("labelrender_render_queue_depth", "api", {}, queued_while_paused),
    ("labelrender_render_queue_lag", "api", {}, queued_while_paused),
    ("labelrender_render_queue_pending", "api", {}, taken_by_a_consumer),
    ("labelrender_synthesis_queue_lag", "api", {}, synthesis_queued_while_paused),
    ("labelrender_webhook_event_lag", "api", {}, event_queued_while_paused),
    ("labelrender_render_duration_seconds_count", "worker", {"outcome": "rendered"}, render_new),
    ("labelrender_render_duration_seconds_count", "worker", {"outcome": "InvalidZpl"},
     render_invalid),
    ("labelrender_render_duration_seconds_count", "worker", {"outcome": "RenderTooComplex"},
     render_too_slow),
    ("labelrender_renders_total", "api", {"outcome": "rendered"}, render_new),
    ("labelrender_cache_requests_total", "api", {"result": "miss"}, render_new),
    ("labelrender_cache_requests_total", "api", {"result": "hit"}, render_twice),
    ("labelrender_render_cache_hits_total", "api", {}, render_twice),
    ("labelrender_webhook_attempts_total", "worker", {"outcome": "retry"}, dead_letter),
    ("labelrender_webhook_attempts_total", "worker", {"outcome": "dead_letter"}, dead_letter),
    ("labelrender_webhook_dead_letters", "api", {}, dead_letter),
    ("labelrender_webhook_attempt_seconds_count", "worker", {}, dead_letter),
    ("labelrender_limit_refusals_total", "api", {"kind": "RateLimitExceeded"}, over_rate),
    ("labelrender_limit_refusals_total", "api", {"kind": "QuotaExceeded"}, over_quota),
    ("labelrender_limit_refusals_total", "api", {"kind": "ConcurrencyLimited"},
     over_concurrency),
    ("labelrender_synthesis_jobs_total", "api", {"state": "queued"},
     synthesis_job(SYNTHESIS_OK)),
    ("labelrender_synthesis_jobs_total", "worker", {"state": "succeeded"},
     synthesis_job(SYNTHESIS_OK)),
    ("labelrender_synthesis_jobs_total", "worker", {"state": "failed"},
     synthesis_job(SYNTHESIS_FAILS)),
    ("labelrender_operator_reconciles_total", "operator",
     {"kind": "LabelTemplate", "outcome": "Stored"}, apply_template),
    ("labelrender_operator_objects_not_ready", "operator",
     {"kind": "LabelTemplate", "reason": "InvalidTemplate"}, apply_invalid_template),
    ("labelrender_http_requests_total", "api",
     {"method": "GET", "route": "/v1/whoami", "status": "200"}, whoami),
    ("labelrender_http_request_duration_seconds_count", "api",
     {"method": "GET", "route": "/v1/whoami"}, whoami),
    ("labelrender_worker_jobs_in_flight", "worker", {}, render_too_slow),
    ("labelrender_worker_jobs_total", "worker", {"outcome": "rendered"}, render_new),
    ("labelrender_worker_job_seconds_count", "worker", {}, render_new),
    ("labelrender_worker_claimed_total", "worker", {}, held_by_a_dead_worker),
    ("labelrender_worker_labels_settled_total", "worker", {"settlement": "first_store"},
     render_new),
    ("labelrender_worker_render_processes_replaced_total", "worker", {"limit": "lost"},
     render_process_killed),
]


def metric_of(series: str) -> str:
    for suffix in ("_count", "_sum", "_bucket"):
        if series.endswith(suffix) and series[:-len(suffix)] in {m["name"] for m in metric_list()}:
            return series[:-len(suffix)]
    return series


# Metrics seen live by another test: one that falls rather than rises.
SEEN_ELSEWHERE = {
    ("labelrender_redis_up", "api"): "tests/api/test_health.py (0 without Redis, 1 with it)",
}


def test_every_listed_metric_has_a_row() -> None:
    """So every metric SREs read is seen live, on the tier the list names."""
    covered = {(metric_of(series), tier) for series, tier, _, _ in ROWS} | set(SEEN_ELSEWHERE)
    listed = {(m["name"], tier) for m in metric_list() for tier in m["tiers"]}
    assert listed - covered == set()
    assert covered - listed == set()


@pytest.mark.parametrize(("series", "tier", "labels", "activity"), ROWS,
                         ids=[f"{s}-{'-'.join(v.values()) or 'all'}" for s, _, v, _ in ROWS])
def test_the_metric_rises_after_its_activity(
        live: Live, series: str, tier: str, labels: dict[str, str],
        activity: Callable[[Live], None]) -> None:
    process: Tier = getattr(live, tier)
    before = process.scrape().value(series, **labels)
    activity(live)
    after = wait_for(lambda: (v := process.scrape().value(series, **labels)) > before and v,
                     timeout=60, what=f"{series}{labels} on {tier} to rise above {before}")
    assert after > before


def test_worker_and_operator_probes_answer(tiers: Live) -> None:
    for tier in (tiers.worker, tiers.operator):
        assert tier.probe("/healthz") == (200, {"status": "ok"})
        assert tier.probe("/readyz") == (200, {"status": "ready"})

