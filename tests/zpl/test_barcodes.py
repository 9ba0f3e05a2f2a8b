"""Barcode commands: parameter parsing, and symbols that scanners read back.

The decode tests render real ZPL through ``render()`` and read the PNG with
zxing-cpp, in every orientation and at 203, 300 and 600 dpi (scaled from 203).
"""

from __future__ import annotations

import io
import time

import pytest
import zxingcpp
from PIL import Image

from labelrender.zpl import RenderOptions, render
from labelrender.zpl.commands.barcode import COMMANDS
from labelrender.zpl.elements import BarcodeSpec
from labelrender.zpl.errors import DEFAULT_LIMITS
from labelrender.zpl.lexer import Command
from labelrender.zpl.printer import PrinterState
from labelrender.zpl.symbols import MAX_DATA, SymbolError, _dm_check_words, build_symbol

ORIENTATIONS = ("N", "R", "I", "B")
DPIS = (203, 300, 600)
F = zxingcpp.BarcodeFormat


def _mod10(digits: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


def _mod43(text: str) -> str:
    chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"
    return chars[sum(chars.index(c) for c in text) % 43]


# -- parameter parsing ----------------------------------------------------------


def _spec(zpl_command: str, by: tuple[int, float, int] = (2, 3.0, 10),
          fw: str = "N") -> tuple[BarcodeSpec | None, list[str]]:
    """Run one ^B command on a fresh label with ^BY and ^FW already applied."""
    state = PrinterState(limits=DEFAULT_LIMITS, deadline=time.monotonic() + 10)
    state.start_label()
    state.settings.module_width, state.settings.module_ratio, state.settings.barcode_height = by
    state.settings.field_orientation = fw
    command = Command("caret", zpl_command[:2], zpl_command[2:], 0)
    state.command = command
    COMMANDS[command.name](state, command)
    return state.field.barcode, [w.message for w in state.warnings]


PARAMS = [
    # command, ^FW, expected orientation, height, options subset, warning substring
    ("BC", "N", "N", 10, {"line": "Y", "line_above": "N", "check": "N", "mode": "N"}, None),
    ("BCR,120,N,Y,Y,D", "N", "R", 120,
     {"line": "N", "line_above": "Y", "check": "Y", "mode": "D"}, None),
    ("BC,,,,,X", "B", "B", 10, {"mode": "N"}, "not one of"),
    ("BCN,0", "N", "N", 1, {}, "out of range"),
    ("BCN,abc", "N", "N", 10, {}, "not a number"),
    ("BCQ,50", "R", "R", 50, {}, "not one of"),
    ("B3", "N", "N", 10, {"check": "N", "line": "Y"}, None),
    ("B3I,Y,77,N,N", "N", "I", 77, {"check": "Y", "line": "N"}, None),
    ("BA,60,,,Y", "N", "N", 60, {"check": "Y"}, None),
    ("B2N,90,Y,N,Y", "N", "N", 90, {"check": "Y"}, None),
    ("BEB,55", "N", "B", 55, {"line": "Y"}, None),
    ("BU", "N", "N", 10, {"check": "Y"}, None),
    ("B9,,,,N", "N", "N", 10, {"check": "N"}, None),
    ("BS,40", "N", "N", 40, {"line": "Y"}, None),
    ("BKN,N,70,Y,N,C,D", "N", "N", 70, {"start": "C", "stop": "D"}, None),
    ("BKN,N,70,Y,N,Q", "N", "N", 70, {"start": "A"}, "not one of"),
    ("BMN,D", "N", "N", 10, {"check": "D"}, None),
    ("BM", "N", "N", 10, {"check": "B"}, None),
    ("BLN,80,Y", "N", "N", 80, {"line": "Y", "line_above": "Y"}, None),
    ("BZN,80,,,2", "N", "N", 80, {"type": "2", "line": "N"}, None),
    ("BQN,2,11", "N", "N", 10, {"magnification": "11"}, None),
    ("BQN,2,101", "N", "N", 10, {"magnification": "100"}, "out of range"),
    ("BQN,2", "N", "N", 10, {"magnification": "2", "ecc": "Q"}, None),
    ("BQR,2,4", "N", "N", 10, {}, "always N"),
    ("BXN,6,200", "N", "N", 10, {"module": "6", "escape": "~", "quality": "200"}, None),
    ("BXN,6,200,22,22,,_", "N", "N", 10, {"columns": "22", "rows": "22", "escape": "_"}, None),
    ("BXN,6,7", "N", "N", 10, {}, "quality"),
    ("B7N,8,5,3", "N", "N", 8, {"row_height": "8", "security": "5", "columns": "3"}, None),
    ("B7N,8,9", "N", "N", 8, {"security": "8"}, "out of range"),
    ("B7N,8,1,,2", "N", "N", 8, {"rows": "3"}, "under 3"),
    ("BFN,4,40", "N", "N", 4, {"mode": "33"}, "out of range"),
    ("BON,5,N,150", "N", "N", 10, {"size": "0"}, "not 0-99"),
    ("B0R,4,N,103", "N", "R", 10, {"magnification": "4", "size": "103"}, None),
    ("BD", "R", "N", 10, {"mode": "2", "number": "1", "total": "1"}, None),
    ("BD7", "N", "N", 10, {"mode": "6"}, "out of range"),
    ("BRN,6,3,2,100,7", "N", "N", 100, {"type": "6", "magnification": "3", "segments": "6"},
     "odd"),
    ("BR", "N", "N", 25, {"type": "1", "magnification": "2", "separator": "1"}, None),
    ("B4N,20,A", "N", "N", 20, {"line": "A"}, None),
    ("BBN,10,Y,5,4", "N", "N", 10, {"row_height": "10", "columns": "5", "rows": "4"}, None),
    ("BTN", "N", "N", 10, {"width1": "2", "height1": "40", "width2": "4"}, None),
]


@pytest.mark.parametrize(("command", "fw", "orientation", "height", "options", "warning"), PARAMS)
def test_parameters(command: str, fw: str, orientation: str, height: int,
                    options: dict[str, str], warning: str | None) -> None:
    spec, warnings = _spec(command, fw=fw)
    assert spec is not None
    assert spec.command == command[:2]
    assert (spec.orientation, spec.height) == (orientation, height)
    assert {k: spec.option(k) for k in options} == options
    if warning is None:
        assert warnings == []
    else:
        assert any(warning in w for w in warnings), warnings


def test_by_settings_flow_into_the_spec() -> None:
    spec, _ = _spec("BC", by=(4, 2.5, 120))
    assert spec is not None
    assert (spec.module_width, spec.ratio, spec.height) == (4, 2.5, 120)


# -- symbol building --------------------------------------------------------------


def test_oversized_data_is_a_symbol_error() -> None:
    spec = BarcodeSpec("BC", "N", 50, 2, 3.0)
    with pytest.raises(SymbolError, match=str(MAX_DATA)):
        build_symbol(spec, "1" * 8192, 1.0)


@pytest.mark.parametrize(("command", "data"), [
    ("BE", "12AB"),  # EAN takes digits only
    ("B3", "lower~case\x01"),  # not in Code 39's set
    ("BQ", ""),
    ("BD", "short"),  # mode 2 needs a 15-character primary message
])
def test_bad_data_is_a_symbol_error(command: str, data: str) -> None:
    with pytest.raises(SymbolError):
        build_symbol(BarcodeSpec(command, "N", 50, 2, 3.0), data, 1.0)


@pytest.mark.parametrize(("module", "ratio", "scale", "narrow", "wide"), [
    (2, 3.0, 1.0, 2, 6),
    (3, 2.0, 1.0, 3, 6),
    (2, 2.5, 1.0, 2, 5),
    (2, 3.0, 300 / 203, 3, 9),
    (1, 3.0, 600 / 203, 3, 9),
])
def test_two_width_bars_follow_by_ratio(module: int, ratio: float, scale: float,
                                        narrow: int, wide: int) -> None:
    geometry, _ = build_symbol(BarcodeSpec("B3", "N", 50, module, ratio), "A", scale)
    widths = sorted({int(w) for _, _, w, _ in geometry.rects})
    assert widths == [narrow, wide]


def test_interpretation_line_sits_below_the_bars() -> None:
    spec = BarcodeSpec("BC", "N", 100, 2, 3.0, (("line", "Y"), ("mode", "N")))
    geometry, _ = build_symbol(spec, "123456", 1.0)
    (text,) = geometry.texts
    assert text.text == "123456"
    assert text.y > geometry.baseline == 100
    above = BarcodeSpec("BC", "N", 100, 2, 3.0, (("line", "Y"), ("line_above", "Y")))
    (text,) = build_symbol(above, "123456", 1.0)[0].texts
    assert text.y + text.font_height <= 0


def test_ean_guard_bars_reach_below_the_others() -> None:
    geometry, _ = build_symbol(BarcodeSpec("BE", "N", 100, 2, 3.0), "590123412345", 1.0)
    heights = {h for _, _, _, h in geometry.rects}
    assert heights == {100, 113}
    assert [t.text for t in geometry.texts] == []


# -- decoding ----------------------------------------------------------------------


def _decode(png: bytes, kind: str) -> list[tuple[str, str]]:
    image = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(image, formats=getattr(F, kind),
                                   text_mode=zxingcpp.TextMode.HRI)
    return [(b.format.name, b.text) for b in found]


DECODES = [
    # name, field (with {o} for orientation), expected format, expected text
    ("code128", "^BY2^BC{o},80,Y,N,N^FDABC-123 xyz", "Code128", "ABC-123 xyz"),
    ("code128-subset-c", "^BY2^BC{o},80^FD>;1234567890>6AB", "Code128", "1234567890AB"),
    ("code128-auto", "^BY2^BC{o},80,N,N,N,A^FD12345678ABCD", "Code128", "12345678ABCD"),
    ("code128-ucc-case", "^BY2^BC{o},80,Y,N,N,U^FD1234", "Code128",
     "(00)" + ("0" * 15 + "1234" + _mod10("0" * 15 + "1234"))[2:]),
    ("code39", "^BY2,3^B3{o},N,80,Y^FDCODE39", "Code39", "CODE39"),
    ("code39-mod43", "^BY2,2.5^B3{o},Y,80^FDZPL-39", "Code39", "ZPL-39" + _mod43("ZPL-39")),
    ("code93", "^BY2^BA{o},80^FDCODE93", "Code93", "CODE93"),
    ("i2of5-check", "^BY2^B2{o},80,Y,N,Y^FD12345", "ITF", "123457"),
    ("codabar", "^BY2^BK{o},N,80,Y,N,A,B^FD12345", "Codabar", "A12345B"),
    ("ean13", "^BY2^BE{o},80,Y,N^FD590123412345", "EAN13", "5901234123457"),
    ("ean8", "^BY2^B8{o},80^FD1234567", "EAN8", "12345670"),
    # zxing-cpp reports UPC as the GTIN-13 it stands for
    ("upca", "^BY2^BU{o},80^FD01234567890", "UPCA", "0012345678905"),
    ("upce", "^BY2^B9{o},80^FD123456", "UPCE", "0012345000065"),
    ("qr", "^BQN,2,4^FDQA,Hello World", "QRCode", "Hello World"),
    ("qr-manual-bytes", "^BQN,2,3^FDHM,B0005abcde", "QRCode", "abcde"),
    ("datamatrix", "^BX{o},5,200^FDDataMatrixTest", "DataMatrix", "DataMatrixTest"),
    ("datamatrix-gs1", "^BX{o},5,200,,,,_^FD_10112345678901231_110ABC12", "DataMatrix",
     "(01)12345678901231(10)ABC12"),
    ("pdf417", "^BY2^B7{o},8,2^FDPDF417 test data 123", "PDF417", "PDF417 test data 123"),
    ("micropdf417", "^BY2^BF{o},6,0^FDmicro1234", "MicroPDF417", "micro1234"),
    ("aztec", "^BO{o},4,N,0^FDAztec test", "Aztec", "Aztec test"),
    ("maxicode", "^FW{o}^BD4^FDMaxiCode test 1234", "MaxiCode", "MaxiCode test 1234"),
    ("databar", "^BR{o},1,2,1,100^FD0112345678901", "DataBarOmni",
     "(01)0112345678901" + _mod10("0112345678901")),
    ("databar-stacked-omni", "^BR{o},4,2,1,100^FD0112345678901", "DataBarStk",
     "(01)0112345678901" + _mod10("0112345678901")),
    ("databar-limited", "^BR{o},5,2,1,100^FD0112345678901", "DataBarLtd",
     "(01)0112345678901" + _mod10("0112345678901")),
    ("databar-expanded", "^BR{o},6,2,1,100^FD0112345678901231", "DataBarExp",
     "(01)12345678901231"),
]


@pytest.mark.parametrize("dpi", DPIS)
@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize(("name", "field", "kind", "text"), DECODES, ids=[d[0] for d in DECODES])
def test_symbols_decode(name: str, field: str, kind: str, text: str, orientation: str,
                        dpi: int) -> None:
    zpl = f"^XA^FO60,60{field.format(o=orientation)}^FS^XZ"
    options = RenderOptions(dpi=dpi, source_dpi=203, width_dots=520, height_dots=520)
    result = render(zpl, options)
    assert not [w for w in result.warnings if "^B" in w.command], result.warnings
    assert (kind, text) in _decode(result.png, kind)


def test_ups_maxicode_carries_the_structured_message() -> None:
    zpl = ("^XA^FO40,40^BD3^FH_^FD4030405000  [)>_1E01_1D961Z08720000_1DUPSN_1D680RA4"
           "_1D051_1D_1D1/1_1D1_1DN_1D_1DHALLEIN_1D_1E_04^FS^XZ")
    result = render(zpl, RenderOptions(dpi=300, source_dpi=203, width_dots=400,
                                       height_dots=400))
    image = Image.open(io.BytesIO(result.png)).convert("L")
    (found,) = zxingcpp.read_barcodes(image, text_mode=zxingcpp.TextMode.Plain)
    assert found.format == F.MaxiCode
    assert "1Z08720000" in found.text and "HALLEIN" in found.text
    assert "040" in found.text and "403" in found.text


def test_symbol_errors_become_warnings() -> None:
    result = render("^XA^FO20,20^BEN,50^FDNOT-DIGITS^FS^XZ", RenderOptions(width_dots=300,
                                                                           height_dots=200))
    assert any("digits" in w.message for w in result.warnings)


# -- Labelary's automatic choices ----------------------------------------------------

AZTEC_DATA = "Part:123;Warehouse:BYZA;Position:12-12-1"


@pytest.mark.parametrize(("percent", "modules"), [(23, 23), (45, 27), (70, 37), (95, 79)])
def test_aztec_error_correction_percent_sets_the_size(percent: int, modules: int) -> None:
    spec = BarcodeSpec("BO", "N", 10, 2, 3.0, (("magnification", "5"), ("size", str(percent))))
    geometry, warnings = build_symbol(spec, AZTEC_DATA, 1.0)
    assert (geometry.width, geometry.height) == (modules * 5, modules * 5)
    assert not warnings


@pytest.mark.parametrize(("data", "security", "columns", "rows"), [
    ("CANONICAL-PDF417-TEST-DATA", 0, 1, 18),
    ("1234567890", 1, 1, 10),
    ("ABCDEFGHIJ0123456789" * 3, 0, 2, 18),
    ("ABCDEFGHIJ0123456789" * 4 + "ABCDEFGHIJ", 2, 3, 20),
])
def test_pdf417_automatic_shape_is_near_one_to_two(data: str, security: int, columns: int,
                                                   rows: int) -> None:
    options = (("row_height", "10"), ("security", str(security)), ("columns", "0"),
               ("rows", "0"), ("truncate", "N"))
    geometry, _ = build_symbol(BarcodeSpec("B7", "N", 10, 2, 3.0, options), data, 1.0)
    assert geometry.width == (17 * columns + 69) * 2
    assert geometry.height == rows * 10


def _qr_spec(magnification: int = 5) -> BarcodeSpec:
    return BarcodeSpec("BQ", "N", 10, 2, 3.0, (("magnification", str(magnification)),
                                                ("ecc", "Q"), ("mask", "7")))


def _qr_found(field: str) -> zxingcpp.Barcode:
    result = render(f"^XA^FO20,20^BQN,2,4^FD{field}^FS^XZ",
                    RenderOptions(width_dots=300, height_dots=300))
    image = Image.open(io.BytesIO(result.png)).convert("L")
    (found,) = zxingcpp.read_barcodes(image, formats=F.QRCode)
    return found


@pytest.mark.parametrize(("field", "text", "level", "mask"), [
    ("MA,HELLO WORLD", "HELLO WORLD", "Q", 0),  # M raised to Q: version 1 holds it
    ("MA,LOC-A-01", "LOC-A-01", "H", 6),
    ("QA,https://example.com", "https://example.com", "Q", 0),
    ("EXAMPLE CODE", "MPLE CODE", "H", None),  # three characters of head, then data
    ("MM,AAB12|SW1|JOHN", "AB12SW1JOHN", "Q", None),  # manual mode drops the '|'
])
def test_qr_level_mask_and_data_follow_labelary(field: str, text: str, level: str,
                                                mask: int | None) -> None:
    found = _qr_found(field)
    assert (found.text, found.ec_level) == (text, level)
    if mask is not None:
        assert found.extra["DataMask"] == mask


@pytest.mark.parametrize(("data", "lift_modules"), [
    ("MA,HELLO WORLD", 3),  # version 1
    ("HM,B002012345678901234567890", 7),  # version 2
])
def test_qr_field_typeset_lifts_the_symbol_by_version(data: str, lift_modules: int) -> None:
    geometry, _ = build_symbol(_qr_spec(10), data, 1.0)
    assert geometry.baseline - geometry.height == lift_modules * 10


def test_rotated_barcode_box_is_the_bars_only() -> None:
    spec = BarcodeSpec("BC", "I", 200, 2, 3.0, (("line", "Y"), ("mode", "N")))
    geometry, _ = build_symbol(spec, "123456", 1.0)
    assert geometry.height == geometry.baseline == 200
    assert geometry.texts and geometry.texts[0].y > 200


def test_code128_subset_a_takes_digit_pairs() -> None:
    spec = BarcodeSpec("BC", "N", 100, 3, 3.0, (("line", "Y"), ("mode", "N")))
    geometry, _ = build_symbol(spec, ">;382436>6CODE128>752375152", 1.0)
    assert geometry.texts[0].text == "382436CODE128TEST"
    assert geometry.width == 211 * 3
    result = render("^XA^FO20,20^BY2^BCN,60^FD>;382436>6CODE128>752375152^FS^XZ",
                    RenderOptions(width_dots=600, height_dots=200))
    assert ("Code128", "382436CODE128TEST") in _decode(result.png, "Code128")


def test_datamatrix_automatic_size_packs_like_labelary() -> None:
    spec = BarcodeSpec("BX", "N", 10, 2, 3.0, (("module", "6"), ("quality", "200")))
    geometry, _ = build_symbol(spec, "32901234567898|V6Z1K3|ROBERTCHEN", 1.0)
    assert geometry.width == 20 * 6


@pytest.mark.parametrize("dpi", DPIS)
def test_datamatrix_ends_a_text_run_with_a_padded_triple(dpi: int) -> None:
    """'...st' stays in Text mode as one triple, then unlatches; it still decodes."""
    spec = BarcodeSpec("BX", "N", 10, 2, 3.0, (("module", "5"), ("quality", "200")))
    geometry, _ = build_symbol(spec, "DataMatrixTest", 1.0)
    assert geometry.width == 18 * 5
    result = render("^XA^FO40,40^BXN,5,200^FDDataMatrixTest^FS^XZ",
                    RenderOptions(dpi=dpi, source_dpi=203, width_dots=300, height_dots=300))
    assert ("DataMatrix", "DataMatrixTest") in _decode(result.png, "DataMatrix")


def test_datamatrix_reed_solomon_follows_the_standard() -> None:
    # ISO/IEC 16022 annex O example: "123456" in a 10x10 symbol.
    assert _dm_check_words([142, 164, 186], 5) == [114, 25, 5, 88, 102]
