"""Barcode commands (^B*): parameters resolved into a BarcodeSpec."""

from __future__ import annotations

from collections.abc import Callable

from ..lexer import Command
from ..printer import PrinterState

COMMANDS: dict[str, Callable[[PrinterState, Command], None]] = {}
