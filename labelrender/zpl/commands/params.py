"""Parameter parsing with ZPL defaults, clamping and linter-style warnings."""

from __future__ import annotations

import re

from ..lexer import Command
from ..printer import PrinterState

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")

# Aliases: inside Params the names str/int/float are its own methods.
Text = str
Whole = int
Real = float


class Params:
    """The comma-separated (^CD) parameters of one command."""

    def __init__(self, state: PrinterState, command: Command, raw: Text | None = None) -> None:
        self.state = state
        self.command = command
        text = command.params if raw is None else raw
        self.values = text.split(state.delimiter) if text != "" else []

    def __len__(self) -> int:
        return len(self.values)

    def str(self, index: Whole, default: Text = "") -> Text:
        if index < len(self.values):
            value = self.values[index].strip()
            return value if value != "" else default
        return default

    def raw(self, index: Whole) -> Text:
        """The parameter exactly as written (spaces kept), or ''."""
        return self.values[index] if index < len(self.values) else ""

    def has(self, index: Whole) -> bool:
        return self.str(index) != ""

    def int(self, index: Whole, default: Whole, low: Whole, high: Whole) -> Whole:
        """An integer parameter; bad text falls back to ``default``, range is clamped."""
        return Whole(self.float(index, default, low, high))

    def float(self, index: Whole, default: Real, low: Real, high: Real) -> Real:
        """A number parameter; bad text falls back to ``default``, range is clamped."""
        text = self.str(index)
        if text == "":
            return default
        number = self._number(index, text)
        if number is None:
            self.state.warn(f"parameter {index + 1} {text!r} is not a number; using {default:g}")
            return default
        value = Real(number)
        if value < low or value > high:
            clamped = min(max(value, low), high)
            self.state.warn(f"parameter {index + 1} {value:g} is out of range "
                            f"{low:g}-{high:g}; using {clamped:g}")
            return clamped
        return value

    def _number(self, index: Whole, text: Text) -> Text | None:
        """The number in a parameter. Like a printer, stray characters around digits
        are skipped (``B50`` reads as 50), with a warning."""
        if _NUMBER.fullmatch(text):
            return text
        found = _NUMBER.search(text)
        if found is None:
            return None
        self.state.warn(f"parameter {index + 1} {text!r} read as {found.group()}")
        return found.group()

    def choice(self, index: Whole, default: Text, allowed: Text) -> Text:
        """A one-letter parameter from ``allowed`` (case-insensitive)."""
        text = self.str(index).upper()
        if text == "":
            return default
        if text[:1] in allowed and len(text) == 1:
            return text
        self.state.warn(f"parameter {index + 1} {text!r} is not one of "
                        f"{', '.join(allowed)}; using {default}")
        return default

    def flag(self, index: Whole, default: bool) -> bool:
        """A Y/N parameter."""
        return self.choice(index, "Y" if default else "N", "YN") == "Y"
