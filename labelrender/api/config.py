"""The API's own configuration: plain values, passed in by whoever builds the app."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from labelrender.graphics import GraphicLimits

if TYPE_CHECKING:
    from labelrender.worker.sandbox import Sandbox

MB = 1024 * 1024


@dataclass(frozen=True)
class ApiConfig:
    """What ``create_app`` needs besides Redis and the object store.

    ``public_base_url`` is the spec's ``{base_url}``, version prefix included
    (``https://api.example.com/v1``); filesystem-store file URLs are built on it.
    """

    public_base_url: str
    render_timeout_s: float = 30.0
    max_queue_depth: int = 1000
    max_body_bytes: int = 5 * MB  # spec "Limits": 5 MB for render endpoints
    url_window_s: int = 86400  # DECISIONS.md "Signed URLs": 24 h by default
    url_min_valid_s: int = 3600  # ... and valid for at least 1 hour
    retry_after_s: float = 2.0  # advised wait on 503/504 answers
    upgrade_url: str | None = None  # sent with 402; default: <origin>/pricing
    executor_threads: int = 64  # Redis calls off the event loop (renders wait on asyncio)
    # The object store's own threads (a bulkhead: a stalled store holds only
    # these) and its circuit: open after that many failures in a row, then
    # every call needing the store is answered 503 at once for objects_circuit_open_s.
    objects_threads: int = 16
    objects_circuit_failures: int = 3
    objects_circuit_open_s: float = 5.0
    parse_threads: int = 2  # large request bodies are parsed on these
    clock: Callable[[], float] = field(default=time.time, compare=False, repr=False)
    # Webhook targets (DECISIONS.md "Target checks"): networks the operator
    # allows, and the resolver subscribe-time checks use (None: the system's).
    webhook_allow_networks: tuple[str, ...] = ()
    webhook_resolver: Callable[[str, int], Sequence[str]] | None = field(
        default=None, compare=False, repr=False)
    synthesis_engine: str = "heuristic"  # labelrender.synth.engine.make_engine
    # The HTTP boundary. A body must arrive whole within body_timeout_s (else
    # 408); a connection idle, or still sending its headers, that long after
    # connecting or after its last answer is closed (aiohttp's keep-alive
    # timer); listen_backlog is the accept queue for bursts of new connections.
    body_timeout_s: float = 10.0
    idle_timeout_s: float = 30.0
    listen_backlog: int = 1024
    # Each Redis pool of the process (the asyncio one for authentication, the
    # blocking one behind AppState.call) holds at most redis_max_connections;
    # a request finding them all busy waits up to redis_pool_timeout_s (then 503).
    redis_max_connections: int = 100
    redis_pool_timeout_s: float = 5.0
    # Synchronous synthesis and template checks run the engine in a sandbox of
    # `engine_processes` processes under the render limits, never in the API
    # process; past `engine_queue` waiting calls the answer is 503. A sandbox
    # passed in `engine_sandbox` is used instead (and not closed by the app).
    engine_processes: int = 2
    engine_queue: int = 8
    render_deadline_s: float = 4.0
    render_memory_mb: int = 1024
    engine_sandbox: Sandbox | None = field(default=None, compare=False, repr=False)
    # Several API processes behind one port (``serve``) keep their metrics in
    # this folder (prometheus_client's multiprocess mode, which the process must
    # have been started in), so /metrics answers the same totals whichever
    # process a scrape reaches. None: this process's own.
    metrics_dir: str | None = None
    # POST /v1/graphics: caps checked before any image or PDF is decoded.
    graphic_limits: GraphicLimits = field(default_factory=GraphicLimits)
    # /readyz is 503 until this many render workers can take a job
    # (store.worker_presence); 0: not checked.
    ready_min_workers: int = 0
    # Batch renders: rows of one batch in flight at once (never more than the
    # plan's concurrent renders less one, so the tenant's own calls get a slot),
    # the lease a driving process holds on a batch (another resumes the batch
    # this long after the holder died), and how often active batches are looked
    # for. batch_drivers=False: this process never drives batches.
    batch_in_flight: int = 8
    batch_lease_s: float = 15.0
    batch_poll_s: float = 1.0
    batch_drivers: bool = True

    def __post_init__(self) -> None:
        if not self.public_base_url.startswith(("http://", "https://")):
            raise ValueError("public_base_url must be an absolute http(s) URL")
        if self.render_timeout_s <= 0 or self.max_queue_depth < 0:
            raise ValueError("render_timeout_s must be > 0 and max_queue_depth >= 0")
        if self.max_body_bytes < 1 or self.executor_threads < 1:
            raise ValueError("max_body_bytes and executor_threads must be >= 1")
        if min(self.objects_threads, self.objects_circuit_failures, self.parse_threads) < 1 \
                or self.objects_circuit_open_s <= 0:
            raise ValueError("objects_threads, objects_circuit_failures and parse_threads "
                             "must be >= 1, objects_circuit_open_s > 0")
        if min(self.body_timeout_s, self.idle_timeout_s, self.redis_pool_timeout_s) <= 0:
            raise ValueError("body, idle and Redis pool timeouts must be > 0")
        if self.listen_backlog < 1 or self.redis_max_connections < 1:
            raise ValueError("listen_backlog and redis_max_connections must be >= 1")
        if self.batch_in_flight < 1 or min(self.batch_lease_s, self.batch_poll_s) <= 0:
            raise ValueError("batch_in_flight must be >= 1, batch_lease_s and batch_poll_s > 0")
        if self.engine_processes < 1 or self.engine_queue < 0:
            raise ValueError("engine_processes must be >= 1 and engine_queue >= 0")

    @property
    def effective_upgrade_url(self) -> str:
        if self.upgrade_url:
            return self.upgrade_url
        base = self.public_base_url.rstrip("/").removesuffix("/v1")
        return f"{base}/pricing"
