"""Data Matrix ECC 200 (^BX), with the codewords rewritten where Labelary's differ."""

from __future__ import annotations

import numpy as np
import zint

from .common import (
    _GS1_MODE,
    SymbolError,
    SymbolGeometry,
    Z,
    _bytes,
    _encode,
    _gs1_brackets,
    _Job,
    _matrix,
    _matrix_geometry,
)

# Data Matrix ECC 200 sizes (rows, columns) in zint's option_2 order (ISO/IEC 16022 table 7).
_DM_SIZES = (
    (10, 10), (12, 12), (14, 14), (16, 16), (18, 18), (20, 20), (22, 22), (24, 24), (26, 26),
    (32, 32), (36, 36), (40, 40), (44, 44), (48, 48), (52, 52), (64, 64), (72, 72), (80, 80),
    (88, 88), (96, 96), (104, 104), (120, 120), (132, 132), (144, 144), (8, 18), (8, 32),
    (12, 26), (12, 36), (16, 36), (16, 48),
)


# Per size, in _DM_SIZES order: data codewords, error correction codewords, Reed-Solomon
# blocks, and data regions down and across (ISO/IEC 16022 table 7).
_DM_LAYOUT = (
    (3, 5, 1, 1, 1), (5, 7, 1, 1, 1), (8, 10, 1, 1, 1), (12, 12, 1, 1, 1), (18, 14, 1, 1, 1),
    (22, 18, 1, 1, 1), (30, 20, 1, 1, 1), (36, 24, 1, 1, 1), (44, 28, 1, 1, 1),
    (62, 36, 1, 2, 2), (86, 42, 1, 2, 2), (114, 48, 1, 2, 2), (144, 56, 1, 2, 2),
    (174, 68, 1, 2, 2), (204, 84, 2, 2, 2), (280, 112, 2, 4, 4), (368, 144, 4, 4, 4),
    (456, 192, 4, 4, 4), (576, 224, 4, 4, 4), (696, 272, 4, 4, 4), (816, 336, 6, 4, 4),
    (1050, 408, 6, 6, 6), (1304, 496, 8, 6, 6), (1558, 620, 10, 6, 6),
    (5, 7, 1, 1, 1), (10, 11, 1, 1, 2), (16, 14, 1, 1, 1), (22, 18, 1, 1, 2),
    (32, 24, 1, 1, 2), (49, 28, 1, 1, 2),
)


def _dm_placement(nrow: int, ncol: int) -> list[list[tuple[int, int]]]:
    """Module (row, column) of each codeword's bits, most significant first, in the
    mapping matrix (ISO/IEC 16022 annex F)."""
    taken = np.zeros((nrow, ncol), dtype=bool)
    cells: list[list[tuple[int, int]]] = []

    def put(spots: list[tuple[int, int]]) -> None:
        placed = []
        for row, col in spots:
            if row < 0:
                row, col = row + nrow, col + 4 - ((nrow + 4) % 8)
            if col < 0:
                row, col = row + 4 - ((ncol + 4) % 8), col + ncol
            taken[row, col] = True
            placed.append((row, col))
        cells.append(placed)

    def utah(r: int, c: int) -> None:
        put([(r - 2, c - 2), (r - 2, c - 1), (r - 1, c - 2), (r - 1, c - 1), (r - 1, c),
             (r, c - 2), (r, c - 1), (r, c)])

    n, m = nrow, ncol
    corners = (
        [(n - 1, 0), (n - 1, 1), (n - 1, 2), (0, m - 2), (0, m - 1), (1, m - 1), (2, m - 1),
         (3, m - 1)],
        [(n - 3, 0), (n - 2, 0), (n - 1, 0), (0, m - 4), (0, m - 3), (0, m - 2), (0, m - 1),
         (1, m - 1)],
        [(n - 3, 0), (n - 2, 0), (n - 1, 0), (0, m - 2), (0, m - 1), (1, m - 1), (2, m - 1),
         (3, m - 1)],
        [(n - 1, 0), (n - 1, m - 1), (0, m - 3), (0, m - 2), (0, m - 1), (1, m - 3),
         (1, m - 2), (1, m - 1)],
    )
    row, col = 4, 0
    while row < nrow or col < ncol:
        if row == nrow and col == 0:
            put(corners[0])
        if row == nrow - 2 and col == 0 and ncol % 4:
            put(corners[1])
        if row == nrow - 2 and col == 0 and ncol % 8 == 4:
            put(corners[2])
        if row == nrow + 4 and col == 2 and ncol % 8 == 0:
            put(corners[3])
        while True:  # up and to the right
            if row < nrow and col >= 0 and not taken[row, col]:
                utah(row, col)
            row, col = row - 2, col + 2
            if not (row >= 0 and col < ncol):
                break
        row, col = row + 1, col + 3
        while True:  # down and to the left
            if row >= 0 and col < ncol and not taken[row, col]:
                utah(row, col)
            row, col = row + 2, col - 2
            if not (row < nrow and col >= 0):
                break
        row, col = row + 3, col + 1
    return cells


