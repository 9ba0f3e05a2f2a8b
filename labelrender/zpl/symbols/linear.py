"""Linear symbols: Code 128, Code 39 and LOGMARS, Code 93, the 2 of 5 family, Codabar,
Code 11, MSI and Plessey."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import zint

from .common import (
    SymbolGeometry,
    Z,
    _digits,
    _encode,
    _interpretation,
    _Job,
    _matrix,
    _mod10,
    _runs,
)

# -- linear symbols -----------------------------------------------------------


@dataclass
class _Linear:
    """What a linear command asks zint for, and what its interpretation line says."""

    symbology: zint.Symbology
    payload: str
    text: str
    two_widths: bool = False  # Code 39 family: wide elements follow ^BY's ratio
    option_2: int | None = None
    mode: zint.InputMode | None = None


def _bar_runs(job: _Job, row: np.ndarray, two_widths: bool) -> tuple[list[tuple[int, int]], int]:
    """Bars as (x, width) pixels, and the symbol width, for one row of modules."""
    narrow = job.module
    runs = _runs(row)
    shortest = min(length for _, _, length in runs)
    wide = max(narrow + 1, round(job.spec.ratio * narrow))
    bars: list[tuple[int, int]] = []
    x = 0
    for value, _, length in runs:
        width = (wide if length > shortest else narrow) if two_widths else length * narrow
        if value:
            bars.append((x, width))
        x += width
    return bars, x


def _linear_geometry(job: _Job, linear: _Linear) -> SymbolGeometry:
    symbol = _encode(job, linear.symbology, linear.payload, option_2=linear.option_2,
                     mode=linear.mode)
    bars, width = _bar_runs(job, _matrix(symbol)[0], linear.two_widths)
    height = job.px(job.spec.height)
    rects = tuple((float(x), 0.0, float(w), float(height)) for x, w in bars)
    texts = _interpretation(job, linear.text, width, height)
    return SymbolGeometry(float(width), float(height), rects, texts=texts, baseline=float(height))


# ^BC field data: Zebra's invocation codes (">" + char). >9 >: >; start a subset; >5 >6 >7
# are the code values 99-101, whose meaning depends on the subset in use (ZPL II guide,
# table "Code 128 Invocation Characters"): CODE C from A or B, CODE B from A or C, CODE A
# from B or C; >6 in B and >7 in A are FNC4, which zint places itself.
_C128_STARTS = {"9": "A", ":": "B", ";": "C"}
_C128_SWITCHES = {"5": {"A": "C", "B": "C"}, "6": {"A": "B", "C": "B"},
                  "7": {"B": "A", "C": "A"}}
_C128_LITERALS = {"8": r"\^1", "<": ">", "0": ">", "=": "~"}


def _code128_subset_a(data: str, i: int) -> tuple[str, str, int]:
    """One subset A character from digit pairs at ``data[i]``: (payload, text, next i).

    The ZPL II guide: "Subsets A and C are programmed in pairs of digits, 00 to 99 ... In
    Subset A, each pair of digits results in a single character being encoded". A
    non-digit before a pair is ignored, one after a digit voids the pair, and a digit
    left unpaired before a code shift is dropped. Labelary does the same: ">7" then
    "52375152" prints TEST (labelize-units/barcode128_mode_n_cba_sets).
    """
    if not data[i].isdigit():
        return "", "", i + 1
    second = data[i + 1 : i + 2]
    if not second.isdigit():
        return "", "", i + 1 if second in ("", ">") else i + 2
    value = int(data[i : i + 2])
    if value < 64:
        char = chr(value + 32)
        return ("\\\\" if char == "\\" else char), char, i + 2
    if value < 96:  # NUL..US
        return ("\\0" if value == 64 else chr(value - 64)), "", i + 2
    return "", "", i + 2  # FNC3, FNC2, SHIFT, CODE C: not data


def _code128_normal(data: str) -> tuple[str, str]:
    """Mode N: invocation codes become subset switches; the default start is subset B."""
    payload, text, i = [r"\^B"], [], 0
    subset = "B"
    while i < len(data):
        ch, nxt = data[i], data[i + 1 : i + 2]
        if ch == ">" and nxt in _C128_STARTS:
            subset = _C128_STARTS[nxt]
            if i == 0:
                payload = []
            payload.append("\\^" + subset)
            i += 2
        elif ch == ">" and nxt in _C128_SWITCHES:
            target = _C128_SWITCHES[nxt].get(subset)
            if target is not None:
                subset = target
                payload.append("\\^" + subset)
            i += 2
        elif ch == ">" and nxt in _C128_LITERALS:
            literal = _C128_LITERALS[nxt]
            payload.append(literal)
            text.append(literal if literal in "<>~" else "")
            i += 2
        elif subset == "A":
            code, shown, i = _code128_subset_a(data, i)
            payload.append(code)
            text.append(shown)
        else:
            payload.append("\\\\" if ch == "\\" else ch)
            text.append(ch)
            i += 1
    return "".join(payload), "".join(text)


def _code128(job: _Job, data: str) -> SymbolGeometry:
    """^BC - Code 128: modes N (invocation codes), U (UCC case), A (automatic), D (UCC/EAN)."""
    mode = job.opt("mode", "N")
    extra = zint.InputMode.EXTRA_ESCAPE
    if mode == "U":
        digits = _digits(data)[:19].rjust(19, "0")
        digits += _mod10(digits)
        linear = _Linear(Z.CODE128, r"\^C\^1" + digits, digits, mode=extra)
    elif mode == "D":
        plain = data.replace(">8", "\x1d").replace("(", "").replace(")", "").replace(" ", "")
        body = plain.replace("\\", "\\\\").replace("\x1d", r"\^1")
        linear = _Linear(Z.CODE128, r"\^1" + body, data.replace(">8", ""), mode=extra)
    elif mode == "A":
        body = data.replace("\\", "\\\\").replace(">8", r"\^1")
        linear = _Linear(Z.CODE128, body, data.replace(">8", ""), mode=zint.InputMode.ESCAPE)
    else:
        payload, text = _code128_normal(data)
        linear = _Linear(Z.CODE128, payload, text, mode=extra)
    # ^BC e (UCC check digit) changes nothing in modes N and A: Labelary draws the same bars.
    return _linear_geometry(job, linear)


def _code39(job: _Job, data: str) -> SymbolGeometry:
    """^B3 - Code 39: optional mod-43 check; the line shows the * start/stop."""
    text = data.upper()
    check = 1 if job.flag("check") else 0
    return _linear_geometry(job, _Linear(Z.CODE39, text, f"*{text}*", True, option_2=check))


def _logmars(job: _Job, data: str) -> SymbolGeometry:
    """^BL - LOGMARS: Code 39 with a mandatory mod-43 check digit, shown in the line."""
    text = data.upper()
    shown = text + _mod43(text)
    return _linear_geometry(job, _Linear(Z.LOGMARS, text, shown, True, option_2=1))


_CODE39_SET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"


def _mod43(text: str) -> str:
    """Code 39 mod-43 check character (ISO/IEC 16388 annex A)."""
    total = sum(_CODE39_SET.index(ch) for ch in text if ch in _CODE39_SET)
    return _CODE39_SET[total % 43]


def _code93(job: _Job, data: str) -> SymbolGeometry:
    """^BA - Code 93: two check characters always; the line shows them only with e=Y."""
    return _linear_geometry(job, _Linear(Z.CODE93, data, data))


def _interleaved(job: _Job, data: str) -> SymbolGeometry:
    """^B2 - Interleaved 2 of 5: optional mod-10 check; an odd count gets a leading zero."""
    digits = _digits(data)
    if job.flag("check"):
        digits += _mod10(digits)
    if len(digits) % 2:
        digits = "0" + digits
    return _linear_geometry(job, _Linear(Z.C25INTER, digits, digits, True))


def _industrial(job: _Job, data: str) -> SymbolGeometry:
    """^BI - Industrial 2 of 5."""
    return _linear_geometry(job, _Linear(Z.C25IND, data, data, True))


def _standard25(job: _Job, data: str) -> SymbolGeometry:
    """^BJ - Standard 2 of 5: Labelary's bars match the IATA start/stop patterns."""
    return _linear_geometry(job, _Linear(Z.C25IATA, data, data, True))


