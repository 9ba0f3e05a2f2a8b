"""Tests for labelrender.zpl.graphic_data: ^GF, ~DG and ~DY graphic data decoding."""

from __future__ import annotations

import base64
import binascii
import io
import time
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from labelrender.zpl.graphic_data import (
    Bitmap,
    GraphicDataError,
    decode_download_graphic,
    decode_download_object,
    decode_graphic_field,
)

CAP = 16 * 1024 * 1024


def zb64(kind: str, raw: bytes, crc: str | None = "auto") -> bytes:
    """Build ``:Z64:...:crc`` / ``:B64:...:crc`` text (crc None = no CRC field)."""
    body = zlib.compress(raw) if kind == "Z64" else raw
    text = base64.b64encode(body)
    if crc is None:
        return b":" + kind.encode() + b":" + text
    if crc == "auto":
        crc = f"{binascii.crc_hqx(text, 0):04X}"
    return b":" + kind.encode() + b":" + text + b":" + crc.encode()


def gfa(data: bytes | str, total: int, bpr: int) -> tuple[Bitmap, list[str]]:
    raw = data.encode() if isinstance(data, str) else data
    return decode_graphic_field("A", total, total, bpr, raw, CAP)


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# --------------------------------------------------------------------------- ASCII hex

# (id, data, total bytes, bytes per row, expected bitmap hex, expected warning fragment or "")
ASCII_CASES = [
    ("plain", "FF00", 2, 1, "FF00", ""),
    ("lowercase", "ff0a", 2, 1, "FF0A", ""),
    ("mixed-case", "aB", 1, 1, "AB", ""),
    ("whitespace", " F F\r\n0\t0\n", 2, 1, "FF00", ""),
    ("multi-row", "0102\n0304\n", 4, 2, "01020304", ""),
    ("guide M6 is 6666666", "M6", 4, 4, "66666660", ""),
    ("hIF is 40+3 F", "hIF0", 22, 22, "F" * 43 + "0", ""),
    ("hJF is 40+4 F", "hJF", 22, 22, "F" * 44, ""),
    ("vMB is 327 B", "vMB,", 164, 164, "B" * 327 + "0", ""),
    ("zzG3 is 801", "zzG3", 401, 401, "3" * 801 + "0", ""),
    ("repeat then plain", "I0FF", 3, 3, "000FF0", ""),
    ("comma mid-row", "FF,FFFF,", 8, 4, "FF000000FFFF0000", ""),
    ("comma at row start", ",FFFFFFFF", 8, 4, "00000000FFFFFFFF", ""),
    ("comma only", ",,", 4, 2, "00000000", ""),
    ("bang mid-row", "0!", 2, 2, "0FFF", ""),
    ("bang at row start", "!0000", 4, 2, "FFFF0000", ""),
    ("colon repeats row", "F0A5:", 4, 2, "F0A5F0A5", ""),
    ("colons", "F0A5::", 6, 2, "F0A5F0A5F0A5", ""),
    ("colon after comma", "F,:", 4, 2, "F000F000", ""),
    ("colon first is blank", ":FF,", 4, 2, "0000FF00", ""),
    ("colon mid-row", "AB:", 4, 2, "AB00AB00", "inside a row"),
    ("compressed rows", "J03,::", 9, 3, "000030" * 3, ""),
    ("odd digit count", "ABC", 2, 2, "ABC0", ""),
    ("total not a row multiple", "FFFFFF", 3, 2, "FFFFFF00", ""),
    ("short data padded", "FF", 4, 2, "FF000000", "shorter than the declared 4"),
    ("empty data padded", "", 2, 1, "0000", "shorter than the declared 2"),
    ("long data truncated", "FFFFFF", 2, 1, "FFFF", "longer than the declared 2"),
    # A comma at the start of a row is a whole blank row.
    ("comma after full row", "FF,FF,", 2, 1, "FF00", "truncated"),
    ("repeat past end", "zF", 2, 2, "FFFF", "truncated"),
    ("invalid characters", "FZ#F", 1, 1, "FF", "invalid character"),
    ("dangling repeat", "FFG", 1, 1, "FF", "repeat count"),
]


