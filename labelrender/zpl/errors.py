"""Errors, warnings and safety limits shared by every stage of the engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Warning:  # noqa: A001 - the public name the API promises
    """A non-fatal finding, like a line of Labelary's linter output."""

    offset: int
    command: str
    message: str

    def __str__(self) -> str:
        return f"offset {self.offset}: {self.command}: {self.message}"


class ZplError(ValueError):
    """Input that cannot be rendered at all, with the command and byte offset at fault."""

    def __init__(self, message: str, offset: int | None = None, command: str | None = None):
        self.message = message
        self.offset = offset
        self.command = command
        where = ""
        if command is not None:
            where = f"{command} "
        if offset is not None:
            where += f"at byte {offset}"
        super().__init__(f"{where.strip()}: {message}" if where else message)


class LimitExceeded(ZplError):
    """Input over one of the engine's safety limits (``Limits``): too big or too
    much work to render. ``limit`` names the cap (``"canvas"``, ``"font_size"``,
    ``"time"``...). The same input always exceeds it again, so a service answers
    it as final (never retried, never billed)."""

    def __init__(self, message: str, offset: int | None = None, command: str | None = None,
                 *, limit: str):
        super().__init__(message, offset, command)
        self.limit = limit


@dataclass(frozen=True)
class Limits:
    """Safety caps. Each one turns hostile input into a fast, clear ZplError."""

    max_side_inches: float = 16.0
    max_megapixels: float = 64.0
    max_graphic_bytes: int = 16 * 1024 * 1024
    max_field_bytes: int = 32 * 1024
    max_barcode_bytes: int = 8 * 1024
    max_elements: int = 20_000
    max_font_px: int = 4096
    max_input_bytes: int = 8 * 1024 * 1024
    max_stored_bytes: int = 64 * 1024 * 1024
    time_budget_s: float = 10.0


DEFAULT_LIMITS = Limits()
