"""Consumer names of the three streams (render, synthesis, events) are pruned alike."""

from __future__ import annotations

import pytest
import redis

from labelrender.store import deliveries, jobs, keys
from labelrender.store import synthesis_jobs as synthesis
from labelrender.store.streams import prune_idle_consumers


@pytest.mark.parametrize(("stream", "group"), [
    (keys.render_stream(), jobs.GROUP),
    (keys.synthesis_stream(), synthesis.GROUP),
    (keys.event_stream(), deliveries.GROUP),
])
def test_only_idle_names_with_nothing_pending_go(redis_db: redis.Redis, stream: str,
                                                 group: str) -> None:
    redis_db.xgroup_create(stream, group, id="0", mkstream=True)
    redis_db.xadd(stream, {"n": "1"})
    redis_db.xadd(stream, {"n": "2"})
    redis_db.xadd(stream, {"n": "3"})
    for name in ("stopped", "busy", "me"):
        redis_db.xreadgroup(group, name, {stream: ">"}, count=1)
    for name in ("stopped", "me"):  # done with their entries; "busy" still holds one
        [row] = redis_db.xpending_range(stream, group, "-", "+", 1, consumername=name)
        redis_db.xack(stream, group, row["message_id"])
    assert prune_idle_consumers(redis_db, stream, group, 3_600_000, keep="me") == []
    assert prune_idle_consumers(redis_db, stream, group, 0, keep="me") == ["stopped"]
    names = {str(c["name"]) for c in redis_db.xinfo_consumers(stream, group)}
    assert names == {"busy", "me"}


def test_a_stream_without_its_group_has_nothing_to_prune(redis_db: redis.Redis) -> None:
    assert prune_idle_consumers(redis_db, keys.render_stream(), jobs.GROUP, 0, keep="me") == []