@pytest.mark.parametrize(
    ("data", "total", "bpr", "expected", "warning"),
    [case[1:] for case in ASCII_CASES],
    ids=[case[0] for case in ASCII_CASES],
)
def test_ascii_hex(data: str, total: int, bpr: int, expected: str, warning: str) -> None:
    bitmap, notes = gfa(data, total, bpr)
    assert bitmap.bits.hex().upper() == expected
    assert bitmap.width == bpr * 8
    assert bitmap.height == -(-total // bpr)
    if warning:
        assert any(warning in note for note in notes), notes
    else:
        assert notes == []


REPEAT_LETTERS = [(chr(ord("G") + i), i + 1) for i in range(19)] + [
    (chr(ord("g") + i), (i + 1) * 20) for i in range(20)
]


@pytest.mark.parametrize(("letter", "count"), REPEAT_LETTERS, ids=[x[0] for x in REPEAT_LETTERS])
def test_each_repeat_letter(letter: str, count: int) -> None:
    total = -(-count // 2)
    bitmap, notes = gfa(letter + "A", total, total)
    assert bitmap.bits == bytes.fromhex(("A" * count).ljust(total * 2, "0"))
    assert notes == []


def test_guide_style_image_matches_uncompressed() -> None:
    rows = ["00000000", "0FF00FF0", "0FF00FF0", "FFFFFFFF", "F0000000", "00000000"]
    compressed = ",0FF00FF0:!F,,"
    plain, _ = gfa("".join(rows), 24, 4)
    packed, notes = gfa(compressed, 24, 4)
    assert notes == []
    assert packed == plain


# --------------------------------------------------------------------------- ZB64


def test_z64_with_crc() -> None:
    raw = bytes(range(32))
    bitmap, notes = gfa(zb64("Z64", raw), 32, 4)
    assert bitmap.bits == raw
    assert notes == []


def test_z64_lowercase_crc_and_line_breaks() -> None:
    raw = bytes(range(100, 116))
    text = zb64("Z64", raw).decode()
    head, body, crc = text[:5], text[5:-5], text[-4:]
    data = f"{head}\n{body[:5]}\r\n{body[5:]}:{crc.lower()}\n"
    bitmap, notes = gfa(data, 16, 2)
    assert bitmap.bits == raw
    assert notes == []


def test_z64_without_crc() -> None:
    raw = b"\xaa\x55" * 8
    for data in (zb64("Z64", raw, crc=None), zb64("Z64", raw, crc=None) + b":"):
        bitmap, notes = gfa(data, 16, 2)
        assert bitmap.bits == raw
        assert notes == []


def test_z64_corpus_sample() -> None:
    # A 4-byte-wide ^GFA from a real carrier label (CRC B34C is right for this text).
    bitmap, notes = gfa(":Z64:\neJxjYKA3kG+gHSYdAABtvQ5K:B34C", 256, 4)
    assert notes == []
    assert bitmap.height == 64
    assert any(bitmap.bits)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (zb64("Z64", b"\x01" * 8, crc="0000"), "Z64 CRC mismatch"),
        (zb64("B64", b"\x01" * 8, crc="FFFF"), "B64 CRC mismatch"),
        (zb64("Z64", b"\x01" * 8, crc="12X4"), "4 hex digits"),
        (b":Z64:!!!notbase64", "not valid base64"),
        (b":Z64:" + base64.b64encode(b"not zlib at all"), "not valid zlib"),
    ],
    ids=["z64-bad-crc", "b64-bad-crc", "malformed-crc", "bad-base64", "bad-zlib"],
)
def test_zb64_errors(data: bytes, message: str) -> None:
    with pytest.raises(GraphicDataError, match=message):
        gfa(data, 8, 1)


def test_b64() -> None:
    raw = bytes([0x80, 0x01, 0xFF, 0x00])
    bitmap, notes = gfa(zb64("B64", raw), 4, 2)
    assert bitmap.bits == raw
    assert notes == []


