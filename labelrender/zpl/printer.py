"""Printer state: the one mutable object that commands act upon.

Format settings stay in effect until a command changes them, across the formats
of a stream; stored formats, stored graphics and font aliases live in "printer
memory". Field settings reset at every ^FS.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as member

from .elements import BarcodeSpec, Element, FieldBlock, FontSpec, Label, Origin, TextBlock
from .errors import LimitExceeded, Limits, Warning, ZplError, check_deadline
from .graphic_data import Bitmap
from .lexer import Command


@dataclass
class FieldState:
    """What the commands of the current field (up to ^FS) have said."""

    origin: Origin | None = None
    font: FontSpec | None = None
    orientation: str | None = None
    hex_indicator: str | None = None
    reverse: bool = False
    block: FieldBlock | None = None
    text_block: TextBlock | None = None
    number: int | None = None  # ^FN
    data: str | None = None  # raw, latin-1 decoded; code page applied at ^FS
    data_offset: int = 0
    barcode: BarcodeSpec | None = None
    vertical: bool = False
    reverse_direction: bool = False
    char_gap: int = 0
    clock: bool = False


@dataclass
class LabelSettings:
    """Format settings; they persist from one format to the next until changed."""

    home_x: int = 0
    home_y: int = 0
    label_top: int = 0
    label_shift: int = 0
    reverse_all: bool = False
    field_orientation: str = "N"
    field_justification: int = 0
    default_font: str = "A"
    default_font_height: int = 9
    default_font_width: int = 0
    default_font_offset: int | None = None  # the ^CF that set the default font, for errors
    module_width: int = 2
    module_ratio: float = 3.0
    barcode_height: int = 10
    code_page: int = 0


@dataclass
class PrinterState:
    """Everything the command handlers read and write while a stream is played."""

    limits: Limits
    deadline: float
    delimiter: str = ","
    control_prefix: str = "~"  # ^CT/~CT; the lexer reads with it, text fields drop it
    settings: LabelSettings = member(default_factory=LabelSettings)
    field: FieldState = member(default_factory=FieldState)
    label: Label = member(default_factory=Label)
    labels: list[Label] = member(default_factory=list)
    in_label: bool = False
    warnings: list[Warning] = member(default_factory=list)
    graphics: dict[str, Bitmap] = member(default_factory=dict)
    fonts: dict[str, bytes] = member(default_factory=dict)  # ~DY/~DU downloaded font files
    font_aliases: dict[str, str] = member(default_factory=dict)  # ^CW letter -> object name
    formats: dict[str, list[Command]] = member(default_factory=dict)  # ^DF name -> commands
    recording: tuple[str, list[Command]] | None = None  # inside a ^DF format
    recalled: dict[int, str] = member(default_factory=dict)  # ^XF: ^FN values of this label
    uses_format: bool = False
    stored_bytes: int = 0
    empty_formats: int = 0
    command: Command | None = None  # the command being executed, for warnings
    commands_spent: int = 0  # commands played or read again (stored formats, ^XF values)

    # -- diagnostics -------------------------------------------------------
    def warn(self, message: str, command: Command | None = None) -> None:
        cmd = command or self.command
        offset = cmd.offset if cmd else 0
        code = cmd.code if cmd else ""
        self.warnings.append(Warning(offset, code, message))

    def fail(self, message: str, command: Command | None = None) -> ZplError:
        cmd = command or self.command
        return ZplError(message, cmd.offset if cmd else None, cmd.code if cmd else None)

    def over(self, limit: str, message: str, command: Command | None = None) -> LimitExceeded:
        """The error for input over the safety cap ``limit`` (a ``Limits`` field)."""
        cmd = command or self.command
        return LimitExceeded(message, cmd.offset if cmd else None, cmd.code if cmd else None,
                             limit=limit)

    def spend_commands(self, count: int, command: Command) -> None:
        """Count commands played (a recalled format plays its commands again) against
        ``Limits.max_commands``."""
        self.commands_spent += count
        if self.commands_spent > self.limits.max_commands:
            raise self.over("commands", f"the stream plays more than {self.limits.max_commands} "
                            "commands (stored formats included), the cap", command)

    def check_time(self) -> None:
        cmd = self.command
        check_deadline(self.deadline, self.limits.time_budget_s, cmd.offset if cmd else None,
                       cmd.code if cmd else None)

    # -- label lifecycle ---------------------------------------------------
    def start_label(self) -> None:
        # Format settings (^LH, ^CI, ^FW, ^CF, ^BY, ^PW, ^LL, ^PO ...) stay in effect until
        # changed, across formats, as on a printer: a setup-only format configures the next.
        previous = self.label
        self.field = FieldState()
        self.label = Label(previous.width, previous.length, previous.invert, previous.mirror)
        self.in_label = True
        self.uses_format = False
        self.recalled = {}

    def end_label(self) -> None:
        if self.recording is not None:
            name, commands = self.recording
            self.formats[name] = commands
            self.recording = None
        elif self.in_label and self.label.elements:
            # A format that prints nothing (printer setup, downloads) is not a label.
            self.labels.append(self.label)
        elif self.in_label:
            self.empty_formats += 1
        self.in_label = False
        self.field = FieldState()

    def add(self, element: Element) -> None:
        if len(self.label.elements) >= self.limits.max_elements:
            raise self.over(
                "elements",
                f"label has more than {self.limits.max_elements} elements, the per-label cap",
            )
        self.label.elements.append(element)

    def place(self, x: int, y: int) -> tuple[int, int]:
        """A field position with label home (^LH), top (^LT) and shift (^LS) applied."""
        s = self.settings
        return x + s.home_x - s.label_shift, y + s.home_y + s.label_top
