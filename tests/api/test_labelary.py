"""A Labelary client, unchanged but for its base URL and an Authorization header,
gets the same kind of answer: the real app and render worker over HTTP."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pytest
from PIL import Image

from labelrender.api.labelary import label_pixels
from tests.api.conftest import Api, Caller, RenderConsumer

HELLO = "^XA^FO50,50^A0N,50,50^FDHello^FS^XZ"
THREE = "".join(f"^XA^FO50,50^A0N,50,50^FDLabel {n}^FS^XZ" for n in range(3))
TALL = "^XA^FO50,1500^A0N,50,50^FDBottom of a 4x8^FS^XZ"


async def post(api: Api, caller: Caller, path: str, body: str | bytes | dict[str, Any],
               **headers: str) -> tuple[int, dict[str, str], bytes]:
    sent = {**caller.headers, **headers}
    options: dict[str, Any] = {"json": body} if isinstance(body, dict) else {"data": body}
    if not isinstance(body, dict):
        sent.setdefault("Content-Type", "application/x-www-form-urlencoded")  # curl --data
    async with api.session.post(api.url(path), headers=sent, **options) as resp:
        return resp.status, dict(resp.headers), await resp.read()


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).size


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    assert data.startswith(b"%PDF-")
    with pikepdf.open(io.BytesIO(data)) as document:
        return [(round(float(p.mediabox[2]), 2), round(float(p.mediabox[3]), 2))
                for p in document.pages]


# (path, ZPL, headers, status, content type, PNG pixels or PDF pages, X-Total-Count)
# Pixels: floor(inches x floor(dpmm x 25.4)); the corpus's 4x8 in at 8 dpmm is 812 x
# 1624, its carriers' 4.005 x 8.01 in is 813 x 1626.
CALLS: list[tuple[str, str, dict[str, str], int, str, Any, str]] = [
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"Accept": "image/png"}, 200, "image/png",
     (812, 1218), "1"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {}, 200, "image/png", (812, 1218), "1"),
    ("/v1/printers/8dpmm/labels/4x8/0/", TALL, {}, 200, "image/png", (812, 1624), "1"),
    ("/v1/printers/8dpmm/labels/4.005x8.01/0/", TALL, {}, 200, "image/png", (813, 1626), "1"),
    ("/v1/printers/8dpmm/labels/2x0.5/0", HELLO, {}, 200, "image/png", (406, 101), "1"),
    ("/v1/printers/6dpmm/labels/2x1/0/", HELLO, {}, 200, "image/png", (304, 152), "1"),
    ("/v1/printers/12dpmm/labels/4x6/0/", HELLO, {}, 200, "image/png", (1216, 1824), "1"),
    ("/v1/printers/24dpmm/labels/1x1/0/", HELLO, {}, 200, "image/png", (609, 609), "1"),
    ("/v1/printers/8dpmm/labels/4x6/2/", THREE, {}, 200, "image/png", (812, 1218), "3"),
    ("/v1/printers/8dpmm/labels/4x6/", THREE, {}, 200, "image/png", (812, 1218), "3"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"X-Rotation": "90"}, 200, "image/png",
     (1218, 812), "1"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"X-Quality": "Bitonal"}, 200, "image/png",
     (812, 1218), "1"),
    # PDF: every label without an index, one page each at 4 x 6 in (288 x 432 pt).
    ("/v1/printers/8dpmm/labels/4x6/", THREE, {"Accept": "application/pdf"}, 200,
     "application/pdf", [(288, 432)] * 3, "3"),
    ("/v1/printers/8dpmm/labels/4x6/1/", THREE, {"Accept": "application/pdf"}, 200,
     "application/pdf", [(288, 432)], "3"),
    ("/v1/printers/8dpmm/labels/4x6/", THREE, {"Accept": "application/pdf",
                                               "X-Rotation": "270"}, 200,
     "application/pdf", [(432, 288)] * 3, "3"),
    ("/v1/printers/8dpmm/labels/4x6/", THREE, {"Accept": "application/pdf",
                                               "X-Page-Size": "Letter", "X-Page-Layout": "2x1"},
     200, "application/pdf", [(612, 792)] * 2, "3"),
    ("/v1/printers/8dpmm/labels/4x6/", THREE, {"Accept": "application/pdf",
                                               "X-Page-Size": "A4",
                                               "X-Page-Orientation": "Landscape",
                                               "X-Label-Border": "Solid"},
     200, "application/pdf", [(841.68, 595.44)] * 3, "3"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"Accept": "application/json"}, 200,
     "application/json", None, "1"),
]


@pytest.mark.parametrize(("path", "zpl", "headers", "status", "content_type", "shape",
                          "total"), CALLS)
async def test_labelary_calls(api: Api, make_caller: Callable[..., Caller],
                              render_worker: RenderConsumer, path: str, zpl: str,
                              headers: dict[str, str], status: int, content_type: str,
                              shape: Any, total: str) -> None:
    caller = make_caller("warehouse")  # 600 dpi: every density
    code, answer_headers, data = await post(api, caller, path, zpl, **headers)
    assert code == status, data[:300]
    assert answer_headers["Content-Type"].split(";")[0] == content_type
    assert answer_headers["X-Total-Count"] == total
    assert "X-RateLimit-Remaining" in answer_headers
    if content_type == "image/png":
        assert png_size(data) == shape
    elif content_type == "application/pdf":
        assert pdf_pages(data) == [pytest.approx(size, abs=0.01) for size in shape]
    else:
        assert b'"url"' in data and b'"label_count": 1' in data


async def test_bodies_labelary_takes(api: Api, make_caller: Callable[..., Caller],
                                     render_worker: RenderConsumer) -> None:
    caller = make_caller()
    path = "/v1/printers/8dpmm/labels/4x6/0/"
    raw = await post(api, caller, path, HELLO)
    form = await post(api, caller, path, "file=" + HELLO.replace("^", "%5E"))
    as_json = await post(api, caller, path, {"zpl": HELLO})
    plain = await post(api, caller, path, HELLO.encode(), **{"Content-Type": "text/plain"})
    assert [answer[0] for answer in (raw, form, as_json, plain)] == [200] * 4
    # The same label each way: the first renders, the others are cache hits.
    assert raw[1]["X-Cached"] == "false"
    assert {answer[1]["X-Cached"] for answer in (form, as_json, plain)} == {"true"}
    assert raw[2] == form[2] == as_json[2] == plain[2]


async def test_linter_warnings_in_labelarys_format(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    caller = make_caller()
    zpl = "^XA^FO50,50^A0N,50^FDHi^FS^QQ1,2^FO700,100^A0N,80^FDTOO WIDE^FS^XZ"
    path = "/v1/printers/8dpmm/labels/4x6/0/"
    _, quiet, _ = await post(api, caller, path, zpl)
    assert "X-Warnings" not in quiet
    code, headers, _ = await post(api, caller, path, zpl, **{"X-Linter": "On"})
    assert code == 200
    parts = headers["X-Warnings"].split("|")
    assert len(parts) % 5 == 0
    warnings = [parts[i:i + 5] for i in range(0, len(parts), 5)]
    assert warnings[0][:3] == [str(zpl.index("^QQ")), "6", "^QQ"]  # "^QQ1,2" is 6 bytes
    assert "unknown command" in warnings[0][4]
    overflow = [w for w in warnings if w[2] == "^FD"]
    assert overflow and overflow[0][0] == str(zpl.index("^FDTOO"))
    assert "past the right edge" in overflow[0][4]


# (path, ZPL, headers, plan, status, kind)
ERRORS: list[Any] = [
    ("/v1/printers/8dpmm/labels/4x6/0/", "not ZPL at all", {}, "pro", 400, "InvalidZpl"),
    ("/v1/printers/8dpmm/labels/4x6/0/", "   ", {}, "pro", 400, "MissingZpl"),
    ("/v1/printers/7dpmm/labels/4x6/0/", HELLO, {}, "pro", 400, "InvalidDpmm"),
    ("/v1/printers/8dpmm/labels/0x6/0/", HELLO, {}, "pro", 400, "InvalidLabelSize"),
    ("/v1/printers/8dpmm/labels/16x6/0/", HELLO, {}, "pro", 400, "InvalidLabelSize"),
    ("/v1/printers/8dpmm/labels/4by6/0/", HELLO, {}, "pro", 400, "InvalidLabelSize"),
    ("/v1/printers/8dpmm/labels/4x6/first/", HELLO, {}, "pro", 400, "InvalidLabelIndex"),
    ("/v1/printers/8dpmm/labels/4x6/5/", HELLO, {}, "pro", 400, "InvalidLabelIndex"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"X-Rotation": "45"}, "pro", 400,
     "InvalidRotation"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"X-Quality": "Best"}, "pro", 400,
     "InvalidQuality"),
    ("/v1/printers/8dpmm/labels/4x6/", HELLO, {"Accept": "application/pdf",
                                               "X-Page-Size": "B5"}, "pro", 400,
     "InvalidPageSize"),
    ("/v1/printers/8dpmm/labels/4x6/0/", HELLO, {"Accept": "application/epl"}, "pro", 406,
     "NotAcceptable"),
    ("/v1/printers/12dpmm/labels/4x6/0/", HELLO, {}, "sandbox", 403, "DpiNotPermitted"),
    ("/v1/printers/8dpmm/labels/4x6/", "^XA^FDx^FS^XZ" * 51, {"Accept": "application/pdf"},
     "pro", 413, "TooManyLabels"),
    pytest.param("/v1/printers/8dpmm/labels/4x6/0/", "^XA^FD" + "x" * (5 * 1024 * 1024)
                 + "^FS^XZ", {}, "pro", 413, "PayloadTooLarge", id="body-over-5-MB"),
]


@pytest.mark.parametrize(("path", "zpl", "headers", "plan", "status", "kind"), ERRORS)
async def test_labelary_errors(api: Api, make_caller: Callable[..., Caller],
                               render_worker: RenderConsumer, path: str, zpl: str,
                               headers: dict[str, str], plan: str, status: int,
                               kind: str) -> None:
    code, answer_headers, data = await post(api, make_caller(plan), path, zpl, **headers)
    assert code == status, data[:300]
    assert answer_headers["Content-Type"].startswith("application/json")
    assert f'"kind": "{kind}"'.encode() in data


async def test_rate_limited_like_raw_renders(api: Api, make_caller: Callable[..., Caller],
                                             render_worker: RenderConsumer) -> None:
    caller = make_caller("sandbox")  # 10 requests a minute
    codes = []
    for _ in range(11):
        code, headers, _ = await post(api, caller, "/v1/printers/8dpmm/labels/4x6/0/", HELLO)
        codes.append(code)
    assert codes == [200] * 10 + [429]
    assert float(headers["Retry-After"]) > 0


async def test_billed_and_cached_like_raw_renders(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    caller = make_caller()
    path = "/v1/printers/8dpmm/labels/4x6/0/"
    first = await post(api, caller, path, HELLO)
    again = await post(api, caller, path, HELLO, **{"Idempotency-Key": "order-1"})
    replay = await post(api, caller, path, HELLO, **{"Idempotency-Key": "order-1"})
    assert (first[1]["X-Cached"], again[1]["X-Cached"]) == ("false", "true")
    assert replay[1].get("Idempotency-Replay") == "true" and replay[2] == first[2]
    async with api.session.get(api.url("/v1/usage"), headers=caller.headers) as resp:
        usage = await resp.json()
    assert usage["labels"]["used"] == 1
    assert render_worker.rendered == [first[1]["X-Content-Hash"]]
    # Without an Authorization header: 401, as every route.
    async with api.session.post(api.url(path), data=HELLO) as resp:
        assert resp.status == 401


CORPUS_INDEX = (Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "labelary"
                / "index.tsv")
QUARTERS = [Decimal(n) / 4 for n in range(1, 4 * 15 + 1)]  # label sizes come in 1/4 in


def corpus_sizes() -> dict[str, set[tuple[int, int, int]]]:
    """Labelary's canvas sizes in the corpus: set -> {(dpmm, width, height)}."""
    sizes: dict[str, set[tuple[int, int, int]]] = {}
    for row in csv.DictReader(CORPUS_INDEX.read_text().splitlines(), delimiter="\t"):
        sizes.setdefault(row["set"], set()).add(
            (int(row["dpmm"]), int(row["width_dots"]), int(row["height_dots"])))
    return sizes


