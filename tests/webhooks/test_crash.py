"""Crash safety: a dispatcher killed mid-delivery, or after reading an event
but before scheduling it, loses nothing; a repeat keeps the event id."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import redis

from labelrender.store import deliveries, keys, socket_url
from labelrender.store.objects import FilesystemStore
from tests.fixtures.receiver import HOLD, Receiver
from tests.webhooks.conftest import Api, Caller, StartDispatcher, publish_render, subscribe, until

ROOT = Path(__file__).resolve().parents[2]


async def test_dispatcher_killed_mid_delivery_delivers_again_with_the_same_id(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher,
        ca_file: Path, tmp_path: Path) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    events = [publish_render(redis_db, object_store, caller.tenant_id, f"Order {n}")
              for n in range(3)]
    receiver.plan.queue = [HOLD]  # the first delivery hangs until the sender is dead
    url = socket_url(redis_db) or os.environ["REDIS_URL"]
    doomed = subprocess.Popen(
        [sys.executable, "-m", "tests.webhooks.dispatcher_process", url,
         str(tmp_path / "objects"), str(ca_file), "2.5", "3"], cwd=ROOT)
    try:
        await until(receiver.arrived.is_set, timeout_s=30)
    finally:
        doomed.kill()
        doomed.wait()
    receiver.release.set()

    start_dispatcher(timeout_s=1.0, lease_s=2.0)
    wanted = sorted(e.event_id for e in events)
    await until(lambda: sorted(set(receiver.event_ids())) == wanted, timeout_s=30)
    await until(lambda: deliveries.scheduled_count(redis_db) == 0)
    assert all(r.verified for r in receiver.received)
    assert deliveries.dead_letters(redis_db) == []
    [held] = receiver.held  # cut off mid-delivery: sent again, under the same id
    assert receiver.event_ids().count(held) == 2


async def test_event_read_by_a_dead_dispatcher_is_claimed_and_delivered(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    event = publish_render(redis_db, object_store, caller.tenant_id)
    deliveries.ensure_group(redis_db)
    # A dispatcher that read the event and died before scheduling it:
    [(_, read)] = deliveries.read_events(redis_db, "dead-dispatcher", count=10, block_ms=None)
    assert read.event_id == event.event_id

    start_dispatcher(claim_idle_ms=200)
    await until(lambda: receiver.event_ids() == [event.event_id])
    # scheduled, then retired
    assert redis_db.xlen(keys.event_stream(keys.group(caller.tenant_id))) == 0


async def test_an_entry_that_is_not_an_event_does_not_stop_deliveries(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    redis_db.xadd(keys.event_stream(keys.group(caller.tenant_id)), {"event": "{not json"})
    event = publish_render(redis_db, object_store, caller.tenant_id)
    start_dispatcher()
    await until(lambda: receiver.event_ids() == [event.event_id])
    await until(lambda: redis_db.xlen(keys.event_stream(keys.group(caller.tenant_id))) == 0)
