"""Font commands: ^A, ^A@ and ^CW."""

from __future__ import annotations

from ..elements import FontSpec
from ..lexer import Command
from ..printer import PrinterState
from .params import Params


def _object_name(name: str) -> str:
    """A stored object name without its drive, upper-case: ``E:ARIAL.TTF`` -> ``ARIAL.TTF``."""
    name = name.strip().upper()
    return name.split(":", 1)[1] if ":" in name else name


def scalable_font(state: PrinterState, command: Command) -> None:
    """^Afo,h,w - Scalable/Bitmapped Font: font name, orientation, height, width."""
    name = command.params[:1].upper()
    if not name or not name.isalnum():
        state.warn(f"font name {name!r} is not valid; using font A")
        name = "A"
    p = Params(state, command, command.params[1:])
    orientation = p.choice(0, state.settings.field_orientation, "NRIB")
    height = p.int(1, 0, 0, 32000)
    width = p.int(2, 0, 0, 32000)
    if not p.has(1) and not p.has(2) and name == state.settings.default_font:
        height, width = state.settings.default_font_height, state.settings.default_font_width
    path = state.font_aliases.get(name)
    if path is None and name not in RESIDENT:
        # A font the printer does not have prints in the default font (^CF), as Labelary
        # does; the size asked for still applies.
        name = state.settings.default_font
        path = state.font_aliases.get(name)
    state.field.font = FontSpec(name, height, width, path, command=command.code,
                                offset=command.offset)
    state.field.orientation = orientation


# Fonts every Zebra printer has: the scalable font 0 and the bitmap fonts A-H.
RESIDENT = frozenset("0ABCDEFGH")


def font_by_name(state: PrinterState, command: Command) -> None:
    """^A@o,h,w,d:o.x - Use Font Name to Call Font (downloaded or resident font file)."""
    p = Params(state, command)
    orientation = p.choice(0, state.settings.field_orientation, "NRIB")
    height = p.int(1, 0, 0, 32000)
    width = p.int(2, 0, 0, 32000)
    path = _object_name(p.str(3, "R:UNKNOWN.FNT"))
    state.field.font = FontSpec("@", height, width, path, command=command.code,
                                offset=command.offset)
    state.field.orientation = orientation


def font_identifier(state: PrinterState, command: Command) -> None:
    """^CWa,d:o.x - Font Identifier: alias a font letter to a font file."""
    p = Params(state, command)
    letter = p.str(0).upper()[:1]
    if not letter.isalnum():
        state.warn("^CW needs a font letter")
        return
    state.font_aliases[letter] = _object_name(p.str(1))


COMMANDS = {
    "A": scalable_font,
    "A@": font_by_name,
    "CW": font_identifier,
}
