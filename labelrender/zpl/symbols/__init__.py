"""Barcode symbols: a BarcodeSpec plus field data -> geometry in target pixels.

libzint (zint-bindings) does the symbol encoding; this package turns its module
matrix into bars and text at the size ZPL asks for. It measures nothing about
fonts and paints nothing: layout rotates and places the geometry, raster paints it.

Every size is rounded to whole target pixels before bars are laid out, so that a
module is the same number of pixels everywhere in a symbol and scanners decode it
at any resolution. Quiet zones are not drawn: a Zebra printer does not draw them.

The package: ``common`` holds the geometry types, the build job and the zint helpers;
``linear``, ``retail`` (EAN/UPC and postal), ``qr``, ``datamatrix``, ``aztec``,
``maxicode`` and ``stacked`` build one family of symbols each; this module
dispatches a barcode command to its builder.
"""

from __future__ import annotations

from collections.abc import Callable

from ..elements import BarcodeSpec
from .aztec import _aztec
from .common import SymbolError, SymbolGeometry, SymbolText, _Job
from .datamatrix import _datamatrix
from .datamatrix import _dm_check_words as _dm_check_words
from .linear import (
    _codabar,
    _code11,
    _code39,
    _code93,
    _code128,
    _industrial,
    _interleaved,
    _logmars,
    _msi,
    _plessey,
    _standard25,
)
from .maxicode import _maxicode
from .qr import _qr
from .retail import _ean8, _ean13, _planet, _postnet, _upc_extension, _upca, _upce
from .stacked import _codablock, _code49, _databar, _micropdf417, _pdf417, _tlc39

__all__ = ["MAX_DATA", "SymbolError", "SymbolGeometry", "SymbolText", "build_symbol"]


# ^FD holds 3072 bytes on a printer; more than this is refused before zint sees it.
MAX_DATA = 4096


def build_symbol(spec: BarcodeSpec, data: str, scale: float) -> tuple[SymbolGeometry, list[str]]:
    """The geometry of one barcode field and warnings (check digit added, data trimmed...)."""
    if len(data) > MAX_DATA:
        raise SymbolError(f"barcode data is {len(data)} characters, over the {MAX_DATA} cap")
    builder = _BUILDERS.get(spec.command)
    if builder is None:
        raise SymbolError(f"^{spec.command} is not a supported barcode")
    job = _Job(spec, scale, [])
    return builder(job, data), job.warnings


_BUILDERS: dict[str, Callable[[_Job, str], SymbolGeometry]] = {
    "BC": _code128, "B3": _code39, "BL": _logmars, "BA": _code93, "B2": _interleaved,
    "BI": _industrial, "BJ": _standard25, "BK": _codabar, "B1": _code11, "BM": _msi,
    "BP": _plessey, "BE": _ean13, "B8": _ean8, "BU": _upca, "B9": _upce, "BS": _upc_extension,
    "BZ": _postnet, "B5": _planet, "BQ": _qr, "BX": _datamatrix, "B7": _pdf417,
    "BF": _micropdf417, "BO": _aztec, "B0": _aztec, "BD": _maxicode, "BR": _databar,
    "B4": _code49, "BB": _codablock, "BT": _tlc39,
}
