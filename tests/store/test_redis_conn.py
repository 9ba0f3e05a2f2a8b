from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.store import StoreUnavailable, connect, shutdown_server, socket_url


def test_embedded_server_keeps_writes_across_a_restart(tmp_path: Path) -> None:
    first = connect(data_dir=tmp_path)
    assert first.config_get("appendonly") == {"appendonly": "yes"}
    first.set("lr:test", "kept")
    shutdown_server(first, save=False)  # no RDB snapshot: only the AOF can bring it back
    second = connect(data_dir=tmp_path)
    try:
        assert second.get("lr:test") == "kept"
    finally:
        shutdown_server(second)


def test_other_processes_can_join_the_embedded_server(tmp_path: Path) -> None:
    server = connect(data_dir=tmp_path)
    try:
        url = socket_url(server)
        assert url is not None and url.startswith("unix://")
        joined = connect(url=url)
        joined.set("lr:test", "shared")
        assert server.get("lr:test") == "shared"
        assert socket_url(joined) is None
        joined.close()
    finally:
        shutdown_server(server)


@pytest.mark.parametrize(
    ("url", "data_dir"),
    [("redis://127.0.0.1:1/0", None), ("unix:///nonexistent/redis.sock", None), (None, None)],
)
def test_unreachable_redis_is_store_unavailable(url: str | None, data_dir: Path | None) -> None:
    with pytest.raises(StoreUnavailable):
        connect(url=url, data_dir=data_dir)
