"""Safety caps: hostile input fails fast with a LimitExceeded naming the cap, the command
and its byte offset; input that is only large is clipped to the label, not refused."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from labelrender.zpl import LimitExceeded, Limits, RenderOptions, ZplError, render
from labelrender.zpl.budget import Budget
from labelrender.zpl.elements import FontSpec, Origin, TextField
from labelrender.zpl.fonts import scalable
from labelrender.zpl.layout import GlyphRun, LayoutContext, layout
from labelrender.zpl.raster import paint
from labelrender.zpl.text import wrap

FONT_DIR = Path(__file__).resolve().parents[2] / "labelrender" / "zpl" / "fonts"


def z64_bomb(size: int) -> str:
    """A Z64 payload that inflates to ``size`` zero bytes, built without holding them."""
    packer = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    parts.append(packer.flush())
    return base64.b64encode(b"".join(parts)).decode()


def hex_font() -> str:
    return FONT_DIR.joinpath("DejaVuSansMono.ttf").read_bytes().hex().upper()


SMALL_WORK = Limits(max_work_megapixels=1)
FONT_FILE = f"~DUE:MONO.TTF,{len(hex_font()) // 2},{hex_font()}"


def at(zpl: str, command: str, nth: int = 1) -> int:
    """The byte offset of the ``nth`` occurrence of ``command`` in ``zpl``."""
    offset = -1
    for _ in range(nth):
        offset = zpl.index(command, offset + 1)
    return offset


def case(name: str, zpl: str, options: dict[str, int], limits: Limits | None, limit: str,
         command: str | None, nth: int = 1) -> object:
    offset = None if command is None else at(zpl, command, nth)
    return pytest.param(zpl, options, limits, limit, command, offset, id=name)


# What each cap refuses: the limit, the command named and (the nth occurrence of) its offset.
CAPS = [
    # Text boxes larger than the largest label (16 in a side) describe no label.
    case("^TB 32000 square", "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ", {}, None, "text_block",
         "^TB"),
    case("^TB past 2**31 at 1200 from 300", "^XA^FO0,0^TBN,2147483648,9999999999994^FDx^FS^XZ",
         {"dpi": 1200, "source_dpi": 300}, None, "text_block", "^TB"),
    case("eight ^TB fields", "^XA" + ("^FO0,0^TBN,32000,32000^A0N,20^FD" + "w " * 16000
                                      + "^FS") * 8 + "^XZ", {}, None, "text_block", "^TB"),
    case("^TB tall only", "^XA^FO0,0^TBN,100,3300^FDx^FS^XZ", {}, None, "text_block", "^TB"),
    case("^FB wider than a label", "^XA^FO0,0^FB4000,3^FDx^FS^XZ", {}, None, "text_block",
         "^FB"),
    # The font reproducer: ^A1 (not resident: font A) 65535 wide, at 300 from 203.
    case("issue font", "^XA^FO10,10^A1N,0,65535^FDx^FS^XZ", {"dpi": 300, "source_dpi": 203},
         None, "font_size", "^A"),
    case("font 0 tall", "^XA^FO0,0^A0N,27000^FDW^FS^XZ", {}, None, "font_size", "^A"),
    case("font 0 wide", "^XA^FO0,0^A0N,20,32000^FDW^FS^XZ", {}, None, "font_size", "^A"),
    case("bitmap G tall", "^XA^FO0,0^AGN,4000,10^FDW^FS^XZ", {}, None, "font_size", "^A"),
    case("bitmap D wide", "^XA^FO0,0^ADN,10,32000^FDW^FS^XZ", {}, None, "font_size", "^A"),
    case("^A@ unknown file", "^XA^FO0,0^A@N,5000,5000,E:NOPE.TTF^FDW^FS^XZ", {}, None,
         "font_size", "^A@"),
    case("^A@ downloaded font", FONT_FILE + "^XA^FO0,0^A@N,5000,50,E:MONO.TTF^FDW^FS^XZ", {},
         None, "font_size", "^A@"),
    case("^CW alias", FONT_FILE + "^XA^CWZ,E:MONO.TTF^FO0,0^AZN,9000^FDW^FS^XZ", {}, None,
         "font_size", "^A"),
    case("^CF default", "^XA^CFG,4000^FO0,0^FDW^FS^XZ", {}, None, "font_size", "^CF"),
    case("^GS marks", "^XA^FO0,0^GSN,5000,5000^FDA^FS^XZ", {}, None, "font_size", "^GS"),
    # Bar code interpretation line: font A magnified by ^BY, at 1200 dpi from 20.
    case("interpretation line", "^XA^BY10^FO0,0^BCN,10,Y^FD1^FS^XZ",
         {"dpi": 1200, "source_dpi": 20, "width_dots": 10, "height_dots": 10}, None,
         "font_size", "^BC"),
    # Work: every field's estimate counts, and the field that crosses the cap is named.
    case("work ^TB", "^XA^FO0,0^TBN,800,1200^A0N,100^FD" + "W " * 300 + "^FS^XZ", {},
         SMALL_WORK, "work", "^TB"),
    case("work ^FB", "^XA^FO0,0^A0N,50^FB800,30^FD" + "W " * 300 + "^FS^XZ", {}, SMALL_WORK,
         "work", "^FB"),
    case("work ^FD", "^XA^FO0,0^A0N,50^FD" + "W" * 2000 + "^FS^XZ", {}, SMALL_WORK, "work",
         "^FD"),
    case("work QR codes", "^XA" + "^FO0,0^BQN,2,4^FDQA,hello^FS" * 600 + "^XZ", {}, None,
         "work", "^BQ", 362),
    case("work reversed boxes", "^XA^LRY" + "^FO0,0^GB8000,8000,8000^FS" * 2000 + "^XZ",
         {"dpi": 600, "width_dots": 8000, "height_dots": 8000}, None, "work", "^GB", 16),
    case("work huge ellipses", "^XA" + "^FO0,0^GE4095,4095,30^FS" * 50 + "^XZ",
         {"dpi": 1200, "source_dpi": 1, "width_dots": 6, "height_dots": 6}, None, "work", "^GE",
         2),
    case("work bitmap", "^XA^FO0,0^GFA,16,16,2,FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF^FS^XZ",
         {"dpi": 1200, "source_dpi": 1, "width_dots": 2, "height_dots": 2},
         Limits(max_work_megapixels=0.001), "work", "^GF"),
    # Big glyphs cost their whole mask (the fuzz's slowest cases, about 1 s each before):
    # ^GS marks 3,840 px high at 72 dpi from 600, and font 0 at 3,700-3,800 px.
    case("work big ^GS marks", "^XA" + "^FO0,0^GSN,32000,32000^FDABCDE^FS" * 20 + "^XZ",
         {"dpi": 72, "source_dpi": 600, "width_dots": 2400, "height_dots": 1800}, None,
         "work", "^FD", 18),
    case("work big glyphs",
         "^XA" + "".join(f"^FO0,{i * 10}^A0N,{1200 + i}^FDW^FS" for i in range(60)) + "^XZ",
         {"dpi": 600, "source_dpi": 203, "width_dots": 1600, "height_dots": 1600}, None,
         "work", "^FD", 21),
    # Caps that hold before layout.
    case("canvas side", "^XA^FO0,0^GB10,10,10^FS^XZ", {"width_dots": 20000, "height_dots": 100},
         None, "canvas", None),
    case("canvas area", "^XA^FO0,0^GB10,10,10^FS^XZ",
         {"width_dots": 3000, "height_dots": 3000, "dpi": 600, "source_dpi": 203}, None,
         "canvas", None),
    case("^GB area", "^XA^FO0,0^GB99999,99999,99999^FS^XZ", {}, None, "graphic_area", "^GB"),
    case("^GD area", "^XA^FO0,0^GD32000,32000,300^FS^XZ", {}, None, "graphic_area", "^GD"),
    case("^GF declared", "^XA^FO0,0^GFA,999999999,999999999,9999,FF^FS^XZ", {}, None,
         "graphic_bytes", "^GF"),
    case("^GF Z64 bomb",
         f"^XA^FO0,0^GFA,1073741824,1073741824,1024,:Z64:{z64_bomb(1 << 30)}^FS^XZ", {}, None,
         "graphic_bytes", "^GF"),
    case("field bytes", "^XA^FO0,0^A0N,20^FD" + "x" * 40000 + "^FS^XZ", {}, None,
         "field_bytes", "^FD"),
    case("bar code bytes", "^XA^FO0,0^BQN,2,4^FD" + "1" * 9000 + "^FS^XZ", {}, None,
         "barcode_bytes", "^BQ"),
    case("elements", "^XA" + "^FO1,1^GB1,1,1^FS" * 20001 + "^XZ", {}, None, "elements", "^GB",
         20001),
    case("commands", "^XA" + "^LH1,1" * 100_001 + "^XZ", {}, None, "commands", "^LH", 100_000),
    # 40,016 commands in the stream, 40,000 replayed by the first ^XF: the second replay
    # crosses 100,000 at its 19,985th.
    case("commands replayed", "^XA^DFR:A.ZPL^FS" + "^FX" * 40000 + "^XZ"
         + "^XA^XFR:A.ZPL^FS^XZ" * 3, {}, None, "commands", "^FX", 19_985),
    case("stored bytes", "~DGR:A.GRF,100000,100," + "00" * 100000 + "~DGR:B.GRF,100000,100,"
         + "00" * 100000, {}, Limits(max_stored_bytes=150_000), "stored_bytes", "~DG", 2),
    case("recall depth", "^XA^DFR:A.ZPL^FS^XFR:A.ZPL^FS^FO1,1^GB5,5,5^FS^XZ^XA^XFR:A.ZPL^FS^XZ",
         {}, None, "recall_depth", "^XF"),
    case("input bytes", "^XA" + " " * 2000 + "^XZ", {}, Limits(max_input_bytes=1000),
         "input_bytes", None),
    case("time", "^XA" + "^FO10,10^A0N,30^FDslow^FS" * 500 + "^XZ", {},
         Limits(time_budget_s=0.0), "time", "^XA"),
]


@pytest.mark.parametrize(("zpl", "options", "limits", "limit", "command", "offset"), CAPS)
def test_caps_raise_limit_exceeded(zpl: str, options: dict[str, int], limits: Limits | None,
                                   limit: str, command: str | None, offset: int | None) -> None:
    opts = RenderOptions(**options, limits=limits or Limits())  # type: ignore[arg-type]
    with pytest.raises(LimitExceeded) as caught:
        render(zpl, opts)
    assert (caught.value.limit, caught.value.command, caught.value.offset) == (
        limit, command, offset)
    with pytest.raises(LimitExceeded) as again:  # deterministic: final, never worth a retry
        render(zpl, opts)
    assert str(again.value) == str(caught.value)


@pytest.mark.parametrize(
    ("zpl", "fragment"),
    [
        ("^FX just a comment", "no label format found"),
        ("", "no label format found"),
        ("^XA^FO1,1^GB5,5,5^FS^XZ", "label index 3 is out of range"),
    ],
)
def test_unrenderable_input_is_a_plain_zpl_error(zpl: str, fragment: str) -> None:
    index = 3 if "GB" in zpl else 0
    with pytest.raises(ZplError, match=fragment) as caught:
        render(zpl, RenderOptions(index=index))
    assert not isinstance(caught.value, LimitExceeded)


# Labels that are only large: a box bigger than the label (up to the largest label
# side, 16 in) prints what falls on it. Each renders in a child process whose
# address space is capped at 640 MB (the engine imported takes about 170 MB of
# it); before the canvas bound, boxes like the first needed 1 GB and the second
# 15.7 GB.
BOUNDED = [
    ("^XA^FO0,0^TBN,3248,3248^FDx^FS^XZ", {"dpi": 203}),
    ("^XA^FO0,0^TBN,4800,4800^FDx^FS^XZ", {"dpi": 1200, "source_dpi": 300}),
    ("^XA" + ("^FO0,0^TBN,3248,3248^A0N,20^FD" + "w " * 16000 + "^FS") * 8 + "^XZ",
     {"dpi": 203}),
    ("^XA^FO0,0^A0N,20^FB1,9999,0^FD" + "W" * 30000 + "^FS^XZ", {"dpi": 203}),
    ("^XA^FO0,0^GB8000,8000,100,B,8^FR^FS^FO5,5^GE4095,4095,3^FS^XZ",
     {"dpi": 600, "source_dpi": 203}),
    ("^XA^FO0,0^GB8000,8000,10^FR^FS^XZ", {"dpi": 1200, "source_dpi": 203}),
    ("^XA^BY10,3,32000^FO0,0^BCN,32000,N^FR^FD12345^FS^XZ", {"dpi": 600, "source_dpi": 203}),
    ("^XA^FO-50,0^GFA,8,8,1,FFFFFFFFFFFFFFFF^FS^FO0,0^XGR:X.GRF,10,10^FS^XZ",
     {"dpi": 1200, "source_dpi": 100}),
    ("^XA^FO0,0^AGN,1000^FDWWWWWWWW^FS^XZ", {"dpi": 600, "source_dpi": 203}),
]

_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (640 << 20, 640 << 20))
from labelrender.zpl import RenderOptions, ZplError, render
for zpl, options in json.load(sys.stdin):
    try:
        result = render(zpl, RenderOptions(**options))
        print("rendered", result.width, result.height, flush=True)
    except ZplError as exc:
        print("refused", exc, flush=True)
    except MemoryError:
        print("out of memory", flush=True)
"""


