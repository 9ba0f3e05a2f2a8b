"""Lexer: ZPL bytes -> a stream of commands.

The ZPL II programming guide defines two prefixes, the format prefix (caret,
default ``^``) and the control prefix (tilde, default ``~``), each changeable
with ^CC/~CC and ^CT/~CT. A command is the prefix plus a two-letter name, except
^A (scalable/bitmap font) whose font letter belongs to its parameters.

Parameters are kept as ``str`` decoded with latin-1, so that every character is
exactly one input byte and offsets stay true; field data is re-decoded with the
label's code page (^CI) when the field is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from .errors import LimitExceeded

# Commands whose parameter block runs to the next prefix verbatim (field data
# keeps its spaces). Every other command has CR/LF and surrounding spaces removed.
_VERBATIM = frozenset({"FD", "FV", "FX", "SN"})
# Field data ends only at the format prefix; a comment ends at either prefix.
_DATA = frozenset({"FD", "FV", "SN"})

# Characters that Zebra firmware ignores inside a format.
_LINE_BREAKS = re.compile(r"[\r\n]")

# Commands that may carry raw binary: their byte count says where the data ends.
_BINARY_HEAD = {
    "GF": re.compile(r"\s*B\s*,\s*(\d+)\s*,\s*\d+\s*,\s*\d+\s*,"),
    "DY": re.compile(r"[^,^~]*,\s*[BbPp]\s*,\s*\w\s*,\s*(\d+)\s*,\s*\d*\s*,"),
}


class Command(NamedTuple):
    """One command: its prefix, upper-case name, raw parameters and byte offset (a
    tuple: a label has hundreds, and a tuple is quicker to make than a dataclass)."""

    prefix: str
    name: str
    params: str
    offset: int

    @property
    def code(self) -> str:
        """The command as the manual writes it, for example ``^FO`` or ``~DG``."""
        return ("^" if self.prefix == "caret" else "~") + self.name


def _name_at(text: str, pos: int) -> tuple[str, int]:
    """The command name starting at ``pos`` and where its parameters start."""
    first = text[pos : pos + 1].upper()
    if first == "A":
        # ^A<font>: the font letter (or @) is a parameter, not part of the name.
        if text[pos + 1 : pos + 2] == "@":
            return "A@", pos + 2
        return "A", pos + 1
    return text[pos : pos + 2].upper(), pos + 2


class Lexer:
    """Splits a ZPL stream into commands, following prefix changes as they occur."""

    def __init__(self, data: bytes) -> None:
        self.text = data.decode("latin-1")
        self.caret = "^"
        self.tilde = "~"
        # The last search for each prefix character: (from, found). The text does not
        # change, so it answers every later search from a point up to where it found one
        # (a stream with no tilde is not searched to its end at every command).
        self._found: dict[str, tuple[int, int]] = {}

    def __iter__(self) -> Iterator[Command]:
        text, pos, end = self.text, 0, len(self.text)
        while pos < end:
            start = self._next_prefix(pos)
            if start < 0:
                return
            prefix = "caret" if text[start] == self.caret else "tilde"
            if text[start + 1 : start + 2] in (self.caret, self.tilde):
                pos = start + 1  # a doubled prefix ("^^FT"): the second one starts the command
                continue
            name, body = _name_at(text, start + 1)
            if name in ("CC", "CT", "CD") and body < end:
                yield Command(prefix, name, text[body], start)
                self._change_prefix(name, text[body])
                pos = body + 1
                continue
            if name in _BINARY_HEAD and (binary := self._binary_data(name, body)) is not None:
                params, pos = binary
                yield Command(prefix, name, params, start)
                continue
            # Field data and comments end only at the format prefix: a tilde in
            # a product name is text, not a control command.
            verbatim = name in _DATA
            stop = self._find(self.caret, body) if verbatim else self._next_prefix(body)
            stop = end if stop < 0 else stop
            yield Command(prefix, name, self._clean(name, text[body:stop]), start)
            pos = stop

    def _find(self, char: str, pos: int) -> int:
        """``self.text.find(char, pos)``, answered from the last search when it can be."""
        start, found = self._found.get(char, (-1, -1))
        if 0 <= start <= pos and (found < 0 or found >= pos):
            return found
        found = self.text.find(char, pos)
        self._found[char] = (pos, found)
        return found

    def _next_prefix(self, pos: int) -> int:
        caret = self._find(self.caret, pos)
        tilde = self._find(self.tilde, pos)
        if caret < 0:
            return tilde
        if tilde < 0:
            return caret
        return min(caret, tilde)

    def _change_prefix(self, name: str, char: str) -> None:
        if name == "CC":
            self.caret = char
        elif name == "CT":
            self.tilde = char

    def _binary_data(self, name: str, body: int) -> tuple[str, int] | None:
        """^GFB and binary ~DY carry raw bytes that may contain a prefix: read exactly
        the declared count."""
        match = _BINARY_HEAD[name].match(self.text, body)
        if match is None:
            return None
        count = int(match.group(1))
        data_end = min(len(self.text), match.end() + count)
        return self.text[body:data_end], data_end

    @staticmethod
    def _clean(name: str, params: str) -> str:
        params = _LINE_BREAKS.sub("", params)
        return params if name in _VERBATIM else params.strip(" \t")


def tokenize(data: bytes, max_commands: int | None = None) -> list[Command]:
    """All commands of a ZPL stream, in order; ``LimitExceeded("commands")`` past
    ``max_commands``."""
    commands: list[Command] = []
    for command in Lexer(data):
        if max_commands is not None and len(commands) >= max_commands:
            raise LimitExceeded(f"the stream has more than {max_commands} commands, the cap",
                                command.offset, command.code, limit="commands")
        commands.append(command)
    return commands
