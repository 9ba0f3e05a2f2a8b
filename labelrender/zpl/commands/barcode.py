"""Barcode commands (^B*): parameters resolved into a BarcodeSpec.

Each handler reads its parameters with the ZPL II guide's defaults and ranges, and
leaves the spec in ``state.field.barcode`` for ^FS. Orientation defaults to ^FW,
height and module width to ^BY. What the symbol looks like is the business of the
symbols package.
"""

from __future__ import annotations

from collections.abc import Callable

from ..elements import BarcodeSpec
from ..lexer import Command
from ..printer import PrinterState
from .params import Params

Options = tuple[tuple[str, str], ...]

_MAX_HEIGHT = 32000


def _yn(value: bool) -> str:
    return "Y" if value else "N"


def _set(state: PrinterState, command: Command, orientation: str, height: int,
         options: Options) -> None:
    s = state.settings
    state.field.barcode = BarcodeSpec(command.name, orientation, height, s.module_width,
                                      s.module_ratio, options, offset=command.offset)


def _orientation(state: PrinterState, p: Params, index: int = 0) -> str:
    return p.choice(index, state.settings.field_orientation, "NRIB")


def _height(state: PrinterState, p: Params, index: int) -> int:
    return p.int(index, state.settings.barcode_height, 1, _MAX_HEIGHT)


def _linear(state: PrinterState, command: Command, height_at: int, line_at: int,
            check_at: int | None = None, check_default: bool = False,
            line_default: bool = True) -> Params:
    """The common o,h,f,g(,e) shape of the linear commands."""
    p = Params(state, command)
    options: Options = (
        ("line", _yn(p.flag(line_at, line_default))),
        ("line_above", _yn(p.flag(line_at + 1, False))),
    )
    if check_at is not None:
        options += (("check", _yn(p.flag(check_at, check_default))),)
    _set(state, command, _orientation(state, p), _height(state, p, height_at), options)
    return p


def code_128(state: PrinterState, command: Command) -> None:
    """^BCo,h,f,g,e,m - Code 128 Bar Code (Subsets A, B, and C); m: N, U, A or D."""
    p = _linear(state, command, height_at=1, line_at=2, check_at=4)
    _add(state, ("mode", p.choice(5, "N", "NUAD")))


def code_39(state: PrinterState, command: Command) -> None:
    """^B3o,e,h,f,g - Code 39 Bar Code; e: mod-43 check digit."""
    _linear(state, command, height_at=2, line_at=3, check_at=1)


def code_93(state: PrinterState, command: Command) -> None:
    """^BAo,h,f,g,e - Code 93 Bar Code; e: print the check digits."""
    _linear(state, command, height_at=1, line_at=2, check_at=4)


def interleaved_2_of_5(state: PrinterState, command: Command) -> None:
    """^B2o,h,f,g,e - Interleaved 2 of 5 Bar Code; e: mod-10 check digit."""
    _linear(state, command, height_at=1, line_at=2, check_at=4)


def industrial_2_of_5(state: PrinterState, command: Command) -> None:
    """^BIo,h,f,g - Industrial 2 of 5 Bar Codes."""
    _linear(state, command, height_at=1, line_at=2)


def standard_2_of_5(state: PrinterState, command: Command) -> None:
    """^BJo,h,f,g - Standard 2 of 5 Bar Code."""
    _linear(state, command, height_at=1, line_at=2)


def ean_13(state: PrinterState, command: Command) -> None:
    """^BEo,h,f,g - EAN-13 Bar Code."""
    _linear(state, command, height_at=1, line_at=2)


def ean_8(state: PrinterState, command: Command) -> None:
    """^B8o,h,f,g - EAN-8 Bar Code."""
    _linear(state, command, height_at=1, line_at=2)


def upc_a(state: PrinterState, command: Command) -> None:
    """^BUo,h,f,g,e - UPC-A Bar Code; e: print the check digit (default Y)."""
    _linear(state, command, height_at=1, line_at=2, check_at=4, check_default=True)


def upc_e(state: PrinterState, command: Command) -> None:
    """^B9o,h,f,g,e - UPC-E Bar Code; e: print the check digit (default Y)."""
    _linear(state, command, height_at=1, line_at=2, check_at=4, check_default=True)


def upc_ean_extension(state: PrinterState, command: Command) -> None:
    """^BSo,h,f - UPC/EAN Extensions: the line prints above the add-on."""
    p = Params(state, command)
    options = (("line", _yn(p.flag(2, True))),)
    _set(state, command, _orientation(state, p), _height(state, p, 1), options)


def code_11(state: PrinterState, command: Command) -> None:
    """^B1o,e,h,f,g - Code 11 Bar Code; e: Y one check digit, N two."""
    _linear(state, command, height_at=2, line_at=3, check_at=1)