def _codabar(job: _Job, data: str) -> SymbolGeometry:
    """^BK - ANSI Codabar: start and stop characters come from the command."""
    body = data.upper()
    if body[:1] not in ("A", "B", "C", "D"):
        body = job.opt("start", "A") + body
    if body[-1:] not in ("A", "B", "C", "D"):
        body += job.opt("stop", "A")
    check = 1 if job.flag("check") else None
    return _linear_geometry(job, _Linear(Z.CODABAR, body, body, True, option_2=check))


def _code11(job: _Job, data: str) -> SymbolGeometry:
    """^B1 - Code 11: e=Y one check digit, e=N two."""
    option = 1 if job.flag("check") else 0
    return _linear_geometry(job, _Linear(Z.CODE11, data, data, True, option_2=option))


_MSI_CHECKS = {"A": 0, "B": 1, "C": 2, "D": 4}


def _msi(job: _Job, data: str) -> SymbolGeometry:
    """^BM - MSI: check digits A none, B mod 10, C two mod 10, D mod 11 and mod 10."""
    option = _MSI_CHECKS.get(job.opt("check", "B"), 1)
    return _linear_geometry(job, _Linear(Z.MSI_PLESSEY, data[:14], data[:14], True,
                                         option_2=option))


def _plessey(job: _Job, data: str) -> SymbolGeometry:
    """^BP - Plessey: zint adds the CRC check characters."""
    return _linear_geometry(job, _Linear(Z.PLESSEY, data, data, True))
