"""Name badges and visitor passes: the largest line of words is the person's name."""

from __future__ import annotations

import pytest

from labelrender.synth.engine import SynthesisRequest, make_engine

ENGINE = make_engine("heuristic")


def _values(fields: str) -> dict[str, str]:
    zpl = f"^XA^CI28^PW812^LL1218{fields}^XZ"
    return ENGINE.synthesize(SynthesisRequest(zpl)).draft.values


def test_a_visitors_pass_names_the_visitor() -> None:
    values = _values("^FO20,12^A0N,34,34^FDBESÖKARE / VISITOR^FS"
                     "^FO20,92^A0N,40,40^FDErik Johansson^FS"
                     "^FO20,138^A0N,24,24^FDNordvik Trading AB^FS")
    assert values["visitor_name"] == "Erik Johansson"
    assert values["company"] == "Nordvik Trading AB"


def test_the_hours_on_a_visitors_pass_are_when_it_is_valid() -> None:
    # As the probe dev_pt_cracha_visitante: "VÁLIDO" over the hours of the visit.
    values = _values("^FO556,24^A0N,30,30^FDVISITANTE^FS^FO20,130^A0N,56,56^FDRui Carvalho^FS"
                     "^FO30,340^A0N,20,20^FDVÁLIDO^FS^FO30,364^A0N,26,26^FD09:30 - 18:00^FS")
    assert values["valid_time"] == "09:30 - 18:00"


def test_a_conference_badge_splits_a_given_name_over_the_surname() -> None:
    values = _values("^FO30,12^A0N,26,26^FDEUROPEAN LOGISTICS SUMMIT 2026^FS"
                     "^FO30,110^A0N,80,80^FDAnnelies^FS^FO30,196^A0N,44,44^FDvan der Berg^FS"
                     "^FO30,512^A0N,76,76^FDSPEAKER^FS")
    assert (values["first_name"], values["last_name"], values["attendee_type"]) == (
        "Annelies", "van der Berg", "SPEAKER")


def test_without_a_badge_word_a_large_name_is_left_alone() -> None:
    values = _values("^FO20,92^A0N,40,40^FDErik Johansson^FS^FO20,200^A0N,30,30^FD$12.99^FS")
    assert "visitor_name" not in values and "attendee_name" not in values


@pytest.mark.parametrize("title", ["Head of Network Planning", "Principal Platform Engineer",
                                   "Kierownik ds. Optymalizacji Magazynów"])
def test_a_job_title_under_the_name_on_a_badge(title: str) -> None:
    # As the written conference badges: name, then the title, then the company.
    values = _values("^FO30,18^A0N,26,26^FDCASCADIA CLOUD SUMMIT 2026^FS"
                     "^FO30,150^A0N,80,80^FDPriya^FS^FO30,250^A0N,50,50^FDRamaswamy-Hughes^FS"
                     f"^FO30,318^A0N,28,28^FD{title}^FS"
                     "^FO40,500^A0N,60,60^FDSPEAKER^FS")
    assert values.get("job_title") == title


@pytest.mark.parametrize(("heading", "data", "name"), [
    ("VISITANTE", "V2611-0193", "pass_number"),
    ("BESÖKARE / VISITOR", "V2611254471", "pass_number"),
    ("VISITANTE", "V2611-0193|Rui Carvalho|Piso 3", "code39_data"),  # a record, no number
    ("OSPITE", "V2611-0193", "code39_data"),  # a hotel's guest, no visitor's pass
])
def test_the_code_on_a_visitors_pass_is_the_pass_number(
        heading: str, data: str, name: str) -> None:
    # As the probe dev_pt_cracha_visitante: the pass's word, the visitor, and its Code 39.
    values = _values(f"^FO556,24^A0N,30,30^FD{heading}^FS^FO20,130^A0N,56,56^FDRui Carvalho^FS"
                     f"^FO30,420^B3N,N,80,N,N^FD{data}^FS")
    assert {key for key, value in values.items() if value == data} == {name}
