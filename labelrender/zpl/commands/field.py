"""Field commands: where a field goes, what it says, and ^FS, which prints it."""

from __future__ import annotations

import re

from ..elements import BarcodeField, FieldBlock, FontSpec, Origin, TextBlock, TextField
from ..errors import LimitExceeded
from ..lexer import Command
from ..printer import FieldState, PrinterState
from .params import Params

# ^CI code pages: 0-13 are Zebra's national variants of code page 850; 27 is
# Zebra code page 1252; 28 UTF-8; 29 UTF-16 big-endian; 30 UTF-16 little-endian.
_CODECS = {27: "cp1252", 28: "utf-8", 29: "utf-16-be", 30: "utf-16-le", 31: "utf-16-be"}

# ^CI 0-12 are Zebra code page 850 with national characters in place of some ASCII
# punctuation (ZPL II guide, ^CI and "International Character Sets"; the guide notes
# that ^CI13 must be selected to print a backslash). The sets as Labelary prints them:
# labelize-units/encodings_013 prints  # 0 @ [ \ ] ^ ` { | }  under each of ^CI0-13,
# and zplab/h50_bslash a backslash as a cent sign under the default ^CI0. " " marks a
# position with no national character, which prints blank.
_NATIONAL_CHARS: dict[int, dict[str, str]] = {
    0: {"\\": "\u00a2"},  # U.S.A. 1
    1: {"[": " ", "\\": "\u00a2", "]": " ", "{": "\u00bc", "|": "\u00bd",
        "}": "\u00be"},  # U.S.A. 2
    2: {"#": "\u00a3", "\\": "\u00a2"},  # U.K.
    3: {"#": "\u0192", "@": "\u00a7", "\\": "\u0132", "|": "\u0133"},  # Holland
    4: {"[": "\u00c6", "\\": "\u00d8", "]": "\u00c5", "{": "\u00e6", "|": "\u00f8",
        "}": "\u00e5"},  # Denmark/Norway
    5: {"#": "\u00dc", "@": "\u00c9", "[": "\u00c4", "\\": "\u00d6", "]": "\u00c5",
        "^": "\u00dc", "`": "\u00e9", "{": "\u00e4", "|": "\u00f6",
        "}": "\u00e5"},  # Sweden/Finland
    6: {"@": "\u00a7", "[": "\u00c4", "\\": "\u00d6", "]": "\u00dc", "{": "\u00e4",
        "|": "\u00f6", "}": "\u00fc"},  # Germany
    7: {"#": "\u00a3", "@": "\u00e0", "\\": "\u00e7", "{": "\u00e9",
        "}": "\u00f9"},  # France 1
    8: {"@": "\u00e0", "[": "\u00e2", "\\": "\u00e7", "]": "\u00ea", "^": "\u00ee",
        "`": "\u00f4", "{": "\u00e9", "|": "\u00f9", "}": "\u00e8"},  # France 2
    9: {"#": "\u00a3", "@": "\u00a7", "\\": "\u00e7", "]": "\u00e9", "`": "\u00f9",
        "{": "\u00e0", "|": "\u00f2", "}": "\u00e8"},  # Italy
    10: {"@": "\u00a7", "[": "\u00a1", "\\": "\u00d1", "]": "\u00bf", "|": "\u00f1",
         "}": "\u00e7"},  # Spain
    11: {"#": "\u00a3", "@": "\u00c9", "[": "\u00c4", "\\": "\u00d6", "]": "\u00dc",
         "`": "\u00e4", "{": "\u00eb", "|": "\u00ef", "}": "\u00f6"},  # Miscellaneous
    12: {"\\": "\u00a5"},  # Japan
}
_NATIONAL = {page: str.maketrans(chars) for page, chars in _NATIONAL_CHARS.items()}

# ^FB's own escapes ("\&" line break, "\\" backslash) are read before the character set.
_BLOCK_ESCAPE = re.compile(r"(\\[&\\])")


