"""Store-level errors.

Each class is one meaning. The API layer maps them to HTTP errors (spec
"Errors"); the store knows nothing of status codes.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class StoreUnavailable(StoreError):
    """Redis could not be reached or started (API: 503, retriable)."""


class InvalidValue(StoreError, ValueError):
    """A value the store refuses to record, e.g. a key label over 64 chars."""


class NotFound(StoreError):
    """A tenant, plan or key that does not exist (API: 404)."""

    def __init__(self, what: str, ident: str) -> None:
        super().__init__(f"{what} {ident!r} not found")
        self.what = what
        self.ident = ident


class KeyCapReached(StoreError):
    """Creating a key would exceed the plan's active-key cap (API: 409)."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"active key cap of {cap} reached; revoke a key first")
        self.cap = cap


class LastActiveKey(StoreError):
    """Revoking would leave the tenant with no active key (API: 409)."""

    def __init__(self, key_prefix: str) -> None:
        super().__init__(f"key {key_prefix!r} is the last active key")
        self.key_prefix = key_prefix


class OveragesNotAllowed(StoreError):
    """Overages were asked for on a plan that is a hard cap (Sandbox)."""

    def __init__(self, plan: str) -> None:
        super().__init__(f"plan {plan!r} is a hard cap; overages cannot be enabled")
        self.plan = plan


class QuotaExceeded(StoreError):
    """Monthly allowance used up and overages off (API: 402 QuotaExceeded)."""

    def __init__(self, unit: str, used: int, included: int) -> None:
        super().__init__(f"monthly {unit} allowance of {included} used ({used})")
        self.unit = unit
        self.used = used
        self.included = included
