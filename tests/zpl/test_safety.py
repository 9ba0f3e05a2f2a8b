"""Safety caps: hostile input fails fast with a clear ZplError, memory stays bounded."""

from __future__ import annotations

import base64
import time
import zlib

import pytest

from labelrender.zpl import Limits, RenderOptions, ZplError, render


def z64_bomb(size: int) -> str:
    """A Z64 payload that inflates to ``size`` zero bytes, built without holding them."""
    packer = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    parts.append(packer.flush())
    return base64.b64encode(b"".join(parts)).decode()


@pytest.mark.parametrize(
    ("zpl", "options", "fragment"),
    [
        ("^XA^FO0,0^GB10,10,10^FS^XZ", {"width_dots": 20000, "height_dots": 100},
         "per-side cap"),
        ("^XA^FO0,0^GB10,10,10^FS^XZ", {"width_dots": 3000, "height_dots": 3000, "dpi": 600,
                                        "source_dpi": 203}, "megapixel cap"),
        ("^XA^FO0,0^GB99999,99999,99999^FS^XZ", {}, "megapixel cap"),
        ("^XA^FO0,0^GFA,999999999,999999999,9999,FF^FS^XZ", {}, "cap"),
        (f"^XA^FO0,0^GFA,1073741824,1073741824,1024,:Z64:{z64_bomb(1 << 30)}^FS^XZ", {},
         "cap"),
        ("^XA^FO0,0^A0N,20^FD" + "x" * 40000 + "^FS^XZ", {}, "byte cap"),
        ("^XA" + "^FO1,1^GB1,1,1^FS" * 20001 + "^XZ", {}, "elements"),
        ("^XA^FO0,0^A0N,27000^FDW^FS^XZ", {}, "px cap"),
        ("^XA^FO0,0^A0N,20,32000^FDW^FS^XZ", {}, "px cap"),
        ("^FX just a comment", {}, "no label format found"),
        ("", {}, "no label format found"),
    ],
)
def test_caps_raise_clear_errors(zpl: str, options: dict[str, int], fragment: str) -> None:
    start = time.monotonic()
    with pytest.raises(ZplError, match=fragment):
        render(zpl, RenderOptions(**options))  # type: ignore[arg-type]
    assert time.monotonic() - start < 5


def test_input_size_cap() -> None:
    limits = Limits(max_input_bytes=1000)
    with pytest.raises(ZplError, match="1000-byte cap"):
        render("^XA" + " " * 2000 + "^XZ", RenderOptions(limits=limits))


def test_time_budget() -> None:
    limits = Limits(time_budget_s=0.0)
    zpl = "^XA" + "^FO10,10^A0N,30^FDslow^FS" * 500 + "^XZ"
    with pytest.raises(ZplError, match="time budget"):
        render(zpl, RenderOptions(limits=limits))


def test_endless_field_block_is_bounded() -> None:
    zpl = "^XA^FO0,0^A0N,20^FB1,9999,0^FD" + "W" * 30000 + "^FS^XZ"
    start = time.monotonic()
    try:
        result = render(zpl)
        assert result.png
    except ZplError as exc:
        assert "budget" in str(exc) or "cap" in str(exc)
    assert time.monotonic() - start < 12


def test_stored_format_recursion_is_cut_off() -> None:
    zpl = "^XA^DFR:A.ZPL^FS^XFR:A.ZPL^FS^FO1,1^GB5,5,5^FS^XZ^XA^XFR:A.ZPL^FS^XZ"
    with pytest.raises(ZplError, match="deeper than"):
        render(zpl)


def test_bad_options_are_value_errors() -> None:
    for options in ({"dpi": 0}, {"dpi": 5000}, {"rotation": 45}, {"font_profile": "comic"},
                    {"index": -1}, {"width_dots": 0}):
        with pytest.raises(ValueError):
            render("^XA^XZ", RenderOptions(**options))  # type: ignore[arg-type]