def _gf256_tables() -> tuple[list[int], list[int]]:
    """Exponent and log tables of GF(256) with Data Matrix's polynomial 0x12D."""
    exp, log = [0] * 512, [0] * 256
    value = 1
    for i in range(255):
        exp[i], log[value] = value, i
        value <<= 1
        if value & 0x100:
            value ^= 0x12D
    for i in range(255, 512):
        exp[i] = exp[i - 255]
    return exp, log


_GF_EXP, _GF_LOG = _gf256_tables()


def _dm_check_words(data: list[int], count: int) -> list[int]:
    """Reed-Solomon check codewords with generator roots alpha^1..alpha^count."""
    gen = [1]
    for i in range(1, count + 1):
        nxt = [0] * (len(gen) + 1)
        for j, coef in enumerate(gen):
            nxt[j] ^= coef
            if coef:
                nxt[j + 1] ^= _GF_EXP[_GF_LOG[coef] + i]
        gen = nxt
    rest = [0] * count
    for value in data:
        factor = value ^ rest[0]
        rest = rest[1:] + [0]
        if factor:
            for j in range(count):
                if gen[j + 1]:
                    rest[j] ^= _GF_EXP[_GF_LOG[factor] + _GF_LOG[gen[j + 1]]]
    return rest


_DM_C40_BASIC = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DM_TEXT_BASIC = " 0123456789abcdefghijklmnopqrstuvwxyz"


def _dm_short_tail(data: list[int]) -> list[int] | None:
    """Labelary's end of a C40/Text run with two characters left, or None if it differs.

    Where zint unlatches and writes the last two characters as ASCII, Labelary keeps
    them in the run as one triple padded with Shift 1 (the ISO/IEC 16022 end-of-data
    option), then unlatches: the same three codewords, different bits. Seen in
    "DataMatrixTest" (zplab barcode_datamatrix_standard and _rot_R), carriers
    colissimo ("...DUPONT") and dhlecommercetr ("...A6J"); every other ^BX in the
    corpus matches zint's codewords as they are.
    """
    basic, i = "", 0
    while i < len(data):
        word = data[i]
        if basic:
            if word != 254:
                i += 2
                continue
            tail = data[i + 1 : i + 3]
            rest = data[i + 3 : i + 4]
            chars = "".join(chr(w - 1) for w in tail if 1 <= w <= 128)
            if len(chars) == 2 and rest in ([], [129]) and all(c in basic for c in chars):
                # C40/Text values: space 3, digits 4-13, letters 14-39; Shift 1 is 0.
                first, second = (basic.index(c) + 3 for c in chars)
                value = 1600 * first + 40 * second + 1
                return [*data[:i], value >> 8, value & 0xFF, 254, *data[i + 3 :]]
            basic, i = "", i + 1
        elif word == 129:
            return None
        elif word in (230, 239):  # latch to C40 or Text
            basic, i = (_DM_C40_BASIC if word == 230 else _DM_TEXT_BASIC), i + 1
        elif word == 235:
            i += 2
        elif word > 229 and word != 232:
            return None  # Base 256, X12, EDIFACT, ECI...: left to zint
        else:
            i += 1
    return None


