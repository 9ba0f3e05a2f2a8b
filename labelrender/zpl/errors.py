"""Errors, warnings and safety limits shared by every stage of the engine."""

from __future__ import annotations

import time
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


def check_deadline(deadline: float, budget_s: float, offset: int | None = None,
                   command: str | None = None) -> None:
    """Every stage calls this between pieces of work: past ``deadline`` the render stops."""
    if time.monotonic() > deadline:
        raise LimitExceeded(f"render exceeded the {budget_s:g} s time budget", offset, command,
                            limit="time")


@dataclass(frozen=True)
class Limits:
    """Safety caps: each turns hostile input into a fast, clear ``LimitExceeded``.

    Every cap but ``time_budget_s`` depends only on the input and the render
    options, so the same render always exceeds it again. A caller with its own
    budget (a worker killed after a few seconds) passes its own ``Limits``. The
    name in brackets is the ``LimitExceeded.limit`` that a cap raises.
    """

    max_side_inches: float = 16.0
    """Longest canvas side, in inches at the output dpi ("canvas")."""
    max_megapixels: float = 64.0
    """Largest canvas, in output megapixels ("canvas"); also the largest ^GB, ^GD or
    bitmap, in source dots ("graphic_area")."""
    max_graphic_bytes: int = 16 * 1024 * 1024
    """Decoded size of one ^GF, ~DG, ~DY or ~DU object, Z64/B64 inflated ("graphic_bytes")."""
    max_field_bytes: int = 32 * 1024
    """One ^FD/^FV field's data ("field_bytes")."""
    max_barcode_bytes: int = 8 * 1024
    """One bar code field's data ("barcode_bytes")."""
    max_elements: int = 20_000
    """Fields and graphics in one label ("elements")."""
    max_font_px: int = 4096
    """Font cell height or width in output pixels, checked before a face is made
    ("font_size")."""
    max_input_bytes: int = 8 * 1024 * 1024
    """The whole ZPL stream ("input_bytes")."""
    max_stored_bytes: int = 64 * 1024 * 1024
    """Graphics stored in printer memory by ~DG/~DY in one stream ("stored_bytes")."""
    max_commands: int = 100_000
    """Commands in the stream, and commands played: a recalled format (^XF) plays its
    commands again. Lexing and playing is linear in them ("commands")."""
    max_work_megapixels: float = 1000.0
    """Estimated work of laying out and painting one label, in millions of pixel
    operations: every primitive's area on the canvas (a glyph counts its cell) plus a
    fixed cost per primitive, glyph, character and bar code (``budget.py``). One to
    three seconds at the cap; the corpus's heaviest label needs 70 at its own dpi and
    about 160 at 1200 dpi ("work")."""
    max_labels: int = 50
    """Labels one PDF may hold, one page each: Labelary's cap per request ("labels")."""
    time_budget_s: float = 10.0
    """Wall-clock seconds for one render, checked in every stage ("time"). The one
    cap that depends on the machine: a last line of defence behind the others."""


DEFAULT_LIMITS = Limits()


class LabelIndexOutOfRange(ZplError):
    """The label index asked for is past the last label of the stream: the ZPL
    is fine, the request is not (the API's 400 ``InvalidLabelIndex``)."""
