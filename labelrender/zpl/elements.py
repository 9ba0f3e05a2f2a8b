"""Elements: one frozen dataclass per thing that prints on a label.

Coordinates are in source dots with ^LH, ^LT and ^LS already applied. Layout turns
elements into positioned primitives; nothing here measures or paints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .graphic_data import Bitmap

ORIENTATIONS = ("N", "R", "I", "B")


@dataclass(frozen=True)
class Origin:
    """Where a field sits: ^FO (top-left) or ^FT (baseline / bottom-left)."""

    x: int
    y: int
    baseline: bool = False
    justification: int = 0  # ^FO/^FT z: 0 left, 1 right, 2 auto (bidi; treated as left)
    follow_x: bool = False  # ^FT with x omitted: continue after the previous field
    follow_y: bool = False


@dataclass(frozen=True)
class FontSpec:
    """A resolved ^A/^CF font: Zebra name ('0', 'A'..'Z', 'GS') or a file, and its size."""

    name: str
    height: int
    width: int
    path: str | None = None  # ^A@ or ^CW alias to a downloaded/shipped font file
    command: str = field(default="^A", compare=False)  # ^A, ^A@, ^CF or ^GS, for errors
    offset: int | None = field(default=None, compare=False)  # its command's byte offset


@dataclass(frozen=True)
class FieldBlock:
    """^FB: a word-wrapped text block."""

    width: int
    max_lines: int = 1
    line_spacing: int = 0
    justify: str = "L"
    hanging_indent: int = 0
    offset: int | None = field(default=None, compare=False)  # its command's byte offset


@dataclass(frozen=True)
class TextBlock:
    """^TB: a fixed-size text box that clips what does not fit."""

    width: int
    height: int
    offset: int | None = field(default=None, compare=False)  # its command's byte offset


@dataclass(frozen=True)
class TextField:
    origin: Origin
    text: str
    font: FontSpec
    orientation: str
    reverse: bool = False
    block: FieldBlock | None = None
    text_block: TextBlock | None = None
    vertical: bool = False  # ^FPV: characters stacked top to bottom
    reverse_direction: bool = False  # ^FPR: right to left
    char_gap: int = 0  # ^FP g
    offset: int = 0
    number: int | None = None  # ^FN: the field's number in a template or stored format


@dataclass(frozen=True)
class GraphicBox:
    origin: Origin
    width: int
    height: int
    thickness: int
    color: str = "B"
    rounding: int = 0
    reverse: bool = False
    offset: int = 0  # the command's byte offset


@dataclass(frozen=True)
class GraphicEllipse:
    """^GC (width == height) and ^GE."""

    origin: Origin
    width: int
    height: int
    thickness: int
    color: str = "B"
    reverse: bool = False
    offset: int = 0
    command: str = "^GE"  # ^GC or ^GE


@dataclass(frozen=True)
class GraphicDiagonal:
    origin: Origin
    width: int
    height: int
    thickness: int
    color: str = "B"
    lean: str = "R"  # R: bottom-left to top-right "/", L: top-left to bottom-right "\"
    reverse: bool = False
    offset: int = 0


@dataclass(frozen=True)
class GraphicImage:
    """^GF, ^XG, ^IM/^IL: a monochrome bitmap, optionally magnified."""

    origin: Origin
    bitmap: Bitmap
    mag_x: int = 1
    mag_y: int = 1
    reverse: bool = False
    offset: int = 0
    command: str = "^GF"  # ^GF, ^XG, ^IM or ^IL


@dataclass(frozen=True)
class BarcodeSpec:
    """A barcode command's parameters, resolved against ^BY and ^FW defaults."""

    command: str  # the ZPL command name, e.g. "BC"
    orientation: str
    height: int  # bar height in dots
    module_width: int  # ^BY w, dots
    ratio: float  # ^BY r, wide to narrow
    options: tuple[tuple[str, str], ...] = ()  # command-specific options, parsed
    offset: int | None = field(default=None, compare=False)  # the command's byte offset

    def option(self, key: str, default: str = "") -> str:
        for name, value in self.options:
            if name == key:
                return value
        return default


@dataclass(frozen=True)
class BarcodeField:
    origin: Origin
    spec: BarcodeSpec
    data: str
    reverse: bool = False
    offset: int = 0
    number: int | None = None  # ^FN


Element = TextField | GraphicBox | GraphicEllipse | GraphicDiagonal | GraphicImage | BarcodeField


@dataclass
class Label:
    """One ^XA..^XZ format, ready for layout."""

    width: int | None = None  # ^PW, dots
    length: int | None = None  # ^LL, dots
    invert: bool = False  # ^POI: the whole label turned 180 degrees
    mirror: bool = False  # ^PMY
    elements: list[Element] = field(default_factory=list)
