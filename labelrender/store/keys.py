"""Every Redis key name labelrender uses, and nothing else.

Scheme: ``lr:``, a hash tag, then the owning object. The hash tag decides the
slot on a Redis Cluster (and means nothing on a single Redis), so every script
and transaction touches keys of one tag only:

- ``lr:{g:N}:tenant:<tid>...``: everything a tenant owns, N its tenant group
  (``group``), so one tenant's data can never be addressed with another
  tenant's id and all of it lives in one slot.
- ``lr:{g:N}:...`` without a tenant: the group's shared structures (streams,
  reply lists, schedules, sets).
- ``lr:{global}:...``: plans, global templates and their owners, bootstrap
  marks (operator records, read through ``store.global_cache``).
- Untagged keys, each only ever used alone: ``lr:apikey:<sha256>`` (how a
  request finds its tenant, so it cannot be keyed by one), the workers'
  ready set and ``/readyz``'s probe keys.

No Lua script builds a key name: every key a script touches is in its KEYS.
"""

from __future__ import annotations

import hashlib
import re
import zlib

ROOT = "lr"

# Tenant groups: the unit of sharding on a Redis Cluster. A tenant's keys and
# its group's shared structures carry the hash tag ``{g:N}`` so that every
# script and transaction on them lands in one slot. GROUPS is fixed for the
# life of a deployment (changing it moves every tenant): 64 groups spread over
# any cluster up to 64 primaries, and cost a worker 64 short reads to sweep.
GROUPS = 64


def group(tenant_id: str) -> int:
    """The tenant group of ``tenant_id``: CRC-32 of the id modulo GROUPS."""
    return zlib.crc32(tenant_id.encode()) % GROUPS


def group_tag(number: int) -> str:
    """The hash tag of tenant group ``number`` (0 <= number < GROUPS)."""
    if not 0 <= number < GROUPS:
        raise ValueError(f"tenant group {number} is not in 0..{GROUPS - 1}")
    return f"{{g:{number}}}"


def tenant_tag(tenant_id: str) -> str:
    """The hash tag every key of ``tenant_id`` carries."""
    return group_tag(group(tenant_id))


# Global records (plans, global templates, their owners): one tag of their own.
GLOBAL_TAG = "{global}"


def tenant(tenant_id: str) -> str:
    """Hash: the tenant record (name, plan, overages, created_at)."""
    return f"{ROOT}:{tenant_tag(tenant_id)}:tenant:{tenant_id}"


def ready_workers() -> str:
    """Sorted set: consumer name -> when its "ready to take a job" expires."""
    return f"{ROOT}:workers:ready"


def tenant_pattern() -> str:
    """SCAN pattern of every tenant record (and, longer, its other keys), in
    every group; ``tenant_id_in`` takes the id back out of a name it matched."""
    return f"{ROOT}:{{g:*}}:tenant:tnt_*"


_TENANT_KEY = re.compile(r"^lr:\{g:(\d+)\}:tenant:(tnt_[^:]*)")


def tenant_id_in(name: str) -> str | None:
    """The tenant id a tenant key names (checked against its group tag), or None
    for a name that is not a tenant key."""
    found = _TENANT_KEY.match(name)
    if found is None or int(found.group(1)) != group(found.group(2)):
        return None
    return found.group(2)


def tenant_keys(tenant_id: str) -> str:
    """Hash: key_prefix -> sha256 of every key the tenant ever created."""
    return f"{tenant(tenant_id)}:keys"


def tenant_active_keys(tenant_id: str) -> str:
    """Set: key prefixes of the tenant's active keys (the cap counts these)."""
    return f"{tenant(tenant_id)}:keys:active"


def apikey(key_hash: str) -> str:
    """Hash: one API key record, found by the SHA-256 of the secret."""
    return f"{ROOT}:apikey:{key_hash}"


def rate(tenant_id: str) -> str:
    """String: GCRA theoretical arrival time of the tenant's next request."""
    return f"{tenant(tenant_id)}:rate"


def inflight(tenant_id: str) -> str:
    """Sorted set: concurrency lease ids scored by their expiry (unix time)."""
    return f"{tenant(tenant_id)}:inflight"


