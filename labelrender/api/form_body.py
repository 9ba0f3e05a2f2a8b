"""Form bodies of the Labelary route: ``multipart/form-data`` and
``application/x-www-form-urlencoded``, read in linear time under fixed limits.

A body may be 5 MB and its sender hostile, so nothing here backtracks, recurses
or builds an object per byte: the multipart reader walks delimiters with
``bytes.find``, reads at most ``MAX_PARTS`` parts whose headers are at most
``MAX_PART_HEADER_BYTES`` (``MAX_PART_HEADER_LINES`` lines) with at most
``MAX_PARAMETERS`` parameters each, and refuses a part that is itself multipart
(RFC 2046 section 5.1.1 allows nesting; a label needs none). Each limit is a 400
of its own kind. Percent escapes are decoded with numpy, so 5 MB of ``%41`` costs
milliseconds, not seconds.

The form field is decoded as Labelary's servlet decodes it: ``+`` is a space and
each ``%XX`` is one byte, the bytes then read as UTF-8 (the WHATWG URL standard,
"application/x-www-form-urlencoded parsing"), so ``%E2%82%AC`` is the euro sign.
"""

from __future__ import annotations

import base64
import binascii
import re

import numpy as np

from labelrender.api.errors import InvalidRequest

MAX_PARTS = 64
MAX_PART_HEADER_BYTES = 8192
MAX_PART_HEADER_LINES = 32
MAX_PARAMETERS = 16
MAX_BOUNDARY_CHARS = 70  # RFC 2046 section 5.1.1

# One ``; name=value`` parameter; a quoted value may hold ';' and escaped quotes.
_PARAMETER = re.compile(r';[ \t]*([^\s=;]+)[ \t]*(?:=[ \t]*("(?:[^"\\]|\\.)*"|[^;]*))?')
_QUOTED_PAIR = re.compile(r"\\(.)")
# Value of each byte as a hex digit; 16 for a byte that is not one.
_HEX_DIGIT = np.full(256, 16, dtype=np.uint8)
for _digits, _first in ((b"0123456789", 0), (b"abcdef", 10), (b"ABCDEF", 10)):
    _HEX_DIGIT[np.frombuffer(_digits, np.uint8)] = np.arange(_first, _first + len(_digits))


def _refuse(kind: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, param="body", kind=kind)


def header_parameters(value: str) -> tuple[str, dict[str, str]]:
    """``form-data; name="file"`` as ``("form-data", {"name": "file"})``: names
    lower-cased, the first of a repeated name kept; 400 ``TooManyParameters``
    past ``MAX_PARAMETERS``."""
    main, _, rest = value.partition(";")
    found: dict[str, str] = {}
    for count, match in enumerate(_PARAMETER.finditer(";" + rest if rest else ""), start=1):
        if count > MAX_PARAMETERS:
            raise _refuse("TooManyParameters", f"a multipart header has over {MAX_PARAMETERS} "
                          "parameters")
        text = (match.group(2) or "").strip()
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = _QUOTED_PAIR.sub(r"\1", text[1:-1])
        found.setdefault(match.group(1).lower(), text)
    return main.strip().lower(), found


def multipart_field(raw: bytes, content_type: str, field: str) -> bytes | None:
    """The bytes of the first part named ``field`` in a multipart body whose
    ``Content-Type`` header is ``content_type``; None when no part has the name.
    The whole body is read, so each limit holds wherever the part is."""
    boundary = header_parameters(content_type)[1].get("boundary", "")
    if not 1 <= len(boundary) <= MAX_BOUNDARY_CHARS:
        raise _refuse("MalformedMultipart", "a multipart body needs a boundary of 1 to "
                      f"{MAX_BOUNDARY_CHARS} characters in its Content-Type")
    delimiter = b"--" + boundary.encode("latin-1", "replace")
    position = 0 if raw.startswith(delimiter) else raw.find(b"\r\n" + delimiter) + 2
    if position == 1:
        raise _refuse("MalformedMultipart", "the multipart body has no part")
    found: bytes | None = None
    for _ in range(MAX_PARTS + 1):
        position += len(delimiter)
        if raw.startswith(b"--", position):
            return found  # the close delimiter; the epilogue is ignored
        headers, start = _part_headers(raw, _line_end(raw, position))
        end = raw.find(b"\r\n" + delimiter, start)
        if end < 0:
            raise _refuse("MalformedMultipart", "a multipart part is not closed by its "
                          "boundary")
        if found is None and _part_name(headers) == field:
            found = _decoded(headers, raw[start:end])
        position = end + 2
    raise _refuse("TooManyParts", f"a multipart body may have at most {MAX_PARTS} parts")


