"""One placeholder per field: a text and its barcode share one, equal samples do not.

Built from real labels: on glscz the consignee's and the sender's town lines hold the
same sample ("2351 Alsónémedi"), on dhl_home_delivery the sender's and the
recipient's phones do ("0700112233"). Each must stay its own field, or the template
could never print two different towns or phones.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labelrender.synth.engine import SynthesisRequest, make_engine
from labelrender.zpl.lexer import Lexer

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "labelary" / "carriers"
ENGINE = make_engine("heuristic")


def field_indexes(body: str) -> list[tuple[int, int, int | None]]:
    """Each field of a draft body: x, y and its ^FN index (None when static)."""
    out: list[tuple[int, int, int | None]] = []
    x = y = 0
    data, index = False, None
    for command in Lexer(body.encode("utf-8")):
        if command.name in ("FO", "FT"):
            numbers = [int(n) for n in re.findall(r"-?\d+", command.params)[:2]] + [0, 0]
            x, y = numbers[0], numbers[1]
        elif command.name in ("FD", "FV"):
            data = True
        elif command.name == "FN":
            index = int(re.match(r"\d+", command.params).group(0))  # type: ignore[union-attr]
        elif command.name == "FS":
            if data or index is not None:
                out.append((x, y, index))
            data, index = False, None
    return out


def index_at(body: str, x: int, y: int) -> int | None:
    found = [i for fx, fy, i in field_indexes(body) if (fx, fy) == (x, y)]
    assert found, f"no field at {x},{y}"
    return found[0]


GLS_LIKE = """^XA^CI28^PW800^LL1200
^FO213,175^A0N,28^FDConsignee:^FS
^FO213,207^A0N,40^FDSzerencse Sziget Lottózó^FS
^FO213,253^A0N,30^FDFő út 4 /a^FS
^FO213,285^A0N,30^FD2351 Alsónémedi^FS
^FO213,319^A0N,30^FDHU - Magyarország^FS
^FO213,399^A0N,28^FDSender:^FS
^FO213,430^A0N,30^FDPickup Address^FS
^FO213,467^A0N,30^FDEurópa u. 2 /a^FS
^FO213,500^A0N,30^FD2351 Alsónémedi^FS
^FO213,529^A0N,30^FDHU - Magyarország^FS
^XZ"""

DHL_LIKE = """^XA^PW812^LL1624
^FO10,90^A0N,22^FDFrom:^FS
^FO20,110^A0N,22^FDPICKUP NAME^FS
^FO20,135^A0N,22^FDPICKUP STREETADDRESS 1^FS
^FO20,160^A0N,22^FD70230 OREBRO^FS
^FO610,120^A0N,22^FDPhone:^FS
^FO610,145^A0N,22^FD0700112233^FS
^FO25,250^A0N,22^FDTo:^FS
^FO35,275^A0N,28^FDRECEIVER NAME^FS
^FO35,305^A0N,28^FDRECEIVER ADDRESS 1^FS
^FO35,365^A0N,28^FD69430 HALLSBERG^FS
^FO610,275^A0N,22^FDPhone:^FS
^FO610,300^A0N,22^FD0700112233^FS
^XZ"""


@pytest.mark.parametrize(("zpl", "first", "second"), [
    (GLS_LIKE, (213, 285), (213, 500)),
    (GLS_LIKE, (213, 319), (213, 529)),
    (DHL_LIKE, (610, 145), (610, 300)),
], ids=["glscz-like towns", "glscz-like countries", "dhl-home-delivery-like phones"])
def test_equal_samples_of_two_fields_stay_two_placeholders(
        zpl: str, first: tuple[int, int], second: tuple[int, int]) -> None:
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    a, b = index_at(draft.body, *first), index_at(draft.body, *second)
    assert a is not None and b is not None
    assert a != b
    names = {i: n for n, i in draft.field_map.items()}
    assert draft.values[names[a]] == draft.values[names[b]]


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"carrier corpus not found at {CORPUS}")
@pytest.mark.parametrize(("label", "first", "second"), [
    ("glscz", (213, 285), (213, 500)),
    ("dhl_home_delivery", (610, 145), (610, 300)),
])
def test_real_labels_keep_equal_fields_apart(label: str, first: tuple[int, int],
                                             second: tuple[int, int]) -> None:
    zpl = (CORPUS / f"{label}.zpl").read_text(encoding="utf-8")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    a, b = index_at(draft.body, *first), index_at(draft.body, *second)
    assert a is not None and b is not None and a != b


def test_a_text_and_its_barcode_share_one_placeholder() -> None:
    zpl = ("^XA^FO40,40^A0N,30^FDTRACKING #^FS^FO40,80^A0N,40^FDJJD000390007123456^FS"
           "^FO40,140^BY2^BCN,100,N^FDJJD000390007123456^FS"
           "^FO500,140^BXN,5,200^FDJJD000390007123456^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    indexes = {i for _, _, i in field_indexes(draft.body) if i is not None}
    assert len(indexes) == 1 and len(draft.field_map) == 1


def test_text_over_printed_for_bold_is_one_placeholder() -> None:
    zpl = ("^XA^FO40,40^A0N,30^FDWeight:^FS^FO200,40^A0N,30^FD0.72 kg^FS"
           "^FO201,40^A0N,30^FD0.72 kg^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    indexes = [i for _, _, i in field_indexes(draft.body) if i is not None]
    assert len(indexes) == 2 and len(set(indexes)) == 1


@pytest.mark.parametrize("text", ["PO# 4500012345", "PO: 4500012345", "P.O. NUMBER 4500012345"])
def test_a_captioned_number_and_its_code_39_share_one_placeholder(text: str) -> None:
    # The caption stays static; the number beside it is the barcode's value, so a
    # reprint never prints the old number beside the new barcode.
    zpl = (f"^XA^PW812^LL1218^FO50,50^A0N,30^FD{text}^FS"
           "^FO50,100^B3N,N,80,Y,N^FD4500012345^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {"purchase_order": "4500012345"}
    assert f"^FD{text[:-len('4500012345')]}" in draft.body
