"""Object storage for rendered labels: one interface, a filesystem and an S3 backend.

Keys are content-addressed (``tenants/<tid>/labels/<hash>.png``), so an object
never changes once written: a repeated put of the same bytes is a no-op that
keeps the original `created_at`, which anchors the signed-URL windows
(DECISIONS.md "Signed URLs"). A put of *different* bytes under an existing key
replaces the object, and its `created_at` becomes the time of the replacement.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from botocore.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    BotoCoreError,
    ClientError,
)

from labelrender.store.disk_flush import FLUSHER
from labelrender.store.errors import InvalidValue, StoreError
from labelrender.store.signing import (
    S3_MAX_URL_LIFETIME_S,
    UrlSigner,
    Verdict,
    enable_fixed_time_presign,
    presign_s3_get,
)

# One path segment: ASCII letters, digits, '.', '_' and '-', never starting with
# '.', which rules out '.', '..' and the store's own hidden temp files. Newlines
# are excluded too, which keeps the signed text "<key>\n<exp>" unambiguous.
_KEY_SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
MAX_KEY_BYTES = 1024


@dataclass(frozen=True)
class ObjectInfo:
    """What `head` reports about a stored object."""

    size: int
    created_at: float  # unix seconds


class ObjectStoreError(StoreError):
    """The storage backend failed; callers answer with a retryable 5xx."""


class InvalidKeyError(InvalidValue):
    """A key that could escape its prefix or the store root; a programming error."""


class SignedUrlRejected(StoreError):
    """A signed file URL that is tampered with or expired (403)."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(f"signed URL rejected: {verdict.value}")
        self.verdict = verdict


def check_key(key: str) -> str:
    """Return `key` if it is a safe relative object key, else raise InvalidKeyError."""
    safe = len(key.encode()) <= MAX_KEY_BYTES and all(
        _KEY_SEGMENT.fullmatch(segment) for segment in key.split("/")
    )
    if not safe:
        raise InvalidKeyError(f"unsafe object key: {key!r}")
    return key


class ObjectStore(Protocol):
    """The storage both embedded (filesystem) and scaled-out (S3) modes use."""

    # Whether ``head`` and ``signed_url`` are local work (a stat, an HMAC) that an
    # event loop may do itself, rather than a network call to run on a thread.
    local: bool

    def put(self, key: str, data: bytes, content_type: str, *, sync: bool = True) -> None:
        """Store `data`; idempotent for the same key and bytes. ``sync=False``
        allows a store to make the bytes durable up to a second later (a label,
        which renders again if a power cut loses it)."""

    def get(self, key: str) -> bytes | None:
        """The object's bytes, or None when there is no such object."""

    def head(self, key: str) -> ObjectInfo | None:
        """Size and creation time, or None when there is no such object."""

    def delete(self, key: str) -> None:
        """Remove the object; deleting a missing object is not an error."""

    def signed_url(self, key: str, expires_at: int, base_url: str) -> str:
        """A URL anyone can GET until `expires_at`; the same inputs give the same URL."""

    def intact(self, key: str, info: ObjectInfo) -> bool:
        """False for an object stored with ``sync=False`` that a power cut left
        empty or cut short: a cache hit must not point at it (it renders again)."""


