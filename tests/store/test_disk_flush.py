"""Files the filesystem store writes are synced later, in one pass, whatever became of them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from labelrender.store.disk_flush import DiskFlusher
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner


@pytest.mark.parametrize(("afterwards", "synced"), [
    ("kept", 2),
    ("file deleted", 2),  # retention removed a file: its folder's links still count
    ("folder deleted", 1),  # a folder gone before the pass: nothing to sync there
])
def test_a_pass_syncs_what_is_still_there(tmp_path: Path, afterwards: str, synced: int) -> None:
    flusher = DiskFlusher(interval_s=3600)
    for folder in ("t1", "t2"):
        for name in ("a.png", "b.png"):
            path = tmp_path / folder / name
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(b"png")
            flusher.linked(path)
    if afterwards == "file deleted":
        (tmp_path / "t1" / "a.png").unlink()
    elif afterwards == "folder deleted":
        shutil.rmtree(tmp_path / "t1")
    assert flusher.flush() == synced  # once per folder, however many links it got
    assert flusher.flush() == 0  # each link is synced once


def test_a_stored_object_is_readable_before_its_sync(tmp_path: Path) -> None:
    store = FilesystemStore(tmp_path, UrlSigner(b"k" * 32))
    store.put("tenants/t1/labels/x.png", b"\x89PNG", "image/png")
    info = store.head("tenants/t1/labels/x.png")
    assert info is not None and info.size == 4
    assert store.get("tenants/t1/labels/x.png") == b"\x89PNG"
