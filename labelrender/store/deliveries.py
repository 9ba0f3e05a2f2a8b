"""Webhook deliveries: the event stream's consumer group, the schedule of due
deliveries, attempt records and the dead-letter stream.

Flow (the webhooks issue, "Delivery"):

1. A dispatcher reads an event from the event stream (group ``webhooks``) and,
   in one transaction, schedules one delivery per subscription of the tenant
   and acknowledges and deletes the entry. A dispatcher that dies before that
   leaves the entry pending; another one claims it (XAUTOCLAIM).
2. A scheduled delivery is a member of one sorted set scored by when it is
   due. Claiming a due delivery does not remove it: it pushes its score out by
   a lease, atomically, so two dispatchers never send it at once, and a
   dispatcher that dies mid-delivery leaves it to come due again.
3. ``finish`` records the attempt and, in the same script, removes the
   delivery and schedules the next attempt or writes the dead letter.

So every event is delivered at least once, always under its event id; a crash
can repeat a delivery, never lose one.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import asdict, dataclass
from typing import Any

import redis

from labelrender.store import keys, streams
from labelrender.store.events import QUEUE, LabelRendered
from labelrender.store.redis_conn import text

log = logging.getLogger(__name__)

GROUP = QUEUE.group  # the dispatchers' consumer group
MAX_RECORDS = 100  # DECISIONS.md "Delivery records": at most 100 kept
DEAD_LETTER_MAX_LEN = 100_000

# Due members, each re-scored to now + lease in the same step (the claim).
# KEYS: schedule; ARGV: now, lease_until, count
_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], member)
end
return due
"""

# The end of one attempt. Nothing is recorded or rescheduled for a
# subscription deleted meanwhile: its deliveries are dropped.
# KEYS: schedule, webhooks hash, records list, dead-letter stream
# ARGV: member, webhook id, record, next member ('' for none), next due,
#       dead letter JSON ('' for none), max records, dead-letter max length
_FINISH = """
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 'dropped' end
redis.call('LPUSH', KEYS[3], ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[7]) - 1)
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[1], ARGV[5], ARGV[4]) end
if ARGV[6] ~= '' then
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[8], '*', 'dead', ARGV[6])
end
return 'ok'
"""


@dataclass(frozen=True)
class Delivery:
    """One event for one subscription, about to make attempt ``attempt`` (1 = first)."""

    event: LabelRendered
    webhook_id: str
    attempt: int = 1

    @property
    def tenant_id(self) -> str:
        return self.event.tenant_id

    def member(self) -> str:
        """The schedule member: the same delivery and attempt is one member,
        so two dispatchers rescheduling it cannot make two."""
        return json.dumps({"event": asdict(self.event), "webhook_id": self.webhook_id,
                           "attempt": self.attempt}, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_member(member: str) -> Delivery:
        raw = json.loads(member)
        return Delivery(LabelRendered(**raw["event"]), raw["webhook_id"], int(raw["attempt"]))

    def next_attempt(self) -> Delivery:
        return Delivery(self.event, self.webhook_id, self.attempt + 1)


@dataclass(frozen=True)
class Attempt:
    """One attempt as recorded (DECISIONS.md "Delivery records")."""

    event_id: str
    attempt: int
    status_code: int | None
    ok: bool
    error: str | None
    duration_ms: int
    attempted_at: str
    next_attempt_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DeadLetter:
    """A delivery that failed its last retry."""

    entry_id: str
    delivery: Delivery
    failed_at: str
    last_error: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"entry_id": self.entry_id, "event_id": self.delivery.event.event_id,
                "tenant_id": self.delivery.tenant_id, "webhook_id": self.delivery.webhook_id,
                "attempts": self.delivery.attempt, "failed_at": self.failed_at,
                "last_error": self.last_error, "test": self.delivery.event.test}


# --- the event streams' consumer group ----------------------------------------
# One event stream and one schedule per tenant group (``streams``, "streams
# sharded by tenant group"); a dispatcher serves every group.

def ensure_group(r: redis.Redis) -> None:
    """Create the ``webhooks`` group on every event stream (from its start) once."""
    streams.ensure_groups(r, QUEUE)


def read_events(r: redis.Redis, consumer: str, count: int, block_ms: int | None
                ) -> list[tuple[str, LabelRendered]]:
    """New events of any group for ``consumer``; they stay pending until
    ``schedule_event``."""
    return _parsed(r, streams.read(r, QUEUE, consumer, count, block_ms))