def _national(state: PrinterState, text: str, block: bool) -> str:
    """Field text with the ^CI 0-12 national characters in place."""
    table = _NATIONAL.get(state.settings.code_page)
    if table is None:
        return text
    if not block:
        return text.translate(table)
    parts = _BLOCK_ESCAPE.split(text)
    return "".join(part if i % 2 else part.translate(table) for i, part in enumerate(parts))


_HEX = re.compile(rb"[0-9A-Fa-f]{2}")

# ZPL II guide, font matrices: bitmap fonts B and H (OCR-A) hold upper-case letters
# only, so a lower-case letter prints as its capital. Labelary does the same
# (labelize-units/cf_font_designator "Hello" in font B prints "HELLO"; carriers/dpdpl
# "zpl 1.5.1.DEMO" in ^AB prints "ZPL").
_UPPER_CASE_ONLY = frozenset("BH")
_TO_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _origin(state: PrinterState, command: Command, baseline: bool) -> Origin:
    p = Params(state, command)
    s = state.settings
    follow_x = baseline and not p.has(0)
    follow_y = baseline and not p.has(1)
    x = p.int(0, 0, 0, 32000)
    y = p.int(1, 0, 0, 32000)
    justification = p.int(2, s.field_justification, 0, 2)
    x, y = state.place(x, y)
    return Origin(x, y, baseline, justification, follow_x, follow_y)


def field_origin(state: PrinterState, command: Command) -> None:
    """^FO x,y,z - Field Origin (ZPL II guide: ^FO): top-left corner of the field."""
    state.field.origin = _origin(state, command, baseline=False)


def field_typeset(state: PrinterState, command: Command) -> None:
    """^FT x,y,z - Field Typeset: baseline origin; omitted values follow the last ^FT."""
    state.field.origin = _origin(state, command, baseline=True)


def field_data(state: PrinterState, command: Command) -> None:
    """^FD a - Field Data (up to 3072 bytes on a printer; our cap is Limits)."""
    if len(command.params) > state.limits.max_field_bytes:
        raise state.over(
            "field_bytes",
            f"field data is {len(command.params)} bytes, over the "
            f"{state.limits.max_field_bytes}-byte cap"
        )
    state.field.data = command.params
    state.field.data_offset = command.offset


def field_hex(state: PrinterState, command: Command) -> None:
    """^FH a - Field Hexadecimal Indicator; default indicator is underscore."""
    indicator = command.params[:1]
    state.field.hex_indicator = indicator if indicator not in ("", state.delimiter) else "_"


def field_reverse(state: PrinterState, command: Command) -> None:
    """^FR - Field Reverse Print: the field inverts what is under it."""
    state.field.reverse = True


def field_block(state: PrinterState, command: Command) -> None:
    """^FB a,b,c,d,e - Field Block: width, lines, line spacing, justification, indent."""
    p = Params(state, command)
    state.field.block = FieldBlock(
        width=p.int(0, 0, 0, 32000),
        max_lines=p.int(1, 1, 1, 9999),
        line_spacing=p.int(2, 0, -9999, 9999),
        justify=p.choice(3, "L", "LCRJ"),
        hanging_indent=p.int(4, 0, 0, 9999),
        offset=command.offset,
    )


def text_block(state: PrinterState, command: Command) -> None:
    """^TB a,b,c - Text Blocks: orientation, width and height of a clipping box."""
    p = Params(state, command)
    state.field.orientation = p.choice(0, state.settings.field_orientation, "NRIB")
    state.field.text_block = TextBlock(p.int(1, 0, 0, 32000), p.int(2, 0, 0, 32000),
                                       offset=command.offset)


def field_number(state: PrinterState, command: Command) -> None:
    """^FN# - Field Number: a variable field of a stored format (^DF/^XF)."""
    p = Params(state, command)
    state.field.number = p.int(0, 0, 0, 9999)


def field_parameter(state: PrinterState, command: Command) -> None:
    """^FP d,g - Field Parameter: horizontal, vertical or reverse text, character gap."""
    p = Params(state, command)
    direction = p.choice(0, "H", "HVR")
    state.field.vertical = direction == "V"
    state.field.reverse_direction = direction == "R"
    state.field.char_gap = p.int(1, 0, 0, 9999)