def usage(tenant_id: str, period: str) -> str:
    """Hash: unit -> count for one UTC month, ``period`` like ``2026-11``."""
    return f"{tenant(tenant_id)}:usage:{period}"


def idempotency(tenant_id: str, idempotency_key: str) -> str:
    """Hash: one idempotency record. The client's key is hashed so any string
    the client sends makes a short, safe key name."""
    digest = hashlib.sha256(idempotency_key.encode()).hexdigest()
    return f"{tenant(tenant_id)}:idem:{digest}"


def plan(name: str) -> str:
    """String (JSON): an operator's Plan resource overriding or adding a plan."""
    return f"{ROOT}:{GLOBAL_TAG}:plan:{name}"


def plans() -> str:
    """Set: names of all plans stored in Redis."""
    return f"{ROOT}:{GLOBAL_TAG}:plans"


def _shared(number: int) -> str:
    """The prefix of tenant group ``number``'s shared structures (queues, schedules,
    sets): under the group's tag, so a script may touch them with the keys of any
    tenant of the group."""
    return f"{ROOT}:{group_tag(number)}"


def render_stream(number: int) -> str:
    """The stream of render jobs of tenant group ``number`` (each job names its tenant)."""
    return f"{_shared(number)}:stream:render"


def render_reply(number: int, job_id: str) -> str:
    """The list a worker pushes a job's reply to (the job's tenant group ``number``)."""
    return f"{_shared(number)}:reply:{job_id}"


def synthesis_stream(number: int) -> str:
    """The stream of synthesis jobs of tenant group ``number`` (each names its tenant)."""
    return f"{_shared(number)}:stream:synthesis"


def wake(queue: str) -> str:
    """List: tenant group numbers of entries just added to the ``queue`` streams
    (``render``, ``synthesis``, ``events``). Untagged on purpose: one blocking
    read of it wakes a consumer for whichever group has work (``streams``)."""
    return f"{ROOT}:wake:{queue}"


def synthesis_job(tenant_id: str, job_id: str) -> str:
    """String (JSON): one synthesis job's record, kept 7 days (DECISIONS.md)."""
    return f"{tenant(tenant_id)}:synthesis_job:{job_id}"


def render_claim(tenant_id: str, content_hash: str) -> str:
    """String: the job id of the one request rendering this content hash now."""
    return f"{tenant(tenant_id)}:render:{content_hash}:claim"


def render_outcome(tenant_id: str, content_hash: str, job_id: str) -> str:
    """String: how that request's render ended, read by the requests that waited."""
    return f"{tenant(tenant_id)}:render:{content_hash}:outcome:{job_id}"


def bootstrap(step: str) -> str:
    """String: marks a one-time setup step as done (e.g. the embedded demo tenant)."""
    return f"{ROOT}:{GLOBAL_TAG}:bootstrap:{step}"


def event_stream(number: int) -> str:
    """The stream of webhook events of tenant group ``number`` (each names its
    tenant); the webhook dispatcher reads it with a consumer group."""
    return f"{_shared(number)}:stream:events"


def _template_owner(tenant_id: str | None) -> str:
    """A tenant's templates sit under the tenant; global ones (operator
    resources, like plans) under the global tag."""
    return tenant(tenant_id) if tenant_id is not None else f"{ROOT}:{GLOBAL_TAG}"


def templates(tenant_id: str | None) -> str:
    """Set: ids of the tenant's templates (``None``: the global ones)."""
    return f"{_template_owner(tenant_id)}:templates"


def template(tenant_id: str | None, template_id: str) -> str:
    """Hash: one template's record (name, latest version, created/updated)."""
    return f"{_template_owner(tenant_id)}:template:{template_id}"


def template_versions(tenant_id: str | None, template_id: str) -> str:
    """Hash: version number -> JSON of that immutable version."""
    return f"{_template_owner(tenant_id)}:template:{template_id}:versions"


def template_seq(tenant_id: str | None, template_id: str) -> str:
    """String: the last version number minted for the id. It outlives a delete,
    so a version number (part of the content hash) is never reused."""
    return f"{_template_owner(tenant_id)}:template:{template_id}:seq"


def label_records(tenant_id: str) -> str:
    """Hash: content hash -> JSON record of a rendered template label."""
    return f"{tenant(tenant_id)}:labels"


