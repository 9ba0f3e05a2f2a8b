"""Name badges and visitor passes: the largest line of words is the person's name."""

from __future__ import annotations

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


def test_a_conference_badge_splits_a_given_name_over_the_surname() -> None:
    values = _values("^FO30,12^A0N,26,26^FDEUROPEAN LOGISTICS SUMMIT 2026^FS"
                     "^FO30,110^A0N,80,80^FDAnnelies^FS^FO30,196^A0N,44,44^FDvan der Berg^FS"
                     "^FO30,512^A0N,76,76^FDSPEAKER^FS")
    assert (values["first_name"], values["last_name"], values["attendee_type"]) == (
        "Annelies", "van der Berg", "SPEAKER")


def test_without_a_badge_word_a_large_name_is_left_alone() -> None:
    values = _values("^FO20,92^A0N,40,40^FDErik Johansson^FS^FO20,200^A0N,30,30^FD$12.99^FS")
    assert "visitor_name" not in values and "attendee_name" not in values
