"""QR Code (^BQ), with Labelary's reading of the field data and its choice of mask."""

from __future__ import annotations

import numpy as np
import zint

from .common import SymbolError, SymbolGeometry, Z, _encode, _Job, _matrix, _matrix_geometry

_QR_LEVELS = {"L": 1, "M": 2, "Q": 3, "H": 4}


def _qr_payload(job: _Job, data: str) -> tuple[str, str]:
    """^BQ field data '<ecc><input mode>,<data>', read the way Labelary reads it.

    The first character is the error correction level (^BQ d when it is not one of
    H, Q, M, L) and the second the input mode; a third character - the comma - is
    skipped only after a letter. So "EXAMPLE CODE" encodes "MPLE CODE"
    (labelize-units/qr_code_offset). In manual mode (M) a character mode follows:
    B and a four-digit count, or N/A/K, whose data loses its '|' separators
    ("MM,A3SPOST...|2514EE|..." encodes "3SPOST...2514EE...": labelize-units/
    postnl_qr, carriers auspost, royalmail, inpost). The modes only say what the
    data is: the segments are chosen by the encoder either way.
    """
    ecc = job.opt("ecc", "Q")
    if data[:1].upper() in _QR_LEVELS:
        ecc = data[0].upper()
    mode = data[1:2]
    if data[2:3] != "," or data[:1].upper() not in _QR_LEVELS or mode.upper() not in "AM":
        job.warnings.append("^BQ data should start with '<ecc><mode>,'; its head is dropped")
    body = data[3:] if mode.isalpha() else data[2:]
    if mode.upper() == "M":
        kind = body[:1].upper()
        if kind == "B":
            body = body[5:]  # B + a four-digit byte count
        elif kind in ("N", "A", "K"):
            body = body[1:].replace("|", "")
    return ecc, body


def _qr_symbol(job: _Job, payload: bytes, level: int, version: int, mask: int) -> zint.Symbol:
    return _encode(_Job(job.spec, job.scale, []), Z.QRCODE, payload, option_1=level,
                   option_2=version, option_3=(mask + 1) << 8)


