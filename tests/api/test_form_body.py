"""The Labelary route's form bodies over HTTP: hostile multipart and form bodies
are refused with a 400 of their own kind (never a 500, never seconds of work),
and form fields are decoded as Labelary decodes them: percent escapes are
UTF-8 bytes, so euro signs and Cyrillic render as sent (read back by OCR)."""

from __future__ import annotations

import base64
import json
import urllib.parse
from typing import Any

import pytest

from tests.api.conftest import Api, Caller, RenderConsumer
from tests.fixtures.ocr import needs_tesseract, ocr_text

ROUTE = "/v1/printers/8dpmm/labels/4x6/0/"
HELLO = "^XA^FO50,50^A0N,50,50^FDHello World^FS^XZ"
FORM = "application/x-www-form-urlencoded"
DISPOSITION = b"Content-Disposition: form-data; name="


def multipart(*parts: bytes, boundary: str = "b", close: bool = True) -> tuple[str, bytes]:
    """Parts (headers, blank line and body each) between delimiters."""
    body = b"".join(b"--" + boundary.encode() + b"\r\n" + part + b"\r\n" for part in parts)
    return (f"multipart/form-data; boundary={boundary}",
            body + (b"--" + boundary.encode() + b"--\r\n" if close else b""))


def field(name: str, data: bytes, *headers: bytes) -> bytes:
    return b"\r\n".join([DISPOSITION + name.encode(), *headers, b"", data])


def nested(depth: int) -> tuple[str, bytes]:
    content_type, body = multipart(field("file", HELLO.encode()), boundary=f"n{depth}")
    for level in range(depth - 1, -1, -1):
        content_type, body = multipart(
            b"Content-Type: " + content_type.encode() + b"\r\n" + DISPOSITION + b"file\r\n\r\n"
            + body, boundary=f"n{level}")
    return content_type, body


# (what, Content-Type, body, kind of the 400)
REFUSED: list[tuple[str, str, bytes, str]] = [
    ("65 parts", *multipart(*[field("a", b"x")] * 64, field("file", HELLO.encode())),
     "TooManyParts"),
    ("100,000 tiny parts", *multipart(*[field("a", b"x")] * 100_000), "TooManyParts"),
    ("17 parameters", *multipart(field("file" + "; a=b" * 16, HELLO.encode())),
     "TooManyParameters"),
    ("100,000 parameters", *multipart(field("file" + "; a=b" * 100_000, HELLO.encode())),
     "PartHeadersTooLarge"),
    ("33 header lines", *multipart(field("file", HELLO.encode(), *[b"X-A: b"] * 32)),
     "PartHeadersTooLarge"),
    ("a 9 KB header", *multipart(field("file", HELLO.encode(), b"X-A: " + b"b" * 9000)),
     "PartHeadersTooLarge"),
    ("nested once", *nested(1), "MultipartTooDeep"),
    ("nested 1,000 deep", *nested(1000), "MultipartTooDeep"),
    ("a part never closed", *multipart(field("file", HELLO.encode()), close=False),
     "MalformedMultipart"),
    ("no boundary parameter", "multipart/form-data", b"--b\r\n\r\nx\r\n--b--",
     "MalformedMultipart"),
    ("a boundary of 71 characters", "multipart/form-data; boundary=" + "b" * 71, b"x",
     "MalformedMultipart"),
    ("no delimiter in the body", "multipart/form-data; boundary=b", HELLO.encode(),
     "MalformedMultipart"),
    ("a header without a colon", *multipart(field("file", HELLO.encode(), b"garbage")),
     "MalformedMultipart"),
    ("invalid base64", *multipart(field("file", b"@@@", b"Content-Transfer-Encoding: base64")),
     "MalformedMultipart"),
    ("no file part", *multipart(field("zpl", HELLO.encode())), "MissingZpl"),
    ("a file part that is not UTF-8", *multipart(field("file", b"^XA^FD\xff\xfe^FS^XZ")),
     "InvalidText"),
    ("a form field that is not UTF-8", FORM, b"file=%5EXA%5EFD%FF%FE%5EFS%5EXZ", "InvalidText"),
    ("a form field cut in a character", FORM, b"file=%5EXA%5EFD%E2%82%5EFS%5EXZ", "InvalidText"),
    ("an empty form field", FORM, b"file=&file=" + HELLO.encode(), "MissingZpl"),
]


async def post(api: Api, caller: Caller, content_type: str, body: bytes | dict[str, Any],
               **headers: str) -> tuple[int, dict[str, str], bytes]:
    sent = {**caller.headers, "Accept": "image/png", **headers}
    if isinstance(body, dict):
        options: dict[str, Any] = {"json": body}
    else:
        sent["Content-Type"] = content_type
        options = {"data": body}
    async with api.session.post(api.url(ROUTE), headers=sent, **options) as resp:
        return resp.status, dict(resp.headers), await resp.read()


@pytest.mark.parametrize(("what", "content_type", "body", "kind"), REFUSED,
                         ids=[row[0] for row in REFUSED])
