from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from labelrender.store import Claim, abandon, claim, complete
from tests.store.conftest import NOW

T1, T2 = "tnt_" + "a" * 26, "tnt_" + "b" * 26
KEY = "order-4711-label"
BODY, OTHER_BODY = "a" * 64, "b" * 64
RESPONSE = '{"status": 200, "body": {"status": "ok", "cached": false}}'
DAY = 24 * 3600


def new_claim(r: redis.Redis, tenant_id: str = T1, body: str = BODY, now: float = NOW,
              lock_seconds: float = 300) -> str:
    """Claim KEY, which must be new; the claim's token."""
    won = claim(r, tenant_id, KEY, body, now=now, lock_seconds=lock_seconds)
    assert won.outcome == "new" and won.token is not None
    return won.token


@pytest.mark.parametrize(
    ("completed", "body", "expected"),
    [
        (False, BODY, Claim("in_progress")),
        (False, OTHER_BODY, Claim("conflict")),
        (True, BODY, Claim("replay", RESPONSE)),
        (True, OTHER_BODY, Claim("conflict")),
    ],
)
def test_second_claim(redis_db: redis.Redis, completed: bool, body: str,
                      expected: Claim) -> None:
    token = new_claim(redis_db)
    if completed:
        assert complete(redis_db, T1, KEY, token, RESPONSE, now=NOW + 1) is True
    assert claim(redis_db, T1, KEY, body, now=NOW + 2) == expected


@pytest.mark.parametrize(
    ("later", "body", "expected"),
    [(DAY - 1, BODY, "replay"), (DAY - 1, OTHER_BODY, "conflict"), (DAY + 1, OTHER_BODY, "new")],
)
def test_completed_record_is_kept_24_hours(redis_db: redis.Redis, later: float, body: str,
                                           expected: str) -> None:
    complete(redis_db, T1, KEY, new_claim(redis_db), RESPONSE, now=NOW)
    assert claim(redis_db, T1, KEY, body, now=NOW + later).outcome == expected


def test_a_dead_claimants_lock_runs_out(redis_db: redis.Redis) -> None:
    dead = new_claim(redis_db, lock_seconds=60)
    assert claim(redis_db, T1, KEY, BODY, now=NOW + 59).outcome == "in_progress"
    retry = new_claim(redis_db, now=NOW + 61)
    # The first claimant's late completion is not stored over the new claim.
    assert complete(redis_db, T1, KEY, dead, "stale", now=NOW + 62) is False
    assert complete(redis_db, T1, KEY, retry, RESPONSE, now=NOW + 63) is True
    assert claim(redis_db, T1, KEY, BODY, now=NOW + 64) == Claim("replay", RESPONSE)


def test_complete_needs_the_live_claim(redis_db: redis.Redis) -> None:
    assert complete(redis_db, T1, KEY, "no-such-token", RESPONSE, now=NOW) is False
    token = new_claim(redis_db)
    assert complete(redis_db, T1, KEY, "f" * 32, RESPONSE, now=NOW) is False
    assert complete(redis_db, T1, KEY, token, RESPONSE, now=NOW) is True
    assert complete(redis_db, T1, KEY, token, "changed", now=NOW) is False
    assert claim(redis_db, T1, KEY, BODY, now=NOW) == Claim("replay", RESPONSE)


def test_abandon_lets_a_retry_run(redis_db: redis.Redis) -> None:
    token = new_claim(redis_db)
    assert abandon(redis_db, T1, KEY, "f" * 32) is False
    assert abandon(redis_db, T1, KEY, token) is True
    retry = new_claim(redis_db)
    complete(redis_db, T1, KEY, retry, RESPONSE, now=NOW)
    assert abandon(redis_db, T1, KEY, retry) is False  # a finished record stays
    assert claim(redis_db, T1, KEY, BODY, now=NOW).outcome == "replay"


def test_concurrent_claims_render_once(redis_db: redis.Redis) -> None:
    with ThreadPoolExecutor(16) as pool:
        claims = list(pool.map(lambda _: claim(redis_db, T1, KEY, BODY, now=NOW), range(64)))
    outcomes = [c.outcome for c in claims]
    assert outcomes.count("new") == 1
    assert outcomes.count("in_progress") == 63


def test_keys_are_per_tenant(redis_db: redis.Redis) -> None:
    complete(redis_db, T1, KEY, new_claim(redis_db), RESPONSE, now=NOW)
    new_claim(redis_db, tenant_id=T2, body=OTHER_BODY)
    assert claim(redis_db, T1, KEY, BODY, now=NOW) == Claim("replay", RESPONSE)
