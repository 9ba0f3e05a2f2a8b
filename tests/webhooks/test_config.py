"""Webhook configuration: operator settings reach the dispatcher and the API,
and the default backoff is DECISIONS.md's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import redis
from pydantic import ValidationError

from labelrender.api.context import STATE
from labelrender.cli.api import load_app_factory
from labelrender.store.objects import FilesystemStore
from labelrender.store.settings import Settings
from labelrender.worker.dispatcher import DEFAULT_BACKOFF_S, DispatcherConfig
from labelrender.worker.run import background_services


def test_default_backoff_is_5s_30s_2min_10min_1h_with_20_percent_jitter() -> None:
    config = DispatcherConfig(public_base_url="https://api.example.com/v1",
                              rng=random.Random(3))
    assert DEFAULT_BACKOFF_S == (5, 30, 120, 600, 3600)
    for attempt, base in enumerate(DEFAULT_BACKOFF_S, start=1):
        delays = [config.retry_delay(attempt) for _ in range(200)]
        assert all(d is not None and 0.8 * base <= d <= 1.2 * base for d in delays)
        assert len({round(d or 0, 6) for d in delays}) > 100  # jittered, not fixed
    assert config.retry_delay(6) is None  # the fifth retry was the last
    assert config.timeout_s == 10.0


def test_settings_reach_the_dispatcher_service(tmp_path: Path, redis_db: redis.Redis,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELRENDER_WEBHOOK_ALLOW_NETWORKS", "127.0.0.0/8, ::1/128")
    monkeypatch.setenv("LABELRENDER_WEBHOOK_BACKOFF_S", "0.1,0.2")
    settings = Settings(data_dir=tmp_path)
    assert settings.webhook_networks() == ("127.0.0.0/8", "::1/128")
    assert settings.webhook_backoff() == (0.1, 0.2)
    [dispatcher] = [s for s in background_services(settings, redis_db) if s.name == "webhooks"]
    assert dispatcher.name == "webhooks"


@pytest.mark.parametrize(("name", "value"), [
    ("LABELRENDER_WEBHOOK_ALLOW_NETWORKS", "not-a-network"),
    ("LABELRENDER_WEBHOOK_BACKOFF_S", "5,-1"),
    ("LABELRENDER_WEBHOOK_BACKOFF_S", ""),
    ("LABELRENDER_WEBHOOK_JITTER", "1.5"),
])
def test_bad_settings_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises((ValidationError, ValueError)):
        Settings(data_dir=tmp_path)


def test_api_gets_the_allowlist_from_settings(tmp_path: Path, redis_db: redis.Redis,
                                             object_store: FilesystemStore) -> None:
    settings = Settings(data_dir=tmp_path, webhook_allow_networks="10.0.0.0/8")
    app = load_app_factory()(settings, redis_db, object_store)
    assert app[STATE].config.webhook_allow_networks == ("10.0.0.0/8",)
