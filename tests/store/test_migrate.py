"""The migration from the key names before tenant groups, on the data directory
the earlier release made (tests/data/release_data: its AOF and what it holds)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import deliveries, keys, synthesis_jobs
from labelrender.store.migrate import migrate, new_name
from labelrender.store.redis_conn import connect, shutdown_server

RELEASE_DATA = Path(__file__).resolve().parents[1] / "data" / "release_data"
MANIFEST = json.loads((RELEASE_DATA / "manifest.json").read_text())
ONE = MANIFEST["tenants"]["one"]["tenant_id"]
TWO = MANIFEST["tenants"]["two"]["tenant_id"]
OLD_PATTERNS = ("lr:tenant:*", "lr:plan:*", "lr:plans", "lr:plan-owners", "lr:global:*",
                "lr:bootstrap:*", "lr:stream:*", "lr:webhooks:schedule",
                "lr:retention:tenants", "lr:batches:active")


def start_copy(folder: Path) -> redis.Redis:
    """An embedded server on a copy of the release's data directory."""
    folder.mkdir()
    shutil.copyfile(RELEASE_DATA / "appendonly.aof", folder / "appendonly.aof")
    return connect(data_dir=folder)


@pytest.fixture
def release(tmp_path: Path) -> Iterator[redis.Redis]:
    client = start_copy(tmp_path / "data")
    yield client
    shutdown_server(client, save=False)


def old_keys(r: redis.Redis) -> list[str]:
    return sorted(k for pattern in OLD_PATTERNS for k in r.scan_iter(match=pattern))


def shape(r: redis.Redis) -> dict[str, Any]:
    """Every key with its type and size (stream entry ids are new after a move)."""
    found: dict[str, Any] = {}
    for name in r.scan_iter(count=1000):
        kind = r.type(name)
        size = {"hash": r.hlen, "set": r.scard, "zset": r.zcard, "list": r.llen,
                "stream": r.xlen}.get(kind)
        found[name] = (kind, size(name) if size else r.get(name))
    return found


@pytest.mark.parametrize(("old", "new"), [
    (f"lr:tenant:{ONE}", f"lr:{keys.tenant_tag(ONE)}:tenant:{ONE}"),
    (f"lr:tenant:{ONE}:usage:2026-11", f"lr:{keys.tenant_tag(ONE)}:tenant:{ONE}:usage:2026-11"),
    (f"lr:tenant:{TWO}:template:a:b:versions",
     f"lr:{keys.tenant_tag(TWO)}:tenant:{TWO}:template:a:b:versions"),
    ("lr:plan:warehouse", "lr:{global}:plan:warehouse"),
    ("lr:plans", "lr:{global}:plans"),
    ("lr:plan-owners", "lr:{global}:plan-owners"),
    ("lr:global:templates", "lr:{global}:templates"),
    ("lr:global:template:carrier:seq", "lr:{global}:template:carrier:seq"),
    ("lr:global:template-owners", "lr:{global}:template-owners"),
    ("lr:bootstrap:demo-tenant", "lr:{global}:bootstrap:demo-tenant"),
    ("lr:apikey:0a1b", None),
    ("lr:workers:ready", None),
    ("lr:readyz:host:12", None),
    ("lr:stream:render", None),  # moved entry by entry, not renamed
    ("lr:{g:3}:tenant:x", None),
])
def test_new_names(old: str, new: str | None) -> None:
    assert new_name(old) == new


def test_every_key_moves_to_its_new_name_with_its_data(release: redis.Redis) -> None:
    before = {name: (release.type(name), release.dump(name)) for name in old_keys(release)
              if new_name(name) is not None}
    report = migrate(release).to_dict()
    assert report["status"] == "migrated" and report["kept"] == []
    assert report["renamed_keys"] == len(before) > 30
    assert old_keys(release) == []
    for name, (kind, dumped) in before.items():
        moved = new_name(name)
        assert moved is not None and release.type(moved) == kind
        assert release.dump(moved) == dumped
    assert release.hget(f"lr:{keys.tenant_tag(ONE)}:tenant:{ONE}", "plan") == "pro"
    assert release.exists("lr:{global}:plan:warehouse", "lr:{global}:templates") == 2


