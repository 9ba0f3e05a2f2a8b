"""What handlers share: the app state, the caller's identity, route policies.

``AppState.call`` is the door to the synchronous Redis store: it runs a call on
the app's Redis thread pool and translates storage failures into a retriable
503. ``AppState.call_objects`` is the door to the object store, on a pool of its
own behind a circuit (``api.bulkhead``): a stalled object store fills only its
own threads, and while it is down its callers are answered 503 at once, so
keys, usage, templates and webhooks never wait behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, ParamSpec, TypeVar

import redis
from aiohttp import web
from redis.asyncio import Redis as AsyncRedis
from redis.exceptions import RedisClusterException

from labelrender.api.bulkhead import Circuit, CircuitOpen
from labelrender.api.config import ApiConfig
from labelrender.api.errors import ServiceUnavailable, Unauthorized
from labelrender.api.metrics import Metrics
from labelrender.store import ApiKey, Plan, RateDecision, StoreUnavailable, Tenant
from labelrender.store.access import Access, Authorizer
from labelrender.store.global_cache import TemplateCache
from labelrender.store.labels import RenderRecord
from labelrender.store.objects import ObjectStore, ObjectStoreError

P = ParamSpec("P")
T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class StoredRecords:
    """What the engine said of the stored labels this process has answered
    (``RenderRecord``), by object key and creation time. A stored object never
    changes (a new one under the same key has a new creation time), so a repeat
    hit needs no Redis for it; only its field boxes may be added later, when a
    request first asks for them. Least recently used first out past ``size``."""

    def __init__(self, size: int = 10_000) -> None:
        self._size = size
        self._known: OrderedDict[tuple[str, float], RenderRecord] = OrderedDict()

    def get(self, object_key: str, created_at: float) -> RenderRecord | None:
        known = self._known.get((object_key, created_at))
        if known is not None:
            self._known.move_to_end((object_key, created_at))
        return known

    def put(self, object_key: str, created_at: float, record: RenderRecord) -> None:
        self._known[(object_key, created_at)] = record
        while len(self._known) > self._size:
            self._known.popitem(last=False)


@dataclass(frozen=True)
class AppState:
    config: ApiConfig
    redis: redis.Redis
    objects: ObjectStore
    executor: ThreadPoolExecutor
    metrics: Metrics
    # The asyncio client for the per-request hot path (``authorize``), on the
    # same server as ``redis``; everything else goes through ``call``.
    aredis: AsyncRedis
    authorizer: Authorizer
    # The object store's own threads, and the circuit in front of them.
    objects_executor: ThreadPoolExecutor
    objects_circuit: Circuit
    # Large request bodies are parsed here, off the event loop (``parse``).
    parse_executor: ThreadPoolExecutor
    stored_records: StoredRecords = field(default_factory=lambda: StoredRecords())
    # Global templates as this process last read them (store.global_cache).
    global_templates: TemplateCache = field(default_factory=lambda: TemplateCache())
    # Store steps left to run after the answer (``after_answer``), until done.
    pending: set[asyncio.Task[None]] = field(default_factory=set)

    def now(self) -> float:
        return self.config.clock()

    async def authorize(self, secret: str, *, cost: int) -> Access | None:
        """Key, tenant, plan and one rate step in one round trip (store.access)."""
        try:
            return await self.authorizer.authorize(secret, now=self.now(), cost=cost)
        except (redis.RedisError, RedisClusterException, OSError) as exc:
            raise ServiceUnavailable(
                "storage is temporarily unavailable; retry shortly",
                retry_after=self.config.retry_after_s,
            ) from exc

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking store call off the event loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, functools.partial(fn, *args, **kwargs))
        except (redis.RedisError, RedisClusterException, StoreUnavailable, ObjectStoreError) as exc:
            raise self._unavailable() from exc

    async def call_objects(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking call that needs the object store on its own threads:
        503 at once while the circuit is open, and each object-store failure
        counted towards opening it."""
        circuit = self.objects_circuit
        if not circuit.admit():
            raise ServiceUnavailable(
                "object storage is unavailable; retry shortly", kind="ObjectStoreUnavailable",
                retry_after=max(self.config.retry_after_s, circuit.retry_after())
            ) from circuit.last_failure
        loop = asyncio.get_running_loop()
        queued_at = circuit.now()

        def unless_refusing() -> T:
            # Calls queued behind a stalled store's threads look again before
            # they start, so they do not each wait out its timeout in turn.
            if circuit.refusing(since=queued_at):
                raise CircuitOpen
            try:
                return fn(*args, **kwargs)
            except ObjectStoreError:
                circuit.noted_failure()
                raise

        try:
            result = await loop.run_in_executor(self.objects_executor, unless_refusing)
        except CircuitOpen as exc:
            circuit.settled()
            raise ServiceUnavailable(
                "object storage is unavailable; retry shortly", kind="ObjectStoreUnavailable",
                retry_after=max(self.config.retry_after_s, circuit.retry_after())
            ) from circuit.last_failure or exc
        except ObjectStoreError as exc:
            circuit.failed(exc)
            raise ServiceUnavailable(
                "object storage is unavailable; retry shortly", kind="ObjectStoreUnavailable",
                retry_after=self.config.retry_after_s) from exc
        except (redis.RedisError, RedisClusterException, StoreUnavailable) as exc:
            circuit.settled()
            raise self._unavailable() from exc
        except BaseException:
            circuit.settled()
            raise
        circuit.succeeded()
        return result

    async def parse(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run CPU work on a request body (``fn`` raises ``ApiError``s) off the
        event loop, on threads no store call uses."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.parse_executor,
                                          functools.partial(fn, *args, **kwargs))

    async def call_async(self, work: Awaitable[T]) -> T:
        """Await a store call made on the asyncio client (``aredis``), its failures
        answered as ``call`` answers them."""
        try:
            return await work
        except (redis.RedisError, RedisClusterException, OSError, StoreUnavailable) as exc:
            raise self._unavailable() from exc

    def after_answer(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` while the answer goes out: a store step the caller does not
        wait for. The app waits for what is left of them when it stops."""
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def finish_pending(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for the steps ``after_answer`` started."""
        if self.pending:
            await asyncio.wait(list(self.pending), timeout=timeout_s)

    def call_here(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a store call that does only local work (``ObjectStore.local``) on the
        event loop itself, its failures answered as ``call`` answers them."""
        try:
            return fn(*args, **kwargs)
        except (redis.RedisError, RedisClusterException, StoreUnavailable, ObjectStoreError) as exc:
            raise self._unavailable() from exc

    def _unavailable(self) -> ServiceUnavailable:
        return ServiceUnavailable("storage is temporarily unavailable; retry shortly",
                                  retry_after=self.config.retry_after_s)


STATE = web.AppKey("labelrender_state", AppState)


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Stop a background task the app started, and wait until it has stopped."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def app_state(request: web.Request) -> AppState:
    return request.app[STATE]


@dataclass(frozen=True)
class AuthContext:
    """The caller, from its key: the tenant is never taken from the request."""

    key: ApiKey
    tenant: Tenant
    plan: Plan

    @property
    def tenant_id(self) -> str:
        return self.tenant.tenant_id


_AUTH = web.RequestKey("labelrender.auth", AuthContext)
_RATE = web.RequestKey("labelrender.rate", RateDecision)
_CHARGED = web.RequestKey("labelrender.rate_charged", bool)
_REQUEST_ID = web.RequestKey("labelrender.request_id", str)


def set_auth(request: web.Request, auth: AuthContext) -> None:
    request[_AUTH] = auth


def auth_or_none(request: web.Request) -> AuthContext | None:
    auth = request.get(_AUTH)
    return auth if isinstance(auth, AuthContext) else None


def auth_of(request: web.Request) -> AuthContext:
    auth = auth_or_none(request)
    if auth is None:  # a route declared public reached for the caller's key
        raise Unauthorized("an API key is required")
    return auth


def set_rate(request: web.Request, decision: RateDecision, *, charged: bool) -> None:
    """Record the rate step the request took (``charged``) or only looked at."""
    request[_RATE] = decision
    request[_CHARGED] = charged


def rate_charged(request: web.Request) -> bool:
    return bool(request.get(_CHARGED, False))


def rate_or_none(request: web.Request) -> RateDecision | None:
    decision = request.get(_RATE)
    return decision if isinstance(decision, RateDecision) else None


def set_request_id(request: web.Request, request_id: str) -> None:
    request[_REQUEST_ID] = request_id


def request_id_of(request: web.Request) -> str:
    return str(request.get(_REQUEST_ID, ""))


# --- route policies -------------------------------------------------------------

RatePolicy = Literal["charge", "peek", "handler", "none"]


@dataclass(frozen=True)
class RoutePolicy:
    """How the middleware treats a route.

    ``rate``: ``charge`` takes one request before the handler; ``handler``
    leaves it to the handler (``POST /v1/labels`` checks idempotency first);
    ``peek`` only reports it (``GET /v1/usage``). ``kinds``: error bodies also
    carry ``status``/``errors`` (DECISIONS.md "Error bodies").
    ``unauthorized_kind``: the kind of this route's 401 (the spec names it per
    endpoint: ``PRE_AUTH_UNAUTHORIZED`` on synthesis).
    """

    auth: bool = True
    rate: RatePolicy = "charge"
    kinds: bool = False
    unauthorized_kind: str = "Unauthorized"


PUBLIC = RoutePolicy(auth=False, rate="none")
_POLICIES: dict[Handler, RoutePolicy] = {}


def route_policy(policy: RoutePolicy) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _POLICIES[handler] = policy
        return handler

    return register


# Paths under /v1 that need no key (the signature is the credential): a wrong
# method there is answered 405, not 401.
PUBLIC_PREFIXES = ("/v1/files/",)


def policy_of(request: web.Request) -> RoutePolicy:
    """The matched handler's policy; unmatched paths under /v1 still need a key."""
    return policy_for(request.match_info.handler, request.path)


def policy_for(handler: Handler, path: str) -> RoutePolicy:
    """The policy of ``handler`` serving ``path`` (the OpenAPI document reads it)."""
    policy = _POLICIES.get(handler)
    if policy is not None:
        return policy
    if path.startswith("/v1/") and not path.startswith(PUBLIC_PREFIXES):
        return RoutePolicy()
    return PUBLIC
