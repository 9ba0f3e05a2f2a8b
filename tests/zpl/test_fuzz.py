"""Property-based fuzzing: any input gives a PNG or a ZplError, within the time budget."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelrender.zpl import Limits, RenderOptions, ZplError, render

COMMANDS = [
    "XA", "XZ", "FO", "FT", "FD", "FS", "A0", "AA", "AD", "A@", "GB", "GC", "GE", "GD", "GF",
    "FB", "TB", "FH", "FR", "FW", "CF", "BY", "BC", "B3", "BQ", "BX", "B7", "BD", "BE", "BU",
    "B2", "BR", "BO", "LH", "LT", "LS", "PW", "LL", "PO", "PM", "LR", "CI", "FN", "DF", "XF",
    "SN", "FP", "XG", "IM", "IL", "CC", "CD", "CT", "FX", "QQ",
]
PARAM = st.one_of(
    st.integers(min_value=-5, max_value=40000).map(str),
    st.sampled_from(["N", "R", "I", "B", "Y", "A", "M", "QA", ":Z64:", "", "R:X.GRF", "_1E"]),
    st.text(alphabet="0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ,:!_ >;", max_size=24),
)
COMMAND = st.tuples(st.sampled_from(["^", "~"]), st.sampled_from(COMMANDS),
                    st.lists(PARAM, max_size=6)).map(
    lambda t: t[0] + t[1] + ",".join(t[2]))
ZPL = st.one_of(
    st.lists(COMMAND, max_size=25).map(lambda cs: "^XA" + "".join(cs) + "^XZ"),
    st.binary(max_size=300),
)
LIMITS = Limits(time_budget_s=2.0)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(zpl=ZPL, dpi=st.sampled_from([150, 203, 300]))
def test_render_returns_png_or_zpl_error(zpl: str | bytes, dpi: int) -> None:
    start = time.monotonic()
    try:
        result = render(zpl, RenderOptions(dpi=dpi, width_dots=300, height_dots=300,
                                           limits=LIMITS))
    except ZplError:
        pass
    else:
        assert result.png.startswith(b"\x89PNG")
    assert time.monotonic() - start < LIMITS.time_budget_s + 3


# -- mutated corpus labels ----------------------------------------------------------

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("labelary/*/*.zpl")) + sorted(CORPUS.glob("zebrash/*.zpl"))
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
HUGE = [b"0", b"-1", b"-32000", b"32000", b"65535", b"2147483648", b"9999999999994", b"1e9",
        b"3.5", b"", b"9" * 40]
STRETCH = re.compile(rb"\^(?:TB|FB|A[0-9A-Z@]|GB|GF|GC|GE|GD|BQ|B[0-9A-Z]|BY|CF)")


def _replace_number(data: bytes, where: float, value: bytes) -> bytes:
    spans = [m.span() for m in NUMBER.finditer(data)]
    if not spans:
        return data
    start, end = spans[int(where * len(spans))]
    return data[:start] + value + data[end:]


def _duplicate(data: bytes, where: float, times: int) -> bytes:
    commands = [m.span() for m in re.finditer(rb"[\^~][^\^~]+", data)]
    if not commands:
        return data
    start, end = commands[int(where * len(commands))]
    return data[:end] + data[start:end] * times + data[end:]


def _stretch(data: bytes, where: float, params: bytes) -> bytes:
    found = list(STRETCH.finditer(data))
    if not found:
        return data
    match = found[int(where * len(found))]
    rest = data[match.end():]
    stops = [i for i in (rest.find(b"^"), rest.find(b"~")) if i >= 0]
    return data[:match.end()] + params + rest[min(stops, default=len(rest)):]


FRACTION = st.floats(min_value=0, max_value=0.999)
MUTATION = st.one_of(
    st.tuples(FRACTION, st.sampled_from(HUGE)).map(lambda t: lambda d: _replace_number(d, *t)),
    st.tuples(FRACTION, st.sampled_from([2, 10, 200])).map(lambda t: lambda d: _duplicate(d, *t)),
    st.tuples(FRACTION, st.lists(st.sampled_from(HUGE + [b"N", b"R", b"Y"]), min_size=1,
                                 max_size=6).map(b",".join)).map(
        lambda t: lambda d: _stretch(d, *t)),
    FRACTION.map(lambda f: lambda d: d[: int(f * len(d))]),
    st.tuples(FRACTION, st.binary(min_size=1, max_size=3)).map(
        lambda t: lambda d: d[: int(t[0] * len(d))] + t[1] + d[int(t[0] * len(d)) + 1:]),
)


@pytest.mark.skipif(not CORPUS_FILES, reason="the shared corpus is not beside the checkout")
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(label=st.sampled_from(range(max(1, len(CORPUS_FILES)))),
       mutations=st.lists(MUTATION, min_size=1, max_size=4),
       dpi=st.sampled_from([100, 152, 203, 300, 600, 1200]),
       source_dpi=st.sampled_from([None, 152, 203, 300, 600]))
def test_mutated_corpus_label_gives_png_or_zpl_error(
        label: int, mutations: list[Callable[[bytes], bytes]], dpi: int,
        source_dpi: int | None) -> None:
    data = CORPUS_FILES[label].read_bytes()
    for mutate in mutations:
        data = mutate(data)
    try:
        result = render(data, RenderOptions(dpi=dpi, source_dpi=source_dpi, limits=LIMITS))
    except ZplError:
        return  # LimitExceeded included: a refusal is an answer, not a crash
    assert result.png.startswith(b"\x89PNG")
