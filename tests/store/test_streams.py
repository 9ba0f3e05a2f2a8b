"""Consumer names of the three streams (render, synthesis, events; one per
tenant group) are pruned alike, and a gone consumer's entries are handed over alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis

from labelrender.store import deliveries, jobs, keys
from labelrender.store import synthesis_jobs as synthesis
from labelrender.store.streams import prune_idle_consumers


@pytest.mark.parametrize(("stream", "group"), [
    (keys.render_stream(0), jobs.GROUP),
    (keys.synthesis_stream(0), synthesis.GROUP),
    (keys.event_stream(0), deliveries.GROUP),
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
    assert prune_idle_consumers(redis_db, keys.render_stream(0), jobs.GROUP, 0, keep="me") == []


@pytest.mark.parametrize(("stream", "group", "release"), [
    (keys.render_stream(0), jobs.GROUP, jobs.release_consumer),
    (keys.synthesis_stream(0), synthesis.GROUP, synthesis.release_consumer),
    (keys.event_stream(0), deliveries.GROUP, deliveries.release_events),
])
def test_a_gone_consumers_entries_are_claimable_at_once(
    redis_db: redis.Redis, stream: str, group: str, release: Callable[..., int],
) -> None:
    """Only the gone consumer's entries, all of them (past one page), and the
    hand-over counts no delivery: the next claim is the second."""
    redis_db.xgroup_create(stream, group, id="0", mkstream=True)
    for n in range(600):
        redis_db.xadd(stream, {"n": str(n)})
    redis_db.xreadgroup(group, "gone", {stream: ">"}, count=550)
    redis_db.xreadgroup(group, "alive", {stream: ">"}, count=50)
    claim_idle_ms = 60_000
    assert release(redis_db, "gone", claim_idle_ms) == 550
    assert release(redis_db, "nobody", claim_idle_ms) == 0
    claimed = [entry_id for entry_id, _ in redis_db.xautoclaim(
        stream, group, "heir", min_idle_time=claim_idle_ms, start_id="0-0", count=1000)[1]]
    assert len(claimed) == 550
    [row] = redis_db.xpending_range(stream, group, claimed[0], claimed[0], 1)
    assert (row["consumer"], row["times_delivered"]) == ("heir", 2)
    assert jobs.pending_by_consumer(redis_db) == (
        {"alive": 50, "heir": 550} if stream == keys.render_stream(0) else {})


def test_a_stream_without_its_group_has_nothing_to_release(redis_db: redis.Redis) -> None:
    assert jobs.release_consumer(redis_db, "gone", 60_000) == 0