def test_large_labels_render_within_bounded_memory() -> None:
    child = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(BOUNDED),
                           capture_output=True, text=True, check=True, timeout=300)
    lines = child.stdout.splitlines()
    assert len(lines) == len(BOUNDED), child.stderr
    assert all(line.startswith("rendered") for line in lines), lines


def test_a_text_block_over_the_label_prints_what_falls_on_it() -> None:
    inside = render("^XA^FO20,20^TBN,780,1190^A0N,40^FDHello^FS^XZ")
    huge = render("^XA^FO20,20^TBN,3248,3248^A0N,40^FDHello^FS^XZ")
    assert huge.png == inside.png


# -- the time budget holds in every stage, not only while commands play -------------

PAST = Budget(width=400, height=300, deadline=0.0)


def _field(**changes: object) -> TextField:
    font = FontSpec("0", 30, 30, offset=9)
    return TextField(Origin(10, 10), "time", font, "N", offset=20, **changes)  # type: ignore[arg-type]


def test_layout_checks_the_deadline_per_element() -> None:
    ctx = LayoutContext(scale=1.0, font0="IBMPlexSansCondensed-Bold.ttf", budget=PAST)
    with pytest.raises(LimitExceeded) as caught:
        layout([_field()], ctx)
    assert (caught.value.limit, caught.value.command, caught.value.offset) == ("time", "^FD", 20)


