from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from labelrender.store.disk_flush import DiskFlusher
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner
from labelrender.zpl import RenderOptions, render

KEY = "tenants/t1/labels/x.png"


@pytest.mark.parametrize(("afterwards", "bytes_synced", "synced"), [
    ("kept", False, 4 + 2),  # four files, then the two folders holding their links
    ("kept", True, 2),  # bytes synced before their links: only the folders
    ("file deleted", False, 3 + 2),  # retention removed one first: nothing to sync
    ("folder deleted", False, 2 + 1),
    ("folder deleted", True, 1),
])
def test_a_pass_syncs_what_is_still_there(tmp_path: Path, afterwards: str, bytes_synced: bool,
                                          synced: int) -> None:
    flusher = DiskFlusher(interval_s=3600)
    for folder in ("t1", "t2"):
        for name in ("a.png", "b.png"):
            path = tmp_path / folder / name
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(b"png")
            flusher.linked(path, synced=bytes_synced)
    if afterwards == "file deleted":
        (tmp_path / "t1" / "a.png").unlink()
    elif afterwards == "folder deleted":
        shutil.rmtree(tmp_path / "t1")
    assert flusher.flush() == synced
    assert flusher.flush() == 0  # each write is synced once


@pytest.mark.parametrize("sync", [True, False])
def test_a_stored_object_is_readable_before_its_sync(tmp_path: Path, sync: bool) -> None:
    store = FilesystemStore(tmp_path, UrlSigner(b"k" * 32))
    store.put(KEY, b"\x89PNG", "image/png", sync=sync)
    info = store.head(KEY)
    assert info is not None and info.size == 4
    assert store.get(KEY) == b"\x89PNG"


def _label() -> bytes:
    return render(b"^XA^FO20,20^A0N,30,30^FDintact^FS^XZ", RenderOptions(dpi=203)).png


@pytest.mark.parametrize(("key", "left", "intact"), [
    (KEY, "whole", True),
    (KEY, "empty", False),  # the data never reached the disk, the link did
    (KEY, "first pages", False),  # cut short part way
    ("tenants/t1/templates/x.zpl", "first pages", True),  # not a PNG: stored with sync
])
def test_a_label_a_power_cut_tore_is_not_intact_and_a_put_replaces_it(
        tmp_path: Path, key: str, left: str, intact: bool) -> None:
    store = FilesystemStore(tmp_path, UrlSigner(b"k" * 32))
    png = _label()
    kept = {"whole": png, "empty": b"", "first pages": png[: len(png) // 2]}[left]
    path = tmp_path.joinpath(*key.split("/"))
    path.parent.mkdir(parents=True)
    path.write_bytes(kept)  # what the disk held after the power cut
    info = store.head(key)
    assert info is not None
    assert store.intact(key, info) is intact
    store.put(key, png, "image/png", sync=False)  # the label rendered again
    again = store.head(key)
    assert again is not None and store.intact(key, again)
    assert store.get(key) == png



def test_a_label_found_whole_is_remembered_by_its_creation_and_size(tmp_path: Path) -> None:
    """A cache hit does not read the file's end again; a file replaced since (a new
    creation time or size) is read again."""
    store = FilesystemStore(tmp_path, UrlSigner(b"k" * 32))
    png = _label()
    store.put(KEY, png, "image/png", sync=False)
    info = store.head(KEY)
    assert info is not None and store.intact(KEY, info)
    path = tmp_path.joinpath(*KEY.split("/"))
    path.write_bytes(png[:-4])  # torn, as only a power cut (a new process) could leave it
    assert store.intact(KEY, info)  # remembered: the same creation time and size
    torn = store.head(KEY)
    assert torn is not None and torn.size != info.size
    assert not store.intact(KEY, torn)