def sweep_events(r: redis.Redis, consumer: str, count: int
                 ) -> list[tuple[str, LabelRendered]]:
    """New events found by reading every group (``streams.sweep``): those whose
    hint was lost."""
    return _parsed(r, streams.sweep(r, QUEUE, consumer, count))


def claim_stale_events(r: redis.Redis, consumer: str, min_idle_ms: int, count: int
                       ) -> list[tuple[str, LabelRendered]]:
    """Events a dead dispatcher read but never scheduled, now ``consumer``'s."""
    return _parsed(r, streams.claim_stale(r, QUEUE, consumer, min_idle_ms, count))


def _parsed(r: redis.Redis, entries: list[streams.Entry]) -> list[tuple[str, LabelRendered]]:
    """The entries as events. One that is not an event can never be delivered:
    it is retired (and logged) rather than claimed again forever."""
    events: list[tuple[str, LabelRendered]] = []
    for number, entry_id, fields in entries:
        try:
            events.append((entry_id, LabelRendered.from_fields(fields)))
        except (KeyError, TypeError, ValueError):
            log.error("event stream entry %s is not an event; dropped: %r", entry_id, fields)
            streams.ack(r, QUEUE, number, entry_id)
    return events


def prune_consumers(r: redis.Redis, idle_ms: int, keep: str) -> list[str]:
    """Idle dispatcher names with nothing pending, removed (``streams``)."""
    return streams.prune(r, QUEUE, idle_ms, keep)


def release_events(r: redis.Redis, consumer: str, idle_ms: int) -> int:
    """The events a dispatcher whose process is gone read but never scheduled
    become claimable at once (``streams.release``)."""
    return streams.release(r, QUEUE, consumer, idle_ms)


def schedule_event(r: redis.Redis, entry_id: str, event: LabelRendered,
                   deliveries: list[Delivery], due: float) -> None:
    """Schedule the event's deliveries at ``due`` and retire its stream entry,
    in one transaction (its group's schedule and stream share the tag): the
    event is either still pending or fully scheduled."""
    number = keys.group(event.tenant_id)
    pipe = r.pipeline(transaction=True)
    if deliveries:
        pipe.zadd(keys.webhook_schedule(number), {d.member(): due for d in deliveries})
    pipe.xack(QUEUE.stream(number), QUEUE.group, entry_id)
    pipe.xdel(QUEUE.stream(number), entry_id)
    pipe.execute()
    if deliveries:
        _note_due(r, number, due)


# --- the schedules ----------------------------------------------------------------
# One schedule per tenant group. Which groups have something due is kept in one
# untagged sorted set (``keys.webhook_due``: group -> its earliest due time), so
# a dispatcher's poll is one read, not one per group. Whoever schedules notes
# the time there after the schedule write (``ZADD LT`` keeps the earliest); a
# dispatcher that took from a group removes the group, then notes the group's
# earliest entry again, so a delivery scheduled meanwhile is never hidden. A
# note lost in a crash is made good by ``repair_due``, which dispatchers run
# now and then.

def _schedule_of(delivery: Delivery) -> str:
    return keys.webhook_schedule(keys.group(delivery.tenant_id))


def _note_due(r: redis.Redis, number: int, due: float) -> None:
    r.zadd(keys.webhook_due(), {str(number): due}, lt=True)


def _renote_due(r: redis.Redis, number: int) -> None:
    """After taking from group ``number``: its earliest entry, if any, is noted."""
    r.zrem(keys.webhook_due(), str(number))
    earliest: Any = r.zrange(keys.webhook_schedule(number), 0, 0, withscores=True)
    if earliest:
        _note_due(r, number, float(earliest[0][1]))


def repair_due(r: redis.Redis) -> None:
    """Note every group's earliest scheduled delivery (one pipelined read of
    every schedule): what a crash between a schedule write and its note hid."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.zrange(keys.webhook_schedule(number), 0, 0, withscores=True)
    for number, earliest in enumerate(pipe.execute()):
        if earliest:
            _note_due(r, number, float(earliest[0][1]))


def schedule(r: redis.Redis, delivery: Delivery, due: float) -> None:
    """Schedule one delivery (a test delivery, a replay)."""
    r.zadd(_schedule_of(delivery), {delivery.member(): due})
    _note_due(r, keys.group(delivery.tenant_id), due)


def claim_due(r: redis.Redis, now: float, lease_s: float, count: int) -> list[Delivery]:
    """Up to ``count`` due deliveries of any group, leased to the caller until
    now + lease: the groups with something due (``keys.webhook_due``), from a
    random one on, each then taken from in one step."""
    due: Any = r.zrangebyscore(keys.webhook_due(), "-inf", now)
    numbers = [int(text(n) or 0) for n in due]
    random.shuffle(numbers)
    claimed: list[Delivery] = []
    for number in numbers:
        if len(claimed) >= count:
            break
        members: Any = r.register_script(_CLAIM_DUE)(
            keys=[keys.webhook_schedule(number)],
            args=[now, now + lease_s, count - len(claimed)])
        claimed += [Delivery.from_member(str(text(m))) for m in members]
        _renote_due(r, number)
    return claimed


def scheduled_count(r: redis.Redis) -> int:
    """Deliveries scheduled in every group."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.zcard(keys.webhook_schedule(number))
    return sum(int(n) for n in pipe.execute())