def codabar(state: PrinterState, command: Command) -> None:
    """^BKo,e,h,f,g,k,l - ANSI Codabar Bar Code; k, l: start and stop characters."""
    p = _linear(state, command, height_at=2, line_at=3, check_at=1)
    _add(state, ("start", p.choice(5, "A", "ABCD")), ("stop", p.choice(6, "A", "ABCD")))


def msi(state: PrinterState, command: Command) -> None:
    """^BMo,e,h,f,g,e2 - MSI Bar Code; e: A none, B mod 10, C two mod 10, D mod 10 and 11."""
    p = _linear(state, command, height_at=2, line_at=3)
    _add(state, ("check", p.choice(1, "B", "ABCD")), ("check_in_line", _yn(p.flag(5, False))))


def plessey(state: PrinterState, command: Command) -> None:
    """^BPo,e,h,f,g - Plessey Bar Code; e: print the check digit."""
    _linear(state, command, height_at=2, line_at=3, check_at=1)


def logmars(state: PrinterState, command: Command) -> None:
    """^BLo,h,g - LOGMARS Bar Code; the line always prints, g puts it above the code."""
    p = Params(state, command)
    options = (("line", "Y"), ("line_above", _yn(p.flag(2, False))))
    _set(state, command, _orientation(state, p), _height(state, p, 1), options)


def postnet(state: PrinterState, command: Command) -> None:
    """^BZo,h,f,g,t - POSTAL Bar Code; t: 0 POSTNET, 1 PLANET, 2/3 USPS Intelligent Mail."""
    p = _linear(state, command, height_at=1, line_at=2, line_default=False)
    _add(state, ("type", str(p.int(4, 0, 0, 3))))


def planet(state: PrinterState, command: Command) -> None:
    """^B5o,h,f,g - Planet Code bar code."""
    _linear(state, command, height_at=1, line_at=2, line_default=False)


def code_49(state: PrinterState, command: Command) -> None:
    """^B4o,h,f,m - Code 49 Bar Code; h: row height multiplier; f: N, A(bove), B(elow)."""
    p = Params(state, command)
    options = (("line", p.choice(2, "N", "NAB")), ("mode", p.choice(3, "A", "A012345")))
    _set(state, command, _orientation(state, p), _height(state, p, 1), options)


def codablock(state: PrinterState, command: Command) -> None:
    """^BBo,h,s,c,r,m - CODABLOCK Bar Code; h: row height; c columns; r rows; m A, E, F."""
    p = Params(state, command)
    options = (
        ("row_height", str(p.int(1, 8, 2, _MAX_HEIGHT))),
        ("security", _yn(p.flag(2, True))),
        ("columns", str(p.int(3, 0, 2, 62) if p.has(3) else 0)),
        ("rows", str(p.int(4, 0, 2, 22) if p.has(4) else 0)),
        ("mode", p.choice(5, "F", "AEF")),
    )
    _set(state, command, _orientation(state, p), state.settings.barcode_height, options)


def qr_code(state: PrinterState, command: Command) -> None:
    """^BQa,b,c,d,e - QR Code Bar Code; c: magnification; d: error correction; e: mask."""
    p = Params(state, command)
    if p.str(0, "N").upper() != "N":
        state.warn("^BQ orientation is always N")
    model = p.int(1, 2, 1, 2)
    if model == 1:
        state.warn("^BQ model 1 is drawn as model 2")
    # The guide allows magnification 1-10; Labelary (and newer firmware) draw larger
    # ones as asked, so only absurd values are clamped.
    options = (
        ("magnification", str(p.int(2, 2, 1, 100))),
        ("ecc", p.choice(3, "Q", "HQML")),
        ("mask", str(p.int(4, 7, 0, 7))),
    )
    _set(state, command, "N", state.settings.barcode_height, options)


def data_matrix(state: PrinterState, command: Command) -> None:
    """^BXo,h,s,c,r,f,g,a - Data Matrix Bar Code; h: module size; g: escape character."""
    p = Params(state, command)
    quality = p.int(2, 0, 0, 200)
    if quality not in (0, 50, 80, 100, 140, 200):
        state.warn(f"^BX quality {quality} is not 0, 50, 80, 100, 140 or 200; using 200")
    escape = p.raw(6)[:1] or "~"
    options = (
        ("module", str(p.int(1, 0, 0, _MAX_HEIGHT))),
        ("quality", "200" if quality in (0,) else str(quality)),
        ("columns", str(p.int(3, 0, 0, 144))),
        ("rows", str(p.int(4, 0, 0, 144))),
        ("format", str(p.int(5, 6, 1, 6))),
        ("escape", escape),
        ("aspect", str(p.int(7, 1, 1, 2))),
    )
    _set(state, command, _orientation(state, p), state.settings.barcode_height, options)


