"""The first label of a legacy ZPL stream, read as the fields a person would see.

Everything here works on the lexer's text (UTF-8 bytes, one character per byte),
so offsets are true for splicing the body and values keep their exact bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from labelrender.zpl.commands import COMMANDS
from labelrender.zpl.lexer import Command, Lexer

# ^B commands that are not a symbology: ^BY sets module defaults only.
_NOT_BARCODES = frozenset({"BY"})
# Linear symbologies whose bar height follows an extra parameter (ZPL II guide: ^B1,
# ^B3, ^BK, ^BM, ^BP: orientation, check digit, height); the others' height comes
# right after the orientation (^BC, ^BE, ^B2...). 2D symbols have no bar height.
_HEIGHT_THIRD = frozenset({"B1", "B3", "BK", "BM", "BP"})
_HEIGHT_SECOND = frozenset({"B2", "B4", "B5", "B8", "B9", "BA", "BC", "BE", "BI", "BJ",
                            "BL", "BS", "BU", "BZ"})
_SYMBOLOGIES = frozenset(name for name in COMMANDS if name.startswith("B")) - _NOT_BARCODES
_HEX = re.compile(r"[0-9A-Fa-f]{2}")
_NUMBER = re.compile(r"\s*(-?\d+)")


@dataclass
class SourceField:
    """One printed field of the input: where it is, how it prints, its data."""

    position: int  # order among the label's fields
    x: int
    y: int
    font_height: int
    symbology: str | None  # the ^B command name, None for text
    data_command: Command  # the ^FD/^FV holding the data
    data_span: tuple[int, int]
    caret: str
    tilde: str
    hex_indicator: str | None
    block: bool  # ^FB/^TB text
    raw: str = ""  # field data as written (^FH escapes and all)
    orientation: str = "N"  # N, R (90), I (180) or B (270): how the text reads
    # Where the field is in reading order: its position turned with its text, so
    # the lines of a rotated block follow each other down the page as upright ones do.
    rx: int = 0
    ry: int = 0
    # Earlier ^FD/^FV of the same field: the last one wins, the body drops these.
    overridden: list[tuple[int, int]] = field(default_factory=list)
    block_lines: int = 1  # the most lines a ^FB block wraps to
    bar_height: int | None = None  # a linear barcode's bars, across its reading line

    @property
    def is_barcode(self) -> bool:
        return self.symbology is not None


@dataclass
class SourceLabel:
    """The first label: its text, fields, size commands and command census."""

    text: str  # the input up to the end of the first ^XZ
    fields: list[SourceField] = field(default_factory=list)
    width: int | None = None  # ^PW
    length: int | None = None  # ^LL
    commands: int = 0
    known_commands: int = 0
    # Lines the label draws (^GB lines and the edges of boxes): (x, y, width, height),
    # each thin one way. They separate blocks of text.
    segments: list[tuple[int, int, int, int]] = field(default_factory=list)
    # The same lines as each reading direction sees them, across its lines of text:
    # orientation -> [(rx, ry, length)] in the fields' reading frame (rx, ry).
    rules: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)


class UnparseableZpl(ValueError):
    """Input with no label format in it: nothing to synthesize from."""


def _int(params: str, default: int | None = None) -> int | None:
    match = _NUMBER.match(params)
    return int(match.group(1)) if match else default


@dataclass
class _Open:
    """The field being read, between its first command and ^FS."""

    x: int = 0
    y: int = 0
    symbology: str | None = None
    data: Command | None = None
    overridden: list[Command] = field(default_factory=list)
    hex_indicator: str | None = None
    block: bool = False
    block_lines: int = 1
    font_height: int | None = None
    orientation: str | None = None
    bar_height: int | None = None


class _Reader:
    """Walks the commands of the first label and collects its fields."""

    def __init__(self, text: str) -> None:
        self.lexer = Lexer(text.encode("latin-1"))
        self.commands = list(self._first_label())
        self.offsets = [command.offset for command in self.commands]
        self.end = self._label_end(text)
        self.label = SourceLabel(text[: self.end])
        self.default_height = 30
        self.default_bar_height = 10  # ^BY's default
        self.default_orientation = "N"
        self.delimiter = ","

    def _first_label(self) -> list[Command]:
        """Commands up to the first ^XZ that ends a format with a field in it:
        setup-only formats before it (^XA^MCY^XZ) print nothing but set state."""
        commands = []
        printing = False
        for command in self.lexer:
            commands.append((command, self.lexer.caret, self.lexer.tilde))
            printing = printing or command.name == "FS"
            if command.name == "XZ" and command.prefix == "caret" and printing:
                break
        self.prefixes = {c.offset: (caret, tilde) for c, caret, tilde in commands}
        return [c for c, _, _ in commands]

    def _label_end(self, text: str) -> int:
        if not any(c.name == "XA" for c in self.commands):
            raise UnparseableZpl("no label format found: ZPL labels start with ^XA and end "
                                 "with ^XZ")
        last = self.commands[-1]
        if last.name == "XZ":
            return last.offset + 3
        return len(text)

    def read(self) -> SourceLabel:
        current = _Open()
        for command in self.commands:
            self._count(command)
            current = self._apply(current, command)
        _reading_frame(self.label)
        return self.label

    def _count(self, command: Command) -> None:
        self.label.commands += 1
        if command.name in COMMANDS or command.name in ("DF", "XF"):
            self.label.known_commands += 1

    def _apply(self, current: _Open, command: Command) -> _Open:
        name, params = command.name, command.params
        parts = params.split(self.delimiter)
        if name in ("FO", "FT"):
            current.x = _int(parts[0]) or 0
            current.y = (_int(parts[1]) or 0) if len(parts) > 1 else 0
        elif name in ("A", "A@"):
            current.font_height = _int(params[1:].lstrip(",NRIB"))
            turn = params[1:].lstrip(",")[:1].upper()
            current.orientation = turn if turn in ("N", "R", "I", "B") else None
        elif name == "FW" and params[:1].upper() in ("N", "R", "I", "B"):
            self.default_orientation = params[:1].upper()
        elif name == "CF" and len(parts) > 1:
            self.default_height = _int(parts[1]) or self.default_height
        elif name == "CD" and params:
            self.delimiter = params
        elif name == "BY" and len(parts) > 2:
            self.default_bar_height = _int(parts[2]) or self.default_bar_height
        elif name in _SYMBOLOGIES:
            current.symbology = name
            at = 2 if name in _HEIGHT_THIRD else 1 if name in _HEIGHT_SECOND else None
            if at is not None:
                given = _int(parts[at]) if len(parts) > at else None
                current.bar_height = given or self.default_bar_height
        elif name in ("FD", "FV"):
            if current.data is not None:
                current.overridden.append(current.data)
            current.data = command
        elif name == "FH":
            indicator = params[:1]
            current.hex_indicator = indicator if indicator not in ("", self.delimiter) else "_"
        elif name in ("FB", "TB"):
            current.block = True
            if name == "FB" and len(parts) > 1:
                current.block_lines = max(1, min(9999, _int(parts[1]) or 1))
        elif name == "GB":
            self._rules(current, parts)
        elif name == "PW":
            self.label.width = _int(params)
        elif name == "LL":
            self.label.length = _int(params)
        elif name in ("FS", "XA", "XZ"):
            self._close(current)
            return _Open()
        return current

    def _rules(self, current: _Open, parts: list[str]) -> None:
        """The edges of a ^GB box or line (ZPL II guide: ^GB; width and height
        default to the border thickness) long enough to cross a line of text."""
        thickness = _int(parts[2]) if len(parts) > 2 else None
        thickness = thickness or 1
        width = (_int(parts[0]) if parts else None) or thickness
        height = (_int(parts[1]) if len(parts) > 1 else None) or thickness
        x, y, thin = current.x, current.y, max(thickness, 8)
        if width >= 60:  # top and bottom edges (one, for a line)
            self.label.segments.append((x, y, width, 0))
            if height > thin:
                self.label.segments.append((x, y + height, width, 0))
        if height >= 60:  # left and right edges
            self.label.segments.append((x, y, 0, height))
            if width > thin:
                self.label.segments.append((x + width, y, 0, height))

    def _close(self, current: _Open) -> None:
        if current.data is None:
            return
        caret, tilde = self.prefixes[current.data.offset]
        self.label.fields.append(SourceField(
            position=len(self.label.fields), x=current.x, y=current.y,
            font_height=current.font_height or self.default_height,
            orientation=current.orientation or self.default_orientation,
            symbology=current.symbology, data_command=current.data,
            data_span=self._span(current.data), caret=caret, tilde=tilde,
            hex_indicator=current.hex_indicator, block=current.block,
            block_lines=current.block_lines, bar_height=current.bar_height,
            raw=current.data.params,
            overridden=[self._span(c) for c in current.overridden]))

    def _span(self, command: Command) -> tuple[int, int]:
        after = bisect_right(self.offsets, command.offset)
        return command.offset, (self.offsets[after] if after < len(self.offsets) else self.end)


def _reading_frame(label: SourceLabel) -> None:
    """Each field's position turned with its text (see ``SourceField.rx``), and the
    label's lines as each reading direction sees them."""
    width = max((f.x for f in label.fields), default=0) + 1
    height = max((f.y for f in label.fields), default=0) + 1
    for f in label.fields:
        # ry is the top of the line as it reads: for text turned R (tops to the right)
        # and I (tops down) the origin ^FO gives is the line's bottom edge, a font's
        # height or a barcode's bars below its top.
        extent = f.bar_height or f.font_height
        f.rx, f.ry = {"R": (f.y, width - f.x - extent),
                      "I": (width - f.x, height - f.y - extent),
                      "B": (height - f.y, f.x)}.get(f.orientation, (f.x, f.y))
    rules: dict[str, list[tuple[int, int, int]]] = {o: [] for o in "NRIB"}
    for x, y, w, h in label.segments:
        if h == 0:  # across upright and upside-down text
            rules["N"].append((x, y, w))
            rules["I"].append((width - x - w, height - y, w))
        else:  # across text turned a quarter either way
            rules["R"].append((y, width - x, h))
            rules["B"].append((height - y - h, x, h))
    label.rules = rules


def read_first_label(text: str) -> SourceLabel:
    """The first label of ``text`` (lexer text: UTF-8 bytes as latin-1 characters)."""
    if not text.strip():
        raise UnparseableZpl("input_zpl is empty")
    return _Reader(text).read()


def unhex(raw: str, indicator: str | None) -> str:
    """Field data with its ^FH escapes resolved (ZPL II guide: ^FH), as byte text."""
    if indicator is None:
        return raw
    out, i = [], 0
    while i < len(raw):
        if raw[i] == indicator and _HEX.fullmatch(raw[i + 1 : i + 3]):
            out.append(chr(int(raw[i + 1 : i + 3], 16)))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def printed_bytes(source: SourceField, raw: str) -> str:
    """What the printer makes of ``raw`` in this field: a text field loses its
    control prefix before escapes are read, as the engine does; barcodes keep it."""
    if not source.is_barcode:
        raw = raw.replace(source.tilde, "")
    return unhex(raw, source.hex_indicator)


def sample_value(source: SourceField, raw: str) -> str | None:
    """The value an integrator sends to reprint ``raw``, or None when its bytes
    are not UTF-8 text (the field then stays static)."""
    try:
        return printed_bytes(source, raw).encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return None
