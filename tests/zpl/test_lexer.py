"""Lexer: commands, prefixes, offsets and raw data."""

from __future__ import annotations

import pytest

from labelrender.zpl.lexer import tokenize


def names(data: bytes) -> list[tuple[str, str]]:
    return [(c.code, c.params) for c in tokenize(data)]


@pytest.mark.parametrize(
    ("zpl", "expected"),
    [
        (b"^XA^FO10,20^FDHi^FS^XZ",
         [("^XA", ""), ("^FO", "10,20"), ("^FD", "Hi"), ("^FS", ""), ("^XZ", "")]),
        # ^A takes the font letter as a parameter; ^A@ is its own command.
        (b"^A0N,30,40^ADR^A@N,10,10,E:X.TTF",
         [("^A", "0N,30,40"), ("^A", "DR"), ("^A@", "N,10,10,E:X.TTF")]),
        # Lower-case command names are accepted, CR/LF inside parameters dropped.
        (b"^xa^fo1,\r\n2^xz", [("^XA", ""), ("^FO", "1,2"), ("^XZ", "")]),
        # Field data keeps its spaces and a tilde is text inside it.
        (b"^FD a ~ b ^FS", [("^FD", " a ~ b "), ("^FS", "")]),
        # ^CC changes the format prefix from the next character on.
        (b"^CC+ +FO1,2+FDx^y+FS", [("^CC", "+"), ("^FO", "1,2"), ("^FD", "x^y"), ("^FS", "")]),
        # ~CT changes the control prefix.
        (b"~CT# #DGA,1,1,FF", [("~CT", "#"), ("~DG", "A,1,1,FF")]),
        # Text before the first prefix is ignored.
        (b"garbage^XA", [("^XA", "")]),
    ],
)
def test_commands(zpl: bytes, expected: list[tuple[str, str]]) -> None:
    assert names(zpl) == expected


def test_offsets_are_byte_offsets() -> None:
    commands = tokenize(b"^XA\n^FO1,1^FD\xc3\xa9^FS")
    assert [c.offset for c in commands] == [0, 4, 10, 15]


def test_binary_graphic_field_may_contain_prefixes() -> None:
    commands = tokenize(b"^GFB,4,4,1,^^~~^FS")
    assert [c.code for c in commands] == ["^GF", "^FS"]
    assert commands[0].params.endswith("^^~~")
