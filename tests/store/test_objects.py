"""Contract tests every ObjectStore must pass, run against both backends.

The filesystem store is served over a real local HTTP server and the S3 store
talks to moto's S3 server, so signed URLs are fetched the way a client would.
"""

from __future__ import annotations

import datetime
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import botocore.auth
import pytest

from labelrender.store.objects import (
    FilesystemStore,
    InvalidKeyError,
    ObjectInfo,
    ObjectStore,
    ObjectStoreError,
    S3Store,
)
from labelrender.store.signing import S3_MAX_URL_LIFETIME_S, UrlSigner, window_expiry
from tests.fixtures.files_http import serve_files
from tests.fixtures.s3 import make_s3_client

KEY = "tenants/tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV/labels/" + "ab" * 32 + ".png"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
SECRET = b"s" * 32
DAY, HOUR = 24 * 3600, 3600


@dataclass
class Backend:
    store: ObjectStore
    base_url: str


def fetch(url: str) -> tuple[int, bytes]:
    """GET `url` without credentials, as an integrator's client would."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


@pytest.fixture(params=["filesystem", "s3"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "filesystem":
        store = FilesystemStore(tmp_path / "objects", UrlSigner(SECRET))
        with serve_files(store) as base_url:
            yield Backend(store, base_url)
    else:
        client = request.getfixturevalue("s3_client")
        bucket = request.getfixturevalue("s3_bucket")
        yield Backend(S3Store(bucket, client), "https://api.invalid/v1")


@pytest.fixture
def fs_store(tmp_path: Path) -> Iterator[tuple[FilesystemStore, str]]:
    store = FilesystemStore(tmp_path / "objects", UrlSigner(SECRET))
    with serve_files(store) as base_url:
        yield store, base_url


@pytest.mark.parametrize(
    ("key", "data", "content_type"),
    [
        (KEY, PNG, "image/png"),
        ("tenants/t1/labels/empty.png", b"", "image/png"),
        ("tenants/t-2/raw/x_y.z.bin", bytes(100_000), "application/octet-stream"),
        ("top-level.png", b"one segment", "image/png"),
    ],
    ids=["png", "empty", "100k", "one-segment"],
)
def test_put_then_get_and_head(backend: Backend, key: str, data: bytes, content_type: str) -> None:
    before = time.time()
    backend.store.put(key, data, content_type)
    info = backend.store.head(key)
    assert backend.store.get(key) == data
    assert info is not None and info.size == len(data)
    assert before - 2 <= info.created_at <= time.time() + 2


@pytest.mark.parametrize("operation", ["get", "head", "delete"])
def test_missing_object(backend: Backend, operation: str) -> None:
    backend.store.put("tenants/t1/labels/other.png", PNG, "image/png")
    assert getattr(backend.store, operation)(KEY) is None


def test_identical_reput_keeps_created_at(backend: Backend) -> None:
    backend.store.put(KEY, PNG, "image/png")
    first = backend.store.head(KEY)
    time.sleep(0.05)
    backend.store.put(KEY, PNG, "image/png")
    assert backend.store.head(KEY) == first
    assert backend.store.get(KEY) == PNG


def test_writers_racing_to_store_one_object_keep_the_first(backend: Backend) -> None:
    """Two workers rendering one label put the same bytes at once; every writer
    then sees one creation time, the first's, which is what billing keys on."""
    writers = 8
    start = threading.Barrier(writers)
    seen: list[float] = []

    def put() -> None:
        start.wait()
        backend.store.put(KEY, PNG, "image/png")
        info = backend.store.head(KEY)
        assert info is not None
        seen.append(info.created_at)

    threads = [threading.Thread(target=put) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == writers and len(set(seen)) == 1
    assert backend.store.get(KEY) == PNG


def test_different_bytes_replace_the_object(backend: Backend) -> None:
    backend.store.put(KEY, PNG, "image/png")
    first = backend.store.head(KEY)
    time.sleep(0.05)
    backend.store.put(KEY, b"new bytes", "image/png")
    second = backend.store.head(KEY)
    assert backend.store.get(KEY) == b"new bytes"
    assert first is not None and second is not None
    assert second.size == len(b"new bytes") and second.created_at > first.created_at


def test_delete_is_final_and_idempotent(backend: Backend) -> None:
    backend.store.put(KEY, PNG, "image/png")
    backend.store.delete(KEY)
    backend.store.delete(KEY)
    assert (backend.store.get(KEY), backend.store.head(KEY)) == (None, None)


UNSAFE_KEYS = [
    "",
    "/etc/passwd",
    "../outside.png",
    "tenants/../../outside.png",
    "tenants/t1/..",
    "tenants/./t1/x.png",
    "tenants//t1/x.png",
    "tenants/t1/",
    ".hidden.png",
    "tenants/t1/.x.png.tmp",
    "tenants\\t1\\x.png",
    "tenants/t1/x.png\n",
    "tenants/t1/x y.png",
    "tenants/t1/\u00e9.png",
    "tenants/t1/x\x00.png",
    "a" * 1025,
]

OPERATIONS: dict[str, Callable[[ObjectStore, str], object]] = {
    "put": lambda store, key: store.put(key, PNG, "image/png"),
    "get": lambda store, key: store.get(key),
    "head": lambda store, key: store.head(key),
    "delete": lambda store, key: store.delete(key),
    "signed_url": lambda store, key: store.signed_url(key, int(time.time()) + HOUR, "http://x/v1"),
}


@pytest.mark.parametrize("key", UNSAFE_KEYS, ids=repr)
@pytest.mark.parametrize("operation", OPERATIONS)
def test_unsafe_keys_are_rejected(backend: Backend, operation: str, key: str) -> None:
    with pytest.raises(InvalidKeyError):
        OPERATIONS[operation](backend.store, key)


def _url_at(backend: Backend, info: ObjectInfo, now: float) -> str:
    expires_at = window_expiry(info.created_at, now, window_s=DAY, min_valid_s=HOUR)
    return backend.store.signed_url(KEY, expires_at, backend.base_url)


@pytest.mark.parametrize("later_s", [0, 1, 600, DAY - HOUR - 2])
def test_signed_url_is_identical_within_a_window(backend: Backend, later_s: int) -> None:
    backend.store.put(KEY, PNG, "image/png")
    info = backend.store.head(KEY)
    assert info is not None
    url = _url_at(backend, info, info.created_at)
    assert _url_at(backend, info, info.created_at + later_s) == url
    assert fetch(url) == (200, PNG)


@pytest.mark.parametrize("later_s", [DAY - HOUR + 1, DAY + 5, 3 * DAY])
def test_signed_url_changes_in_a_new_window(backend: Backend, later_s: int) -> None:
    backend.store.put(KEY, PNG, "image/png")
    info = backend.store.head(KEY)
    assert info is not None
    first = _url_at(backend, info, info.created_at)
    later = _url_at(backend, info, info.created_at + later_s)
    assert later != first
    assert later == _url_at(backend, info, info.created_at + later_s + 1)


def test_signed_url_of_a_purged_object_is_404(backend: Backend) -> None:
    backend.store.put(KEY, PNG, "image/png")
    info = backend.store.head(KEY)
    assert info is not None
    url = _url_at(backend, info, time.time())
    assert fetch(url) == (200, PNG)
    backend.store.delete(KEY)
    assert fetch(url) == (404, b"")


def _tamper(url: str, old: str, new: str) -> str:
    assert old in url
    return url.replace(old, new, 1)


@pytest.mark.parametrize(
    ("name", "edit", "status"),
    [
        ("untouched", lambda url, exp: url, 200),
        ("flipped signature digit", lambda url, exp: url[:-1] + "01"[url[-1] == "0"], 403),
        ("truncated signature", lambda url, exp: url[:-2], 403),
        ("no signature", lambda url, exp: url.split("&sig=")[0], 403),
        ("later expiry", lambda url, exp: _tamper(url, f"exp={exp}", f"exp={exp + DAY}"), 403),
        ("malformed expiry", lambda url, exp: _tamper(url, f"exp={exp}", "exp=1e99"), 403),
        ("other tenant", lambda url, exp: _tamper(url, "tnt_01ARZ", "tnt_01ARY"), 403),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_filesystem_url_tampering_is_403(
    fs_store: tuple[FilesystemStore, str], name: str, edit: Callable[[str, int], str], status: int
) -> None:
    store, base_url = fs_store
    store.put(KEY, PNG, "image/png")
    store.put(KEY.replace("tnt_01ARZ", "tnt_01ARY"), PNG, "image/png")
    exp = int(time.time()) + HOUR
    assert fetch(edit(store.signed_url(KEY, exp, base_url), exp))[0] == status


@pytest.mark.parametrize("purged", [False, True])
def test_filesystem_expired_url_is_403_even_after_purge(
    fs_store: tuple[FilesystemStore, str], purged: bool
) -> None:
    store, base_url = fs_store
    store.put(KEY, PNG, "image/png")
    if purged:
        store.delete(KEY)
    assert fetch(store.signed_url(KEY, int(time.time()) - 1, base_url)) == (403, b"")


def test_filesystem_url_shape(fs_store: tuple[FilesystemStore, str]) -> None:
    store, _ = fs_store
    url = store.signed_url(KEY, 1_900_000_000, "https://labels.example/v1/")
    sig = UrlSigner(SECRET).sign(KEY, 1_900_000_000)
    assert url == f"https://labels.example/v1/files/{KEY}?exp=1900000000&sig={sig}"


def test_filesystem_put_leaves_only_the_object(tmp_path: Path) -> None:
    store = FilesystemStore(tmp_path, UrlSigner(SECRET))
    store.put(KEY, PNG, "image/png")
    store.put(KEY, b"replaced", "image/png")
    assert os.listdir(tmp_path / Path(KEY).parent) == [Path(KEY).name]
    assert (tmp_path / KEY).read_bytes() == b"replaced"


def _s3_query(url: str) -> dict[str, str]:
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


def test_s3_url_matches_botocore_signing_at_the_fixed_time(
    s3_client: Any, s3_bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our URL is exactly the SDK's own presigned URL, had it been made at signing time."""
    store = S3Store(s3_bucket, s3_client)
    expires_at = int(time.time()) + DAY
    ours = store.signed_url(KEY, expires_at, "unused")
    signed_at = datetime.datetime.fromtimestamp(expires_at - S3_MAX_URL_LIFETIME_S, datetime.UTC)
    monkeypatch.setattr(
        botocore.auth, "get_current_datetime", lambda *_, **__: signed_at.replace(tzinfo=None)
    )
    stock = s3_client.generate_presigned_url(
        "get_object", Params={"Bucket": s3_bucket, "Key": KEY}, ExpiresIn=S3_MAX_URL_LIFETIME_S
    )
    assert ours == stock
    assert _s3_query(ours)["X-Amz-Date"] == signed_at.strftime("%Y%m%dT%H%M%SZ")


def test_s3_other_presigned_urls_still_use_the_current_time(s3_client: Any, s3_bucket: str) -> None:
    store = S3Store(s3_bucket, s3_client)
    store.signed_url(KEY, int(time.time()) + HOUR, "unused")
    stock = s3_client.generate_presigned_url(
        "get_object", Params={"Bucket": s3_bucket, "Key": KEY}, ExpiresIn=60
    )
    now = datetime.datetime.now(datetime.UTC)
    signed = datetime.datetime.strptime(_s3_query(stock)["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
    assert abs(now - signed.replace(tzinfo=datetime.UTC)) < datetime.timedelta(minutes=1)


@pytest.mark.parametrize(
    ("lifetime_s", "ahead_s", "expected"),
    [
        (S3_MAX_URL_LIFETIME_S, S3_MAX_URL_LIFETIME_S - 60, str(S3_MAX_URL_LIFETIME_S)),
        (S3_MAX_URL_LIFETIME_S, S3_MAX_URL_LIFETIME_S + 60, ValueError),
        (DAY + HOUR, DAY, str(DAY + HOUR)),
        (DAY + HOUR, DAY + 2 * HOUR, ValueError),
    ],
)
def test_s3_url_lifetime_bounds(
    s3_client: Any, s3_bucket: str, lifetime_s: int, ahead_s: int, expected: object
) -> None:
    store = S3Store(s3_bucket, s3_client, url_lifetime_s=lifetime_s)
    expires_at = int(time.time()) + ahead_s
    if expected is ValueError:
        with pytest.raises(ValueError):
            store.signed_url(KEY, expires_at, "unused")
    else:
        assert _s3_query(store.signed_url(KEY, expires_at, "unused"))["X-Amz-Expires"] == expected


@pytest.mark.parametrize(
    ("operation", "raises"),
    [
        ("put", True),
        ("get", True),
        # A HEAD response has no body, so S3 cannot say which of bucket or key is missing.
        ("head", False),
        ("delete", True),
        ("signed_url", False),
    ],
)
def test_s3_missing_bucket(s3_client: Any, operation: str, raises: bool) -> None:
    store = S3Store("no-such-bucket-anywhere", s3_client)
    if raises:
        with pytest.raises(ObjectStoreError) as caught:
            OPERATIONS[operation](store, KEY)
        assert caught.value.__cause__ is not None
    else:
        OPERATIONS[operation](store, KEY)


@pytest.mark.parametrize("operation", ["put", "get", "head", "delete"])
def test_s3_unreachable_endpoint_is_a_store_error(operation: str) -> None:
    store = S3Store("bucket", make_s3_client("http://127.0.0.1:9", max_attempts=1))
    with pytest.raises(ObjectStoreError) as caught:
        OPERATIONS[operation](store, KEY)
    assert caught.value.__cause__ is not None


class _Body:
    """A canned HTTP body, as botocore reads one (``stream``)."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self._data


CONFLICT = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>ConditionalRequestConflict'
            b"</Code><Message>A conflicting conditional operation is currently in progress"
            b"</Message></Error>")


def test_s3_conditional_conflict_is_looked_at_again(s3_client: Any, s3_bucket: str,
                                                    moto_endpoint: str) -> None:
    """AWS answers 409 ConditionalRequestConflict when two conditional writes race:
    the store looks again, finds the rival's identical object, and keeps it."""
    from botocore.awsrequest import AWSResponse

    store = S3Store(s3_bucket, s3_client)
    rival = S3Store(s3_bucket, make_s3_client(moto_endpoint))
    refused: list[str] = []

    def conflict(request: Any, **_: Any) -> AWSResponse | None:
        if request.headers.get("If-None-Match") != b"*" or refused:
            return None
        rival.put(KEY, PNG, "image/png")  # the other writer gets there first
        refused.append(request.url)
        return AWSResponse(request.url, 409, {"Content-Type": "application/xml"},
                           _Body(CONFLICT))

    s3_client.meta.events.register("before-send.s3.PutObject", conflict)
    store.put(KEY, PNG, "image/png")
    assert refused
    assert store.get(KEY) == PNG
    assert store.head(KEY) == rival.head(KEY)  # the rival's object, its creation time kept
