"""Template bodies: where the ``^FN`` placeholders are, and filling them with values.

How a placeholder sits in a body
--------------------------------
A variable field keeps every command of the legacy field (origin, font, ^FB,
barcode, ^FH, ...) and has ``^FN<n>`` where its variable ``^FD`` data was::

    ^FO50,80^A0N,30^FN3^FS                  text: the value is the whole data
    ^FO50,300^BCN,120,Y,N,N^FN3^FD>;^FS     Code 128 starting in subset C
    ^FO500,300^BQN,2,5^FN4^FDLA,^FS         QR code, error level L, automatic mode

An ``^FD`` next to the ``^FN`` in the same field is *static data that belongs to
the format*, and the value is appended to it. The synthesis engine puts there
what a field prints in front of the data but an integrator would never send:

- QR (^BQ): the error-level/input-mode prefix (``QA,``, ``LA,``, ``MM,A`` ...),
- Code 128 (^BC): leading subset and FNC1 codes (``>;``, ``>:``, ``>9``, ``>8``),
- text: a caption printed in the same field (``^FN5^FDREF: ^FS``) and the
  leading spaces of right-aligned ^FB columns,

so a tracking number stays ``1Z999...`` and not ``QA,1Z999...``. A MaxiCode
(^BD) structured carrier message (class of service, country, postal code and
the ``[)>`` message) is one value as the carrier system produces it, not split.

The rule keeps three promises:

- Filling the samples back in gives the input's field data byte for byte, so
  the label renders identically (a field used twice, for example a tracking
  number as text and as a barcode, has the same ``^FN`` in both places).
- The body is valid ZPL on its own: the printer ignores ``^FN`` outside a stored
  format, so an unfilled body renders its static parts (barcodes with only a
  format prefix print nothing and add a warning).
- Values cannot inject commands: see below.

Escaping
--------
A value is data, never ZPL. Every character that the printer would read as
something else (``^``, ``~``, the current format and control prefixes after
``^CC``/``^CT``, the ``^FH`` hexadecimal indicator itself, and control
characters, which the printer drops) is written as a ``^FH`` escape, the
indicator followed by two hex digits (ZPL II guide: ^FH). A field that already
has ``^FH`` keeps its indicator; otherwise ``^FH`` with an indicator that is
neither a prefix, nor the ^CD delimiter, nor in the field's static data is added,
only when the value needs it. Other characters, non-ASCII ones included, go in
as they are (the body is text; it is rendered as UTF-8, so use ^CI28 for
non-ASCII data).

Values are matched to placeholders through ``field_map`` ({name: index}). Every
name needs a value and every value a name; :class:`FieldValuesError` reports all
missing and unknown names at once.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from labelrender.zpl.lexer import Command, Lexer

__all__ = ["FieldValuesError", "FillError", "PlaceholderError", "fill_body",
           "placeholder_indexes"]

MAX_INDEX = 9999  # ^FN accepts 0-9999 (ZPL II guide: ^FN)

_INDEX = re.compile(r"\s*(\d+)")
# Candidate ^FH indicators, the manual's default first.
_INDICATORS = "_\\#%!&*+=|@$?"
# Commands that end a field without ^FS: a new format, or the end of one.
_FORMAT_EDGES = frozenset({"XA", "XZ"})


class FillError(ValueError):
    """A body cannot be filled with the given values."""


class FieldValuesError(FillError):
    """Values do not match the template's fields. ``missing`` are field names with
    no value, ``unknown`` names the template does not have, ``not_text`` names
    whose value is not a string; all are reported together."""

    def __init__(self, missing: Iterable[str] = (), unknown: Iterable[str] = (),
                 not_text: Iterable[str] = ()) -> None:
        self.missing = tuple(sorted(missing))
        self.unknown = tuple(sorted(unknown))
        self.not_text = tuple(sorted(not_text))
        parts = []
        if self.missing:
            parts.append("missing values for " + ", ".join(self.missing))
        if self.unknown:
            parts.append("unknown fields " + ", ".join(self.unknown))
        if self.not_text:
            parts.append("values must be strings: " + ", ".join(self.not_text))
        super().__init__("; ".join(parts))


class PlaceholderError(FillError):
    """The body and the field map disagree: a placeholder without a name, or two
    names for one placeholder."""


@dataclass
class _Field:
    """The placeholder-related commands of one field, with the prefixes in force."""

    caret: str
    tilde: str
    delimiter: str
    numbers: list[tuple[Command, int]] = field(default_factory=list)
    data: list[Command] = field(default_factory=list)
    hex_indicator: str | None = None


def _to_bytes_text(text: str) -> str:
    """The text as the lexer sees it: UTF-8 bytes, one character per byte."""
    return text.encode("utf-8").decode("latin-1")


def _from_bytes_text(text: str) -> str:
    return text.encode("latin-1").decode("utf-8", errors="replace")


def _is_placeholder(command: Command) -> bool:
    """^FN is a format command; a control-prefixed "FN" is no command at all."""
    return command.name == "FN" and command.prefix == "caret"


def _index(command: Command) -> int | None:
    match = _INDEX.match(command.params)
    if match is None or int(match.group(1)) > MAX_INDEX:
        return None
    return int(match.group(1))


def placeholder_indexes(body: str) -> set[int]:
    """The ``^FN`` indexes a body uses, following ``^CC``/``~CC`` prefix changes."""
    indexes = set()
    for command in Lexer(body.encode("utf-8")):
        if _is_placeholder(command) and (index := _index(command)) is not None:
            indexes.add(index)
    return indexes


def _fields(text: str) -> tuple[list[_Field], list[int]]:
    """Every field that has a ^FN, and each command's start offset (for spans)."""
    lexer = Lexer(text.encode("latin-1"))
    fields: list[_Field] = []
    offsets: list[int] = []
    delimiter = ","
    current: _Field | None = None
    for command in lexer:
        offsets.append(command.offset)
        if command.name == "CD" and command.params:
            delimiter = command.params
        if current is None:
            current = _Field(lexer.caret, lexer.tilde, delimiter)
        if _is_placeholder(command) and (index := _index(command)) is not None:
            # The value's ^FD goes where the ^FN is: the prefixes in force there count.
            current.caret, current.tilde, current.delimiter = lexer.caret, lexer.tilde, delimiter
            current.numbers.append((command, index))
        elif command.name in ("FD", "FV"):
            current.data.append(command)
        elif command.name == "FH":
            indicator = command.params[:1]
            current.hex_indicator = indicator if indicator not in ("", delimiter) else "_"
        elif command.name == "FS" or command.name in _FORMAT_EDGES:
            if current.numbers:
                fields.append(current)
            current = None
    if current is not None and current.numbers:
        fields.append(current)
    return fields, offsets


