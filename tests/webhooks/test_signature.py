"""The docs' integrator code (loaded from docs/integrators/webhooks.md) against our signer:
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


# (how the header is made from the current time, body, secret); computed when
# the test runs, not when it is collected, so the clock is the receiver's.
SIGNED = "signed"


@pytest.mark.parametrize(("header", "age_s", "body", "secret"), [
    (SIGNED, 0, BODY + b" ", SECRET),  # body changed
    (SIGNED, 0, BODY, "whsec_other"),  # wrong secret
    (SIGNED, 301, BODY, SECRET),  # too old
    (SIGNED, -301, BODY, SECRET),  # from the future
    ("t=abc,v1=00", 0, BODY, SECRET),
    ("v1=" + "0" * 64, 0, BODY, SECRET),
    ("", 0, BODY, SECRET),
    ("t={now},v1=" + "0" * 64, 0, BODY, SECRET),  # forged
])
def test_refuses(header: str, age_s: int, body: bytes, secret: str) -> None:
    now = int(time.time())
    if header == SIGNED:
        header = signature(SECRET, now - age_s, BODY)
    assert not verify(secret, header.format(now=now), body, now=now)


def test_accepts_up_to_five_minutes_of_skew() -> None:
    now = int(time.time())
    for age_s in (300, -300):
        assert verify(SECRET, signature(SECRET, now - age_s, BODY), BODY, now=now)


def test_signature_is_hmac_of_timestamp_dot_raw_body() -> None:
    import hashlib
    import hmac

    expected = hmac.new(SECRET.encode(), b"1763769600." + BODY, hashlib.sha256).hexdigest()
    assert signature(SECRET, 1763769600, BODY) == f"t=1763769600,v1={expected}"
