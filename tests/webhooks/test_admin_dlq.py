"""``labelrender admin dlq list|replay``, run as an operator runs it."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from labelrender.store import deliveries
from labelrender.store.events import LabelRendered
from labelrender.store.webhooks import upsert_webhook
from tests.api.conftest import Caller
from tests.fixtures.admin_cli import admin, admin_json
from tests.fixtures.admin_cli import env as env  # the fixture


def dead_letter(r: redis.Redis, tenant_id: str, event_id: str) -> None:
    """A delivery that failed its last retry, recorded as the dispatcher does."""
    upsert_webhook(r, tenant_id, "wh1", url="https://hooks.example.com/x",
                   topics=["label.rendered"], now=time.time())
    event = LabelRendered(event_id=event_id, tenant_id=tenant_id, content_hash="a" * 64,
                          object_key=f"tenants/{tenant_id}/labels/{'a' * 64}.png",
                          template_id="tpl_box", template_version=1, external_ref=None,
                          cached=False, created_at=time.time())
    delivery = deliveries.Delivery(event, "wh1", attempt=6)
    attempt = deliveries.Attempt(event_id, 6, 503, False, "HTTP 503", 12,
                                 "2026-11-21T00:00:00Z", None)
    deliveries.finish(r, delivery, attempt, retry_at=None,
                      dead_letter={"failed_at": "2026-11-21T00:00:00Z", "last_error": "HTTP 503"})


def test_list_and_replay(env: dict[str, str], redis_db: redis.Redis, make_caller: Any) -> None:
    first, second = make_caller(), make_caller()
    assert isinstance(first, Caller)
    # Listed oldest first by their stream ids, which are milliseconds: the two
    # tenants' letters may sit in different tenant groups' streams.
    for tenant_id, event_id in ((first.tenant_id, "evt_1_aaaaaaaa"),
                                (first.tenant_id, "evt_2_bbbbbbbb"),
                                (second.tenant_id, "evt_3_cccccccc")):
        dead_letter(redis_db, tenant_id, event_id)
        time.sleep(0.002)

    listed = admin_json(env, "dlq", "list")["dead_letters"]
    assert [d["event_id"] for d in listed] == ["evt_1_aaaaaaaa", "evt_2_bbbbbbbb",
                                               "evt_3_cccccccc"]
    assert {k: listed[0][k] for k in ("tenant_id", "webhook_id", "attempts", "last_error")} == {
        "tenant_id": first.tenant_id, "webhook_id": "wh1", "attempts": 6,
        "last_error": "HTTP 503"}
    mine = admin_json(env, "dlq", "list", "--tenant", second.tenant_id)["dead_letters"]
    assert [d["event_id"] for d in mine] == ["evt_3_cccccccc"]

    assert admin_json(env, "dlq", "replay", "--event-id", "evt_2_bbbbbbbb") == {
        "replayed": 1, "event_ids": ["evt_2_bbbbbbbb"]}
    assert admin_json(env, "dlq", "replay", "--tenant", second.tenant_id)["replayed"] == 1
    listed = admin_json(env, "dlq", "list")["dead_letters"]
    assert [d["event_id"] for d in listed] == ["evt_1_aaaaaaaa"]
    assert admin_json(env, "dlq", "replay", "--all")["replayed"] == 1
    assert admin_json(env, "dlq", "list") == {"dead_letters": []}

    due = deliveries.claim_due(redis_db, time.time(), 30, 10)
    assert sorted((d.event.event_id, d.attempt) for d in due) == [
        ("evt_1_aaaaaaaa", 1), ("evt_2_bbbbbbbb", 1), ("evt_3_cccccccc", 1)]


@pytest.mark.parametrize(("args", "code", "says"), [
    (("replay", "--event-id", "evt_9_99999999"), 1, "not found"),
    (("replay",), 2, "one of the arguments"),
    (("replay", "--all", "--tenant", "tnt_x"), 2, "not allowed with"),
])
def test_refused(env: dict[str, str], args: tuple[str, ...], code: int, says: str) -> None:
    done = admin(env, "dlq", *args)
    assert done.returncode == code and says in done.stderr