def test_z64_short_and_long() -> None:
    bitmap, notes = gfa(zb64("Z64", b"\xff" * 3), 4, 2)
    assert bitmap.bits == b"\xff\xff\xff\x00"
    assert any("shorter" in n for n in notes)
    bitmap, notes = gfa(zb64("Z64", b"\xff" * 9), 4, 2)
    assert bitmap.bits == b"\xff" * 4
    assert any("truncated" in n for n in notes)


# --------------------------------------------------------------------------- ^GF B / C


# (id, fmt, data, total, bpr, expected bits, warning fragment)
BINARY_CASES = [
    ("exact", "B", b"\x00\xff^~", 4, 2, b"\x00\xff^~", ""),
    ("short", "B", b"\x81", 2, 1, b"\x81\x00", "shorter"),
    ("long", "B", b"\x81\x82\x83", 2, 1, b"\x81\x82", "truncated"),
    ("lowercase fmt", "b", b"\x0f", 1, 1, b"\x0f", ""),
    ("compressed binary", "C", b"\x12\x34", 2, 2, b"\x12\x34", "proprietary"),
]


@pytest.mark.parametrize(
    ("fmt", "data", "total", "bpr", "expected", "warning"),
    [case[1:] for case in BINARY_CASES],
    ids=[case[0] for case in BINARY_CASES],
)
def test_binary_graphic_field(
    fmt: str, data: bytes, total: int, bpr: int, expected: bytes, warning: str
) -> None:
    bitmap, notes = decode_graphic_field(fmt, len(data), total, bpr, data, CAP)
    assert bitmap.bits == expected
    if warning:
        assert any(warning in n for n in notes), notes
    else:
        assert notes == []


@pytest.mark.parametrize(
    ("fmt", "total", "bpr", "message"),
    [
        ("X", 1, 1, "compression type"),
        ("A", 1, 0, "bytes per row"),
        ("A", 0, 1, "byte count"),
        ("A", -5, 1, "byte count"),
    ],
)
def test_bad_parameters(fmt: str, total: int, bpr: int, message: str) -> None:
    with pytest.raises(GraphicDataError, match=message):
        decode_graphic_field(fmt, total, total, bpr, b"FF", CAP)


def test_to_image_ink_is_255() -> None:
    bitmap = Bitmap(8, 2, b"\x80\x01")
    image = bitmap.to_image()
    assert image.mode == "L"
    assert image.size == (8, 2)
    assert image.getpixel((0, 0)) == 255
    assert image.getpixel((1, 0)) == 0
    assert image.getpixel((7, 1)) == 255
    assert bitmap.bytes_per_row == 1


def test_bitmap_checks_length() -> None:
    with pytest.raises(ValueError, match="needs 2 bytes"):
        Bitmap(8, 2, b"\x00")


# --------------------------------------------------------------------------- ~DG / ~DY


@pytest.mark.parametrize(
    ("data", "bpr", "expected"),
    [
        (b"J03C01E,::", 6, bytes.fromhex("00003C01E000") * 3),
        (b"007ffc00\n007ffc00\n00701c00\n", 4, bytes.fromhex("007FFC00007FFC0000701C00")),
        (zb64("Z64", b"\x3c" * 12), 4, b"\x3c" * 12),
    ],
    ids=["rle", "lowercase-lines", "z64"],
)
def test_download_graphic(data: bytes, bpr: int, expected: bytes) -> None:
    bitmap, notes = decode_download_graphic(len(expected), bpr, data, CAP)
    assert bitmap.bits == expected
    assert notes == []


def test_download_object_grf() -> None:
    for fmt, data in (("A", b"F0F0,:"), ("B", b"\xf0\xf0\x00\x00\xf0\xf0\x00\x00")):
        bitmap, notes = decode_download_object(fmt, "G", 8, 4, data, CAP)
        assert isinstance(bitmap, Bitmap)
        assert bitmap.bits == bytes.fromhex("F0F00000F0F00000")
        assert notes == []