def test_work_still_owed_moves_to_the_tenant_group(release: redis.Redis) -> None:
    due_before = release.zrange("lr:webhooks:schedule", 0, -1, withscores=True)
    migrate(release)
    one, two = keys.tenant_tag(ONE), keys.tenant_tag(TWO)
    events: Any = release.xrange(f"lr:{one}:stream:events")
    assert [json.loads(f["event"])["external_ref"] for _, f in events] == ["unread-event"]
    jobs: Any = release.xrange(f"lr:{one}:stream:synthesis")
    assert [f["job_id"] for _, f in jobs] == [MANIFEST["synthesis_job"]]
    dead: Any = release.xrange(f"lr:{two}:stream:webhooks:dead")
    assert len(dead) == 1 and TWO in dead[0][1]["dead"]
    assert release.zrange(f"lr:{one}:webhooks:schedule", 0, -1, withscores=True) == due_before
    assert release.smembers(f"lr:{one}:retention:tenants") == {ONE}
    groups = {g["name"] for g in release.xinfo_groups(f"lr:{one}:stream:events")}
    assert groups == {deliveries.GROUP}  # read from the start by the dispatchers
    groups = {g["name"] for g in release.xinfo_groups(f"lr:{one}:stream:synthesis")}
    assert groups == {synthesis_jobs.GROUP}


def test_acknowledged_entries_are_done_and_dropped(release: redis.Redis) -> None:
    release.xadd("lr:stream:events", {"event": json.dumps({"tenant_id": ONE, "n": 1})})
    done = release.xadd("lr:stream:events", {"event": json.dumps({"tenant_id": ONE})})
    release.xreadgroup(deliveries.GROUP, "gone", {"lr:stream:events": ">"})
    release.xack("lr:stream:events", deliveries.GROUP, done)
    report = migrate(release).to_dict()
    # read and not acknowledged: they move; read and acknowledged: finished, dropped
    assert report["moved"]["lr:stream:events"] == 2
    assert report["dropped_acknowledged"] == {"lr:stream:events": 1}
    assert not release.exists("lr:stream:events")


def test_a_second_run_changes_nothing(release: redis.Redis) -> None:
    migrate(release)
    once = {name: release.dump(name) for name in release.scan_iter(count=1000)}
    assert migrate(release).to_dict() == {
        "status": "nothing to migrate", "renamed_keys": 0, "moved": {},
        "dropped_acknowledged": {}, "kept": []}
    assert {name: release.dump(name) for name in release.scan_iter(count=1000)} == once


def test_a_run_stopped_half_way_is_finished_by_the_next(
        release: redis.Redis, tmp_path: Path) -> None:
    # What a run stopped after some of its steps leaves: tenant one's keys and
    # part of the shared structures moved, the rest not.
    for name in old_keys(release):
        moved = new_name(name)
        if moved is not None and ONE in name:
            release.rename(name, moved)
    release.delete("lr:stream:render")
    migrate(release)
    fresh = start_copy(tmp_path / "fresh")
    try:
        migrate(fresh)
        assert shape(release) == shape(fresh)
    finally:
        shutdown_server(fresh, save=False)


def test_a_key_already_written_under_its_new_name_is_kept_not_overwritten(
        release: redis.Redis) -> None:
    moved = f"lr:{keys.tenant_tag(TWO)}:tenant:{TWO}"
    release.hset(moved, "name", "written by the new release")
    report = migrate(release).to_dict()
    assert report["kept"] == [f"lr:tenant:{TWO}"]
    assert release.hget(moved, "name") == "written by the new release"
    assert release.hget(f"lr:tenant:{TWO}", "name") == "Release Two"
