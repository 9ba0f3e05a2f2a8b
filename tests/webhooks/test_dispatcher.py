"""Deliveries end to end: the real API, a dispatcher, a real HTTPS receiver
that checks every signature with the README's code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import redis
from prometheus_client import REGISTRY

from labelrender.store import deliveries, socket_url
from labelrender.store.objects import FilesystemStore
from labelrender.store.webhook_targets import TargetPolicy
from tests.fixtures.receiver import SLOW, Receiver
from tests.webhooks.conftest import (
    PUBLIC_ADDRESS,
    Api,
    Caller,
    DnsTable,
    StartDispatcher,
    get_json,
    publish_render,
    subscribe,
    until,
)


def attempts_counted(outcome: str) -> float:
    """The worker metric ``labelrender_webhook_attempts_total{outcome}``."""
    value = REGISTRY.get_sample_value("labelrender_webhook_attempts_total",
                                      {"outcome": outcome})
    return value or 0.0


async def test_delivery_is_signed_and_carries_the_spec_payload(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    start_dispatcher(hooks_api.base + "/v1")
    event = publish_render(redis_db, object_store, caller.tenant_id, external_ref="order-77",
                           cached=True)

    await until(lambda: receiver.event_ids() == [event.event_id])
    got = receiver.received[0]
    assert got.verified and got.topic == "label.rendered"
    body = got.body
    assert {k: body[k] for k in ("event", "event_id", "event_version", "tenant_id")} == {
        "event": "label.rendered", "event_id": event.event_id, "event_version": "1",
        "tenant_id": caller.tenant_id}
    assert body["delivered_at"].endswith("Z")
    data = body["data"]
    assert {k: data[k] for k in ("content_hash", "external_ref", "template_id",
                                 "template_version", "cached")} == {
        "content_hash": event.content_hash, "external_ref": "order-77",
        "template_id": "tpl_box", "template_version": 3, "cached": True}
    assert "test" not in data
    expires = int(data["url"].split("exp=")[1].split("&")[0])
    assert 3500 <= expires - time.time() <= 3600
    async with hooks_api.session.get(data["url"]) as response:  # no key needed
        assert response.status == 200
        assert (await response.read()).startswith(b"\x89PNG")

    await until(lambda: bool(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")))
    status, listed = await get_json(hooks_api, caller, "/v1/webhooks/wh1/deliveries")
    assert status == 200
    [record] = listed["deliveries"]
    assert set(record) == {"event_id", "attempt", "status_code", "ok", "error", "duration_ms",
                           "attempted_at", "next_attempt_at"}
    assert (record["event_id"], record["attempt"], record["status_code"], record["ok"],
            record["error"], record["next_attempt_at"]) == (event.event_id, 1, 200, True,
                                                            None, None)


async def test_three_500s_then_200_is_delivered_with_four_attempts(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    receiver.plan.queue = [500, 500, 500]
    before = {o: attempts_counted(o) for o in ("delivered", "retry")}
    start_dispatcher()
    event = publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: receiver.event_ids() == [event.event_id])
    assert len(receiver.received) == 4
    assert all(r.verified and r.event_id == event.event_id for r in receiver.received)
    await until(lambda: len(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")) == 4)
    _, listed = await get_json(hooks_api, caller, "/v1/webhooks/wh1/deliveries")
    records = listed["deliveries"]
    assert [(r["attempt"], r["status_code"], r["ok"]) for r in records] == [
        (4, 200, True), (3, 500, False), (2, 500, False), (1, 500, False)]
    assert all(r["next_attempt_at"] is not None for r in records[1:])
    assert records[1]["error"] == "HTTP 500"
    assert deliveries.scheduled_count(redis_db) == 0
    assert {o: attempts_counted(o) - n for o, n in before.items()} == {"delivered": 1,
                                                                        "retry": 3}


async def test_slow_receiver_times_out_and_is_retried(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    receiver.plan.queue, receiver.plan.slow_s = [SLOW], 2.0
    start_dispatcher(timeout_s=0.5)
    event = publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: len(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")) == 2)
    _, listed = await get_json(hooks_api, caller, "/v1/webhooks/wh1/deliveries")
    newest, first = listed["deliveries"]
    assert (first["attempt"], first["ok"], first["status_code"]) == (1, False, None)
    assert "timed out" in first["error"]
    assert (newest["attempt"], newest["ok"], newest["event_id"]) == (2, True, event.event_id)


async def test_receiver_down_for_good_is_dead_lettered_then_replayed(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    receiver.down()
    start_dispatcher()
    event = publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: bool(deliveries.dead_letters(redis_db)))
    [letter] = deliveries.dead_letters(redis_db, caller.tenant_id)
    assert (letter.delivery.event.event_id, letter.delivery.attempt) == (event.event_id, 6)
    assert "connection failed" in str(letter.last_error)
    _, listed = await get_json(hooks_api, caller, "/v1/webhooks/wh1/deliveries")
    assert [r["attempt"] for r in listed["deliveries"]] == [6, 5, 4, 3, 2, 1]
    assert listed["deliveries"][0]["next_attempt_at"] is None
    assert deliveries.scheduled_count(redis_db) == 0

    receiver.start()  # back: the operator replays the dead letter
    env = {**os.environ, "REDIS_URL": socket_url(redis_db) or os.environ["REDIS_URL"]}
    replay = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", "admin", "dlq", "replay", "--event-id",
         event.event_id], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(replay.stdout)["replayed"] == 1
    await until(lambda: receiver.event_ids() == [event.event_id])  # the same event id
    assert deliveries.dead_letters(redis_db) == []


async def test_an_event_fans_out_to_every_subscription_of_its_tenant_only(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller, other = make_caller(), make_caller()
    await subscribe(hooks_api, caller, receiver, "a", "/hooks/a")
    await subscribe(hooks_api, caller, receiver, "b", "/hooks/b")
    await subscribe(hooks_api, other, receiver, "a", "/hooks/other")
    receiver.plan.queue = [500]  # whichever goes first is retried on its own
    start_dispatcher()
    event = publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: sorted(r.path for r in receiver.received if r.answered == 200)
                == ["/hooks/a", "/hooks/b"])
    assert {r.event_id for r in receiver.received} == {event.event_id}

    def attempts() -> list[int]:
        return sorted(len(deliveries.list_attempts(redis_db, caller.tenant_id, hook))
                      for hook in ("a", "b"))

    # The dispatcher records an attempt after the receiver has answered it.
    await until(lambda: attempts() == [1, 2])
    assert deliveries.list_attempts(redis_db, other.tenant_id, "a") == []


async def test_deleted_subscription_gets_no_more_deliveries(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    receiver.down()
    start_dispatcher(backoff_s=(0.5,) * 5)
    publish_render(redis_db, object_store, caller.tenant_id)
    await until(lambda: bool(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")))
    async with hooks_api.session.delete(hooks_api.url("/v1/webhooks/wh1"),
                                        headers=caller.headers) as response:
        assert response.status == 200

    receiver.start()
    await until(lambda: deliveries.scheduled_count(redis_db) == 0)
    assert receiver.received == [] and deliveries.dead_letters(redis_db) == []


async def test_test_endpoint_sends_a_sample_marked_as_test(
        hooks_api: Api, make_caller: Caller, receiver: Receiver,
        start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    await subscribe(hooks_api, caller, receiver, "wh2", "/hooks/b")
    start_dispatcher()
    async with hooks_api.session.post(hooks_api.url("/v1/webhooks/wh1/test"),
                                      headers=caller.headers) as response:
        assert response.status == 202
        queued = await response.json()
    assert queued["status"] == "queued" and queued["event_id"].startswith("evt_")

    await until(lambda: receiver.event_ids() == [queued["event_id"]])
    got = receiver.received[0]
    assert got.path == "/hooks/a" and got.verified  # only the subscription tested
    assert got.body["data"]["test"] is True and got.body["tenant_id"] == caller.tenant_id


async def test_rebinding_name_is_refused_at_connect_time(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher, dns: DnsTable) -> None:
    """Subscribed while the name answered a public address; by delivery time it
    answers loopback. Nothing reaches the (real, listening) receiver."""
    caller = make_caller()
    dns.answers["rebind.test"] = [PUBLIC_ADDRESS]
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a", host="rebind.test")
    dns.answers["rebind.test"] = ["127.0.0.1"]
    start_dispatcher(policy=TargetPolicy())  # no local networks allowed
    publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: bool(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")))
    [first, *_] = deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")[::-1]
    assert not first.ok and first.status_code is None
    assert "target refused" in str(first.error) and "may not be called" in str(first.error)
    assert "127.0.0.1" not in str(first.error)  # the tenant learns nothing of the network
    assert receiver.received == []


async def test_redirect_is_a_failure_and_is_not_followed(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        object_store: FilesystemStore, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    receiver.plan.queue = [302]
    start_dispatcher()
    event = publish_render(redis_db, object_store, caller.tenant_id)

    await until(lambda: receiver.event_ids() == [event.event_id])
    assert [r.path for r in receiver.received] == ["/hooks/a", "/hooks/a"]  # never /redirected
    await until(lambda: len(deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")) == 2)
    attempts = deliveries.list_attempts(redis_db, caller.tenant_id, "wh1")
    assert [(a.status_code, a.ok) for a in attempts] == [(200, True), (302, False)]


async def test_template_render_from_data_is_delivered(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        render_worker: object, start_dispatcher: StartDispatcher) -> None:
    """The real producer: POST /v1/labels/from-data, a miss then a cache hit."""
    from tests.api.test_from_data import commit, from_data

    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    start_dispatcher(hooks_api.base + "/v1")
    await commit(hooks_api, caller)
    body = {"template_id": "tpl_ship", "fields": {"name": "Ada", "city": "Oslo"},
            "external_ref": "order-42"}
    rendered = [await from_data(hooks_api, caller, body) for _ in range(2)]
    assert [status for status, _ in rendered] == [200, 200]

    await until(lambda: len(receiver.event_ids()) == 2)
    got = sorted((r.body["data"] for r in receiver.received), key=lambda d: d["cached"])
    for data in got:
        assert (data["content_hash"], data["template_id"], data["template_version"],
                data["external_ref"]) == (rendered[0][1]["content_hash"], "tpl_ship", 1,
                                          "order-42")
        async with hooks_api.session.get(data["url"]) as response:
            assert response.status == 200
    assert [d["cached"] for d in got] == [False, True]
    assert len(set(receiver.event_ids())) == 2 and all(r.verified for r in receiver.received)


async def test_s3_store_gives_a_presigned_url_valid_one_hour(
        hooks_api: Api, make_caller: Caller, receiver: Receiver, redis_db: redis.Redis,
        s3_client: object, s3_bucket: str, start_dispatcher: StartDispatcher) -> None:
    from datetime import UTC, datetime
    from urllib.parse import parse_qs, urlsplit

    import aiohttp

    from labelrender.store.objects import S3Store

    s3 = S3Store(s3_bucket, s3_client)
    caller = make_caller()
    await subscribe(hooks_api, caller, receiver, "wh1", "/hooks/a")
    start_dispatcher(objects=s3)
    event = publish_render(redis_db, s3, caller.tenant_id)

    await until(lambda: receiver.event_ids() == [event.event_id])
    url = receiver.received[0].body["data"]["url"]
    query = parse_qs(urlsplit(url).query)
    # The store signs back-dated so equal expiries give equal URLs: the URL
    # stops working at X-Amz-Date + X-Amz-Expires, an hour from delivery.
    signed_at = datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    expires = signed_at.timestamp() + int(query["X-Amz-Expires"][0])
    assert 3500 <= expires - time.time() <= 3600
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200 and (await response.read()).startswith(b"\x89PNG")
