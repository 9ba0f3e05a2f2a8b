"""MaxiCode (^BD): hexagons and finder rings from zint's vector output."""

from __future__ import annotations

from .common import SymbolError, SymbolGeometry, Z, _bytes, _encode, _Job

# -- MaxiCode -----------------------------------------------------------------

# Labelary draws MaxiCode 200 dots wide at 8 dots/mm (30 columns of hexagons).
_MAXI_WIDTH = 200.0


def _maxicode_primary(job: _Job, data: str, mode: int) -> tuple[str, str]:
    """Modes 2/3: the high priority message is class, country and postcode, then the rest."""
    if mode not in (2, 3):
        return "", data
    length = 15 if mode == 2 else 12
    hpm, rest = data[:length], data[length:]
    if len(hpm) < length:
        raise SymbolError(f"^BD mode {mode} needs a {length}-character primary message")
    service, country, postcode = hpm[:3], hpm[3:6], hpm[6:]
    if mode == 2:
        postcode = postcode.rstrip()
    return postcode + country + service, rest


def _maxicode(job: _Job, data: str) -> SymbolGeometry:
    """^BD - MaxiCode modes 2-6; modes 2 and 3 carry a structured carrier message."""
    mode = int(job.opt("mode", "2"))
    primary, secondary = _maxicode_primary(job, data, mode)
    total = int(job.opt("total", "1"))
    structapp = (min(int(job.opt("number", "1")), total), total) if total > 1 else None
    symbol = _encode(job, Z.MAXICODE, _bytes(secondary) if secondary else b" ",
                     option_1=mode, primary=primary, structapp=structapp)
    symbol.buffer_vector()
    vector = symbol.vector
    unit = _MAXI_WIDTH * job.scale / vector.width
    pitch = unit * vector.width / symbol.width
    hexagons = tuple((h.x * unit, h.y * unit, pitch * 0.9) for h in vector.hexagons)
    rings = tuple(
        (c.x * unit, c.y * unit, (c.diameter + c.width) / 2 * unit,
         (c.diameter - c.width) / 2 * unit)
        for c in vector.circles
    )
    height = vector.height * unit
    return SymbolGeometry(vector.width * unit, height, (), hexagons, rings, baseline=height)
