"""Time values for the store. Callers pass ``now`` explicitly (unix seconds or
an aware datetime) so tests can move the clock; Lua scripts receive it as an
argument instead of calling TIME."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

Now = float | int | datetime


def unix(now: Now) -> float:
    """``now`` as unix seconds. A naive datetime is taken to be UTC."""
    if isinstance(now, datetime):
        return utc(now).timestamp()
    return float(now)


def utc(now: Now) -> datetime:
    """``now`` as an aware UTC datetime."""
    if isinstance(now, datetime):
        aware = now if now.tzinfo is not None else now.replace(tzinfo=UTC)
        return aware.astimezone(UTC)
    return datetime.fromtimestamp(float(now), tz=UTC)


def iso(now: Now) -> str:
    """ISO 8601 UTC with a ``Z`` suffix, to the second (DECISIONS.md)."""
    return utc(now).strftime("%Y-%m-%dT%H:%M:%SZ")


# A record's creation instant, in seconds to the microsecond: ``iso`` keeps only the
# second, which cannot order two records made in one second.
CREATED_TS = "created_ts"


def instant(now: Now) -> str:
    """``now`` as the ``CREATED_TS`` value of a record made then."""
    return f"{unix(now):.6f}"


def creation_order(record: Mapping[str, str], tiebreak: str) -> tuple[str, float, str]:
    """Sort key, oldest first: by the second, then the instant (absent on records
    made before it was kept), then ``tiebreak``."""
    return record["created_at"], float(record.get(CREATED_TS, 0)), tiebreak