def serialization_data(state: PrinterState, command: Command) -> None:
    """^SN v,n,z - Serialization Data: the first label prints the start value ``v``."""
    p = Params(state, command)
    state.field.data = p.raw(0)
    state.field.data_offset = command.offset


def serialization_field(state: PrinterState, command: Command) -> None:
    """^SF a,b - Serialization Field: the field data already is the first label's value."""


def field_clock(state: PrinterState, command: Command) -> None:
    """^FC a,b,c - Field Clock: enables clock indicators in this field's data."""
    state.field.clock = True


def _decode(state: PrinterState, raw: bytes) -> str:
    codec = _CODECS.get(state.settings.code_page, "cp850")
    return raw.decode(codec, errors="replace")


def _unhex(raw: bytes, indicator: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i : i + 1] == indicator and _HEX.fullmatch(raw[i + 1 : i + 3]):
            out.append(int(raw[i + 1 : i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return bytes(out)


def field_text(state: PrinterState, f: FieldState, drop: str = "") -> str | None:
    """The field's data with ^FH escapes resolved and the ^CI code page applied;
    ``drop`` is a character the data loses before its escapes are read."""
    raw = f.data
    if f.number is not None and state.uses_format and f.number in state.recalled:
        raw = state.recalled[f.number]
    if raw is None:
        return None
    if drop:
        raw = raw.replace(drop, "")
    data = raw.encode("latin-1")
    if f.hex_indicator is not None:
        data = _unhex(data, f.hex_indicator.encode("latin-1"))
    text = _decode(state, data)
    return text


def field_separator(state: PrinterState, command: Command) -> None:
    """^FS - Field Separator: the field is complete; it becomes an element."""
    f = state.field
    state.field = FieldState()
    if state.uses_format and f.number is not None and f.origin is None:
        return  # a value for a recalled format's ^FN, already applied at ^XF
    # ZPL II guide, ^FD: field data is any printable character except the command
    # prefixes; ^ and ~ print only after ^CC/^CT has changed them (or as ^FH escapes).
    # Labelary prints a text field without its control prefix: labelize-units/
    # encodings_013 ends each of its 14 ^CI lines with "~" and none prints it. Bar
    # code data keeps it, since ^BX takes ~ as its default escape character.
    text = field_text(state, f, "" if f.barcode is not None else state.control_prefix)
    if text is None:
        return
    origin = f.origin or Origin(*state.place(0, 0))
    if f.barcode is not None:
        if len(text) > state.limits.max_barcode_bytes:
            offset = f.data_offset if f.barcode.offset is None else f.barcode.offset
            raise LimitExceeded(f"bar code data is {len(text)} characters, over the "
                                f"{state.limits.max_barcode_bytes}-character cap",
                                offset, "^" + f.barcode.command, limit="barcode_bytes")
        state.add(BarcodeField(origin, f.barcode, text, f.reverse, f.data_offset, f.number))
        return
    if text == "":
        return
    font = f.font or _default_font(state)
    if font.name != "GS":  # ^GS data A-E names its marks (marks.py draws them)
        text = _national(state, text, f.block is not None)
        if font.name in _UPPER_CASE_ONLY and font.path is None:
            text = text.translate(_TO_UPPER)
    orientation = f.orientation or state.settings.field_orientation
    state.add(
        TextField(
            origin, text, font, orientation, f.reverse or state.settings.reverse_all,
            f.block, f.text_block, f.vertical, f.reverse_direction, f.char_gap,
            f.data_offset, f.number,
        )
    )


def _default_font(state: PrinterState) -> FontSpec:
    s = state.settings
    path = state.font_aliases.get(s.default_font)
    return FontSpec(s.default_font, s.default_font_height, s.default_font_width, path,
                    command="^CF", offset=s.default_font_offset)


COMMANDS = {
    "FO": field_origin,
    "FT": field_typeset,
    "FD": field_data,
    "FV": field_data,
    "FH": field_hex,
    "FR": field_reverse,
    "FB": field_block,
    "TB": text_block,
    "FN": field_number,
    "FP": field_parameter,
    "SN": serialization_data,
    "SF": serialization_field,
    "FC": field_clock,
    "FS": field_separator,
}
