"""Events: the durable hand-off from a render to the webhook dispatcher.

A ``label.rendered`` event is added to one Redis Stream in the same
transaction (``MULTI``) as the label registry record it describes, so a
recorded render always has its event (the webhooks issue, "Durable hand-off").
The stream entry holds what cannot be recomputed later; the delivery payload
(spec "Events") is built by the dispatcher at delivery time, with a fresh
one-hour signed URL and its own ``delivered_at``.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass
from typing import Any

import redis

from labelrender.store import keys, streams

LABEL_RENDERED = "label.rendered"
BATCH_COMPLETED = "batch.completed"
EVENT_VERSION = "1"
STREAM_MAX_LEN = 1_000_000  # approximate cap; delivered entries are deleted
# One event stream per tenant group, read by the dispatchers' ``webhooks`` group
# (``streams``, "streams sharded by tenant group").
QUEUE = streams.Queue(keys.event_stream, "webhooks", keys.wake("events"), trimmed=True)


def new_event_id(now: float) -> str:
    """DECISIONS.md "Ids": ``evt_<unix>_<8 hex>``."""
    return f"evt_{int(now)}_{secrets.token_hex(4)}"


@dataclass(frozen=True)
class LabelRendered:
    """One ``label.rendered`` event as stored on the stream."""

    event_id: str
    tenant_id: str
    content_hash: str
    object_key: str
    template_id: str
    template_version: int
    external_ref: str | None
    cached: bool
    created_at: float
    test: bool = False
    topic: str = LABEL_RENDERED
    # ``batch.completed`` only: the batch's summary (its ``data`` but the URL);
    # ``object_key`` is then the batch's PDF.
    batch: dict[str, Any] | None = None

    def to_fields(self) -> dict[Any, Any]:
        fields = asdict(self)
        if self.batch is None:  # label events are stored as they always were
            del fields["batch"]
        return {"event": json.dumps(fields, separators=(",", ":"), sort_keys=True)}

    @staticmethod
    def from_fields(fields: Any) -> LabelRendered:
        return LabelRendered(**json.loads(fields["event"]))


def add_event(pipe: redis.client.Pipeline, event: LabelRendered) -> None:
    """Queue the event's XADD on ``pipe``: the caller's transaction carries it
    together with whatever it records (the tenant's keys, in the same tag), so
    both happen or neither does. Then the caller calls ``added``."""
    pipe.xadd(QUEUE.of(event.tenant_id), event.to_fields(), maxlen=STREAM_MAX_LEN,
              approximate=True)


def added(r: redis.Redis, event: LabelRendered) -> None:
    """Wake a dispatcher for the event just added (``streams.hint``)."""
    streams.hint(r, QUEUE, keys.group(event.tenant_id))


def publish(r: redis.Redis, event: LabelRendered) -> None:
    """Add one event on its own (e.g. a webhook test delivery)."""
    pipe = r.pipeline(transaction=True)
    add_event(pipe, event)
    pipe.execute()
    added(r, event)