def sides(rule: Callable[[int, Decimal], int], dpmm: int, dots: int) -> bool:
    """Some size of a whole number of quarter inches gives this many dots by ``rule``."""
    return any(rule(dpmm, inches) == dots for inches in QUARTERS)


def floored(dpmm: int, inches: Decimal) -> int:
    return label_pixels(dpmm, inches, inches)[0]


def from_millimetres(dpmm: int, inches: Decimal) -> int:
    return round(inches * Decimal("25.4") * dpmm)


@pytest.mark.skipif(not CORPUS_INDEX.is_file(), reason=f"no corpus index at {CORPUS_INDEX}")
def test_the_pixel_rule_is_labelarys() -> None:
    """Every Labelary render of the zplkit and labelize-units sets has a size of whole
    quarter inches under our rule; rounding from millimetres misses some of them (1 x 1 in
    at 24 dpmm is 609 dots, not 610). The carrier set's 813 x 1626 at 8 dpmm is no
    quarter-inch size under our rule (4 x 8 in is 812 x 1624): those labels were sized
    over 4 x 8 in, 4.005 x 8.01 in (CALLS above)."""
    sizes = corpus_sizes()
    measured = sizes["zplkit"] | sizes["labelize-units"]
    assert (8, 812, 1624) in measured and (24, 609, 609) in measured
    assert all(sides(floored, dpmm, w) and sides(floored, dpmm, h) for dpmm, w, h in measured)
    assert not all(sides(from_millimetres, dpmm, w) and sides(from_millimetres, dpmm, h)
                   for dpmm, w, h in measured)
    assert sizes["carriers"] == {(8, 813, 1626)}
    assert label_pixels(8, Decimal(4), Decimal(8)) == (812, 1624)
    assert label_pixels(8, Decimal("4.005"), Decimal("8.01")) == (813, 1626)


