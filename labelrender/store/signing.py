"""Signed label URLs: the HMAC signer, the expiry window rule, fixed-time S3 presigning.

DECISIONS.md "Signed URLs": the same hash gives the same URL. Expiry is fixed to
windows anchored at the object's creation, so every request inside a window gets
a byte-identical URL; tampering or expiry gives 403, a purged object 404.

- The filesystem store's URLs are served by our own API and carry
  ``exp=<unix>&sig=<hex>``, an HMAC-SHA256 over ``<key>\\n<exp>`` (`UrlSigner`).
- S3 presigned URLs are byte-identical only if their SigV4 signing time is fixed
  too; `presign_s3_get` signs with a time derived from the expiry alone.
"""

from __future__ import annotations

import datetime
import enum
import hashlib
import hmac
import math
from typing import Any

from botocore.auth import (  # type: ignore[import-untyped, unused-ignore]
    AUTH_TYPE_MAPS,
    SIGV4_TIMESTAMP,
    S3SigV4QueryAuth,
)

# S3 refuses presigned URLs that live longer than 7 days (SigV4 query auth).
S3_MAX_URL_LIFETIME_S = 7 * 24 * 3600
MIN_SECRET_BYTES = 32


class Verdict(enum.Enum):
    """Outcome of checking a signed URL; anything but OK is a 403."""

    OK = "ok"
    EXPIRED = "expired"
    BAD_SIGNATURE = "bad_signature"


def window_expiry(created_at: float, now: float, window_s: int, min_valid_s: int) -> int:
    """The expiry of the current URL window for an object created at `created_at`.

    Boundaries are ``floor(created_at) + k * window_s`` for k >= 1; the first one
    leaving at least `min_valid_s` seconds of validity after `now` is chosen. The
    result depends on `now` only through which window it falls in, so repeated
    requests inside a window sign the same expiry and get the same URL.
    """
    if window_s <= 0 or min_valid_s < 0:
        raise ValueError("window_s must be positive and min_valid_s not negative")
    anchor = math.floor(created_at)
    windows = math.ceil((now + min_valid_s - anchor) / window_s)
    return anchor + max(1, windows) * window_s


class UrlSigner:
    """HMAC-SHA256 signatures for the URLs our API serves (``/v1/files/<key>``)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"URL signing secret must be at least {MIN_SECRET_BYTES} bytes")
        self._secret = secret

    def sign(self, key: str, exp: int) -> str:
        """Hex signature over ``<key>\\n<exp>``."""
        message = f"{key}\n{exp}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def verify(self, key: str, exp: int, sig: str, now: float) -> Verdict:
        """Check the signature first (constant time), then the expiry."""
        expected = self.sign(key, exp).encode()
        if not hmac.compare_digest(expected, sig.encode("utf-8", "replace")):
            return Verdict.BAD_SIGNATURE
        return Verdict.OK if now < exp else Verdict.EXPIRED

    def verify_query(self, key: str, exp: str, sig: str, now: float) -> Verdict:
        """`verify` for raw query-string values; a malformed `exp` is a bad signature."""
        if not (exp.isascii() and exp.isdigit()) or len(exp) > 12:
            return Verdict.BAD_SIGNATURE
        return self.verify(key, int(exp), sig, now)


# --- S3: presigned GET URLs with a fixed signing time -------------------------
#
# botocore signs presigned URLs at the current time (X-Amz-Date) and offers no
# parameter to change it (boto/botocore#2230). We plug in through botocore's
# extension points instead of patching its clock:
#   1. a SigV4 query signer registered under its own name in AUTH_TYPE_MAPS;
#   2. per client, a `provide-client-params.s3.GetObject` handler moves our
#      private parameter into the request context (the documented way to pass
#      custom arguments), and a `choose-signer.s3.GetObject` handler selects our
#      signer only when that context entry is present.
# Every other request of the client is signed exactly as before.

_SIGNER_NAME = "labelrender-s3v4-fixed-time-query"
_SIGNED_AT_PARAM = "LabelrenderSignedAt"
_SIGNED_AT_CONTEXT = "labelrender_signed_at"


class _FixedTimeS3QueryAuth(S3SigV4QueryAuth):  # type: ignore[misc, unused-ignore]
    """S3 SigV4 query signer that signs at the time stored in the request context."""

    def _modify_request_before_signing(self, request: Any) -> None:
        # add_auth() stamps the current time just before calling this hook, and
        # everything after it (credential scope, string to sign, signing key)
        # reads request.context["timestamp"], so overriding it here is enough.
        signed_at: datetime.datetime = request.context[_SIGNED_AT_CONTEXT]
        request.context["timestamp"] = signed_at.strftime(SIGV4_TIMESTAMP)
        super()._modify_request_before_signing(request)


AUTH_TYPE_MAPS.setdefault(_SIGNER_NAME, _FixedTimeS3QueryAuth)


def _take_signed_at(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    signed_at = params.pop(_SIGNED_AT_PARAM, None)
    if signed_at is not None:
        context[_SIGNED_AT_CONTEXT] = signed_at


def _choose_fixed_time_signer(context: dict[str, Any], **_: Any) -> str | None:
    return _SIGNER_NAME if _SIGNED_AT_CONTEXT in context else None


def enable_fixed_time_presign(client: Any) -> None:
    """Install the two event handlers on an S3 client (idempotent)."""
    events = client.meta.events
    events.register_first(
        "provide-client-params.s3.GetObject",
        _take_signed_at,
        unique_id="labelrender-signed-at-param",
    )
    events.register_first(
        "choose-signer.s3.GetObject",
        _choose_fixed_time_signer,
        unique_id="labelrender-fixed-time-signer",
    )


def presign_s3_get(
    client: Any, bucket: str, key: str, expires_at: int, lifetime_s: int
) -> str:
    """A presigned GET URL that expires at `expires_at` and depends on nothing else.

    It is signed at ``expires_at - lifetime_s`` with ``X-Amz-Expires=lifetime_s``,
    so the same (bucket, key, expires_at, lifetime, credentials) always gives a
    byte-identical URL. The caller keeps ``expires_at - now <= lifetime_s``, or
    the signing time would lie in the future and S3 would refuse the URL.
    The client must have gone through `enable_fixed_time_presign`.
    """
    if not 0 < lifetime_s <= S3_MAX_URL_LIFETIME_S:
        raise ValueError(f"lifetime_s must be in 1..{S3_MAX_URL_LIFETIME_S}")
    signed_at = datetime.datetime.fromtimestamp(expires_at - lifetime_s, tz=datetime.UTC)
    url: str = client.generate_presigned_url(
        "get_object",
        Params={"Bucket": bucket, "Key": key, _SIGNED_AT_PARAM: signed_at.replace(tzinfo=None)},
        ExpiresIn=lifetime_s,
    )
    return url