def test_wrapping_checks_the_deadline_while_it_runs() -> None:
    font = scalable(20, 20, "IBMPlexSansCondensed-Bold.ttf")
    with pytest.raises(LimitExceeded, match="time budget"):
        wrap("W" * 1000, font, 1.0, 0.0, tick=PAST.tick)
    assert len(wrap("W" * 1000, font, 1.0, 0.0)) == 1000


def test_raster_checks_the_deadline_per_primitive_and_glyph() -> None:
    font = scalable(20, 20, "IBMPlexSansCondensed-Bold.ttf")
    run = GlyphRun(font, tuple(("W", 10.0 + i, 30.0) for i in range(200)), "N", "ink")
    with pytest.raises(LimitExceeded, match="time budget"):
        paint([run], 400, 300, PAST.tick)
    calls: list[int] = []
    paint([run], 400, 300, lambda: calls.append(1))
    assert len(calls) == 1 + 200 // 64  # once for the run, then every 64 glyphs


def test_limits_is_a_plain_frozen_value() -> None:
    limits = Limits(time_budget_s=2.5, max_work_megapixels=50)
    with pytest.raises(AttributeError):
        limits.time_budget_s = 1  # type: ignore[misc]
    assert RenderOptions(limits=limits).limits.time_budget_s == 2.5


