"""A ``^DF`` stored format with ``^XF`` recalls is synthesized into a template that keeps
the format's own ``^FN`` numbering, with names inferred and the first recall's values
as samples. Built from the corpus's templating label (labelize and zebrash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.synth.engine import SynthesisRequest, make_engine
from labelrender.synth.fill import fill_body, placeholder_indexes
from labelrender.synth.stored import read_stored_format
from labelrender.zpl import render

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
TEMPLATING = [CORPUS / "labelary" / "labelize-units" / "templating.zpl",
              CORPUS / "zebrash" / "templating.zpl"]
ENGINE = make_engine("heuristic")

# The corpus's templating label, as written there.
STORED = """^XA
^DFE:SAMPLE.ZPL^FS
^FO20,30^GB750,1100,4^FS
^FO30,40^ADN,36,20^FDShip to: ^FS
^FO30,260^ADN,18,10^FDPart number #^FS
^FO360,260^ADN,18,10^FDDescription: ^FS
^FO30,750^ADN,36,20^FDFrom: ^FS
^FO150,125^ADN,36,20^FN1^FS
^FO60,330^ADN,36,20^FN2^FS
^FO480,330^ADN,36,20^FN3^FS
^FO70,480^BY4^B3N,,200^FN4^FS
^FO150,800^ADN,36,20^FN5^FS
^XZ
^XA
^XFE:SAMPLE.ZPL
^FN1^FDAcme Printing^FS
^FN2^FD14042^FS
^FN3^FDScrew^FS
^FN4^FD12345678^FS
^FN5^FDMacks Fabricating^FS
^XZ
^XA
^XFE:SAMPLE.ZPL
^FN1^FDDummy Printing^FS
^FN2^FD111111^FS
^FN3^FDHammer^FS
^FN4^FD87654321^FS
^FN5^FDMacks Processing^FS
^XZ
"""
SAMPLES = {1: "Acme Printing", 2: "14042", 3: "Screw", 4: "12345678", 5: "Macks Fabricating"}


def assert_template_of_stored_format(zpl: str) -> None:
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    draft = result.draft
    # The format's own numbering, and the first recall's values as samples.
    assert sorted(draft.field_map.values()) == [1, 2, 3, 4, 5]
    assert placeholder_indexes(draft.body) == {1, 2, 3, 4, 5}
    assert {draft.field_map[name]: value for name, value in draft.values.items()} == SAMPLES
    assert "^DF" not in draft.body and "^XF" not in draft.body
    assert "^FDShip to: ^FS" in draft.body  # captions stay static
    # Filled with the samples, the body prints what the first recall printed.
    filled = fill_body(draft.body, draft.field_map, draft.values)
    assert render(filled).png == render(zpl).png
    assert any("stored format E:SAMPLE.ZPL" in w for w in result.warnings)
    assert result.confidence_components["round_trip"] == 1.0


def test_stored_format_becomes_a_template() -> None:
    assert_template_of_stored_format(STORED)


@pytest.mark.parametrize("path", TEMPLATING, ids=lambda p: p.parent.name)
def test_corpus_stored_formats_become_templates(path: Path) -> None:
    if not path.is_file():
        pytest.skip(f"corpus label not found at {path}")
    assert_template_of_stored_format(path.read_text(encoding="utf-8"))


def test_the_barcode_keeps_its_number_and_gets_a_name() -> None:
    draft = ENGINE.synthesize(SynthesisRequest(STORED)).draft
    names = {index: name for name, index in draft.field_map.items()}
    assert "^B3N,,200^FN4^FS" in draft.body
    assert not names[4].startswith("field_")


def test_one_number_in_a_text_and_its_barcode_is_one_field() -> None:
    zpl = ("^XA^DFR:PARCEL^FS^FO40,40^A0N,40^FN7^FS^FO40,100^BCN,80,N^FN7^FS"
           "^FO40,300^A0N,30^FDREF:^FS^FO120,300^A0N,30^FN2^FS^XZ"
           "^XA^XFR:PARCEL^FN7^FDJJD0003900071234^FS^FN2^FDPO-5521^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert sorted(draft.field_map.values()) == [2, 7]
    assert draft.body.count("^FN7") == 2
    filled = fill_body(draft.body, draft.field_map, draft.values)
    assert render(filled).png == render(zpl).png


def test_a_format_never_recalled_takes_its_defaults_as_samples() -> None:
    zpl = "^XA^DFR:PLAIN.ZPL^FS^FO40,40^A0N,40^FN1^FDDefault Name^FS^FO40,120^A0N,30^FN2^FS^XZ"
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    draft = result.draft
    assert {draft.field_map[n]: v for n, v in draft.values.items()} == {1: "Default Name", 2: ""}
    assert "Default Name" not in draft.body
    assert any("no ^XF recalls R:PLAIN.ZPL" in w for w in result.warnings)


def test_a_recall_names_the_format_as_the_printer_does() -> None:
    # ^XF without drive or extension recalls R:<name>.ZPL.
    zpl = "^XA^DFR:SHIP.ZPL^FS^FO40,40^A0N,40^FN1^FS^XZ^XA^XFSHIP^FN1^FDHello^FS^XZ"
    stored = read_stored_format(zpl)
    assert stored is not None and stored.samples == {1: "Hello"}


def test_a_stream_without_a_stored_format_is_read_as_before() -> None:
    assert read_stored_format("^XA^FO10,10^A0N,30^FDplain 1234^FS^XZ") is None


@pytest.mark.parametrize("zpl", [
    "^XA^DF^XZ", "^XA^DFR:X^FN^FS^XZ^XA^XF^XZ",
    "^XA^DFR:A^FO1,1^A0N,30^FN99999^FDx^FS^XZ^XA^XFR:A^FN99999^FDy^FS^XZ",
    "^XA^CC!!DFR:X!FO1,1!A0N,30!FN1!FS!XZ!XA!XFR:X!FN1!FDhello!FS!XZ",
])
def test_odd_stored_formats_give_drafts_that_check(zpl: str) -> None:
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert placeholder_indexes(draft.body) == set(draft.field_map.values())
    assert all(0 <= index <= 9999 for index in draft.field_map.values())
    fill_body(draft.body, draft.field_map, draft.values)
