"""Which replica is active, read from the peering object's status the way Kopf
decides it: the sweep runs only there."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from labelrender.operator.cluster import active_peer

NOW = datetime.datetime(2026, 11, 25, 12, 0, tzinfo=datetime.UTC)


def peer(priority: int, seen_s_ago: float = 5, lifetime: int = 60) -> dict[str, Any]:
    seen = NOW - datetime.timedelta(seconds=seen_s_ago)
    return {"priority": priority, "lastseen": seen.isoformat(), "lifetime": lifetime}


@pytest.mark.parametrize(("peers", "active"), [
    ({"me": peer(10)}, True),                                   # alone
    ({"me": peer(20), "other": peer(10)}, True),                # the highest
    ({"me": peer(10), "other": peer(20)}, False),               # a higher one is alive
    ({"me": peer(10), "other": peer(20, seen_s_ago=120)}, True),  # ... it is dead
    ({"me": peer(10), "other": peer(10)}, False),               # a tie: Kopf pauses both
    ({"other": peer(1)}, False),                                # not announced yet
    ({}, False),
    ({"me": peer(10), "other": {"priority": 50, "lastseen": "not a time"}}, True),
    ({"me": peer(10), "other": {"priority": 50}}, False),       # no lastseen: just seen
], ids=["alone", "highest", "standby", "higher-dead", "tie", "unlisted", "empty",
        "unreadable-peer", "peer-without-lastseen"])
def test_the_active_replica(peers: dict[str, Any], active: bool) -> None:
    assert active_peer(peers, "me", NOW) is active