PDFTOPPM = shutil.which("pdftoppm")
CARRIERS = CORPUS_INDEX.parent / "carriers"


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("quality", ["Grayscale", "Bitonal"])
async def test_the_pdf_prints_what_the_png_shows(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
        quality: str, tmp_path: Path) -> None:
    """pdftoppm turns the route's PDF back into the route's PNG at the same resolution."""
    label = CARRIERS / "ups.zpl"
    zpl = label.read_bytes() if label.is_file() else THREE.encode()
    caller = make_caller()
    path, headers = "/v1/printers/8dpmm/labels/4x8/0/", {"X-Quality": quality}
    _, _, png = await post(api, caller, path, zpl, **headers)
    _, _, pdf = await post(api, caller, path, zpl, Accept="application/pdf", **headers)
    (tmp_path / "label.pdf").write_bytes(pdf)
    subprocess.run([str(PDFTOPPM), "-r", "203", "-gray", "-png", "-singlefile",
                    str(tmp_path / "label.pdf"), str(tmp_path / "back")], check=True,
                   timeout=60)
    ours = np.asarray(Image.open(io.BytesIO(png)).convert("L")) < 128
    back = np.asarray(Image.open(tmp_path / "back.png").convert("L")) < 128
    assert ours.shape == back.shape == (1624, 812)
    both = np.count_nonzero(ours & back)
    assert 2 * both / (2 * both + np.count_nonzero(ours ^ back)) >= 0.98
