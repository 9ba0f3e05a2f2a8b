"""Time values for the store. Callers pass ``now`` explicitly (unix seconds or
an aware datetime) so tests can move the clock; Lua scripts receive it as an
argument instead of calling TIME."""

from __future__ import annotations

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