def _test_png() -> tuple[bytes, bytes]:
    """A 10x3 RGBA PNG and the bitmap it should give (2 bytes per row)."""
    image = Image.new("RGBA", (10, 3), (255, 255, 255, 255))
    image.putpixel((0, 0), (0, 0, 0, 255))  # black: ink
    image.putpixel((9, 0), (100, 100, 100, 255))  # dark grey: ink
    image.putpixel((1, 1), (200, 200, 200, 255))  # light grey: paper
    image.putpixel((2, 1), (0, 0, 0, 0))  # transparent black: paper
    image.putpixel((8, 2), (0, 0, 0, 255))
    return png_bytes(image), bytes([0x80, 0x40, 0x00, 0x00, 0x00, 0x80])


@pytest.mark.parametrize("encoding", ["binary", "hex", "z64", "png-format"])
def test_download_object_png(encoding: str) -> None:
    png, expected = _test_png()
    if encoding == "binary":
        fmt, data = "B", png
    elif encoding == "hex":
        fmt, data = "A", png.hex().encode()
    elif encoding == "z64":
        fmt, data = "A", zb64("Z64", png)
    else:
        fmt, data = "P", zb64("B64", png)
    result, notes = decode_download_object(fmt, "P", len(png), 0, data, CAP)
    assert isinstance(result, Bitmap)
    assert (result.width, result.height) == (16, 3)
    assert result.bits == expected
    assert notes == []


def test_download_object_png_palette_with_transparency() -> None:
    image = Image.new("P", (8, 1), 0)
    image.putpalette([255, 255, 255, 0, 0, 0])
    image.putpixel((0, 0), 1)
    image.putpixel((1, 0), 1)
    image.info["transparency"] = 1
    png = png_bytes(image)
    result, _ = decode_download_object("B", "P", len(png), 0, png, CAP)
    assert isinstance(result, Bitmap)
    assert result.bits == b"\x00"


def test_download_object_png_caps() -> None:
    png = png_bytes(Image.new("1", (4000, 4000), 1))
    with pytest.raises(GraphicDataError, match="1000000-pixel cap"):
        decode_download_object("B", "P", len(png), 0, png, CAP, max_png_pixels=1_000_000)
    with pytest.raises(GraphicDataError, match="100000-byte cap"):
        decode_download_object("B", "P", 0, 0, png, 100_000)


@pytest.mark.parametrize(
    ("fmt", "ext", "data", "message"),
    [
        ("B", "P", b"not a png", "PNG signature"),
        ("B", "P", b"\x89PNG\r\n\x1a\nbroken", "cannot decode PNG"),
        ("A", "X", b"00", "extension"),
        ("Q", "G", b"00", "data format"),
    ],
)
def test_download_object_errors(fmt: str, ext: str, data: bytes, message: str) -> None:
    with pytest.raises(GraphicDataError, match=message):
        decode_download_object(fmt, ext, 2, 1, data, CAP)


@pytest.mark.parametrize("ext", ["T", "E"])
def test_download_object_fonts_are_bytes(ext: str) -> None:
    font = b"\x00\x01\x00\x00fake font bytes"
    for fmt, data in (("B", font), ("A", font.hex().encode()), ("A", zb64("Z64", font))):
        result, notes = decode_download_object(fmt, ext, len(font), 0, data, CAP)
        assert result == font
        assert notes == []
    result, notes = decode_download_object("B", ext, 99, 0, font, CAP)
    assert result == font
    assert any("declared 99" in n for n in notes)


# --------------------------------------------------------------------------- safety