def _dm_labelary_bits(symbol: zint.Symbol) -> np.ndarray:
    """The symbol's modules, with its codewords rewritten where Labelary's differ."""
    bits = _matrix(symbol).copy()
    size = (symbol.rows, symbol.width)
    if size not in _DM_SIZES:
        return bits
    data_n, check_n, blocks, down, across = _DM_LAYOUT[_DM_SIZES.index(size)]
    if data_n % blocks or check_n % blocks:
        return bits
    rh, rw = size[0] // down - 2, size[1] // across - 2
    cells = [[((r // rh) * (rh + 2) + 1 + r % rh, (c // rw) * (rw + 2) + 1 + c % rw)
              for r, c in spots] for spots in _dm_placement(rh * down, rw * across)]
    words = [sum(int(bits[r, c]) << (7 - b) for b, (r, c) in enumerate(spots))
             for spots in cells[: data_n + check_n]]

    def with_checks(data: list[int]) -> list[int]:
        stream = data + [0] * check_n
        for block in range(blocks):
            checks = _dm_check_words(data[block::blocks], check_n // blocks)
            for k, word in enumerate(checks):
                stream[data_n + k * blocks + block] = word
        return stream

    if with_checks(words[:data_n]) != words:  # not read back as laid out: leave it
        return bits
    tail = _dm_short_tail(words[:data_n])
    if tail is None:
        return bits
    for spots, word in zip(cells, with_checks(tail), strict=False):
        for b, (r, c) in enumerate(spots):
            bits[r, c] = (word >> (7 - b)) & 1
    return bits


def _dm_unescape(data: str, escape: str) -> tuple[str, bool]:
    """^BX escape sequences: <e>1 FNC1, <e>dNNN a byte, <e>X a control character."""
    out: list[str] = []
    gs1 = False
    i = 0
    while i < len(data):
        ch, nxt = data[i], data[i + 1 : i + 2]
        if ch != escape or not nxt:
            out.append(ch)
            i += 1
        elif nxt == "1":
            gs1 = gs1 or not out
            out.append("\x1d")
            i += 2
        elif nxt.lower() == "d" and data[i + 2 : i + 5].isdigit():
            out.append(chr(int(data[i + 2 : i + 5]) % 256))
            i += 5
        elif nxt == escape:
            out.append(escape)
            i += 2
        elif "@" <= nxt.upper() <= "_":
            out.append(chr(ord(nxt.upper()) - 64))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out), gs1


def _datamatrix(job: _Job, data: str) -> SymbolGeometry:
    """^BX - Data Matrix ECC 200: h is the module size; columns/rows pick a size."""
    if job.opt("quality", "200") != "200":
        job.warnings.append("^BX: only ECC 200 is supported; quality 200 used")
    text, gs1 = _dm_unescape(data, job.opt("escape", "~") or "~")
    size = (int(job.opt("rows", "0")), int(job.opt("columns", "0")))
    rectangular = job.opt("aspect", "1") == "2"
    if gs1:
        payload, mode = _gs1_brackets(text.lstrip("\x1d")), _GS1_MODE | zint.InputMode.FAST
    else:
        payload, mode = text, zint.InputMode.FAST
    # Without c and r the size is the smallest that holds the data as zint's FAST
    # (ISO/IEC 16022 look-ahead) encodation packs it, as Labelary's are: 18x18 for
    # "DataMatrixTest" (zplab barcode_datamatrix_*), 20x20 for purolator's 32 mixed
    # characters, 18x18 for dhlecommercetr's 19 capitals, 36x36 for glsdk_return.
    asked = _DM_SIZES.index(size) + 1 if size in _DM_SIZES else None
    shape = None if rectangular else 100
    try:
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), option_2=asked, mode=mode,
                         option_3=None if asked else shape)
    except SymbolError:
        if asked is None:
            raise
        job.warnings.append("^BX: data does not fit the requested size; size chosen")
        symbol = _encode(job, Z.DATAMATRIX, _bytes(payload), mode=mode, option_3=shape)
    module = int(job.opt("module", "0"))
    if module <= 0:  # h omitted: ^BY height is the approximate symbol height
        module = max(1, job.spec.height // max(1, symbol.rows))
    return _matrix_geometry(job, _dm_labelary_bits(symbol), job.px(module))
