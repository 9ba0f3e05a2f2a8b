"""Global records (plans, global templates) as each process last read them.

Plans and global templates are operator resources under one hash tag
(``keys.GLOBAL_TAG``): on a Redis Cluster they live on one primary, which
every request of every tenant would otherwise ask. A process reads them at
most once per ``STALENESS_S`` and answers from what it read in between, so an
operator's change (a ``Plan`` or ``LabelTemplate`` resource applied, a
``set-plan``) applies to requests within ``STALENESS_S`` seconds. Tenant
records, keys and limits are never cached: a revoked key is refused on its
next request (spec "Authentication").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import redis
import redis.asyncio

from labelrender.store import keys, templates
from labelrender.store.plans import BUILTIN_PLANS, Plan, plan_from_stored
from labelrender.store.redis_conn import text
from labelrender.store.templates import TemplateVersion

STALENESS_S = 2.0

Clock = Callable[[], float]


@dataclass(frozen=True)
class _Read:
    plans: dict[str, Plan]
    expires_at: float


class PlanCache:
    """Every effective plan (built-ins with the stored overrides and added
    plans), read again when the last read is ``staleness_s`` old."""

    def __init__(self, staleness_s: float = STALENESS_S, clock: Clock = time.monotonic) -> None:
        self._staleness_s = staleness_s
        self._clock = clock
        self._read: _Read | None = None

    def plans(self, r: redis.Redis) -> dict[str, Plan]:
        """Name -> plan, read from ``r`` when the cached copy is stale."""
        if self._read is None or self._clock() >= self._read.expires_at:
            names = sorted(str(text(name)) for name in r.smembers(keys.plans()))
            stored = r.mget([keys.plan(name) for name in names]) if names else []
            self._keep(names, stored)
        assert self._read is not None
        return self._read.plans

    async def plans_async(self, client: redis.asyncio.Redis) -> dict[str, Plan]:
        """``plans`` on an asyncio client."""
        if self._read is None or self._clock() >= self._read.expires_at:
            names = sorted(str(text(name)) for name in await client.smembers(keys.plans()))
            stored = await client.mget([keys.plan(name) for name in names]) if names else []
            self._keep(names, stored)
        assert self._read is not None
        return self._read.plans

    def _keep(self, names: list[str], stored: Sequence[object]) -> None:
        found = dict(BUILTIN_PLANS)
        for name, value in zip(names, stored, strict=True):
            if value is not None:
                found[name] = plan_from_stored(name, text(value))
        self._read = _Read(found, self._clock() + self._staleness_s)


_TEMPLATES_KEPT = 1024


class TemplateCache:
    """Global templates by (id, version asked for, None for the latest), each
    read again when ``staleness_s`` old; an id found missing is kept as missing
    just as long. Bounded: full, it starts again empty."""

    def __init__(self, staleness_s: float = STALENESS_S, clock: Clock = time.monotonic) -> None:
        self._staleness_s = staleness_s
        self._clock = clock
        self._read: dict[tuple[str, int | None], tuple[TemplateVersion | None, float]] = {}

    def version(self, r: redis.Redis, template_id: str, version: int | None = None
                ) -> TemplateVersion | None:
        """``templates.get_version(r, None, template_id, version)``, at most
        ``staleness_s`` old."""
        now = self._clock()
        held = self._read.get((template_id, version))
        if held is not None and now < held[1]:
            return held[0]
        found = templates.get_version(r, None, template_id, version)
        if len(self._read) >= _TEMPLATES_KEPT:
            self._read.clear()
        self._read[(template_id, version)] = (found, now + self._staleness_s)
        return found