def zero_bomb(size: int) -> bytes:
    """zlib stream inflating to ``size`` (a MiB multiple) zero bytes, built in ~1 MiB of work.

    After a full flush the compressor keeps no history, so compressing another MiB of zeros
    gives the same bytes every time and that block can be repeated.
    """
    mib = 1 << 20
    chunk = bytes(mib)
    comp = zlib.compressobj(9)
    first = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    last = comp.compress(chunk) + comp.flush(zlib.Z_FINISH)
    stream = first + block * (size // mib - 2) + last
    # Adler-32 of n zero bytes: s1 stays 1, s2 = n mod 65521.
    return stream[:-4] + (((size % 65521) << 16) | 1).to_bytes(4, "big")


def test_zlib_bomb_is_rejected_fast() -> None:
    bomb = zero_bomb(1 << 30)
    text = base64.b64encode(bomb)
    data = b":Z64:" + text + b":" + f"{binascii.crc_hqx(text, 0):04X}".encode()
    start = time.perf_counter()
    with pytest.raises(GraphicDataError, match="decompresses past the 16777216-byte cap"):
        gfa(data, 1000, 10)
    assert time.perf_counter() - start < 2.0


def test_zero_bomb_helper_is_valid() -> None:
    assert len(zlib.decompress(zero_bomb(4 << 20))) == 4 << 20


def test_z64_output_between_declared_and_cap_is_truncated() -> None:
    bitmap, notes = gfa(zb64("Z64", bytes(1 << 20)), 100, 10)
    assert bitmap.bits == bytes(100)
    assert any("truncated" in n for n in notes)


@pytest.mark.parametrize(
    ("total", "bpr"),
    [(10**12, 100), (CAP + 1, 1), (CAP, 3)],
    ids=["terabyte", "one-past", "rounded-up-rows"],
)
def test_huge_declared_size(total: int, bpr: int) -> None:
    start = time.perf_counter()
    with pytest.raises(GraphicDataError, match=f"the {CAP}-byte cap"):
        gfa("zJF", total, bpr)
    with pytest.raises(GraphicDataError, match=f"the {CAP}-byte cap"):
        decode_download_graphic(total, bpr, b"FF", CAP)
    with pytest.raises(GraphicDataError, match=f"the {CAP}-byte cap"):
        decode_download_object("A", "G", total, bpr, b"FF", CAP)
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    "data",
    [
        (b"z" * 1_000_000 + b"F") * 20,
        b"zJF" * 2_000_000,
        b"F," + b":" * 3_000_000,
        b"!" * 3_000_000,
    ],
    ids=["long-repeat-prefix", "many-repeats", "many-colons", "many-bangs"],
)
def test_rle_bomb_is_bounded(data: bytes) -> None:
    start = time.perf_counter()
    bitmap, notes = gfa(data, 100_000, 1000)
    assert len(bitmap.bits) == 100_000
    assert any("truncated" in n for n in notes)
    assert time.perf_counter() - start < 2.0


# --------------------------------------------------------------------------- properties

_ALPHABET = "0123456789ABCDEFabcdefGHIJKLMNOPQRSTUVWXYghijklmnopqrstuvwxyz,!: \n:Z64B64=+/"


@settings(max_examples=300, deadline=None)
@given(
    fmt=st.sampled_from(["A", "B", "C", "", "a", "Z"]),
    total=st.integers(-2, 300),
    bpr=st.integers(-1, 40),
    text=st.one_of(
        st.text(alphabet=_ALPHABET, max_size=200),
        st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
        st.text(alphabet=_ALPHABET, max_size=100).map(lambda t: ":Z64:" + t),
        st.text(alphabet=_ALPHABET, max_size=100).map(lambda t: ":B64:" + t),
    ),
)
def test_random_graphic_field_only_raises_graphic_data_error(
    fmt: str, total: int, bpr: int, text: str
) -> None:
    data = text.encode("latin-1", "replace")
    try:
        bitmap, notes = decode_graphic_field(fmt, total, total, bpr, data, 4096)
    except GraphicDataError:
        return
    assert len(bitmap.bits) == bitmap.bytes_per_row * bitmap.height
    assert bitmap.bytes_per_row == bpr
    assert all(isinstance(n, str) for n in notes)


@settings(max_examples=200, deadline=None)
@given(
    fmt=st.sampled_from(["A", "B", "C", "P", "X"]),
    ext=st.sampled_from(["G", "P", "T", "E", "B"]),
    total=st.integers(-1, 300),
    bpr=st.integers(-1, 20),
    data=st.one_of(
        st.binary(max_size=200),
        st.binary(max_size=60).map(lambda b: b"\x89PNG\r\n\x1a\n" + b),
        st.binary(max_size=60).map(lambda b: zb64("Z64", b)),
    ),
)
def test_random_download_object_only_raises_graphic_data_error(
    fmt: str, ext: str, total: int, bpr: int, data: bytes
) -> None:
    try:
        decode_download_object(fmt, ext, total, bpr, data, 4096)
        decode_download_graphic(total, bpr, data, 4096)
    except GraphicDataError:
        pass
