"""Property-based fuzzing: any input gives a PNG or a ZplError, within the time budget."""

from __future__ import annotations

import time

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
