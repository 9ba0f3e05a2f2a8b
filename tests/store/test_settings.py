"""Settings: environment names, the persisted URL secret, the object store chosen."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from labelrender.store.objects import FilesystemStore, S3Store
from labelrender.store.settings import Settings, build_object_store, url_secret
from tests.fixtures.s3 import moto_endpoint, s3_bucket, s3_client  # noqa: F401 (S3 fixtures)


@pytest.mark.parametrize(("variables", "field", "value"), [
    ({"REDIS_URL": "redis://cache:6379/0"}, "redis_url", "redis://cache:6379/0"),
    ({"LABELRENDER_REDIS_URL": "redis://other/1"}, "redis_url", "redis://other/1"),
    ({"S3_BUCKET": "labels"}, "s3_bucket", "labels"),
    ({"S3_ENDPOINT_URL": "http://minio:9000"}, "s3_endpoint_url", "http://minio:9000"),
    ({"S3_REGION": "eu-west-1"}, "s3_region", "eu-west-1"),
    ({"LABELRENDER_DATA_DIR": "/srv/lr"}, "data_dir", Path("/srv/lr")),
    ({"LABELRENDER_WORKERS": "4"}, "workers", 4),
    ({}, "redis_cluster", "auto"),
    ({"LABELRENDER_REDIS_CLUSTER": "true"}, "redis_cluster", "true"),
    ({"LABELRENDER_PORT": "9000"}, "public_base_url", "http://127.0.0.1:9000/v1"),
    ({"LABELRENDER_PORT": "9000", "LABELRENDER_PUBLIC_BASE_URL": "https://api.example/v1"},
     "public_base_url", "https://api.example/v1"),
])
def test_environment(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], field: str,
                     value: object) -> None:
    for name in ("REDIS_URL", "S3_BUCKET", "S3_ENDPOINT_URL", "S3_REGION"):
        monkeypatch.delenv(name, raising=False)
    for name, text in variables.items():
        monkeypatch.setenv(name, text)
    assert getattr(Settings(), field) == value


def test_the_url_secret_is_generated_once_and_kept_private(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, url_secret=None)
    secret = url_secret(settings)
    assert len(secret) >= 32 and url_secret(settings) == secret
    mode = (tmp_path / "url_secret").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600


def test_a_configured_url_secret_must_be_long_enough(tmp_path: Path) -> None:
    assert url_secret(Settings(data_dir=tmp_path, url_secret="s" * 32)) == b"s" * 32
    with pytest.raises(ValueError, match="at least 32"):
        url_secret(Settings(data_dir=tmp_path, url_secret="short"))


def test_filesystem_store_by_default(tmp_path: Path) -> None:
    store = build_object_store(Settings(data_dir=tmp_path, s3_bucket=None, url_secret=None))
    assert isinstance(store, FilesystemStore)
    store.put("a/b.png", b"png", "image/png")
    assert (tmp_path / "objects" / "a" / "b.png").read_bytes() == b"png"


def test_s3_store_when_a_bucket_is_set(monkeypatch: pytest.MonkeyPatch,
                                       request: pytest.FixtureRequest) -> None:
    endpoint, bucket = (request.getfixturevalue(name)
                        for name in ("moto_endpoint", "s3_bucket"))
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")  # boto3's own credential chain
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    store = build_object_store(Settings(s3_bucket=bucket, s3_endpoint_url=endpoint,
                                        s3_region="us-east-1", s3_addressing_style="path"))
    assert isinstance(store, S3Store)
    store.put("a/b.png", b"png", "image/png")
    assert store.get("a/b.png") == b"png"
