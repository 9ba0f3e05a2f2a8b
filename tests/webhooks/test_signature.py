"""The README's integrator code (loaded from README.md) against our signer:
what it accepts and what it refuses. Real deliveries go through it in every
dispatcher test (the receiver verifies with it)."""

from __future__ import annotations

import time

import pytest

from labelrender.worker.delivery import signature
from tests.fixtures.receiver import load_readme_verifier

SECRET = "whsec_" + "ab" * 24
BODY = b'{"event":"label.rendered","event_id":"evt_1_00000000"}'
verify = load_readme_verifier()


def test_accepts_our_signature() -> None:
    now = int(time.time())
    assert verify(SECRET, signature(SECRET, now, BODY), BODY)


@pytest.mark.parametrize(("header", "body", "secret"), [
    (signature(SECRET, int(time.time()), BODY), BODY + b" ", SECRET),  # body changed
    (signature(SECRET, int(time.time()), BODY), BODY, "whsec_other"),  # wrong secret
    (signature(SECRET, int(time.time()) - 400, BODY), BODY, SECRET),  # too old
    (signature(SECRET, int(time.time()) + 400, BODY), BODY, SECRET),  # from the future
    ("t=abc,v1=00", BODY, SECRET),
    ("v1=" + "0" * 64, BODY, SECRET),
    ("", BODY, SECRET),
    (f"t={int(time.time())},v1=" + "0" * 64, BODY, SECRET),  # forged
])
def test_refuses(header: str, body: bytes, secret: str) -> None:
    assert not verify(secret, header, body)


def test_signature_is_hmac_of_timestamp_dot_raw_body() -> None:
    import hashlib
    import hmac

    expected = hmac.new(SECRET.encode(), b"1763769600." + BODY, hashlib.sha256).hexdigest()
    assert signature(SECRET, 1763769600, BODY) == f"t=1763769600,v1={expected}"