class FilesystemStore:
    """Objects as files under `root`, written atomically; URLs served by our API.

    `created_at` is the file's mtime, set by the write that created it: a re-put
    of identical bytes does not touch the file. The content type is not stored;
    the serving route derives it from the key's extension.
    """

    local = True

    def __init__(self, root: Path, signer: UrlSigner) -> None:
        self._root = root
        self._signer = signer
        # PNGs found whole, by key, creation time and size: a file is replaced, never
        # written in place, so one found whole stays whole (a power cut that could
        # tear a newer one also ends this process). Every cache hit asks.
        self._whole: set[tuple[str, float, int]] = set()

    def put(self, key: str, data: bytes, content_type: str, *, sync: bool = True) -> None:
        """Create-if-absent: two writers racing to store one label leave the
        first file and its mtime (the worker bills a label's first store by
        its creation time: store.jobs); other bytes under the key are replaced.

        With ``sync`` the bytes reach the disk before the file is linked into
        place; without, they do within a second (``disk_flush``), and a PNG a
        power cut left empty or torn meanwhile is not ``intact``."""
        path = self._path(key)
        try:
            if _holds(path, data):
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(path, data, sync=sync)
        except OSError as exc:
            raise ObjectStoreError(f"cannot store object {key!r}") from exc

    def get(self, key: str) -> bytes | None:
        path = self._path(key)
        try:
            return path.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except OSError as exc:
            raise ObjectStoreError(f"cannot read object {key!r}") from exc

    def head(self, key: str) -> ObjectInfo | None:
        path = self._path(key)
        try:
            status = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            raise ObjectStoreError(f"cannot stat object {key!r}") from exc
        if not stat.S_ISREG(status.st_mode):
            return None
        return ObjectInfo(size=status.st_size, created_at=status.st_mtime)

    def delete(self, key: str) -> None:
        path = self._path(key)
        try:
            path.unlink(missing_ok=True)
        except (IsADirectoryError, NotADirectoryError):
            return
        except OSError as exc:
            raise ObjectStoreError(f"cannot delete object {key!r}") from exc

    def signed_url(self, key: str, expires_at: int, base_url: str) -> str:
        """``<base_url>/files/<key>?exp=..&sig=..``; `base_url` is the spec's, with /v1."""
        check_key(key)
        sig = self._signer.sign(key, expires_at)
        return f"{base_url.rstrip('/')}/files/{key}?exp={expires_at}&sig={sig}"

    def intact(self, key: str, info: ObjectInfo) -> bool:
        """A PNG is whole when it ends with its IEND chunk (other objects are
        stored with ``sync``, so a power cut never tears them)."""
        if not key.endswith(".png"):
            return True
        seen = (key, info.created_at, info.size)
        if seen in self._whole:
            return True
        if not _ends_png(self._path(key), info.size):
            return False
        if len(self._whole) >= _WHOLE_KEPT:
            self._whole.clear()
        self._whole.add(seen)
        return True

    def read_signed(self, key: str, exp: str, sig: str, now: float) -> bytes | None:
        """Bytes behind a signed URL's raw query values; None once purged (404).

        The signature is checked before the object is looked up, so a bad or
        expired URL (SignedUrlRejected, 403) says nothing about what exists.
        """
        verdict = self._signer.verify_query(key, exp, sig, now)
        if verdict is not Verdict.OK:
            raise SignedUrlRejected(verdict)
        return self.get(key)

    def _path(self, key: str) -> Path:
        return self._root.joinpath(*check_key(key).split("/"))


def _holds(path: Path, data: bytes) -> bool:
    """True when `path` already holds exactly `data`."""
    try:
        if path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except FileNotFoundError:
        return False


_WHOLE_KEPT = 10_000  # PNGs remembered whole (about 1 MB)


