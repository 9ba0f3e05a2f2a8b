"""Events about LabelTemplates and Plans, where `kubectl describe` finds them.

Kopf files the Events of a cluster-scoped object (a Plan) in its own
namespace with that namespace in ``involvedObject``; `kubectl describe plan`
asks for Events whose ``involvedObject.namespace`` is empty, as the API server
files a Node's, so it showed none. A Plan's Events are posted here instead:
in ``default``, with no namespace in ``involvedObject``. A LabelTemplate's stay
Kopf's (its own namespace, which kubectl reads).
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import kopf

from labelrender.operator.cluster import Cluster
from labelrender.operator.status import Outcome

COMPONENT = "labelrender-operator"  # Events' "From", as Kopf's posting.reporting_component
CLUSTER_EVENTS_NAMESPACE = "default"
MAX_MESSAGE = 1024  # as Kopf cuts them


class Events:
    """Posts one Event per outcome that says something new."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster

    async def post(self, body: kopf.Body, outcome: Outcome) -> None:
        if body.meta.namespace:
            kopf.event(body, type=outcome.event_type, reason=outcome.reason,
                       message=outcome.message)
            return
        event = cluster_event(body, outcome, datetime.datetime.now(datetime.UTC))
        await asyncio.to_thread(self._cluster.post_event, CLUSTER_EVENTS_NAMESPACE, event)


def cluster_event(body: kopf.Body, outcome: Outcome, now: datetime.datetime
                  ) -> dict[str, Any]:
    """A core/v1 Event about a cluster-scoped object."""
    meta = body.meta
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"generateName": f"{meta.name}.", "namespace": CLUSTER_EVENTS_NAMESPACE},
        "involvedObject": {"apiVersion": body.get("apiVersion"), "kind": body.get("kind"),
                           "name": meta.name, "uid": meta.uid},
        "type": outcome.event_type, "reason": outcome.reason,
        "message": outcome.message[:MAX_MESSAGE],
        "source": {"component": COMPONENT}, "reportingComponent": COMPONENT,
        "reportingInstance": COMPONENT,
        "firstTimestamp": stamp, "lastTimestamp": stamp, "count": 1,
    }
