"""The window rule, the HMAC URL signer, and fixed-time S3 presigning."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from labelrender.store.signing import (
    S3_MAX_URL_LIFETIME_S,
    UrlSigner,
    Verdict,
    enable_fixed_time_presign,
    presign_s3_get,
    window_expiry,
)
from tests.fixtures.s3 import make_s3_client

DAY, HOUR = 24 * 3600, 3600
T0 = 1_800_000_000  # an object's creation time
SECRET = bytes(range(32))
KEY = "tenants/tnt_A/labels/" + "0f" * 32 + ".png"


@pytest.mark.parametrize(
    ("created_at", "now", "window_s", "min_valid_s", "expected"),
    [
        # API default: 24 h windows, at least 1 h of validity left.
        (T0, T0, DAY, HOUR, T0 + DAY),
        (T0, T0 + DAY - HOUR, DAY, HOUR, T0 + DAY),
        (T0, T0 + DAY - HOUR + 1, DAY, HOUR, T0 + 2 * DAY),
        (T0, T0 + DAY, DAY, HOUR, T0 + 2 * DAY),
        (T0, T0 + 10 * DAY + 5, DAY, HOUR, T0 + 11 * DAY),
        # Webhook-style: 1 h windows, no minimum.
        (T0, T0, HOUR, 0, T0 + HOUR),
        (T0, T0 + HOUR - 1, HOUR, 0, T0 + HOUR),
        (T0, T0 + HOUR, HOUR, 0, T0 + HOUR),
        (T0, T0 + HOUR + 1, HOUR, 0, T0 + 2 * HOUR),
        # Fractional creation times anchor at the whole second.
        (T0 + 0.75, T0 + 0.9, DAY, HOUR, T0 + DAY),
        # A clock slightly behind the creation time still gets the first window.
        (T0, T0 - 30, DAY, HOUR, T0 + DAY),
        # A minimum longer than the window skips ahead as far as needed.
        (T0, T0, HOUR, 2 * HOUR, T0 + 2 * HOUR),
    ],
)
def test_window_expiry(
    created_at: float, now: float, window_s: int, min_valid_s: int, expected: int
) -> None:
    assert window_expiry(created_at, now, window_s, min_valid_s) == expected


@pytest.mark.parametrize(("window_s", "min_valid_s"), [(0, 0), (-1, 0), (HOUR, -1)])
def test_window_expiry_rejects_bad_windows(window_s: int, min_valid_s: int) -> None:
    with pytest.raises(ValueError):
        window_expiry(T0, T0, window_s, min_valid_s)


@pytest.mark.parametrize("offset", range(0, DAY - HOUR + 1, 997))
def test_window_expiry_is_constant_and_leaves_the_minimum(offset: int) -> None:
    expiry = window_expiry(T0, T0 + offset, DAY, HOUR)
    assert expiry == T0 + DAY and expiry - (T0 + offset) >= HOUR


def test_sign_is_hmac_sha256_over_key_and_expiry() -> None:
    expected = hmac.new(SECRET, f"{KEY}\n{T0}".encode(), hashlib.sha256).hexdigest()
    assert UrlSigner(SECRET).sign(KEY, T0) == expected


@pytest.mark.parametrize(
    ("key", "exp", "sig", "now", "verdict"),
    [
        (KEY, T0, None, T0 - 1, Verdict.OK),
        (KEY, T0, None, T0, Verdict.EXPIRED),
        (KEY, T0, None, T0 + DAY, Verdict.EXPIRED),
        (KEY, T0 + 1, None, T0 - 1, Verdict.BAD_SIGNATURE),
        (KEY.replace("tnt_A", "tnt_B"), T0, None, T0 - 1, Verdict.BAD_SIGNATURE),
        (KEY, T0, "", T0 - 1, Verdict.BAD_SIGNATURE),
        (KEY, T0, "0" * 64, T0 - 1, Verdict.BAD_SIGNATURE),
        (KEY, T0, "\u00e9" * 64, T0 - 1, Verdict.BAD_SIGNATURE),
        # A forged URL is a bad signature even when it has also expired.
        (KEY, T0, "0" * 64, T0 + DAY, Verdict.BAD_SIGNATURE),
    ],
)
def test_verify(key: str, exp: int, sig: str | None, now: float, verdict: Verdict) -> None:
    signer = UrlSigner(SECRET)
    signed = signer.sign(KEY, T0)
    assert signer.verify(key, exp, signed if sig is None else sig, now) is verdict


def test_upper_case_signature_is_rejected() -> None:
    signer = UrlSigner(SECRET)
    assert signer.verify(KEY, T0, signer.sign(KEY, T0).upper(), T0 - 1) is Verdict.BAD_SIGNATURE


@pytest.mark.parametrize(
    ("exp", "verdict"),
    [
        (str(T0), Verdict.OK),
        ("", Verdict.BAD_SIGNATURE),
        ("-1", Verdict.BAD_SIGNATURE),
        ("+1800000000", Verdict.BAD_SIGNATURE),
        (" 1800000000", Verdict.BAD_SIGNATURE),
        ("1.8e9", Verdict.BAD_SIGNATURE),
        ("\u0661\u0668" * 5, Verdict.BAD_SIGNATURE),  # Arabic-Indic digits
        ("9" * 400, Verdict.BAD_SIGNATURE),
    ],
)
def test_verify_query_parses_expiry_strictly(exp: str, verdict: Verdict) -> None:
    signer = UrlSigner(SECRET)
    assert signer.verify_query(KEY, exp, signer.sign(KEY, T0), T0 - 1) is verdict


@pytest.mark.parametrize(
    ("secret", "ok"), [(b"", False), (b"x" * 31, False), (b"x" * 32, True), (b"x" * 64, True)]
)
def test_secret_length(secret: bytes, ok: bool) -> None:
    if ok:
        assert len(UrlSigner(secret).sign(KEY, T0)) == 64
    else:
        with pytest.raises(ValueError):
            UrlSigner(secret)


def test_different_secrets_give_different_signatures() -> None:
    assert UrlSigner(b"a" * 32).sign(KEY, T0) != UrlSigner(b"b" * 32).sign(KEY, T0)


# Presigning happens offline, so these need no server behind the endpoint.
ENDPOINT = "http://127.0.0.1:9"


@pytest.fixture
def offline_client() -> Any:
    client = make_s3_client(ENDPOINT)
    enable_fixed_time_presign(client)
    return client


def _query(url: str) -> dict[str, str]:
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


@pytest.mark.parametrize(
    ("expires_at", "lifetime_s", "amz_date"),
    [
        (T0, S3_MAX_URL_LIFETIME_S, "20270108T080000Z"),
        (T0, DAY + HOUR, "20270114T070000Z"),
        (T0 + 1, HOUR, "20270115T070001Z"),
    ],
)
def test_presign_signs_at_expiry_minus_lifetime(
    offline_client: Any, expires_at: int, lifetime_s: int, amz_date: str
) -> None:
    url = presign_s3_get(offline_client, "bucket", KEY, expires_at, lifetime_s)
    query = _query(url)
    assert (query["X-Amz-Date"], query["X-Amz-Expires"]) == (amz_date, str(lifetime_s))
    assert query["X-Amz-Credential"].split("/")[1] == amz_date[:8]
    assert urlsplit(url).path == f"/bucket/{KEY}"


def test_presign_is_byte_identical_for_the_same_expiry(offline_client: Any) -> None:
    urls = {presign_s3_get(offline_client, "bucket", KEY, T0, DAY) for _ in range(5)}
    assert len(urls) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"expires_at": T0 + 1},
        {"key": KEY.replace("tnt_A", "tnt_B")},
        {"bucket": "other-bucket"},
        {"lifetime_s": DAY + 1},
    ],
)
def test_presign_changes_with_every_input(offline_client: Any, change: dict[str, Any]) -> None:
    inputs: dict[str, Any] = {"bucket": "bucket", "key": KEY, "expires_at": T0, "lifetime_s": DAY}
    base = presign_s3_get(offline_client, **inputs)
    assert presign_s3_get(offline_client, **{**inputs, **change}) != base


@pytest.mark.parametrize("lifetime_s", [0, -1, S3_MAX_URL_LIFETIME_S + 1])
def test_presign_rejects_lifetimes_s3_refuses(offline_client: Any, lifetime_s: int) -> None:
    with pytest.raises(ValueError):
        presign_s3_get(offline_client, "bucket", KEY, T0, lifetime_s)
