"""The consumer loop: many jobs, graceful stop, and a worker killed mid-job."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
import redis

from labelrender.store import jobs, keys
from labelrender.store.settings import Settings, build_object_store
from labelrender.worker.consumer import Consumer
from labelrender.worker.render import JobHandler
from labelrender.worker.run import build_consumer
from labelrender.worker.sandbox import Sandbox
from tests.worker.conftest import SLOW_ZPL, MakeSandbox, label_zpl, make_job, redis_url_of
from tests.worker.test_sandbox import parent_of
from tests.worker.test_sandbox import running as process_running


@contextmanager
def running(consumer: Consumer) -> Iterator[Consumer]:
    thread = threading.Thread(target=consumer.run, daemon=True)
    thread.start()
    try:
        yield consumer
    finally:
        consumer.stop()
        thread.join(timeout=60)
        assert not thread.is_alive()


def wait_until(condition: Callable[[], bool], timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def delivered_unacked(r: redis.Redis) -> int:
    return sum(jobs.pending_by_consumer(r).values())


def settings_for(data_dir: Path, **overrides: object) -> Settings:
    return Settings(data_dir=data_dir, s3_bucket=None, job_read_block_ms=100,
                    **overrides)  # type: ignore[arg-type]


def start_worker_process(r: redis.Redis, data_dir: Path) -> subprocess.Popen[bytes]:
    """``labelrender worker`` in its own session, on the test Redis."""
    env = {**os.environ, "REDIS_URL": redis_url_of(r), "LABELRENDER_DATA_DIR": str(data_dir),
           "LABELRENDER_RENDER_PROCESSES": "1", "LABELRENDER_JOB_READ_BLOCK_MS": "100",
           "LABELRENDER_RENDER_DEADLINE_S": "30"}  # the slow label must finish on a busy machine
    env.pop("S3_BUCKET", None)
    return subprocess.Popen([sys.executable, "-m", "labelrender.cli", "worker"], env=env,
                            start_new_session=True)


def test_every_job_is_replied(redis_db: redis.Redis, tmp_path: Path,
                              engine_sandbox: Sandbox) -> None:
    consumer = build_consumer(settings_for(tmp_path), redis_db, engine_sandbox, name="c1")
    with running(consumer):
        sent = [jobs.enqueue(redis_db, make_job(label_zpl(f"Label {n}"))) for n in range(10)]
        replies = [jobs.wait_reply(redis_db, job, timeout_s=30) for job in sent]
    assert all(reply is not None and reply.ok for reply in replies)
    assert jobs.backlog(redis_db) == 0
    assert len(list((tmp_path / "objects").rglob("*.png"))) == 10


def test_a_consumer_warms_up_before_it_says_ready_and_leaves_no_trace(
        redis_db: redis.Redis, tmp_path: Path, engine_sandbox: Sandbox) -> None:
    """Before its first "ready": a Redis connection open for each job thread (the
    first jobs would open them), and nothing stored, queued or counted."""
    client = redis.Redis.from_url(redis_url_of(redis_db), decode_responses=True,
                                  client_name="warm-up-test")
    consumer = build_consumer(settings_for(tmp_path), client, engine_sandbox, name="c-warm")
    before = set(redis_db.keys("*"))
    with running(consumer):
        assert consumer.reading.wait(60)
        named = [c for c in redis_db.client_list() if c.get("name") == "warm-up-test"]
        assert len(named) >= engine_sandbox.processes + settings_for(tmp_path).job_read_ahead
        assert not list((tmp_path / "objects").rglob("*.png"))
        assert jobs.backlog(redis_db) == 0
        added = set(redis_db.keys("*")) - before  # its presence, and the streams' groups
        assert all(name == keys.ready_workers() or redis_db.type(name) == "stream"
                   for name in added)
    client.close()


def test_stop_finishes_started_renders_and_hands_back_the_rest(
        redis_db: redis.Redis, tmp_path: Path, make_sandbox: MakeSandbox,
        engine_sandbox: Sandbox) -> None:
    """Two render processes, four slow jobs of one tenant: one renders, three
    wait (a tenant may hold one of two processes). Stopped, the consumer
    finishes the render it started and hands the others back, so another
    consumer takes them at once, not after the 60 s claim timeout."""
    jobs.ensure_group(redis_db)
    sent = [jobs.enqueue(redis_db, make_job(f"{SLOW_ZPL[:-3]}^FXstop {n}^XZ")) for n in range(4)]
    handler = JobHandler(redis_db, build_object_store(settings_for(tmp_path)),
                         make_sandbox(processes=2, deadline_s=60))
    consumer = Consumer(redis_db, handler, name="c1", read_ahead=4,
                        claim_idle_ms=60_000, claim_interval_s=5, block_ms=100)
    with running(consumer):
        wait_until(lambda: delivered_unacked(redis_db) == 4)
    finished = [jobs.wait_reply(redis_db, job, timeout_s=0.1) for job in sent]
    assert all(reply is None or reply.ok for reply in finished)
    handed_back = [job for job, reply in zip(sent, finished, strict=True) if reply is None]
    assert 1 <= len(handed_back) < 4
    settings = settings_for(tmp_path, job_claim_idle_ms=60_000, job_claim_interval_s=0.2)
    with running(build_consumer(settings, redis_db, engine_sandbox, name="c2")):
        replies = [jobs.wait_reply(redis_db, job, timeout_s=30) for job in handed_back]
    assert all(reply is not None and reply.ok for reply in replies)
    assert jobs.backlog(redis_db) == 0


def test_sigterm_lets_the_worker_finish_its_job(redis_db: redis.Redis, tmp_path: Path) -> None:
    jobs.ensure_group(redis_db)
    worker = start_worker_process(redis_db, tmp_path)
    try:
        job = jobs.enqueue(redis_db, make_job(SLOW_ZPL))
        wait_until(lambda: delivered_unacked(redis_db) == 1)
        # Taken is not yet started: a job the signal finds waiting for its render
        # process is handed back (test_stop_finishes_started_renders_and_hands_back_the_rest).
        time.sleep(0.5)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    reply = jobs.wait_reply(redis_db, job, timeout_s=1)
    assert reply is not None and reply.ok
    assert jobs.backlog(redis_db) == 0


def test_a_job_of_a_killed_worker_is_completed_by_another(
        redis_db: redis.Redis, tmp_path: Path, engine_sandbox: Sandbox) -> None:
    jobs.ensure_group(redis_db)
    worker = start_worker_process(redis_db, tmp_path)
    try:
        job = jobs.enqueue(redis_db, make_job(SLOW_ZPL))
        wait_until(lambda: delivered_unacked(redis_db) == 1)
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its render processes
        worker.wait()
    assert jobs.backlog(redis_db) == 1
    assert jobs.wait_reply(redis_db, job, timeout_s=0.1) is None

    settings = settings_for(tmp_path, job_claim_idle_ms=100, job_claim_interval_s=0.2)
    with running(build_consumer(settings, redis_db, engine_sandbox, name="survivor")):
        reply = jobs.wait_reply(redis_db, job, timeout_s=60)
    assert reply is not None and reply.ok
    assert jobs.backlog(redis_db) == 0


def test_a_job_that_keeps_failing_is_answered_and_dropped(
        redis_db: redis.Redis, tmp_path: Path, engine_sandbox: Sandbox) -> None:
    """Three deliveries that never finished (renderers that died): the next claim
    answers the job with an error instead of rendering it a fourth time."""
    jobs.ensure_group(redis_db)
    job = jobs.enqueue(redis_db, make_job(label_zpl("Poison")))
    [(entry_id, _)] = jobs.read(redis_db, "died-1", count=1, block_ms=10)
    for name in ("died-2", "died-3"):
        redis_db.xclaim(jobs.QUEUE.of(job.tenant), jobs.GROUP, name, 0, [entry_id])
    consumer = build_consumer(settings_for(tmp_path, job_claim_idle_ms=0,
                                           job_max_deliveries=3), redis_db, engine_sandbox,
                              name="c1")
    with running(consumer):
        reply = jobs.wait_reply(redis_db, job, timeout_s=30)
    assert reply is not None and not reply.ok
    assert reply.error_kind == jobs.GAVE_UP and "3 times" in reply.error_message
    assert jobs.backlog(redis_db) == 0
    assert not list((tmp_path / "objects").rglob("*.png"))


def test_one_tenants_slow_jobs_do_not_hold_up_anothers(
        redis_db: redis.Redis, tmp_path: Path, make_sandbox: MakeSandbox) -> None:
    """A worker of 2 render processes; tenant A queues 4 slow labels, then B one
    small label. A may hold only one process, so B's label starts at once and is
    answered before any of A's: B does not wait behind A's backlog."""
    jobs.ensure_group(redis_db)
    slow = "^XA" + "".join(
        f"^FO{(i % 10) * 80},{(i // 10) * 80}^BQN,2,3^FDQA,{'x' * 200}{i}^FS" for i in range(50))
    a_jobs = [jobs.enqueue(redis_db, replace(make_job(f"{slow}^FX{n}^XZ"), tenant="tnt_a"))
              for n in range(4)]
    b_job = jobs.enqueue(redis_db, replace(make_job(label_zpl("B")), tenant="tnt_b"))
    sandbox = make_sandbox(processes=2, deadline_s=60)
    handler = JobHandler(redis_db, build_object_store(settings_for(tmp_path)), sandbox)
    consumer = Consumer(redis_db, handler, name="c1", read_ahead=8, claim_idle_ms=60_000,
                        claim_interval_s=5, block_ms=100)
    with running(consumer):
        b_reply = jobs.wait_reply(redis_db, b_job, timeout_s=60)
        a_answered = sum(bool(redis_db.exists(jobs.reply_key(job))) for job in a_jobs)
        a_replies = [jobs.wait_reply(redis_db, job, timeout_s=60) for job in a_jobs]
    assert b_reply is not None and b_reply.ok
    assert a_answered == 0
    assert all(reply is not None and reply.ok for reply in a_replies)


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(FileNotFoundError, IndexError):
                children.setdefault(parent_of(int(entry.name)), []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_worker_mid_render_leaves_no_process_running(
        redis_db: redis.Redis, tmp_path: Path) -> None:
    """Only the worker is killed, not its process group: its forkserver and
    render processes, one of them busy, stop on their own within seconds."""
    jobs.ensure_group(redis_db)
    worker = start_worker_process(redis_db, tmp_path)
    try:
        jobs.enqueue(redis_db, make_job(SLOW_ZPL))
        wait_until(lambda: delivered_unacked(redis_db) == 1)
        family = descendants(worker.pid)
        assert len(family) >= 2  # the forkserver and its render process at least
        worker.kill()
        worker.wait()
        wait_until(lambda: not any(process_running(pid) for pid in family), timeout_s=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
