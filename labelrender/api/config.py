"""The API's own configuration: plain values, passed in by whoever builds the app."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
    executor_threads: int = 64  # store calls off the event loop (renders wait on asyncio)
    clock: Callable[[], float] = field(default=time.time, compare=False, repr=False)
    # Webhook targets (DECISIONS.md "Target checks"): networks the operator
    # allows, and the resolver subscribe-time checks use (None: the system's).
    webhook_allow_networks: tuple[str, ...] = ()
    webhook_resolver: Callable[[str, int], Sequence[str]] | None = field(
        default=None, compare=False, repr=False)
    synthesis_engine: str = "heuristic"  # labelrender.synth.engine.make_engine

    def __post_init__(self) -> None:
        if not self.public_base_url.startswith(("http://", "https://")):
            raise ValueError("public_base_url must be an absolute http(s) URL")
        if self.render_timeout_s <= 0 or self.max_queue_depth < 0:
            raise ValueError("render_timeout_s must be > 0 and max_queue_depth >= 0")
        if self.max_body_bytes < 1 or self.executor_threads < 1:
            raise ValueError("max_body_bytes and executor_threads must be >= 1")

    @property
    def effective_upgrade_url(self) -> str:
        if self.upgrade_url:
            return self.upgrade_url
        base = self.public_base_url.rstrip("/").removesuffix("/v1")
        return f"{base}/pricing"