def drop(r: redis.Redis, delivery: Delivery) -> None:
    """Forget a delivery whose subscription is gone."""
    r.zrem(_schedule_of(delivery), delivery.member())


def finish(r: redis.Redis, delivery: Delivery, attempt: Attempt, *,
           retry_at: float | None, dead_letter: dict[str, Any] | None) -> bool:
    """Record ``attempt``; then retry at ``retry_at``, dead-letter, or be done.
    False when the subscription was deleted meanwhile (nothing recorded)."""
    next_member = delivery.next_attempt().member() if retry_at is not None else ""
    dead = json.dumps({"delivery": delivery.member(), **dead_letter}) if dead_letter else ""
    outcome = r.register_script(_FINISH)(
        keys=[_schedule_of(delivery), keys.webhooks(delivery.tenant_id),
              keys.webhook_deliveries(delivery.tenant_id, delivery.webhook_id),
              keys.webhook_dead_letters(keys.group(delivery.tenant_id))],
        args=[delivery.member(), delivery.webhook_id, json.dumps(attempt.to_dict()),
              next_member, retry_at or 0, dead, MAX_RECORDS, DEAD_LETTER_MAX_LEN])
    if retry_at is not None and text(outcome) == "ok":
        _note_due(r, keys.group(delivery.tenant_id), retry_at)
    return text(outcome) == "ok"


def list_attempts(r: redis.Redis, tenant_id: str, webhook_id: str) -> list[Attempt]:
    """The subscription's attempt records, newest first."""
    raw: Any = r.lrange(keys.webhook_deliveries(tenant_id, webhook_id), 0, MAX_RECORDS - 1)
    return [Attempt(**json.loads(str(text(item)))) for item in raw]


# --- dead letters -----------------------------------------------------------------

def dead_letters(r: redis.Redis, tenant_id: str | None = None) -> list[DeadLetter]:
    """Dead letters oldest first (stream entry ids are times), one tenant's when
    ``tenant_id`` is given (its group's stream only), else every group's."""
    numbers = range(keys.GROUPS) if tenant_id is None else [keys.group(tenant_id)]
    pipe = r.pipeline(transaction=False)
    for number in numbers:
        pipe.xrange(keys.webhook_dead_letters(number))
    letters = [_dead_letter(str(text(entry_id)), fields)
               for entries in pipe.execute() for entry_id, fields in entries]
    letters.sort(key=lambda d: tuple(int(part) for part in d.entry_id.split("-")))
    return [d for d in letters if tenant_id is None or d.delivery.tenant_id == tenant_id]


def dead_letter_count(r: redis.Redis) -> int:
    """Dead letters waiting to be replayed, every tenant's (the streams' length)."""
    pipe = r.pipeline(transaction=False)
    for number in range(keys.GROUPS):
        pipe.xlen(keys.webhook_dead_letters(number))
    return sum(int(n) for n in pipe.execute())


def replay(r: redis.Redis, letters: list[DeadLetter], now: float) -> int:
    """Schedule each dead letter again from its first attempt, due now, and
    remove it from its stream; the event keeps its id. Returns how many. Each
    letter is one transaction (its group's schedule and dead letters)."""
    for letter in letters:
        fresh = Delivery(letter.delivery.event, letter.delivery.webhook_id, 1)
        pipe = r.pipeline(transaction=True)
        pipe.zadd(_schedule_of(fresh), {fresh.member(): now})
        pipe.xdel(keys.webhook_dead_letters(keys.group(fresh.tenant_id)), letter.entry_id)
        pipe.execute()
        _note_due(r, keys.group(fresh.tenant_id), now)
    return len(letters)


def _dead_letter(entry_id: str, fields: Any) -> DeadLetter:
    raw = json.loads(str(text(fields["dead"])))
    return DeadLetter(entry_id, Delivery.from_member(raw["delivery"]), raw["failed_at"],
                      raw.get("last_error"))
