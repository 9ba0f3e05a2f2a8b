"""fill_body and placeholder_indexes: what a template body becomes with values in it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from labelrender.synth.fill import (
    FieldValuesError,
    PlaceholderError,
    fill_body,
    placeholder_indexes,
)
from labelrender.zpl import render
from labelrender.zpl.lexer import tokenize


def pixels(zpl: str) -> bytes:
    result = render(zpl)
    return Image.open(io.BytesIO(result.png)).convert("L").tobytes()


@pytest.mark.parametrize(("body", "expected"), [
    ("^XA^FO10,10^A0N,30^FN1^FS^XZ", {1}),
    ("^XA^FO10,10^FN1^FS^FO10,60^BCN,50^FN1^FD>;^FS^FO9,9^FN12^FS^XZ", {1, 12}),
    ("^XA^FN7\"Consignee\"^FS^XZ", {7}),
    ("^XA^CC+^FO10,10+FN4+FS^FN5^FS+XZ", {4}),  # after ^CC+ a caret is plain data
    ("~CC!^XA!FO10,10!FN3!FS!XZ", {3}),
    ("^XA^CT#^FO1,1^FN2^FS#FN8^XZ", {2}),  # ~CT changes the control prefix only
    ("^XA^FO10,10^FDFN3 is text^FS^XZ", set()),
    ("^XA^FO10,10^FN^FS^XZ", set()),  # no number: not a placeholder
    ("", set()),
])
def test_placeholder_indexes(body: str, expected: set[int]) -> None:
    assert placeholder_indexes(body) == expected


# body, field map, values, a hand-written label that must print the same
FILLS = [
    pytest.param(
        "^XA^FO50,50^A0N,40^FN1^FS^XZ", {"name": 1}, {"name": "ACME Corp"},
        "^XA^FO50,50^A0N,40^FDACME Corp^FS^XZ", id="text"),
    pytest.param(
        "^XA^FO50,50^A0N,40^FN1^FS^FO50,120^BCN,80,Y,N,N^FN1^FD>:^FS^XZ",
        {"tracking": 1}, {"tracking": "1Z999AA10123456784"},
        "^XA^FO50,50^A0N,40^FD1Z999AA10123456784^FS"
        "^FO50,120^BCN,80,Y,N,N^FD>:1Z999AA10123456784^FS^XZ", id="one-field-twice"),
    pytest.param(
        "^XA^FO50,50^BQN,2,6^FN2^FDLA,^FS^FO400,50^BCN,80^FN3^FD>;^FS^XZ",
        {"url": 2, "order": 3}, {"url": "https://example.com/t?id=9", "order": "12345678"},
        "^XA^FO50,50^BQN,2,6^FDLA,https://example.com/t?id=9^FS"
        "^FO400,50^BCN,80^FD>;12345678^FS^XZ", id="format-prefixes"),
    pytest.param(
        "^XA^FO50,50^A0N,40^FN1^FS^XZ", {"note": 1}, {"note": "a^XZ^XA^FO0,0^GB800,800,800^FS"},
        "^XA^FO50,50^A0N,40^FH_^FDa_5EXZ_5EXA_5EFO0,0_5EGB800,800,800_5EFS^FS^XZ",
        id="caret-cannot-inject"),
    pytest.param(
        "^XA^FO50,50^A0N,40^FN1^FS^XZ", {"note": 1}, {"note": "50% ~JA off_now\r\n"},
        "^XA^FO50,50^A0N,40^FH^FD50% _7EJA off_5Fnow_0D_0A^FS^XZ",
        id="tilde-underscore-controls"),
    pytest.param(
        "^XA^CC++FO50,50+A0N,40+FN1+FS+XZ", {"note": 1}, {"note": "x+FS+GB800,800,800+FS"},
        "^XA^FO50,50^A0N,40^FDx+FS+GB800,800,800+FS^FS^XZ", id="changed-format-prefix"),
    pytest.param(
        "^XA^FO50,50^A0N,40^FH\\^FN1^FDRef: ^FS^XZ", {"ref": 1}, {"ref": "A\\B_C^D"},
        "^XA^FO50,50^A0N,40^FH^FDRef: A_5CB_5FC_5ED^FS^XZ",
        id="existing-fh-keeps-its-indicator"),
    pytest.param(
        "^XA^CI28^FO50,50^A0N,40^FN1^FS^XZ", {"city": 1}, {"city": "Zürich Łódź"},
        "^XA^CI28^FO50,50^A0N,40^FH^FDZ_C3_BCrich _C5_81_C3_B3d_C5_BA^FS^XZ",
        id="utf8-text"),
    pytest.param(
        "^XA^FO50,50^BXN,6,200^FN1^FS^XZ", {"gs1": 1}, {"gs1": "0109501101530003\x1d10ABC"},
        "^XA^FO50,50^BXN,6,200^FH^FD0109501101530003_1D10ABC^FS^XZ",
        id="barcode-control-character"),
]


@pytest.mark.parametrize(("body", "field_map", "values", "reference"), FILLS)
def test_filled_body_prints_like_the_reference(
    body: str, field_map: dict[str, int], values: dict[str, str], reference: str
) -> None:
    filled = fill_body(body, field_map, values)
    assert placeholder_indexes(filled) == set()
    assert pixels(filled) == pixels(reference)


def test_values_never_add_commands() -> None:
    body = "^XA^FO50,50^A0N,40^FN1^FS^FO50,150^BCN,80^FN2^FD>:^FS^XZ"
    hostile = "^XZ~JA^XA^FO0,0^GB800,800,800^FS~DGR:X.GRF,1,1,FF"
    filled = fill_body(body, {"a": 1, "b": 2}, {"a": hostile, "b": hostile})
    names = [command.name for command in tokenize(filled.encode())]
    assert names == ["XA", "FO", "A", "FH", "FD", "FS", "FO", "BC", "FH", "FD", "FS", "XZ"]


def test_the_escaped_value_is_printed_not_dropped() -> None:
    """A tilde or caret in a value prints; the box it tries to draw does not."""
    body = "^XA^FO50,50^A0N,40^FN1^FS^XZ"
    filled = fill_body(body, {"a": 1}, {"a": "^FO0,0^GB800,800,800^FS"})
    assert pixels(filled) != pixels("^XA^FO0,0^GB800,800,800^FS^XZ")
    assert pixels(filled) != pixels("^XA^XZ")


def test_unfilled_body_renders_on_its_own() -> None:
    body = ("^XA^FO50,50^A0N,40^FDSHIP TO:^FS^FO50,100^A0N,40^FN1^FS"
            "^FO50,200^BCN,80^FN2^FD>;^FS^FO400,200^BQN,2,5^FN3^FDQA,^FS^XZ")
    assert pixels(body) == pixels("^XA^FO50,50^A0N,40^FDSHIP TO:^FS^XZ")


@pytest.mark.parametrize(("values", "missing", "unknown", "not_text"), [
    ({}, ("a", "b", "c"), (), ()),
    ({"a": "1", "c": "3"}, ("b",), (), ()),
    ({"a": "1", "b": "2", "c": "3", "zz": "x", "yy": "y"}, (), ("yy", "zz"), ()),
    ({"a": "1", "b": 2, "d": "4"}, ("c",), ("d",), ("b",)),
])
def test_values_must_match_the_fields(
    values: dict[str, str], missing: tuple[str, ...], unknown: tuple[str, ...],
    not_text: tuple[str, ...],
) -> None:
    body = "^XA^FO1,1^FN1^FS^FO1,50^FN2^FS^FO1,99^FN3^FS^XZ"
    with pytest.raises(FieldValuesError) as caught:
        fill_body(body, {"a": 1, "b": 2, "c": 3}, values)
    assert (caught.value.missing, caught.value.unknown, caught.value.not_text) == (
        missing, unknown, not_text)
    assert isinstance(caught.value, ValueError)
    for name in missing + unknown + not_text:
        assert name in str(caught.value)


@pytest.mark.parametrize(("body", "field_map", "message"), [
    ("^XA^FO1,1^FN1^FS^FO1,50^FN4^FS^FO1,60^FN5^FS^XZ", {"a": 1}, "^FN4, ^FN5"),
    ("^XA^FO1,1^FN1^FS^XZ", {"a": 1, "b": 1}, "both map to ^FN1"),
])
def test_placeholders_must_match_the_field_map(
    body: str, field_map: dict[str, int], message: str
) -> None:
    values = dict.fromkeys(field_map, "x")
    with pytest.raises(PlaceholderError, match=message.replace("^", r"\^")):
        fill_body(body, field_map, values)


def test_fill_keeps_everything_outside_placeholder_fields() -> None:
    body = "^XA\n^FO10,10^A0N,30^FDStatic ~ text^FS\n^FO10,60^A0N,30^FN1^FS\n^XZ"
    assert fill_body(body, {"a": 1}, {"a": "v"}) == (
        "^XA\n^FO10,10^A0N,30^FDStatic ~ text^FS\n^FO10,60^A0N,30^FDv^FS\n^XZ")