def label_recent(tenant_id: str) -> str:
    """Sorted set: content hashes of template labels scored by cached_at."""
    return f"{tenant(tenant_id)}:labels:recent"


def label_by_template(tenant_id: str, template_id: str) -> str:
    """Sorted set: like ``label_recent``, one template's labels only."""
    return f"{tenant(tenant_id)}:labels:template:{template_id}"


def label_objects(tenant_id: str) -> str:
    """Sorted set: every stored label object key (raw and template) scored by
    its creation time; the retention sweeper purges from the old end."""
    return f"{tenant(tenant_id)}:objects"


def retention_tenants(number: int) -> str:
    """Set: ids of the tenants of group ``number`` that have stored label objects,
    for the sweeper to visit. Not under a tenant on purpose: it is how the
    sweeper finds the tenants."""
    return f"{_shared(number)}:retention:tenants"


def webhooks(tenant_id: str) -> str:
    """Hash: webhook subscription id -> its record (JSON, signing secret included)."""
    return f"{tenant(tenant_id)}:webhooks"


def webhook_deliveries(tenant_id: str, webhook_id: str) -> str:
    """List: the subscription's delivery attempt records (JSON), newest first."""
    return f"{tenant(tenant_id)}:webhook:{webhook_id}:deliveries"


def webhook_schedule(number: int) -> str:
    """Sorted set: due deliveries of tenant group ``number`` (JSON naming tenant,
    subscription and event), scored by the unix time they are due; shared by
    every dispatcher."""
    return f"{_shared(number)}:webhooks:schedule"


def webhook_due() -> str:
    """Sorted set: tenant group number -> when something in its webhook schedule
    is due at the earliest (a hint, kept by ``deliveries``). Untagged on purpose:
    one read tells a dispatcher which groups' schedules to look at."""
    return f"{ROOT}:webhooks:due"


def webhook_dead_letters(number: int) -> str:
    """Stream: group ``number``'s deliveries that failed their last retry (each
    names its tenant)."""
    return f"{_shared(number)}:stream:webhooks:dead"


def label_warnings(tenant_id: str) -> str:
    """Hash: object key -> what the engine said when it was rendered (a JSON list
    of its warnings, or ``labels.RenderRecord`` as an object), so a cache hit
    answers as the render did."""
    return f"{tenant(tenant_id)}:labels:warnings"


def global_template_owners() -> str:
    """Hash: global template id -> "<owner> <instance>", the LabelTemplate object
    (namespace/name, then uid) the operator stores that template for."""
    return f"{ROOT}:{GLOBAL_TAG}:template-owners"


def plan_owners() -> str:
    """Hash: plan name -> "<owner> <instance>", the Plan object (name, then uid)
    the operator stores that plan override for."""
    return f"{ROOT}:{GLOBAL_TAG}:plan-owners"


def readiness(writer: str) -> str:
    """String: what one API process last wrote to prove Redis takes writes
    (``store.readiness``); it expires within a minute."""
    return f"{ROOT}:readyz:{writer}"


def batch(tenant_id: str, batch_id: str) -> str:
    """Hash: one batch render's record (template, options, state, counts)."""
    return f"{tenant(tenant_id)}:batch:{batch_id}"


def batch_rows(tenant_id: str, batch_id: str) -> str:
    """List: the batch's rows in order, each the JSON object of its field values."""
    return f"{tenant(tenant_id)}:batch:{batch_id}:rows"


def batch_results(tenant_id: str, batch_id: str) -> str:
    """Hash: row index -> JSON of how that row ended (written once)."""
    return f"{tenant(tenant_id)}:batch:{batch_id}:results"


def batch_lease(tenant_id: str, batch_id: str) -> str:
    """String: the token of the process driving the batch; expires with its lease."""
    return f"{tenant(tenant_id)}:batch:{batch_id}:lease"


def batch_groups() -> str:
    """Set: tenant group numbers that may have active batches (a hint kept by
    ``batches``). Untagged on purpose: one read tells a driver where to look."""
    return f"{ROOT}:batches:groups"


def active_batches(number: int) -> str:
    """Set: ``<tenant> <batch>`` of every batch of tenant group ``number`` not
    finished yet. Not under a tenant on purpose: it is how a driver finds the
    batches to resume."""
    return f"{_shared(number)}:batches:active"
