"""What every reconcile works with: the object it is for, and the store."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import redis
from redis.exceptions import AskError, RedisClusterException, TryAgainError
from redis.exceptions import ClusterError as RedisClusterError

from labelrender.operator.status import Outcome
from labelrender.store.errors import StoreUnavailable
from labelrender.store.objects import ObjectStore, ObjectStoreError
from labelrender.store.owners import Owner
from labelrender.store.templates import Draft

# What makes a reconcile transient rather than wrong: Redis or the object store
# cannot be reached (redis-py's TimeoutError and BusyLoadingError included), or
# a Redis Cluster is moving slots or failing over (MOVED/ASK past the client's
# retries, TRYAGAIN, CLUSTERDOWN, no node for a slot).
UNAVAILABLE = (redis.ConnectionError, redis.TimeoutError, AskError, TryAgainError,
               RedisClusterError, RedisClusterException, StoreUnavailable, ObjectStoreError)


@dataclass(frozen=True)
class Store:
    """Redis and the object store, as the API and workers see them, the
    template check (``checks.SandboxedCheck``: a draft's body SHA-256, or
    ``InvalidTemplate``), and the cluster this operator stores for (its name
    in owner records)."""

    redis: redis.Redis
    objects: ObjectStore
    check_template: Callable[[Draft], str]
    cluster: str = ""
    clock: Callable[[], float] = field(default=time.time, compare=False)


@dataclass(frozen=True)
class ObjectRef:
    """The custom resource a reconcile is for: ``namespace`` is None for a
    cluster-scoped one (a Plan); ``cluster`` is the operator's cluster id."""

    kind: str
    namespace: str | None
    name: str
    uid: str
    cluster: str = ""

    @property
    def owner(self) -> Owner:
        """What the store records as the owner of what it writes for this object."""
        path = f"{self.namespace}/{self.name}" if self.namespace else self.name
        return Owner(path, self.uid or "-", self.cluster)

    def __str__(self) -> str:
        return f"{self.kind} {self.owner.name}"


def unavailable(exc: Exception) -> Outcome:
    """The outcome while Redis (or the object store) cannot be reached."""
    if isinstance(exc, ObjectStoreError):
        return Outcome(False, "StorageUnavailable",
                       f"object storage is unreachable ({exc}); retrying", retry=True)
    return Outcome(False, "RedisUnavailable", f"Redis is unreachable ({exc}); retrying",
                   retry=True)
