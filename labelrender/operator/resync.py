"""The resync: what Redis holds for objects that are gone is removed.

Each object is brought back in line by its own handlers (at start, and by the
resync timer). What no handler sees is an object deleted while no operator
ran and without its finalizer (forced), which leaves its global template or
plan override behind. The sweep finds those: it reads what the operator
stored and for whom, then lists the cluster, and removes each entry whose
object is not listed. It removes an entry only if it still names the same
object instance (uid), so an object made again meanwhile keeps what it wrote.
Only what the operator stored is touched; a template stored by hand
(``labelrender admin template``) has no owner record and stays.

Several clusters may share one Redis (or an operator may be started against
the wrong context): a sweep looks only at records of its own cluster, so it
never removes what another cluster's objects stored, and only the active
replica of a cluster sweeps (``leading``: the one Kopf peering lets work).
Records of before clusters were named are left to their objects to claim.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from labelrender.operator.cluster import Cluster, ClusterError
from labelrender.operator.context import UNAVAILABLE, Store
from labelrender.store import plans, templates
from labelrender.store.owners import Owner

log = logging.getLogger(__name__)
STANDBY_RECHECK_MAX_S = 15.0  # how often a standby replica asks whether it is active


@dataclass
class Sweep:
    """What one sweep removed."""

    templates: list[str] = field(default_factory=list)
    plans: list[str] = field(default_factory=list)


def sweep(store: Store, cluster: Cluster) -> Sweep:
    """Remove the global templates and plan overrides whose object is gone."""
    held_templates = _own(store, templates.global_owners(store.redis))  # before listing
    held_plans = _own(store, plans.plan_owners(store.redis))
    live_templates = _owner_names(cluster.label_templates(), namespaced=True)
    live_plans = _owner_names(cluster.plans(), namespaced=False)
    removed = Sweep()
    for template_id, owner in held_templates.items():
        if owner.name not in live_templates and templates.release_global(
                store.redis, store.objects, template_id, owner):
            removed.templates.append(template_id)
    for name, owner in held_plans.items():
        if owner.name not in live_plans and plans.release_plan(store.redis, name, owner):
            removed.plans.append(name)
    return removed


async def sweep_forever(store: Store, cluster: Cluster, interval_s: float,
                        leading: Callable[[], Awaitable[bool]]) -> None:
    """Sweep at start and then every ``interval_s`` while ``leading``; a failed
    sweep is logged and tried again at the next one."""
    while True:
        try:
            if not await leading():  # look again soon: the active one may be gone
                log.debug("resync of cluster %s: standing by (not the active replica)",
                          store.cluster)
                await asyncio.sleep(min(interval_s / 4, STANDBY_RECHECK_MAX_S))
                continue
            removed = await asyncio.to_thread(sweep, store, cluster)
        except (ClusterError, *UNAVAILABLE) as exc:
            log.warning("resync skipped: %s", exc)
        else:
            for template_id in removed.templates:
                log.info("resync: removed global template %s (its LabelTemplate is gone)",
                         template_id)
            for name in removed.plans:
                log.info("resync: removed plan override %s (its Plan is gone)", name)
            log.debug("resync of cluster %s: swept (%d removed)", store.cluster,
                      len(removed.templates) + len(removed.plans))
        await asyncio.sleep(interval_s)


def _own(store: Store, held: dict[str, Owner]) -> dict[str, Owner]:
    """The records this cluster wrote."""
    return {key: owner for key, owner in held.items()
            if owner.cluster and owner.cluster == store.cluster}


def _owner_names(items: Iterable[dict[str, Any]], *, namespaced: bool) -> set[str]:
    names = set()
    for item in items:
        meta = item.get("metadata", {})
        name = str(meta.get("name", ""))
        names.add(f"{meta.get('namespace', '')}/{name}" if namespaced else name)
    return names