def _qr_format_cells(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the 2 x 15 format information modules (ISO/IEC 18004 7.9)."""
    cells = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
    cells += [(8, 5 - i) for i in range(6)] + [(8, size - 1 - i) for i in range(8)]
    cells += [(size - 7 + i, 8) for i in range(7)]
    rows, cols = zip(*cells, strict=True)
    return np.array(rows), np.array(cols)


def _qr_run_penalty(lines: np.ndarray) -> np.ndarray:
    """Rule 1 as Labelary scores it, for each of a stack of grids (masks x lines x width):
    a run past 5 modules costs 3 + (length - 5), where every run after a line's first
    is counted one module short."""
    grids, rows, width = lines.shape
    starts = np.ones((grids, rows, width), dtype=bool)  # every line starts a run
    starts[:, :, 1:] = lines[:, :, 1:] != lines[:, :, :-1]
    first = np.flatnonzero(starts)  # all lines at once: no run crosses a line's end
    lengths = np.diff(np.append(first, grids * rows * width))
    lengths[first % width != 0] -= 1
    long = lengths > 5
    return np.bincount(first[long] // (rows * width), weights=lengths[long] - 2,
                       minlength=grids)


_QR_FINDER = np.array([1, 0, 1, 1, 1, 0, 1], dtype=np.uint8)


def _qr_finder_penalty(lines: np.ndarray) -> np.ndarray:
    """Rule 3, for each of a stack of grids: 40 for each 1:1:3:1:1 run with 4 light
    modules (or the edge) on one side.

    Patterns that start in the last 7 modules of a line are not looked at."""
    n = lines.shape[2]
    if n < 8:
        return np.zeros(lines.shape[0])
    padded = np.pad(lines, ((0, 0), (0, 0), (4, 4)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, 15, axis=2)[:, :, : n - 7]
    found = (windows[..., 4:11] == _QR_FINDER).all(axis=3)
    clear = ~windows[..., :4].any(axis=3) | ~windows[..., 11:].any(axis=3)
    counts: np.ndarray = (found & clear).sum(axis=(1, 2))
    return 40 * counts


def _qr_penalties(masked: list[np.ndarray], version: int) -> list[int]:
    """The mask score Labelary's QR encoder minimises (lowest wins, ties to the lower
    mask), for the symbol under each mask in turn (all scored at once).

    It follows ISO/IEC 18004 7.8.3 rules 1-3 with an older encoder's quirks (the one
    zint once had): the format information is scored only for mask 0 - every other
    mask sees those modules light - the version information is always light, runs
    are counted as above and rule 4 adds the same to every mask. This picks
    Labelary's mask in 33 of the 37 corpus QR symbols whose codewords match ours
    (zplkit qr_equipment, qr_label, microqr, the shop_*, bin_* and shipping_*
    labels...); the ISO scoring zint uses picks 23.
    """
    grid = np.stack(masked).astype(np.uint8)
    size = grid.shape[1]
    rows, cols = _qr_format_cells(size)
    grid[1:, rows, cols] = 0
    if version >= 7:
        grid[:, size - 11 : size - 8, :6] = 0
        grid[:, :6, size - 11 : size - 8] = 0
    same = grid[:, :-1, :-1] == grid[:, 1:, :-1]
    same &= grid[:, :-1, :-1] == grid[:, :-1, 1:]
    same &= grid[:, :-1, :-1] == grid[:, 1:, 1:]
    turned = grid.transpose(0, 2, 1)
    scores = (_qr_run_penalty(grid) + _qr_run_penalty(turned) + 3 * same.sum(axis=(1, 2))
              + _qr_finder_penalty(grid) + _qr_finder_penalty(turned))
    return [int(score) for score in scores]


def _qr(job: _Job, data: str) -> SymbolGeometry:
    """^BQ - QR Code (model 2): magnification is the module size in dots.

    The level asked for picks the version; then, as in Labelary, the level is raised
    to the highest that still fits that version: "MA,HELLO WORLD" prints at Q
    (labelize-units/qr_ft_*), "MA,LOC-A-01" at H (zplkit warehouse_bin, bin_storage),
    inpost's "MM,..." at Q: every M request in the corpus whose data zint segments as
    Labelary does (royalmail's does not). ^BQ e (mask) is ignored: Labelary chooses
    the mask itself (see _qr_penalties).
    """
    ecc, body = _qr_payload(job, data)
    payload = body.encode("utf-8")
    first = _encode(job, Z.QRCODE, payload, option_1=_QR_LEVELS.get(ecc, 3))
    version = (first.width - 17) // 4
    level = _QR_LEVELS.get(ecc, 3)
    for higher in range(level + 1, 5):
        try:
            _qr_symbol(job, payload, higher, version, 0)
        except SymbolError:
            break
        level = higher
    symbols = [_qr_symbol(job, payload, level, version, mask) for mask in range(8)]
    scores = _qr_penalties([_matrix(symbol) for symbol in symbols], version)
    symbol = symbols[scores.index(min(scores))]
    module = job.px(int(job.opt("magnification", "2")))
    # A Zebra printer (and Labelary) sets a QR symbol below the field origin by the
    # ^BY bar code height (10 dots by default).
    top = job.px(job.spec.height)
    geometry = _matrix_geometry(job, symbol, module, y0=top)
    # With ^FT the symbol's bottom sits above the given y, by 4 * version - 1 modules:
    # 3 modules for version 1 (15 dots at magnification 5: labelize-units/qr_ft_test,
    # qr_ft_600, qr_ft_by100 - whatever ^BY h is), 7 for version 2 (70 dots at 10:
    # qr_code_ft_manual, where it lands on the label's rule at y=430).
    lift = (4 * version - 1) * module
    return SymbolGeometry(geometry.width, geometry.height, geometry.rects,
                          baseline=geometry.height + lift)
