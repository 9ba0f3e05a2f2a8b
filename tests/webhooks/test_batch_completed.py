"""``batch.completed``: delivered, signed, to the subscriptions that asked for
that topic only (``label.rendered`` stays the default, and a batch's rows emit
none)."""

from __future__ import annotations

from typing import Any

import redis

from tests.api.test_batches import commit, finished, post_batch, row
from tests.fixtures.receiver import Receiver
from tests.webhooks.conftest import Api, Caller, StartDispatcher, until


async def subscribe_to(api: Api, caller: Caller, receiver: Receiver, webhook_id: str,
                       path: str, topics: list[str] | None) -> None:
    body: dict[str, Any] = {"url": receiver.url(path, "receiver.test")}
    if topics is not None:
        body["topics"] = topics
    async with api.session.post(api.url(f"/v1/webhooks/{webhook_id}"), headers=caller.headers,
                                json=body) as response:
        answer = await response.json()
        assert response.status == 201, answer
    assert answer["topics"] == (topics or ["label.rendered"])
    receiver.secrets[path] = answer["signing_secret"]


async def test_batch_completed_goes_to_its_subscribers_signed(
        hooks_api: Api, make_caller: Any, receiver: Receiver, redis_db: redis.Redis,
        render_worker: object, start_dispatcher: StartDispatcher) -> None:
    caller = make_caller()
    await commit(hooks_api, caller)
    await subscribe_to(hooks_api, caller, receiver, "labels", "/hooks/labels", None)
    await subscribe_to(hooks_api, caller, receiver, "batches", "/hooks/batches",
                       ["batch.completed"])
    start_dispatcher(hooks_api.base + "/v1")
    status, created = await post_batch(hooks_api, caller, body={
        "template_id": "tpl_batch", "rows": [row(1), row(2), {"name": "X"}]})
    assert status == 202, created
    done = await finished(hooks_api, caller, created["batch_id"])

    await until(lambda: bool(receiver.event_ids("/hooks/batches")))
    [got] = [r for r in receiver.received if r.path == "/hooks/batches"]
    assert got.verified and got.topic == "batch.completed"
    assert got.body["event"] == "batch.completed" and got.body["tenant_id"] == caller.tenant_id
    data = got.body["data"]
    assert {k: data[k] for k in ("batch_id", "template_id", "template_version", "rows", "done",
                                 "cached", "failed")} == {
        "batch_id": created["batch_id"], "template_id": "tpl_batch",
        "template_version": done["template_version"], "rows": 3, "done": 2, "cached": 0,
        "failed": 1}
    async with hooks_api.session.get(data["url"]) as response:  # no key needed
        assert response.status == 200
        assert (await response.read()).startswith(b"%PDF")
    # Events go out in order and the batch's was the last: the label.rendered
    # subscription got nothing (its rows emit no event).
    assert receiver.event_ids("/hooks/labels", ok_only=False) == []