def _span(command: Command, offsets: list[int], end: int) -> tuple[int, int]:
    """Where a command's text runs: from its prefix to the next command."""
    after = bisect_right(offsets, command.offset)
    return command.offset, (offsets[after] if after < len(offsets) else end)


def _needs_escape(char: str, specials: str) -> bool:
    return char in specials or ord(char) < 0x20 or ord(char) == 0x7F


def _escape(value: str, indicator: str, specials: str) -> str:
    return "".join(f"{indicator}{ord(c):02X}" if _needs_escape(c, specials) else c
                   for c in value)


def _field_data(f: _Field, value: str) -> str:
    """``[^FH<i>]^FD<static prefix><escaped value>`` for one placeholder field."""
    prefix = f.data[-1].params if f.data else ""
    specials = "^~" + f.caret + f.tilde
    if f.hex_indicator is not None:
        escaped = _escape(value, f.hex_indicator, specials + f.hex_indicator)
        return f"{f.caret}FD{prefix}{escaped}"
    if not any(_needs_escape(c, specials) for c in value):
        return f"{f.caret}FD{prefix}{value}"
    taken = specials + f.delimiter + prefix
    indicator = next(c for c in _INDICATORS if c not in taken)
    escaped = _escape(value, indicator, specials + indicator)
    return f"{f.caret}FH{indicator}{f.caret}FD{prefix}{escaped}"


def _names_by_index(field_map: Mapping[str, int]) -> dict[int, str]:
    names: dict[int, str] = {}
    for name, index in field_map.items():
        if index in names:
            raise PlaceholderError(f"fields {names[index]} and {name} both map to ^FN{index}")
        names[index] = name
    return names


def _check_values(field_map: Mapping[str, int], values: Mapping[str, object]) -> None:
    missing = [name for name in field_map if name not in values]
    unknown = [name for name in values if name not in field_map]
    not_text = [name for name, value in values.items()
                if name in field_map and not isinstance(value, str)]
    if missing or unknown or not_text:
        raise FieldValuesError(missing, unknown, not_text)


def fill_body(body: str, field_map: Mapping[str, int], values: Mapping[str, str]) -> str:
    """Renderable ZPL: ``body`` with every ``^FN`` placeholder replaced by its value.

    Raises :class:`FieldValuesError` when values are missing, unknown or not text,
    and :class:`PlaceholderError` when a placeholder has no name in ``field_map``.
    """
    _check_values(field_map, values)
    names = _names_by_index(field_map)
    text = _to_bytes_text(body)
    fields, offsets = _fields(text)
    unnamed = sorted({index for f in fields for _, index in f.numbers if index not in names})
    if unnamed:
        raise PlaceholderError("no field name for placeholder(s) "
                               + ", ".join(f"^FN{index}" for index in unnamed))
    edits: list[tuple[int, int, str]] = []
    for f in fields:
        last, index = f.numbers[-1]
        value = _to_bytes_text(values[names[index]])
        for command, _ in f.numbers[:-1]:
            edits.append((*_span(command, offsets, len(text)), ""))
        for command in f.data:
            edits.append((*_span(command, offsets, len(text)), ""))
        edits.append((*_span(last, offsets, len(text)), _field_data(f, value)))
    return _from_bytes_text(_apply(text, edits))


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)
