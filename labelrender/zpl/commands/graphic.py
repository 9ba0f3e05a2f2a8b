"""Graphic commands: boxes, circles, ellipses, diagonals, bitmaps and stored images."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..elements import (
    FontSpec,
    GraphicBox,
    GraphicDiagonal,
    GraphicEllipse,
    GraphicImage,
    Origin,
)
from ..graphic_data import (
    Bitmap,
    GraphicCapError,
    GraphicDataError,
    decode_download_graphic,
    decode_download_object,
    decode_graphic_field,
)
from ..lexer import Command
from ..printer import FieldState, PrinterState
from .font import _object_name
from .params import Params

_MAX_DOTS = 32000

T = TypeVar("T")


def _field_origin(state: PrinterState) -> Origin:
    return state.field.origin or Origin(*state.place(0, 0))


def _reverse(state: PrinterState) -> bool:
    return state.field.reverse or state.settings.reverse_all


def _check_area(state: PrinterState, width: int, height: int) -> None:
    limits = state.limits
    if width * height > limits.max_megapixels * 1_000_000:
        raise state.over(
            "graphic_area",
            f"graphic of {width}x{height} dots exceeds the {limits.max_megapixels:g} "
            "megapixel cap"
        )


def _shape(p: Params, low: int, high: int) -> tuple[int, int, int, str]:
    """The w,h,t,c parameters shared by ^GB, ^GE and ^GD: w and h default to, and are at
    least, the line thickness t."""
    thickness = p.int(2, 1, 1, high)
    width = max(p.int(0, thickness, low, high), thickness)
    height = max(p.int(1, thickness, low, high), thickness)
    return width, height, thickness, p.choice(3, "B", "BW")


def graphic_box(state: PrinterState, command: Command) -> None:
    """^GB w,h,t,c,r - Graphic Box; w and h default to (and are at least) t."""
    p = Params(state, command)
    width, height, thickness, color = _shape(p, 0, _MAX_DOTS)
    rounding = p.int(4, 0, 0, 8)
    _check_area(state, width, height)
    state.add(GraphicBox(_field_origin(state), width, height, thickness, color, rounding,
                         _reverse(state), command.offset))


def graphic_circle(state: PrinterState, command: Command) -> None:
    """^GC d,t,c - Graphic Circle: diameter 3-4095, border thickness."""
    p = Params(state, command)
    diameter = p.int(0, 3, 3, 4095)
    thickness = p.int(1, 1, 1, 4095)
    color = p.choice(2, "B", "BW")
    state.add(GraphicEllipse(_field_origin(state), diameter, diameter, thickness, color,
                             _reverse(state), command.offset, command.code))


def graphic_ellipse(state: PrinterState, command: Command) -> None:
    """^GE w,h,t,c - Graphic Ellipse: width and height 3-4095, default to t."""
    width, height, thickness, color = _shape(Params(state, command), 3, 4095)
    state.add(GraphicEllipse(_field_origin(state), width, height, thickness, color,
                             _reverse(state), command.offset, command.code))


def graphic_diagonal(state: PrinterState, command: Command) -> None:
    """^GD w,h,t,c,o - Graphic Diagonal Line: o is R (/) or L (\\)."""
    p = Params(state, command)
    width, height, thickness, color = _shape(p, 3, _MAX_DOTS)
    lean = p.choice(4, "R", "RL/\\")
    lean = {"/": "R", "\\": "L"}.get(lean, lean)
    _check_area(state, width, height)
    state.add(GraphicDiagonal(_field_origin(state), width, height, thickness, color, lean,
                              _reverse(state), command.offset))


def graphic_symbol(state: PrinterState, command: Command) -> None:
    """^GS o,h,w - Graphic Symbol: field data A-E print (R), (C), TM, UL and CSA marks."""
    p = Params(state, command)
    state.field.orientation = p.choice(0, state.settings.field_orientation, "NRIB")
    height = p.int(1, state.settings.default_font_height, 0, 32000)
    width = p.int(2, height, 0, 32000)
    state.field.font = FontSpec("GS", height, width, command="^GS", offset=command.offset)


def _rejected(state: PrinterState, exc: GraphicDataError) -> None:
    """A graphic or font that cannot be decoded is skipped, as a printer rejects a bad
    download; data past a safety cap stops the render."""
    if isinstance(exc, GraphicCapError):
        raise state.over("graphic_bytes", str(exc)) from exc
    state.warn(f"{exc}; object skipped")


def _decoded(state: PrinterState, decode: Callable[..., tuple[T, list[str]]],
             *args: object) -> T | None:
    """Run a graphic decoder: its notes become warnings, a rejected object None."""
    try:
        result, notes = decode(*args)
    except GraphicDataError as exc:
        _rejected(state, exc)
        return None
    for note in notes:
        state.warn(note)
    return result


def _image(state: PrinterState, bitmap: Bitmap, mag_x: int = 1, mag_y: int = 1) -> None:
    _check_area(state, bitmap.width * mag_x, bitmap.height * mag_y)
    cmd = state.command
    state.add(GraphicImage(_field_origin(state), bitmap, mag_x, mag_y, _reverse(state),
                           cmd.offset if cmd else 0, cmd.code if cmd else "^GF"))


def _store(state: PrinterState, name: str, bitmap: Bitmap) -> None:
    size = len(bitmap.bits)
    if state.stored_bytes + size > state.limits.max_stored_bytes:
        raise state.over(
            "stored_bytes",
            f"stored graphics exceed the {state.limits.max_stored_bytes}-byte memory cap"
        )
    state.stored_bytes += size
    state.graphics[name] = bitmap


def graphic_field(state: PrinterState, command: Command) -> None:
    """^GF a,b,c,d,data - Graphic Field: A (hex, compressed), B (binary), C formats."""
    parts = command.params.split(state.delimiter, 4)
    p = Params(state, command, state.delimiter.join(parts[:4]))
    fmt = p.choice(0, "A", "ABC")
    binary_count = p.int(1, 0, 0, 2**31)
    field_count = p.int(2, 0, 0, 2**31)
    row_bytes = p.int(3, 0, 0, 2**31)
    data = parts[4] if len(parts) > 4 else ""
    if row_bytes <= 0 or field_count <= 0:
        state.warn("graphic field has no size; nothing drawn")
        return
    bitmap = _decoded(state, decode_graphic_field, fmt, binary_count, field_count, row_bytes,
                      data.encode("latin-1"), state.limits.max_graphic_bytes)
    if bitmap is not None:
        _image(state, bitmap)
    if fmt == "B" and "^FS" in data:
        # The byte count ran past the field's ^FS into the commands after it (the lexer
        # reads exactly the count): the graphic's field ends with those bytes, so what
        # follows starts a new field, without the ^GF's origin. Labelary prints
        # carriers/usps_intl's "^FO631,6^GFB,323,323,17,^FS" so: the bitmap is made of
        # the next 323 bytes and the "ZONE 5" field after them prints at the home origin.
        state.field = FieldState()


def download_graphic(state: PrinterState, command: Command) -> None:
    """~DGd:o.x,t,w,data - Download Graphics into printer memory."""
    parts = command.params.split(state.delimiter, 3)
    if len(parts) < 4:
        state.warn("~DG needs name, total bytes, bytes per row and data")
        return
    name = _object_name(parts[0])
    p = Params(state, command, state.delimiter.join(parts[1:3]))
    total = p.int(0, 0, 0, 2**31)
    row_bytes = p.int(1, 0, 0, 2**31)
    if row_bytes <= 0 or total <= 0:
        state.warn("~DG graphic has no size; nothing stored")
        return
    bitmap = _decoded(state, decode_download_graphic, total, row_bytes,
                      parts[3].encode("latin-1"), state.limits.max_graphic_bytes)
    if bitmap is not None:
        _store(state, _with_extension(name, ".GRF"), bitmap)


def download_objects(state: PrinterState, command: Command) -> None:
    """~DYd:f,b,x,t,w,data - Download Objects: graphics (G, P) or fonts (T, E)."""
    parts = command.params.split(state.delimiter, 5)
    if len(parts) < 6:
        state.warn("~DY needs name, format, extension, size, width and data")
        return
    p = Params(state, command, state.delimiter.join(parts[1:5]))
    fmt = p.choice(0, "A", "ABC")
    ext = p.choice(1, "G", "BEGPTHX")
    total = p.int(2, 0, 0, 2**31)
    row_bytes = p.int(3, 0, 0, 2**31)
    extension = {"G": ".GRF", "P": ".PNG", "T": ".TTF", "E": ".TTE"}.get(ext, "." + ext)
    name = _with_extension(_object_name(parts[0]), extension)
    obj = _decoded(state, decode_download_object, fmt, ext, total, row_bytes,
                   parts[5].encode("latin-1"), state.limits.max_graphic_bytes)
    if obj is None:
        return
    if isinstance(obj, Bitmap):
        _store(state, name, obj)
        if ext == "P":
            _store(state, _with_extension(name, ".GRF"), obj)
    else:
        state.fonts[name] = obj


def download_font(state: PrinterState, command: Command) -> None:
    """~DUd:o.x,s,data - Download Unbounded TrueType Font (ASCII hex, Z64 or B64)."""
    parts = command.params.split(state.delimiter, 2)
    if len(parts) < 3:
        state.warn("~DU needs name, size and data")
        return
    name = _with_extension(_object_name(parts[0]), ".TTF")
    size = Params(state, command, parts[1]).int(0, 0, 0, 2**31)
    blob = _decoded(state, decode_download_object, "A", "T", size, 0,
                    parts[2].encode("latin-1"), state.limits.max_graphic_bytes)
    if isinstance(blob, bytes):
        state.fonts[name] = blob


def _with_extension(name: str, extension: str) -> str:
    return name if "." in name else name + extension


def _recall(state: PrinterState, name: str) -> Bitmap | None:
    name = _object_name(name)
    bitmap = state.graphics.get(_with_extension(name, ".GRF")) or state.graphics.get(name)
    if bitmap is None:
        state.warn(f"graphic {name} is not in memory; nothing drawn")
    return bitmap


def recall_graphic(state: PrinterState, command: Command) -> None:
    """^XGd:o.x,mx,my - Recall Graphic with magnification 1-10."""
    p = Params(state, command)
    bitmap = _recall(state, p.str(0, "R:UNKNOWN.GRF"))
    if bitmap is not None:
        _image(state, bitmap, p.int(1, 1, 1, 10), p.int(2, 1, 1, 10))


def image_move(state: PrinterState, command: Command) -> None:
    """^IMd:o.x - Image Move: draw a stored image at the field origin."""
    bitmap = _recall(state, Params(state, command).str(0, "R:UNKNOWN.GRF"))
    if bitmap is not None:
        _image(state, bitmap)


def image_load(state: PrinterState, command: Command) -> None:
    """^ILd:o.x - Image Load: a stored image as the background at the label's origin."""
    bitmap = _recall(state, Params(state, command).str(0, "R:UNKNOWN.GRF"))
    if bitmap is not None:
        state.label.elements.insert(0, GraphicImage(Origin(0, 0), bitmap, offset=command.offset,
                                                    command=command.code))


COMMANDS = {
    "GB": graphic_box,
    "GC": graphic_circle,
    "GE": graphic_ellipse,
    "GD": graphic_diagonal,
    "GS": graphic_symbol,
    "GF": graphic_field,
    "DG": download_graphic,
    "DY": download_objects,
    "DU": download_font,
    "XG": recall_graphic,
    "IM": image_move,
    "IL": image_load,
}