def _ends_png(path: Path, size: int) -> bool:
    """Whether the file ends with a PNG's IEND chunk: a file a power cut cut
    short (empty, or its first pages only) does not."""
    if size < len(PNG_TRAILER):
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        return os.pread(fd, len(PNG_TRAILER), size - len(PNG_TRAILER)) == PNG_TRAILER
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes, *, sync: bool) -> None:
    """Write via a temp file in the same directory, so readers never see half a
    file. The temp file is linked into place, which fails if another writer got
    there first: its file stays when it holds the same bytes (same key, same
    label, first creation time), and is replaced only when it holds others.
    With ``sync`` the bytes reach the disk before the link; the link, and
    without ``sync`` the bytes too, do within a second (``disk_flush``)."""
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as temp:
            temp.write(data)
            if sync:
                temp.flush()
                os.fsync(temp.fileno())
        try:
            os.link(temp_name, path)
        except FileExistsError:
            if not _holds(path, data):
                os.replace(temp_name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
    FLUSHER.linked(path, synced=sync)


# Every PNG ends with its IEND chunk: length 0, the type, the type's CRC.
PNG_TRAILER = b"\x00\x00\x00\x00IEND\xaeB`\x82"

# S3 reports a missing object as NoSuchKey (GET) or a bare 404 (HEAD).
_NOT_FOUND_CODES = frozenset({"404", "NoSuchKey", "NotFound"})
_META_SHA256 = "sha256"
_META_CREATED_AT = "created-at"


class S3Store:
    """Objects in one S3 bucket; URLs are S3 presigned GETs with a fixed signing time.

    `client` is a boto3 S3 client. Its event system gets two handlers (see
    `signing.enable_fixed_time_presign`); nothing else about it changes.
    `created_at` and a SHA-256 of the bytes live in the object's user metadata,
    so a re-put of identical bytes is skipped and keeps the original time.
    """

    local = False

    def __init__(
        self,
        bucket: str,
        client: Any,
        *,
        url_lifetime_s: int = S3_MAX_URL_LIFETIME_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._bucket = bucket
        self._client = client
        self._url_lifetime_s = url_lifetime_s
        self._clock = clock
        enable_fixed_time_presign(client)

    def put(self, key: str, data: bytes, content_type: str, *, sync: bool = True) -> None:
        """Create-if-absent (``If-None-Match: *``), so two writers racing to
        store one label leave the first object and its creation time: the
        worker bills the first store of a label by that time (store.jobs).
        An S3 PUT is durable when it answers, ``sync`` or not."""
        digest = hashlib.sha256(data).hexdigest()
        if self._holds(key, digest):
            return
        metadata = {_META_SHA256: digest, _META_CREATED_AT: repr(self._clock())}
        try:
            self._request("put_object", key, Body=data, ContentType=content_type,
                          Metadata=metadata, IfNoneMatch="*")
        except ObjectStoreError as exc:
            if not _precondition_failed(exc):
                raise
            if self._holds(key, digest):
                return  # another writer stored this label first
            # Other bytes under the key (a damaged object): replace them.
            self._request("put_object", key, Body=data, ContentType=content_type,
                          Metadata=metadata)

    def _holds(self, key: str, digest: str) -> bool:
        current = self._request("head_object", key)
        return current is not None and current.get("Metadata", {}).get(_META_SHA256) == digest

    def get(self, key: str) -> bytes | None:
        response = self._request("get_object", key)
        if response is None:
            return None
        try:
            body: bytes = response["Body"].read()
        except BotoCoreError as exc:
            raise ObjectStoreError(f"S3 read failed for {key!r}") from exc
        return body

    def head(self, key: str) -> ObjectInfo | None:
        response = self._request("head_object", key)
        if response is None:
            return None
        return ObjectInfo(size=int(response["ContentLength"]), created_at=_created_at(response))

    def delete(self, key: str) -> None:
        self._request("delete_object", key)

    def signed_url(self, key: str, expires_at: int, base_url: str) -> str:
        """A presigned GET; `base_url` is unused, the URL points at the bucket.

        Signed at ``expires_at - url_lifetime_s`` so that it is byte-identical for
        the same expiry; hence `expires_at` may be at most `url_lifetime_s` ahead.
        """
        check_key(key)
        if expires_at - self._clock() > self._url_lifetime_s:
            raise ValueError(f"expires_at is more than {self._url_lifetime_s} s ahead")
        try:
            return presign_s3_get(
                self._client, self._bucket, key, expires_at, self._url_lifetime_s
            )
        except BotoCoreError as exc:
            raise ObjectStoreError(f"cannot presign {key!r}") from exc

    def intact(self, key: str, info: ObjectInfo) -> bool:
        """An S3 PUT is whole once it answers."""
        return True

    def _request(self, operation: str, key: str, **params: Any) -> dict[str, Any] | None:
        """Run one S3 call on `key`; None when the object does not exist."""
        check_key(key)
        try:
            response: dict[str, Any] = getattr(self._client, operation)(
                Bucket=self._bucket, Key=key, **params
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code")
            if code in _NOT_FOUND_CODES:
                return None
            raise ObjectStoreError(f"S3 {operation} failed for {key!r}: {code}") from exc
        except BotoCoreError as exc:
            raise ObjectStoreError(f"S3 {operation} failed for {key!r}: {exc}") from exc
        return response


# A conditional put refused because the object exists (HTTP 412), or because
# another conditional write to the key was in flight (AWS: HTTP 409
# ConditionalRequestConflict): either way, look again and compare the bytes.
_CONDITIONAL_REFUSALS = frozenset({"PreconditionFailed", "ConditionalRequestConflict"})


def _precondition_failed(exc: ObjectStoreError) -> bool:
    cause = exc.__cause__
    return isinstance(cause, ClientError) and \
        cause.response.get("Error", {}).get("Code") in _CONDITIONAL_REFUSALS


def _created_at(head: dict[str, Any]) -> float:
    """Our metadata stamp, or S3's LastModified for objects written by other tools."""
    stamp = head.get("Metadata", {}).get(_META_CREATED_AT)
    with contextlib.suppress(TypeError, ValueError):
        return float(stamp)
    return float(head["LastModified"].timestamp())
