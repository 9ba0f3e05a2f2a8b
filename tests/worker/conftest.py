"""Worker test helpers: stores, engine processes and jobs. Redis fixtures are in
tests/conftest.py; the session's engine processes in tests/fixtures/sandbox.py."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import jobs, socket_url
from labelrender.store.objects import FilesystemStore, ObjectStore, S3Store
from labelrender.store.signing import UrlSigner
from labelrender.worker.sandbox import Sandbox, SandboxLimits
from tests.fixtures.s3 import moto_endpoint, s3_bucket, s3_client  # noqa: F401 (S3 fixtures)

TENANT = "tnt_" + "a" * 26
SIGNER = UrlSigner(b"k" * 32)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# About 2 s of engine time: long enough to stop a worker in the middle of it.
SLOW_ZPL = "^XA" + "".join(
    f"^FO{(i % 10) * 80},{(i // 10) * 80}^BQN,2,3^FDQA,{'x' * 200}{i}^FS" for i in range(100)
) + "^XZ"


def label_zpl(text: str) -> str:
    return f"^XA^FO50,50^A0N,40,40^FD{text}^FS^XZ"


def make_job(zpl: str, **options: Any) -> jobs.RenderJob:
    """A job as the API makes it: content-addressed object key under the tenant."""
    content_hash = hashlib.sha256(f"{zpl}{sorted(options.items())}".encode()).hexdigest()
    return jobs.RenderJob(tenant=TENANT, content_hash=content_hash,
                          object_key=f"tenants/{TENANT}/labels/{content_hash}.png",
                          zpl=zpl, **options)


def redis_url_of(client: redis.Redis) -> str:
    """How another process reaches the test server: its socket, or REDIS_URL."""
    return socket_url(client) or os.environ["REDIS_URL"]


def take(r: redis.Redis, job: jobs.RenderJob, consumer: str = "w1") -> str:
    """Enqueue ``job`` and read it back as ``consumer``; returns its entry id."""
    jobs.ensure_group(r)
    jobs.enqueue(r, job)
    [(entry_id, _)] = jobs.read(r, consumer, count=1, block_ms=1000)
    return entry_id


MakeSandbox = Callable[..., Sandbox]


@pytest.fixture
def make_sandbox() -> Iterator[MakeSandbox]:
    """``make_sandbox(processes=1, deadline_s=1.0, memory_mb=1024)``: engine
    processes with tight limits, for tests that reach them; closed afterwards."""
    made: list[Sandbox] = []

    def make(processes: int = 1, deadline_s: float = 1.0, memory_mb: int = 1024) -> Sandbox:
        made.append(Sandbox(processes, SandboxLimits(deadline_s=deadline_s,
                                                     memory_mb=memory_mb)))
        return made[-1]

    yield make
    for sandbox in made:
        sandbox.close()


@pytest.fixture(params=["filesystem", "s3"])
def object_store(request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    """Each backend the worker writes to: files in tmp_path, a moto S3 bucket."""
    if request.param == "filesystem":
        return FilesystemStore(tmp_path / "objects", SIGNER)
    client = request.getfixturevalue("s3_client")
    return S3Store(request.getfixturevalue("s3_bucket"), client)


BrokenStore = tuple[ObjectStore, Callable[[], None]]


@pytest.fixture(params=["filesystem", "s3"])
def broken_store(request: pytest.FixtureRequest, tmp_path: Path) -> BrokenStore:
    """A real store that cannot write, and a function that repairs it.

    Filesystem: the store's root is a plain file, so no directory can be made
    under it (a read-only directory would not stop root). S3: the bucket does
    not exist yet.
    """
    if request.param == "filesystem":
        root = tmp_path / "objects"
        root.write_text("not a directory")
        return FilesystemStore(root, SIGNER), root.unlink
    client = request.getfixturevalue("s3_client")
    bucket = request.getfixturevalue("s3_bucket") + "-late"
    return S3Store(bucket, client), lambda: client.create_bucket(Bucket=bucket)
