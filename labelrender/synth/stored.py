"""Stored formats: a ``^DF`` format recalled by ``^XF`` is already a template.

The classic legacy form stores the layout once (``^XA^DFR:SHIP.ZPL^FS ... ^FN1^FS
... ^XZ``) and prints each label by recalling it with values (``^XA^XFR:SHIP.ZPL
^FN1^FDAcme^FS ... ^XZ``). Its ``^FN`` fields are the variable data and its
numbering is the integrator's: the draft keeps both and only infers names.

:func:`read_stored_format` turns such a stream into an ordinary label, the
stored format with each ``^FN`` field holding its sample from the first recall
(or the format's own default ``^FD``), and says which field has which number.
Everything works on the lexer's text (UTF-8 bytes as latin-1 characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labelrender.zpl.lexer import Command, Lexer

from .fill import MAX_INDEX

_NUMBER = re.compile(r"\s*(\d+)")


@dataclass
class StoredFormat:
    """A stored format as a plain label, with samples in its ``^FN`` fields."""

    name: str  # the format's object name, as ^XF recalls it (R:SHIP.ZPL)
    text: str  # the stream before the format, then the format without ^DF
    numbers: list[int | None]  # each field of ``text`` in order: its ^FN number
    samples: dict[int, str] = field(default_factory=dict)  # ^FN number -> sample
    recall: str | None = None  # the stream up to the end of the first recall, to render


def _object_name(params: str) -> str:
    """``SHIP`` -> ``R:SHIP.ZPL``: the printer's default drive and extension."""
    name = params.split(",")[0].strip().upper()
    if ":" not in name:
        name = "R:" + name
    if "." not in name.split(":", 1)[1]:
        name += ".ZPL"
    return name


def _end(commands: list[Command], i: int, text: str) -> int:
    return commands[i + 1].offset if i + 1 < len(commands) else len(text)


def _recall_values(commands: list[Command], start: int, text: str) -> tuple[dict[int, str], int]:
    """The ``^FN n ^FD value`` pairs of the recall label starting at ``start``, and
    where that label ends."""
    values: dict[int, str] = {}
    number: int | None = None
    for i in range(start, len(commands)):
        command = commands[i]
        if command.name == "FN" and command.prefix == "caret":
            match = _NUMBER.match(command.params)
            number = int(match.group(1)) if match else None
        elif command.name in ("FD", "FV") and number is not None:
            values[number] = command.params
        elif command.name == "FS":
            number = None
        elif command.name == "XZ":
            return values, _end(commands, i, text)
    return values, len(text)


def read_stored_format(text: str) -> StoredFormat | None:
    """The first ``^DF`` format of ``text`` as a label with samples, or None when
    the stream stores no format."""
    commands = list(Lexer(text.encode("latin-1")))
    at = next((i for i, c in enumerate(commands) if c.name == "DF" and c.prefix == "caret"),
              None)
    if at is None:
        return None
    name = _object_name(commands[at].params)
    start = max((i for i in range(at) if commands[i].name == "XA"), default=at)
    stop = next((i for i in range(at, len(commands)) if commands[i].name == "XZ"),
                len(commands) - 1)
    samples: dict[int, str] = {}
    recall = None
    for i in range(stop + 1, len(commands)):
        c = commands[i]
        if c.name == "XF" and c.prefix == "caret" and _object_name(c.params) == name:
            samples, end = _recall_values(commands, i, text)
            recall = text[:end]
            break
    pieces = [text[: commands[start].offset]]
    numbers: list[int | None] = []
    pos = commands[start].offset
    number: int | None = None
    data: Command | None = None
    caret = "^"
    lexer_caret = _carets(text, commands)
    for i in range(start, stop + 1):
        c = commands[i]
        end = _end(commands, i, text)
        if i == at:
            pieces.append(text[pos: c.offset])
            pos = end  # ^DF itself goes: the body is an ordinary label
            if i + 1 < len(commands) and commands[i + 1].name == "FS":
                pos = _end(commands, i + 1, text)  # and the ^FS that ends it
            continue
        if i == at + 1 and c.name == "FS":
            continue
        if c.name == "FN" and c.prefix == "caret":
            match = _NUMBER.match(c.params)
            number = int(match.group(1)) if match else None
            if number is not None and number > MAX_INDEX:
                number = None  # not a field number the printer knows: static
            caret = lexer_caret[i]
            pieces.append(text[pos: c.offset])
            pos = end  # the number is kept in ``numbers``; the body puts ^FN back
        elif c.name in ("FD", "FV"):
            data = c
            if number is not None:
                samples.setdefault(number, c.params)
        elif c.name in ("FS", "XA", "XZ"):
            if number is not None:
                sample = samples.get(number, "")
                if data is not None:  # the format's default data gives way to the sample
                    pieces.append(text[pos: data.offset] + f"{caret}FD{sample}")
                    pos = _end(commands, commands.index(data), text)
                else:
                    pieces.append(text[pos: c.offset] + f"{caret}FD{sample}")
                    pos = c.offset
            if number is not None or data is not None:
                numbers.append(number)
            number, data = None, None
    pieces.append(text[pos: _end(commands, stop, text)])
    return StoredFormat(name, "".join(pieces), numbers, samples, recall)


def _carets(text: str, commands: list[Command]) -> list[str]:
    """The format prefix in force at each command (^CC changes it)."""
    lexer = Lexer(text.encode("latin-1"))
    carets = []
    for _ in lexer:
        carets.append(lexer.caret)
    return carets[: len(commands)]