def pdf417(state: PrinterState, command: Command) -> None:
    """^B7o,h,s,c,r,t - PDF417 Bar Code; h: row height; s: security 0-8; t: truncate."""
    p = Params(state, command)
    columns, rows = p.int(3, 0, 0, 30), p.int(4, 0, 0, 90)
    if 0 < rows < 3:
        state.warn(f"^B7 rows {rows} is under 3; using 3")
        rows = 3
    options = (
        ("row_height", str(_height(state, p, 1))),
        ("security", str(p.int(2, 0, 0, 8))),
        ("columns", str(columns)),
        ("rows", str(rows)),
        ("truncate", _yn(p.flag(5, False))),
    )
    _set(state, command, _orientation(state, p), _height(state, p, 1), options)


def micro_pdf417(state: PrinterState, command: Command) -> None:
    """^BFo,h,m - MicroPDF417 Bar Code; h: row height; m: mode 0-33."""
    p = Params(state, command)
    options = (("row_height", str(_height(state, p, 1))), ("mode", str(p.int(2, 0, 0, 33))))
    _set(state, command, _orientation(state, p), _height(state, p, 1), options)


def aztec(state: PrinterState, command: Command) -> None:
    """^BOa,b,c,d,e,f,g / ^B0 - Aztec Bar Code; b: magnification; d: ECC or size."""
    p = Params(state, command)
    size = p.int(3, 0, 0, 300)
    if 99 < size < 101 or 104 < size < 201 or 232 < size < 300:
        state.warn(f"^{command.name} size {size} is not 0-99, 101-104, 201-232 or 300; using 0")
        size = 0
    options = (
        ("magnification", str(p.int(1, 2, 1, 10))),
        ("eci", _yn(p.flag(2, False))),
        ("size", str(size)),
        ("menu", _yn(p.flag(4, False))),
        ("count", str(p.int(5, 1, 1, 26))),
        ("id", p.str(6)),
    )
    _set(state, command, _orientation(state, p), state.settings.barcode_height, options)


def maxicode(state: PrinterState, command: Command) -> None:
    """^BDm,n,t - MaxiCode Bar Code; m: mode 2-6; n, t: symbol number and count.

    ^BD has no orientation parameter and MaxiCode is read in any direction, so the
    symbol is always drawn upright (^FW does not turn it)."""
    p = Params(state, command)
    total = p.int(2, 1, 1, 8)
    options = (
        ("mode", str(p.int(0, 2, 2, 6))),
        ("number", str(p.int(1, 1, 1, total))),
        ("total", str(total)),
    )
    _set(state, command, "N", state.settings.barcode_height, options)


def gs1_databar(state: PrinterState, command: Command) -> None:
    """^BRa,b,c,d,e,f - GS1 Databar; b: type 1-12; c: magnification; d: separator."""
    p = Params(state, command)
    segments = p.int(5, 22, 2, 22)
    if segments % 2:
        state.warn(f"^BR segment width {segments} is odd; using {segments - 1}")
        segments -= 1
    options = (
        ("type", str(p.int(1, 1, 1, 12))),
        ("magnification", str(p.int(2, 2, 1, 10))),
        ("separator", str(p.int(3, 1, 1, 2))),
        ("segments", str(segments)),
    )
    _set(state, command, _orientation(state, p), p.int(4, 25, 1, _MAX_HEIGHT), options)


def tlc39(state: PrinterState, command: Command) -> None:
    """^BTo,w1,r1,h1,w2,h2 - TLC39 Bar Code: Code 39 plus a MicroPDF417."""
    p = Params(state, command)
    options = (
        ("width1", str(p.int(1, 2, 1, 10))),
        ("ratio1", f"{p.float(2, 2.0, 2.0, 3.0):g}"),
        ("height1", str(p.int(3, 40, 1, 9999))),
        ("width2", str(p.int(4, 4, 1, 10))),
        ("height2", str(p.int(5, 4, 1, 255))),
    )
    _set(state, command, _orientation(state, p), state.settings.barcode_height, options)


def _add(state: PrinterState, *extra: tuple[str, str]) -> None:
    """Append options to the spec that a shared helper has just set."""
    spec = state.field.barcode
    if spec is not None:
        state.field.barcode = BarcodeSpec(spec.command, spec.orientation, spec.height,
                                          spec.module_width, spec.ratio,
                                          (*spec.options, *extra), offset=spec.offset)


COMMANDS: dict[str, Callable[[PrinterState, Command], None]] = {
    "BC": code_128, "B3": code_39, "BA": code_93, "B2": interleaved_2_of_5,
    "BI": industrial_2_of_5, "BJ": standard_2_of_5, "BE": ean_13, "B8": ean_8, "BU": upc_a,
    "B9": upc_e, "BS": upc_ean_extension, "B1": code_11, "BK": codabar, "BM": msi,
    "BP": plessey, "BL": logmars, "BZ": postnet, "B5": planet, "B4": code_49,
    "BB": codablock, "BQ": qr_code, "BX": data_matrix, "B7": pdf417, "BF": micro_pdf417,
    "BO": aztec, "B0": aztec, "BD": maxicode, "BR": gs1_databar, "BT": tlc39,
}
