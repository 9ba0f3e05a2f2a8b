"""``labelrender api``: settings from the environment reach the app's ApiConfig."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from pydantic import ValidationError

from labelrender.api.context import STATE
from labelrender.cli.api import load_app_factory
from labelrender.store.objects import FilesystemStore
from labelrender.store.settings import Settings
from labelrender.store.signing import UrlSigner


@pytest.mark.parametrize(("variable", "value", "field", "expected"), [
    ("LABELRENDER_HTTP_BODY_TIMEOUT_S", "2.5", "body_timeout_s", 2.5),
    ("LABELRENDER_HTTP_IDLE_TIMEOUT_S", "75", "idle_timeout_s", 75.0),
    ("LABELRENDER_HTTP_LISTEN_BACKLOG", "4096", "listen_backlog", 4096),
    ("LABELRENDER_REDIS_MAX_CONNECTIONS", "250", "redis_max_connections", 250),
    ("LABELRENDER_REDIS_POOL_TIMEOUT_S", "0.5", "redis_pool_timeout_s", 0.5),
])
def test_boundary_settings_reach_the_app(
        tmp_path: Path, redis_db: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        variable: str, value: str, field: str, expected: float) -> None:
    monkeypatch.setenv(variable, value)
    object_store = FilesystemStore(tmp_path / "objects", UrlSigner(b"s" * 32))
    app = load_app_factory()(Settings(data_dir=tmp_path), redis_db, object_store)
    assert getattr(app[STATE].config, field) == expected


@pytest.mark.parametrize(("variable", "value"), [
    ("LABELRENDER_HTTP_BODY_TIMEOUT_S", "0"),
    ("LABELRENDER_HTTP_IDLE_TIMEOUT_S", "-1"),
    ("LABELRENDER_HTTP_LISTEN_BACKLOG", "0"),
    ("LABELRENDER_REDIS_MAX_CONNECTIONS", "0"),
    ("LABELRENDER_REDIS_POOL_TIMEOUT_S", "0"),
])
def test_bad_boundary_settings_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError):
        Settings(data_dir=tmp_path)