def test_bad_options_are_value_errors() -> None:
    for options in ({"dpi": 0}, {"dpi": 5000}, {"rotation": 45}, {"font_profile": "comic"},
                    {"index": -1}, {"width_dots": 0}):
        with pytest.raises(ValueError):
            render("^XA^XZ", RenderOptions(**options))  # type: ignore[arg-type]



# -- crashes the engine fuzz (benchmarks/engine_fuzz.py) found, one row each ----------

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

# name, corpus file, byte patches (offset, byte), options
FUZZ_CRASHES = [
    # Base64 flips inside a ~DU font: FreeType fails on the damaged font with
    # "OSError: execution context too long" (seed 2, case 10438).
    ("damaged downloaded font", "zebrash/custom_ttf_by_alias.zpl",
     [(6658, b"1"), (8224, b"Y"), (27227, b"Y"), (46392, b"Z"), (62206, b"X"),
      (148757, b"Q"), (155950, b"G"), (157537, b"Z"), (160719, b"~"), (186583, b"9")],
     {"dpi": 1200, "source_dpi": 300, "width_dots": 400, "height_dots": 100}),
]


@pytest.mark.parametrize(("name", "source", "patches", "options"), FUZZ_CRASHES,
                         ids=[row[0] for row in FUZZ_CRASHES])
def test_fuzz_crash_renders_or_refuses(name: str, source: str, patches: list[tuple[int, bytes]],
                                       options: dict[str, int]) -> None:
    path = CORPUS / source
    if not path.exists():
        pytest.skip("the shared corpus is not beside the checkout")
    data = bytearray(path.read_bytes())
    for offset, byte in patches:
        data[offset:offset + 1] = byte
    try:
        result = render(bytes(data), RenderOptions(**options))  # type: ignore[arg-type]
    except ZplError:
        return
    assert result.png.startswith(b"\x89PNG")
