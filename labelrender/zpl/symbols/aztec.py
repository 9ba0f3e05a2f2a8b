"""Aztec Code (^BO / ^B0), sized for an error correction percentage as Labelary does."""

from __future__ import annotations

import zint

from .common import (
    SymbolError,
    SymbolGeometry,
    Z,
    _bytes,
    _digits,
    _encode,
    _Job,
    _matrix,
    _matrix_geometry,
)


def _aztec_options(job: _Job) -> int | None:
    """^BO d: 101-104 compact, 201-232 full-range layers, as zint's option_2."""
    code = int(job.opt("size", "0"))
    if 101 <= code <= 104:
        return code - 100
    if 201 <= code <= 232:
        return code - 200 + 4
    return None


def _aztec_layers(option_2: int) -> tuple[bool, int]:
    """zint's option_2 -> (compact, layers)."""
    return (True, option_2) if option_2 <= 4 else (False, option_2 - 4)


def _aztec_codewords(compact: bool, layers: int) -> tuple[int, int]:
    """(codeword size in bits, codewords in the symbol) - ISO/IEC 24778 table 1."""
    word = 6 if layers <= 2 else 8 if layers <= 8 else 10 if layers <= 22 else 12
    return word, ((88 if compact else 112) + 16 * layers) * layers // word


def _aztec_data_words(symbol: zint.Symbol, compact: bool) -> int:
    """Data codewords in a symbol, read back from its mode message (ISO/IEC 24778 7.2)."""
    bits = _matrix(symbol)
    c = bits.shape[0] // 2
    if compact:  # 7 bits along the top of the core, then down its right side
        cells = [(c - 5, c - 3 + i) for i in range(7)] + [(c - 3 + i, c + 5) for i in range(7)]
        head = [int(bits[y, x]) for y, x in cells][:8]
        return int("".join(map(str, head[2:8])), 2) + 1
    steps = [i + i // 5 for i in range(10)]  # the full-range core skips its centre line
    cells = [(c - 7, c - 5 + d) for d in steps] + [(c - 5 + d, c + 7) for d in steps]
    head = [int(bits[y, x]) for y, x in cells][:16]
    return int("".join(map(str, head[5:16])), 2) + 1


def _aztec_for_ecc(job: _Job, payload: bytes, percent: int) -> zint.Symbol:
    """^BO d 1-99: the smallest symbol whose check words are at least d% of its codewords.

    Labelary treats d as ISO/IEC 24778's error correction percentage of the whole
    symbol: it takes the smallest size (compact 1-4, then full range) where the data
    codewords plus floor(total * d / 100) check words fit. That picks exactly the
    sizes of its references for "Part:123;..." (labelize-units/aztec_ec*): d=23 ->
    compact 3 layers (23 modules), 45 -> compact 4 (27), 70 -> full 5 (37), 95 ->
    full 15 (79, where 501 of 528 words are checks: 94.9 %, and 14 layers fall
    short), and zplkit/barcode_aztec's d=50 -> compact 2. zint's own four levels
    (10/23/36/50 % + 3 words) top out at half the symbol, so the size is chosen here
    and zint fills every codeword past the data with checks.
    """
    sizes = [*range(1, 5), *range(8, 37)]  # zint option_2: compact 1-4, full 4-32
    data_words: dict[int, int] = {}  # by codeword size: the data's length in words
    for option_2 in sizes:
        compact, layers = _aztec_layers(option_2)
        word, total = _aztec_codewords(compact, layers)
        known = data_words.get(word)
        if known is not None and known + total * percent // 100 > total:
            continue
        try:
            symbol = _encode(_Job(job.spec, job.scale, []), Z.AZTEC, payload, option_2=option_2)
        except SymbolError:
            continue
        words = _aztec_data_words(symbol, compact)
        data_words.setdefault(word, words)
        if words + total * percent // 100 <= total:
            return symbol
    job.warnings.append(f"^BO: no symbol has {percent}% error correction; largest used")
    return _encode(job, Z.AZTEC, payload)


def _aztec(job: _Job, data: str) -> SymbolGeometry:
    """^BO / ^B0 - Aztec: magnification is the module size; d sets ECC or layers."""
    module = job.px(int(job.opt("magnification", "2")))
    if job.opt("size") == "300":
        digits = _digits(data)[:3] or "0"
        return _matrix_geometry(job, _encode(job, Z.AZRUNE, digits), module)
    percent = int(job.opt("size", "0"))
    if 1 <= percent <= 99:
        return _matrix_geometry(job, _aztec_for_ecc(job, _bytes(data), percent), module)
    layers = _aztec_options(job)
    try:
        symbol = _encode(job, Z.AZTEC, _bytes(data), option_2=layers)
    except SymbolError:
        if layers is None:
            raise
        job.warnings.append("^BO: data does not fit the requested layers; size chosen")
        symbol = _encode(job, Z.AZTEC, _bytes(data))
    return _matrix_geometry(job, symbol, module)
