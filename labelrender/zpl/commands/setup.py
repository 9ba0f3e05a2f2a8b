"""Label setup commands: format boundaries, label geometry and defaults."""

from __future__ import annotations

from ..lexer import Command
from ..printer import PrinterState
from .params import Params


def start_format(state: PrinterState, command: Command) -> None:
    """^XA - Start Format. A second ^XA inside a format is ignored, as printers do."""
    if not state.in_label:
        state.start_label()


def end_format(state: PrinterState, command: Command) -> None:
    """^XZ - End Format."""
    if state.field.data is not None or state.field.origin is not None:
        from .field import field_separator

        field_separator(state, command)  # a last field without ^FS still prints
    state.end_label()


def print_width(state: PrinterState, command: Command) -> None:
    """^PW a - Print Width in dots (minimum 2)."""
    p = Params(state, command)
    state.label.width = p.int(0, state.label.width or 0, 2, 32000)


def label_length(state: PrinterState, command: Command) -> None:
    """^LL y - Label Length in dots (1 to 32000)."""
    p = Params(state, command)
    state.label.length = p.int(0, state.label.length or 0, 1, 32000)


def label_home(state: PrinterState, command: Command) -> None:
    """^LH x,y - Label Home: offset added to every field origin."""
    p = Params(state, command)
    state.settings.home_x = p.int(0, 0, 0, 32000)
    state.settings.home_y = p.int(1, 0, 0, 32000)


def label_top(state: PrinterState, command: Command) -> None:
    """^LT x - Label Top: vertical shift of the whole format, -120 to 120 dots."""
    state.settings.label_top = Params(state, command).int(0, 0, -120, 120)


def label_shift(state: PrinterState, command: Command) -> None:
    """^LS a - Label Shift: horizontal shift to the left, -9999 to 9999 dots."""
    state.settings.label_shift = Params(state, command).int(0, 0, -9999, 9999)


def print_orientation(state: PrinterState, command: Command) -> None:
    """^PO a - Print Orientation: N normal, I inverted 180 degrees."""
    state.label.invert = Params(state, command).choice(0, "N", "NI") == "I"


def print_mirror(state: PrinterState, command: Command) -> None:
    """^PM a - Print Mirror Image of Label."""
    state.label.mirror = Params(state, command).flag(0, False)


def label_reverse(state: PrinterState, command: Command) -> None:
    """^LR a - Label Reverse Print: every following field prints as with ^FR."""
    state.settings.reverse_all = Params(state, command).flag(0, False)


def field_orientation_default(state: PrinterState, command: Command) -> None:
    """^FW r,z - Field Orientation: default rotation and justification."""
    p = Params(state, command)
    state.settings.field_orientation = p.choice(0, state.settings.field_orientation, "NRIB")
    if p.has(0) and state.field.font is not None and state.field.barcode is None:
        # A ^FW after the field's ^A turns that field too: Labelary prints
        # carriers/fedex_ground's "^A0N,13,18^FWB^FD..." turned, along the label's edge.
        state.field.orientation = state.settings.field_orientation
    state.settings.field_justification = p.int(1, state.settings.field_justification, 0, 2)


def change_font_default(state: PrinterState, command: Command) -> None:
    """^CF f,h,w - Change Alphanumeric Default Font."""
    p = Params(state, command)
    s = state.settings
    font = p.str(0, s.default_font).upper()[:1]
    if not font.isalnum():
        state.warn(f"font {font!r} is not a font name; keeping {s.default_font}")
        font = s.default_font
    s.default_font = font
    s.default_font_height = p.int(1, s.default_font_height, 0, 32000)
    # A new height without a width drops the earlier width: the font is then sized from
    # the height alone (font 0 as wide as high), as Labelary prints carriers/usps's
    # "^CF0,25" after "^CF0,65, 55" (0.904 -> 0.941).
    width_default = 0 if p.has(1) and not p.has(2) else s.default_font_width
    s.default_font_width = p.int(2, width_default, 0, 32000)
    s.default_font_offset = command.offset


def bar_code_defaults(state: PrinterState, command: Command) -> None:
    """^BY w,r,h - Bar Code Field Default: module width 1-10, ratio 2.0-3.0, height."""
    p = Params(state, command)
    s = state.settings
    s.module_width = p.int(0, s.module_width, 1, 10)
    s.module_ratio = round(p.float(1, s.module_ratio, 2.0, 3.0), 1)
    s.barcode_height = p.int(2, s.barcode_height, 1, 32000)


def change_international_font(state: PrinterState, command: Command) -> None:
    """^CI a - Change International Font/Encoding (0-36)."""
    p = Params(state, command)
    state.settings.code_page = p.int(0, 0, 0, 36)


def change_delimiter(state: PrinterState, command: Command) -> None:
    """^CD/~CD a - Change Delimiter."""
    if command.params:
        state.delimiter = command.params[:1]


def prefix_change(state: PrinterState, command: Command) -> None:
    """^CC/~CC, ^CT/~CT - prefix changes; the lexer applies them as it reads."""
    if command.name == "CT" and command.params:
        state.control_prefix = command.params[:1]


def comment(state: PrinterState, command: Command) -> None:
    """^FX - Comment."""


def accepted(state: PrinterState, command: Command) -> None:
    """Printer and media commands that do not change the image."""


# Commands that only set up the printer, media or memory: accepted silently.
SILENT = frozenset((  # noqa: SIM905 - a word list reads best as words
    "MD SD PR PQ MN MT MM JM PA TA JS JU MC MF MU MW JZ JT KL KN KP LF PF PH PP PS JB JC "
    "JD JE JF JG JH JI JL JN JO JP JQ JR JW JX SC SE SL SO SP SQ SR SS ST SX SZ TO WD XS "
    "ZZ HH HM HS HT HU HV HW HZ HG HI HB HD HF HL HQ NC NI NN NP NS NT NW NB RT RS RF RW "
    "KC KD DN DB DE DS DT EG EF CM CN CO CP CV DI EN FL FM IS MI PN ML WF WP WR WS "
    "SI PL CL"
).split())

COMMANDS = {
    "XA": start_format,
    "XZ": end_format,
    "PW": print_width,
    "LL": label_length,
    "LH": label_home,
    "LT": label_top,
    "LS": label_shift,
    "PO": print_orientation,
    "PM": print_mirror,
    "LR": label_reverse,
    "FW": field_orientation_default,
    "CF": change_font_default,
    "BY": bar_code_defaults,
    "CI": change_international_font,
    "CD": change_delimiter,
    "CC": prefix_change,
    "CT": prefix_change,
    "FX": comment,
    **{name: accepted for name in SILENT},
}
