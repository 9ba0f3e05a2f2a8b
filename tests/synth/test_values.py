"""Values named by their own format or by a caption's words in more languages, whatever
layout they come in (from the probe labels of round fifteen, written to be studied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.synth import shapes
from labelrender.synth.engine import SynthesisRequest, make_engine

ENGINE = make_engine("heuristic")
LABELS = Path(__file__).resolve().parents[2] / "benchmarks" / "synthesis_labels"


def names(zpl: str) -> dict[str, str]:
    """Each placeholder's sample value, by name."""
    return dict(ENGINE.synthesize(SynthesisRequest(zpl)).draft.values)


def test_a_carriers_number_after_an_unknown_caption_is_the_tracking_number() -> None:
    # An IMpb whose check digit was not kept (as a hand-made label prints it) still reads
    # by its format: 92, then 20 digits.
    values = names("^XA^FO24,1104^A0N,26,24^FDUSPS # 9261 2903 3847 5512 0046 18^FS"
                   "^FO24,1134^A0N,26,24^FDREF 1: ORD 7730218^FS^XZ")
    assert values.get("tracking_number") == "USPS # 9261 2903 3847 5512 0046 18"


@pytest.mark.parametrize("caption", ["kW / HP", "KW/HP", "kW / hp"])
def test_one_measure_in_two_units_is_that_measure(caption: str) -> None:
    # A rating plate's "kW / HP" over "7.5 / 10": the power, never a phone.
    assert shapes.caption_name(caption) == ("power", 0.6)


@pytest.mark.parametrize("caption, name", [
    ("Predvidena dostava", "delivery_date"), ("Data dostawy", "delivery_date"),
    ("Teslim tarihi", "delivery_date"), ("Pakket", "pack_date"),
    ("Pakkauspäivä", "pack_date")])
def test_words_of_delivery_and_packing_in_more_languages_name_their_date(
        caption: str, name: str) -> None:
    assert shapes.event_date(caption) == name


@pytest.mark.parametrize("caption, name", [
    ("Eff", "efficiency"), ("FRAME", "frame_size"), ("Conn", "connection"),
    ("Encl", "enclosure"), ("Amb", "ambient_temperature"), ("S.F.", "service_factor"),
    ("Bearings", "bearings")])
def test_a_motors_plate_names_its_abbreviated_ratings(caption: str, name: str) -> None:
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize("line, name", [
    ("Val.: 24/01/2027", "expiry_date"), ("Manip.: 24/11/2026", "manufacture_date"),
    ("Fab.: 03/2026", "manufacture_date")])
def test_an_abbreviated_caption_before_a_date_says_which_date(line: str, name: str) -> None:
    # Validade, manipulação, fabricação: the words of Portuguese and Spanish labels
    values = names(f"^XA^CI28^FO20,20^A0N,26,24^FD{line}^FS^XZ")
    assert values.get(name) == line.split(": ", 1)[1]


@pytest.mark.parametrize("caption", ["Cód. postal", "Cod. postal"])
def test_a_postcodes_abbreviated_caption_is_no_cash_on_delivery(caption: str) -> None:
    assert shapes.caption_name(caption)[0] == "postal_code"


@pytest.mark.parametrize("line", ["F  12/07/1961", "K 1961-07-12"])
def test_a_date_of_the_last_century_after_the_sex_is_a_birth_date(line: str) -> None:
    # A blood tube's second line: the patient's sex and date of birth
    values = names(f"^XA^FO8,6^A0N,30,28^FDIPP 000418273^FS^FO186,36^A0N,24,22^FD{line}^FS^XZ")
    assert values.get("date_of_birth", "").endswith(line.split()[-1])


def test_a_guessed_goods_name_goes_on_in_the_line_with_its_model() -> None:
    # A shelf tag: the product's name in two lines of one print, the second with its
    # size and model; a sentence under it ("Keep dry.") would be the shop's own words.
    values = names(
        "^XA^PW609^LL305^FO12,10^A0N,30,28^FDMILLER'S ACE HARDWARE^FS"
        "^FO12,56^A0N,26,22^FDDeWalt 20V MAX XR Brushless^FS"
        "^FO12,86^A0N,26,22^FD1/2 in. Drill/Driver Kit DCD791D2^FS"
        "^FO12,122^A0N,20,20^FDSKU^FS^FO56,122^A0N,20,20^FD2467391^FS"
        "^FO384,240^A0N,24,24^FDReg. $199.00^FS^XZ")
    assert values.get("description_2") == "1/2 in. Drill/Driver Kit DCD791D2"


def test_goods_named_with_their_strength_are_the_description() -> None:
    # A chemical's bottle: what it is and how strong, under the lab's own heading
    zpl = (LABELS / "dev_gb_lab_chemical_bottle_coshh.zpl").read_text(encoding="utf-8")
    assert names(zpl).get("description") == "Hydrochloric acid 37%"


def test_a_korean_cosmetics_box_names_its_batch_destination_and_volume() -> None:
    # 제조번호 (the maker's batch, printed on every Korean cosmetics box), 출고처 (where
    # the box is sent), 용량 over millilitres: the volume, not a battery's capacity
    values = names(
        "^XA^CI28^PW812^LL609^FO32,186^A0N,22,20^FD품번^FS^FO150,182^A0N,28,26^FDSD-HC-050^FS"
        "^FO430,186^A0N,22,20^FD용량^FS^FO520,182^A0N,28,26^FD50 mL^FS"
        "^FO32,276^A0N,22,20^FD제조번호^FS^FO150,272^A0N,28,26^FDB6K2507^FS"
        "^FO430,276^A0N,22,20^FD제조일자^FS^FO540,272^A0N,28,26^FD2026.11.18^FS"
        "^FO660,364^A0B,20,18^FD출고처: 올리브영 남부물류센터^FS^XZ")
    assert values.get("lot_number") == "B6K2507"
    assert values.get("volume") == "50 mL"
    assert values.get("destination") == "올리브영 남부물류센터"


@pytest.mark.parametrize("caption, name", [("Your ref: KC-14402", "tracking_number"),
                                           ("SSCC", "sscc")])
def test_a_parcels_number_in_the_form_of_an_sscc_is_its_tracking_number(
        caption: str, name: str) -> None:
    # NZ Post numbers its parcels with SSCCs; a label that says "SSCC" is a logistics one
    values = names(
        "^XA^PW812^LL1218^FO20,120^A0N,26,24^FDTO:^FS^FO20,156^A0N,30,28^FDMr Tane Walker^FS"
        "^FO20,194^A0N,30,28^FD46 Grey Street^FS^FO20,266^A0N,30,28^FDHamilton 3204^FS"
        "^FO60,384^BY3^BCN,180,N,N,N^FD00794211000356784215^FS"
        "^FO110,590^A0N,30,28^FD007 9421 1000 3567 8421 5^FS"
        f"^FO20,890^A0N,24,22^FD{caption}^FS^XZ")
    assert "007 9421 1000 3567 8421 5" in (values.get(name), values.get(f"{name}_2"))
