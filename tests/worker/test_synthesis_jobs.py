"""Synthesis jobs in the worker: the runner, claims of a dead worker's entries,
finished-but-unacknowledged entries, record lifetime, and the Service thread."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from labelrender.store import BUILTIN_PLANS, consume, read_usage
from labelrender.store import synthesis_jobs as jobs
from labelrender.store.keys import group
from labelrender.store.settings import Settings
from labelrender.synth.engine import make_engine
from labelrender.worker.run import background_services
from labelrender.worker.sandbox import Sandbox
from labelrender.worker.services import ServiceThreads
from labelrender.worker.synthesis import SynthesisRunner

TENANT = "tnt_" + "c" * 26
ZPL = ("^XA^PW812^LL1218^FO40,40^A0N,24^FDSHIP TO:^FS^FO40,70^A0N,30^FDJane Doe^FS"
       "^FO40,105^A0N,30^FD12 Harbour Road^FS^FO40,140^A0N,30^FD94107 San Francisco^FS"
       "^FO40,200^BCN,100^FD>:1Z999AA10123456784^FS^XZ")
DAY = 86400.0
ENGINE = make_engine("heuristic")


def queue(r: redis.Redis, zpl: str = ZPL, now: float = 1_800_000_000.0) -> jobs.SynthesisJob:
    return jobs.create(r, TENANT, {"input_zpl": zpl, "hint_field_names": []}, "req_test",
                       now=now, billed_at=now)


MakeRunner = Callable[..., SynthesisRunner]


@pytest.fixture
def runner(engine_sandbox: Sandbox) -> MakeRunner:
    """``runner(r, name, claim_idle_ms=60_000, now=...)``: a runner on the
    session's engine processes."""
    def make(r: redis.Redis, name: str, claim_idle_ms: int = 60_000,
             now: float = 1_800_000_000.0) -> SynthesisRunner:
        return SynthesisRunner(r, ENGINE, consumer=name, sandbox=engine_sandbox,
                               claim_idle_ms=claim_idle_ms, block_ms=50, clock=lambda: now)

    return make


def state_of(r: redis.Redis, job: jobs.SynthesisJob) -> str:
    found = jobs.get(r, TENANT, job.job_id)
    assert found is not None
    return found.state


def test_a_dead_workers_job_is_claimed_and_finished(redis_db: redis.Redis,
                                                    runner: MakeRunner) -> None:
    jobs.ensure_group(redis_db)
    job = queue(redis_db)
    assert len(jobs.read(redis_db, "dead-worker", count=1, block_ms=1)) == 1  # then it died
    live = runner(redis_db, "live", claim_idle_ms=60_000)
    assert live.run_once() == 0  # a busy-looking entry is left alone...
    assert state_of(redis_db, job) == "queued"
    rescuer = runner(redis_db, "rescuer", claim_idle_ms=0)
    assert rescuer.run_once() == 1  # ...until it has been idle past the claim time
    done = jobs.get(redis_db, TENANT, job.job_id)
    assert done is not None and done.state == "succeeded" and done.result is not None
    assert done.result["draft"]["values"]["ship_to_name"] == "Jane Doe"
    assert done.result["_synthesis_meta"]["request_id"] == "req_test"
    assert jobs.backlog(redis_db) == 0


def test_a_job_finished_before_the_crash_is_only_acknowledged(redis_db: redis.Redis,
                                                              runner: MakeRunner) -> None:
    jobs.ensure_group(redis_db)
    job = queue(redis_db)
    jobs.read(redis_db, "dead-worker", count=1, block_ms=1)
    jobs.finish(redis_db, job, now=job.created_at + 5, result={"status": "ok", "mark": 1})
    assert runner(redis_db, "rescuer", claim_idle_ms=0).run_once() == 1
    done = jobs.get(redis_db, TENANT, job.job_id)
    assert done is not None and done.result == {"status": "ok", "mark": 1}
    assert jobs.backlog(redis_db) == 0


@pytest.mark.parametrize(("zpl", "state", "kind"), [
    (ZPL, "succeeded", None),
    ("^XA^PW32000^LL32000^FO1,1^A0N,30^FDREF 12345^FS^XZ", "failed", "RenderTooComplex"),
])
def test_records_live_seven_days_from_creation(
    redis_db: redis.Redis, runner: MakeRunner, zpl: str, state: str, kind: str | None,
) -> None:
    created = time.time()
    job = queue(redis_db, zpl, now=created)
    key = f"lr:{{g:{group(TENANT)}}}:tenant:{TENANT}:synthesis_job:{job.job_id}"
    assert 7 * DAY - 60 <= redis_db.pttl(key) / 1000 <= 7 * DAY
    runner(redis_db, "w", now=created + DAY).run_once()  # finished a day later
    done = jobs.get(redis_db, TENANT, job.job_id)
    assert done is not None and done.state == state and done.finished_at == created + DAY
    assert (done.error or {}).get("kind") == kind
    assert 6 * DAY - 60 <= redis_db.pttl(key) / 1000 <= 6 * DAY


def test_the_service_thread_runs_queued_jobs(redis_db: redis.Redis, runner: MakeRunner) -> None:
    threads = ServiceThreads([runner(redis_db, "svc")])
    threads.start()
    try:
        job = queue(redis_db)
        deadline = time.monotonic() + 20
        while state_of(redis_db, job) != "succeeded" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        threads.stop()
    assert state_of(redis_db, job) == "succeeded"


def test_every_worker_runs_a_synthesis_runner(redis_db: redis.Redis, tmp_path: Path,
                                              engine_sandbox: Sandbox) -> None:
    settings = Settings(data_dir=tmp_path)
    runners = [s for s in background_services(settings, redis_db, engine_sandbox)
               if isinstance(s, SynthesisRunner)]
    assert len(runners) == 1 and runners[0].engine.model == "labelrender-heuristic-1"


def test_a_job_over_a_render_limit_fails_final_and_gives_the_unit_back(
        redis_db: redis.Redis, runner: MakeRunner) -> None:
    """Synthesis renders in the worker's sandbox: a label over an engine limit (a
    text box larger than any label) fails there, not in the worker, and is not
    tried again."""
    plan = BUILTIN_PLANS["pro"]
    consume(redis_db, TENANT, "syntheses", plan, overages=True, now=1_800_000_000.0)
    job = queue(redis_db, "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ")
    assert runner(redis_db, "w").run_once() == 1
    done = jobs.get(redis_db, TENANT, job.job_id)
    assert done is not None and done.state == "failed" and done.error is not None
    assert done.error["kind"] == "RenderTooComplex"
    assert "text box" in done.error["message"]
    assert read_usage(redis_db, TENANT, plan, now=1_800_000_000.0)["syntheses"].used == 0
    assert jobs.backlog(redis_db) == 0
