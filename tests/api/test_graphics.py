"""POST /v1/graphics over real HTTP: images and PDF pages into ^GF, as our clients
and Labelary's call it, and every limit a hostile file meets."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import numpy as np
import pytest
from PIL import Image

from labelrender.graphics import GraphicLimits
from tests.api.conftest import Api, Caller, StartApi
from tests.fixtures.images import (
    encoded,
    logo,
    pdf_bomb,
    pdf_of,
    png_bomb,
    png_declaring,
    printed,
    thresholded,
)

LOGO = logo()
LOGO_PNG = encoded(LOGO, "PNG")


async def post(api: Api, caller: Caller, body: bytes | aiohttp.FormData, query: str = "",
               **headers: str) -> tuple[int, dict[str, str], bytes]:
    async with api.session.post(api.url("/v1/graphics" + query), data=body,
                                headers={**caller.headers, **headers}) as resp:
        return resp.status, dict(resp.headers), await resp.read()


def form(data: bytes, name: str = "file", **fields: str) -> aiohttp.FormData:
    """What ``curl --form file=@logo.png`` sends (Labelary's documented call)."""
    sent = aiohttp.FormData()
    sent.add_field(name, data, filename="logo.png", content_type="image/png")
    for field_name, value in fields.items():
        sent.add_field(field_name, value)
    return sent


async def test_a_labelary_client_gets_a_label_of_the_logo(api: Api, make_caller: Any) -> None:
    status, headers, body = await post(api, make_caller(), form(LOGO_PNG))
    assert status == 200, body
    assert headers["Content-Type"].startswith("application/zpl")
    zpl = body.decode()
    assert zpl.startswith("^XA") and "^FO0,0^GFA," in zpl and zpl.rstrip().endswith("^XZ")
    assert "X-RateLimit-Remaining" in headers
    assert np.array_equal(printed(zpl, *LOGO.size), thresholded(LOGO))


@pytest.mark.parametrize("compression", ["A", "ACS", "B64", "Z64"])
@pytest.mark.parametrize("raw", [False, True])
async def test_every_compression_round_trips_pixel_for_pixel(
        api: Api, make_caller: Any, compression: str, raw: bool) -> None:
    body: bytes | aiohttp.FormData
    if raw:
        body, query = LOGO_PNG, f"?compression={compression}&threshold=100"
    else:
        body, query = form(LOGO_PNG, compression=compression, threshold="100"), ""
    status, _, answer = await post(api, make_caller(), body, query,
                                   **({"Content-Type": "image/png"} if raw else {}))
    assert status == 200, answer
    zpl = answer.decode()
    if compression in ("B64", "Z64"):
        assert f":{compression}:" in zpl
    assert np.array_equal(printed(zpl, *LOGO.size), thresholded(LOGO, 100))


async def test_json_answer_gives_the_bitmap_size(api: Api, make_caller: Any) -> None:
    status, headers, body = await post(api, make_caller(), form(LOGO_PNG), "?width=406",
                                       Accept="application/json")
    assert status == 200, body
    answer = json.loads(body)
    assert headers["Content-Type"].startswith("application/json")
    assert (answer["width"], answer["height"]) == (406, 202)  # the aspect ratio kept
    assert answer["bytes_per_row"] == 51 and answer["total_bytes"] == 51 * 202
    assert answer["source"] == {"format": "PNG", "width": 203, "height": 101, "pages": 1}
    assert f"^GFA,{51 * 202},{51 * 202},51," in answer["zpl"]


async def test_the_field_alone_goes_after_your_own_origin(api: Api, make_caller: Any) -> None:
    status, _, body = await post(api, make_caller(), form(LOGO_PNG, output="field",
                                                          invert="true"), Accept="text/plain")
    assert status == 200, body
    field = body.decode()
    assert field.startswith("^GFA,") and field.endswith("^FS")
    zpl = f"^XA^FO0,0{field}^XZ"
    assert np.array_equal(printed(zpl, *LOGO.size), ~thresholded(LOGO))


@pytest.mark.parametrize(("image", "image_format"), [
    (logo(mode="RGBA"), "PNG"),  # transparent pixels are white
    (logo(mode="L"), "GIF"),
    (logo(mode="RGB"), "BMP"),
    (logo(mode="L"), "PNG"),
])
async def test_every_lossless_format_converts_exactly(
        api: Api, make_caller: Any, image: Image.Image, image_format: str) -> None:
    status, _, body = await post(api, make_caller(), form(encoded(image, image_format)))
    assert status == 200, body
    assert np.array_equal(printed(body.decode(), *image.size), thresholded(image))


async def test_a_jpeg_photo_dithered_to_a_target_height(api: Api, make_caller: Any) -> None:
    photo = logo((640, 480)).convert("RGB")
    status, _, body = await post(api, make_caller(), form(encoded(photo, "JPEG")),
                                 "?height=240&dither=true", Accept="application/json")
    assert status == 200, body
    answer = json.loads(body)
    assert (answer["width"], answer["height"], answer["source"]["format"]) == (320, 240, "JPEG")


async def test_a_pdf_page_round_trips_pixel_for_pixel(api: Api, make_caller: Any) -> None:
    page = logo((300, 200)).convert("1")
    document = pdf_of(page, pages=3)
    status, _, body = await post(api, make_caller(), document, "?dpi=72&page=2&compression=Z64",
                                 **{"Content-Type": "application/pdf"})
    assert status == 200, body
    assert np.array_equal(printed(body.decode(), 300, 200), thresholded(page))
    status, _, body = await post(api, make_caller(), form(document, dpi="203"),
                                 Accept="application/json")
    answer = json.loads(body)
    assert (answer["width"], answer["height"]) == (846, 564)  # 300 x 200 pt at 203 dpi
    assert answer["source"]["pages"] == 3


def _big_pdf() -> bytes:
    return pdf_of(Image.new("1", (8, 8), 1), pages=101)


# (body, query, content type, status, kind)
REFUSED: list[tuple[Any, str, str, int, str]] = [
    (png_declaring(100_000, 100_000), "", "image/png", 413, "ImageTooManyPixels"),
    (png_bomb(), "", "image/png", 413, "ImageTooManyPixels"),
    (png_declaring(8000, 5001), "", "image/png", 413, "ImageTooManyPixels"),
    (encoded(Image.new("RGB", (4500, 4000)), "PNG"), "", "image/png", 413,
     "ImageDecodedTooLarge"),
    (_big_pdf(), "", "application/pdf", 413, "PdfTooManyPages"),
    (pdf_bomb(80), "", "application/pdf", 413, "PdfDecodedTooLarge"),  # 80 MB of blanks
    (pdf_of(LOGO), "?page=2", "application/pdf", 400, "PdfPageNotFound"),
    (pdf_of(LOGO), "?dpi=600&width=0", "application/pdf", 200, ""),
    (b"%PDF-1.7 not really", "", "application/pdf", 400, "InvalidPdf"),
    (encoded(LOGO, "GIF")[:800], "", "image/gif", 400, "InvalidImage"),
    (encoded(LOGO, "JPEG")[:400], "", "image/jpeg", 400, "InvalidImage"),
    (b"GIF89a", "", "image/gif", 415, "UnsupportedImageFormat"),
    (LOGO_PNG[:200], "", "image/png", 400, "InvalidImage"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "", "image/svg+xml", 415,
     "UnsupportedImageFormat"),
    (encoded(LOGO, "TIFF"), "", "image/tiff", 415, "UnsupportedImageFormat"),
    (b"", "", "image/png", 400, "MissingFile"),
    (LOGO_PNG, "?width=9600&height=9600", "image/png", 413, "GraphicTooLarge"),
    (LOGO_PNG, "?size=10", "image/png", 400, "UnknownField"),
    (LOGO_PNG, "?threshold=300", "image/png", 400, "InvalidGraphicOption"),
    (LOGO_PNG, "?compression=ZIP", "image/png", 400, "InvalidGraphicOption"),
    (LOGO_PNG, "?width=-1", "image/png", 400, "InvalidGraphicOption"),
    (LOGO_PNG, "?dpi=" + "9" * 5000, "image/png", 400, "InvalidGraphicOption"),
]


@pytest.mark.parametrize(("body", "query", "content_type", "status", "kind"), REFUSED)
async def test_hostile_and_wrong_files_are_refused(
        api: Api, make_caller: Any, body: bytes, query: str, content_type: str, status: int,
        kind: str) -> None:
    got, _, answer = await post(api, make_caller(), body, query,
                                **{"Content-Type": content_type})
    assert got == status, answer[:300]
    if kind:
        assert json.loads(answer)["error"]["kind"] == kind


async def test_a_bomb_in_a_multipart_part_is_refused_too(api: Api, make_caller: Any) -> None:
    status, _, body = await post(api, make_caller(), form(png_declaring(100_000, 100_000)))
    assert status == 413
    assert json.loads(body)["error"]["kind"] == "ImageTooManyPixels"


@pytest.mark.parametrize(("sent", "status", "kind"), [
    (lambda: form(LOGO_PNG, name="image"), 400, "UnknownField"),
    (lambda: form(LOGO_PNG, color="red"), 400, "UnknownField"),
    (lambda: form(LOGO_PNG, width="abc"), 400, "InvalidGraphicOption"),
    (lambda: form(LOGO_PNG, width="1" * 100), 413, "PayloadTooLarge"),
    (lambda: _only_fields(width="100"), 400, "MissingFile"),
    (lambda: _twice(), 400, "MalformedMultipart"),
])
async def test_multipart_mistakes(api: Api, make_caller: Any, sent: Any, status: int,
                                  kind: str) -> None:
    got, _, body = await post(api, make_caller(), sent())
    assert got == status, body
    assert json.loads(body)["error"]["kind"] == kind


def _only_fields(**fields: str) -> aiohttp.FormData:
    sent = aiohttp.FormData()
    for name, value in fields.items():
        sent.add_field(name, value, content_type="text/plain")  # a content type: multipart
    return sent


def _twice() -> aiohttp.FormData:
    sent = form(LOGO_PNG)
    sent.add_field("file", LOGO_PNG, filename="again.png")
    return sent


@pytest.mark.parametrize("body", [
    b"--b0\r\nTrue--b0--\r\n",  # a part header that is not one (found by contract fuzzing)
    b"--b0\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc",  # no end
    b"no boundary at all",
])
async def test_a_malformed_multipart_body_is_400(api: Api, make_caller: Any,
                                                 body: bytes) -> None:
    status, _, answer = await post(api, make_caller(), body,
                                   **{"Content-Type": "multipart/form-data; boundary=b0"})
    assert status == 400, answer
    assert json.loads(answer)["error"]["kind"] in ("MalformedMultipart", "MissingFile")


async def test_a_file_over_the_body_limit_is_413(start_api: StartApi, make_caller: Any) -> None:
    api = await start_api(max_body_bytes=len(LOGO_PNG) - 1)
    caller = make_caller()
    status, _, body = await post(api, caller, form(LOGO_PNG))
    assert status == 413 and b"PayloadTooLarge" in body
    status, _, body = await post(api, caller, LOGO_PNG, **{"Content-Type": "image/png"})
    assert status == 413 and b"PayloadTooLarge" in body


async def test_the_operator_sets_the_limits(start_api: StartApi, make_caller: Any) -> None:
    api = await start_api(graphic_limits=GraphicLimits(max_pdf_pages=2, max_pixels=20_000))
    caller = make_caller()
    status, _, body = await post(api, caller, form(pdf_of(LOGO, pages=3)))
    assert status == 413 and json.loads(body)["error"]["kind"] == "PdfTooManyPages"
    status, _, body = await post(api, caller, form(LOGO_PNG))  # 20,503 pixels
    assert status == 413 and json.loads(body)["error"]["kind"] == "ImageTooManyPixels"
    status, _, body = await post(api, caller, form(pdf_of(LOGO, pages=2)))
    assert status == 413 and json.loads(body)["error"]["kind"] == "ImageTooManyPixels"
    status, _, body = await post(api, caller, form(pdf_of(Image.new("1", (80, 40), 1),
                                                          pages=2), dpi="72"))
    assert status == 200, body  # 80 x 40 dots drawn: under 20,000


async def test_the_rate_limit_is_the_tenants(api: Api, make_caller: Any) -> None:
    """10 a minute on Sandbox: the 11th is 429; another tenant is not slowed."""
    limited, other = make_caller("sandbox"), make_caller("sandbox")
    for _ in range(10):
        status, _, _ = await post(api, limited, b"", **{"Content-Type": "image/png"})
        assert status == 400  # refused files still count: the limiter runs first
    status, headers, body = await post(api, limited, form(LOGO_PNG))
    assert status == 429 and json.loads(body)["error"]["kind"] == "RateLimitExceeded"
    assert float(headers["Retry-After"]) > 0
    status, _, _ = await post(api, other, form(LOGO_PNG))
    assert status == 200


async def test_accept_and_key(api: Api, make_caller: Any) -> None:
    status, _, body = await post(api, make_caller(), form(LOGO_PNG), Accept="image/png")
    assert status == 406 and b"NotAcceptable" in body
    async with api.session.post(api.url("/v1/graphics"), data=LOGO_PNG) as resp:
        assert resp.status == 401