def _line_end(raw: bytes, position: int) -> int:
    """Where the line after a delimiter (transport padding only) ends."""
    end = raw.find(b"\r\n", position, position + MAX_PART_HEADER_BYTES)
    if end < 0:
        raise _refuse("MalformedMultipart", "a multipart boundary line does not end")
    return end + 2


def _part_headers(raw: bytes, start: int) -> tuple[dict[str, str], int]:
    """A part's headers (names lower-cased) and where its body starts."""
    if raw.startswith(b"\r\n", start):
        return {}, start + 2
    end = raw.find(b"\r\n\r\n", start, start + MAX_PART_HEADER_BYTES + 4)
    if end < 0:
        raise _refuse("PartHeadersTooLarge", "a multipart part's headers must end within "
                      f"{MAX_PART_HEADER_BYTES} bytes")
    lines = raw[start:end].split(b"\r\n", MAX_PART_HEADER_LINES)
    if len(lines) > MAX_PART_HEADER_LINES:
        raise _refuse("PartHeadersTooLarge", f"a multipart part may have at most "
                      f"{MAX_PART_HEADER_LINES} header lines")
    headers: dict[str, str] = {}
    for line in lines:
        name, colon, value = line.decode("utf-8", "replace").partition(":")
        if not colon:
            raise _refuse("MalformedMultipart", "a multipart part header has no ':'")
        headers.setdefault(name.strip().lower(), value.strip())
    return headers, end + 4


def _part_name(headers: dict[str, str]) -> str | None:
    if header_parameters(headers.get("content-type", ""))[0].startswith("multipart/"):
        raise _refuse("MultipartTooDeep", "a multipart part may not itself be multipart")
    disposition, params = header_parameters(headers.get("content-disposition", ""))
    return params.get("name") if disposition == "form-data" else None


def _decoded(headers: dict[str, str], data: bytes) -> bytes:
    encoding = headers.get("content-transfer-encoding", "").strip().lower()
    try:
        if encoding == "base64":  # MIME breaks its lines; nothing else may be there
            return base64.b64decode(data.translate(None, b" \t\r\n"), validate=True)
        if encoding == "quoted-printable":
            return binascii.a2b_qp(data)
    except (binascii.Error, ValueError) as exc:
        raise _refuse("MalformedMultipart", f"the part is not valid {encoding}") from exc
    return data


def form_field(raw: bytes, field: str) -> bytes | None:
    """The bytes of the first ``field=`` in a form body (``+`` and ``%XX``
    decoded), or None; other fields are skipped, never parsed."""
    name = field.encode() + b"="
    if raw.startswith(name):
        start = len(name)
    else:
        found = raw.find(b"&" + name)
        if found < 0:
            return None
        start = found + 1 + len(name)
    end = raw.find(b"&", start)
    return percent_decoded(raw[start:] if end < 0 else raw[start:end])


def percent_decoded(value: bytes) -> bytes:
    """``+`` as a space, each ``%XX`` as its byte; a ``%`` not followed by two
    hex digits stays as it is. Linear, vectorised: escapes never overlap, since
    the two bytes after a valid ``%`` are hex digits, never ``%``."""
    value = value.replace(b"+", b" ")
    if b"%" not in value:
        return value
    data = np.frombuffer(value, dtype=np.uint8)
    escapes = np.flatnonzero(data[:-2] == ord("%"))
    high, low = _HEX_DIGIT[data[escapes + 1]], _HEX_DIGIT[data[escapes + 2]]
    valid = (high < 16) & (low < 16)
    escapes = escapes[valid]
    decoded = data.copy()
    decoded[escapes] = high[valid] * 16 + low[valid]
    keep = np.ones(len(data), dtype=bool)
    keep[escapes + 1] = False
    keep[escapes + 2] = False
    return bytes(decoded[keep].tobytes())