async def test_hostile_and_malformed_bodies_are_refused_with_their_kind(
        api: Api, make_caller: Any, what: str, content_type: str, body: bytes,
        kind: str) -> None:
    status, _, payload = await post(api, make_caller(), content_type, body)
    assert (status, json.loads(payload)["error"]["kind"]) == (400, kind), what


def _hash_of(headers: dict[str, str]) -> str:
    return headers["X-Content-Hash"]


# (what, Content-Type, body): each must render the ZPL ``HELLO`` exactly.
ACCEPTED: list[tuple[str, str, bytes]] = [
    ("curl --data-urlencode file@label.zpl", FORM,
     b"file=" + urllib.parse.quote_plus(HELLO).encode()),
    ("spaces as %20", FORM, b"file=" + urllib.parse.quote(HELLO).encode()),
    ("other fields after it", FORM,
     b"file=" + urllib.parse.quote_plus(HELLO).encode() + b"&a=" * 100_000),
    ("curl --form file=@label.zpl", *multipart(
        field("other", b"x"),
        field('"file"; filename="a;b \\"c\\".zpl"', HELLO.encode(),
              b"Content-Type: application/octet-stream"))),
    ("a base64 part", *multipart(field("file", base64.b64encode(HELLO.encode()),
                                       b"Content-Transfer-Encoding: base64"))),
    ("a preamble and an epilogue", "multipart/form-data; boundary=\"b\"",
     b"preamble\r\n" + multipart(field("file", HELLO.encode()))[1] + b"epilogue"),
]


async def test_a_percent_sign_without_two_hex_digits_stays(
        api: Api, make_caller: Any, render_worker: RenderConsumer) -> None:
    caller = make_caller()
    zpl = HELLO.replace("Hello", "100%zz%4")
    body = b"file=" + urllib.parse.quote_plus(HELLO).replace("Hello", "100%zz%4").encode()
    status, headers, _ = await post(api, caller, FORM, body)
    _, sent_as_json, _ = await post(api, caller, "", {"zpl": zpl})
    assert status == 200
    assert _hash_of(headers) == _hash_of(sent_as_json)


@pytest.mark.parametrize(("what", "content_type", "body"), ACCEPTED,
                         ids=[row[0] for row in ACCEPTED])
async def test_form_bodies_render_the_zpl_they_carry(
        api: Api, make_caller: Any, render_worker: RenderConsumer, what: str,
        content_type: str, body: bytes) -> None:
    caller = make_caller()
    status, headers, png = await post(api, caller, content_type, body)
    assert status == 200, (what, png[:300])
    # The same content hash as the ZPL sent as JSON: the same text reached the engine.
    _, sent_as_json, _ = await post(api, caller, "", {"zpl": HELLO})
    assert _hash_of(headers) == _hash_of(sent_as_json)


# (text, OCR language, words OCR must read); ^CI28: the field data is UTF-8.
TEXTS = [("TOTAL € 25", "eng", ["TOTAL", "€"]),
         ("ПРИВЕТ МИР", "rus", ["ПРИВЕТ", "МИР"])]


async def test_an_accented_letter_is_its_utf8_bytes(
        api: Api, make_caller: Any, render_worker: RenderConsumer) -> None:
    """``%C3%A9`` is é (it was a 400 InvalidText); OCR reads no accents, the hash
    shows the engine got the same text as the JSON body's."""
    zpl = "^XA^CI28^FO40,80^A0N,60,60^FDCAF\u00c9 cr\u00e8me^FS^XZ"
    caller = make_caller()
    body = b"file=" + urllib.parse.quote_plus(zpl).encode()
    assert b"%C3%89" in body
    status, headers, _ = await post(api, caller, FORM, body)
    _, sent_as_json, _ = await post(api, caller, "", {"zpl": zpl})
    assert status == 200
    assert _hash_of(headers) == _hash_of(sent_as_json)


@needs_tesseract
@pytest.mark.parametrize(("text", "lang", "expected"), TEXTS)
async def test_percent_encoded_utf8_renders_as_sent(
        api: Api, make_caller: Any, render_worker: RenderConsumer, text: str, lang: str,
        expected: list[str]) -> None:
    """``curl --data-urlencode file@ru.zpl``: each %XX is a UTF-8 byte, as Labelary reads it."""
    zpl = f"^XA^CI28^PW812^LL300^FO40,80^A0N,60,60^FD{text}^FS^XZ"
    caller = make_caller()
    for content_type, body in ((FORM, b"file=" + urllib.parse.quote_plus(zpl).encode()),
                               multipart(field("file", zpl.encode()))):
        status, headers, png = await post(api, caller, content_type, body)
        assert status == 200, png[:300]
        _, sent_as_json, _ = await post(api, caller, "", {"zpl": zpl})
        assert _hash_of(headers) == _hash_of(sent_as_json)
        read = ocr_text(png, lang=lang)
        assert all(word in read for word in expected), read
