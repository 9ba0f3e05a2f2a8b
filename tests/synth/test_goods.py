"""Labels of goods (product, shelf, bin, asset, lab): read as such, not as parcels.

Each label here is laid out as one of the hand-labelled development labels of
``benchmarks/synthesis_labels`` (zplkit's product, shelf, asset and bin labels, the
written specimen tube and GS1 case label), cut to the fields a rule is about.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.synth import goods
from labelrender.synth.classify import classify
from labelrender.synth.decision import Decision
from labelrender.synth.engine import SynthesisRequest, make_engine
from labelrender.synth.source import read_first_label

ENGINE = make_engine("heuristic")
LABELS = Path(__file__).resolve().parents[2] / "benchmarks" / "synthesis_labels"


def draft_values(zpl: str) -> dict[str, str]:
    return ENGINE.synthesize(SynthesisRequest(zpl)).draft.values


def one_line(text: str, height: int = 30) -> Decision:
    """How synthesis reads ``text`` printed alone in a line of its own."""
    return classify(read_first_label(f"^XA^FO30,300^A0N,{height},{height}^FD{text}^FS^XZ"))[0]


def test_a_product_label_gives_its_name_price_and_sku() -> None:
    # As zplkit's product_sku_2x1: name, SKU with its Code 128, price.
    values = draft_values(
        "^XA^PW406^LL203^FO20,20^A0N,28,28^FDM6 Titanium Bolt^FS"
        "^FO20,55^A0N,20,20^FDSKU: M6-TI-001^FS^FO20,85^BCN,70,Y,N,N^FDM6-TI-001^FS"
        "^FO320,20^A0N,40,40^FD$4.99^FS^XZ")
    assert values == {"description": "M6 Titanium Bolt", "sku": "M6-TI-001", "price": "$4.99"}


def test_a_heading_names_the_code_under_it() -> None:
    # As zplkit's sku_asset_2x1: "ASSET TAG" over a code printed and in Code 128.
    values = draft_values(
        "^XA^PW406^LL203^FO20,25^A0N,22,22^FDASSET TAG^FS^FO20,55^A0N,35,35^FDIT-LAP-0042^FS"
        "^FO20,100^BCN,60,N,N,N^FDIT-LAP-0042^FS^FO280,25^A0N,18,18^FDDept: ENG^FS"
        "^FO280,50^A0N,18,18^FD2026-01^FS^XZ")
    assert values == {"asset_number": "IT-LAP-0042", "department": "ENG", "date": "2026-01"}


def test_a_tube_of_a_patient_names_the_patient_and_the_specimen() -> None:
    # As the written lab_specimen_tube: a patient's record number marks the label.
    values = draft_values(
        "^XA^PW406^LL203^FO10,10^A0N,28,26^FDMUELLER, ANNA K^FS"
        "^FO10,45^A0N,20,18^FDMRN: 004417829^FS^FO10,75^BCN,56,N,N,N^FDS2611250073^FS"
        "^FO10,140^A0N,22,20^FDS2611250073^FS^XZ")
    assert values == {"patient_name": "MUELLER, ANNA K", "patient_id": "004417829",
                      "specimen_id": "S2611250073"}


def test_a_tube_known_a_patients_by_a_birth_date_after_the_sex_names_the_specimen() -> None:
    # As a French hospital's tube: the birth date after the sex marks the patient, and
    # the test printed down the side is no recipient's name.
    decisions = classify(read_first_label(
        "^XA^PW406^LL203^CFA,18,10^FO8,6^A0N,26,22^FDDUBOIS^FS^FO186,36^FDF  12/07/1961^FS"
        "^FO8,56^FDIPP 000418273^FS^FO190,56^FDNDA 262208541^FS"
        "^FO8,74^FDUF 2104 Cardio HC-B ch.412^FS^FO20,94^BY2,2.5^BCN,58,N,N,N^FD2611250417^FS"
        "^FO20,156^ADN,18,10^FD2611250417^FS^FO362,6^GB36,190,36^FS"
        "^FO368,20^A0R,30,26^FR^FDNFS^FS^FO368,110^A0R,22,20^FR^FD1/3^FS^XZ"))
    assert [d.name for d in decisions if d.text == "2611250417"] == ["specimen_id"] * 2

@pytest.mark.parametrize(("owner", "recipient"), [
    ("Własność Agrofrukt", ""), ("Eigendom van Veiling Westland", ""),
    ("Propriété de Fruits Rhône SA", ""),
    ("Własność Agrofrukt", "ODBIORCA: HURTOWNIA OWOCÓW TARCZYN"),
])
def test_a_crate_that_says_whose_property_it_is_carries_its_asset_number(
        owner: str, recipient: str) -> None:
    # As a Polish returnable crate: its number under the crate's caption and in Code 128,
    # the sender (and the recipient) after its caption with no address, and whose
    # property the crate is at the foot.
    decisions = classify(read_first_label(
        "^XA^CI28^PW812^LL609^FO200,120^A0N,22,22^FDNr skrzyni^FS"
        "^FO200,146^A0N,50,50^FDPL-SK-0041873^FS^FO200,252^A0N,28,28^FDE2 600x400x200^FS"
        "^FO200,342^A0N,24,24^FDNADAWCA: GOSP. SADOWNICZE KOWALCZYK^FS"
        f"^FO200,372^A0N,24,24^FD{recipient}^FS"
        "^FO220,450^BY3^BCN,80,N,N,N^FDPLSK0041873^FS^FO220,538^A0N,28,28^FDPLSK0041873^FS"
        f"^FO560,538^A0N,14,14^FD{owner}^FS^XZ".encode().decode("latin-1")))
    assert [d.name for d in decisions if "0041873" in d.text] == ["asset_number"] * 3

@pytest.mark.parametrize(("words", "name"), [
    ("ALLERGIE  Penicillin, Latex", "patient_id"),  # a patient's band: the patient's own
    ("Zentrallabor  KC, CRP", "specimen_id"),  # a tube the laboratory tests: the sample's
    ("Station 4B  Zi. 412", "specimen_id"),  # only a ward: a small label's, a tube's
    ("Apotheke  Ramipril 5 mg", "code128_data"),  # a pharmacy's: a code of unknown kind
])
def test_the_code_on_a_patients_label_is_the_samples_only_on_a_samples_label(
        words: str, name: str) -> None:
    # As the written dev_de_patientenarmband: the birth date after "geb." marks a
    # patient's label; what else it says tells a band from a tube.
    decisions = classify(read_first_label(
        "^XA^CI28^PW812^LL406^FO20,20^A0N,30,28^FDBrückner, Ingrid^FS"
        "^FO20,60^A0N,24,22^FDgeb. 14.03.1951   W^FS^FO20,100^BCN,60,N,N,N^FD61003274^FS"
        f"^FO20,200^A0N,24,22^FD{words}^FS^XZ".encode().decode("latin-1")))
    assert [d.name for d in decisions if d.text == "61003274"] == [name]

def test_the_number_of_a_specimen_printed_in_groups_is_the_specimens() -> None:
    # As a German hospital's serum tube: the sample's number under its bars in groups.
    decisions = classify(read_first_label(
        "^XA^PW406^LL203^FO10,10^A0N,28,26^FDMUELLER, ANNA K^FS"
        "^FO10,45^A0N,20,18^FDMRN: 004417829^FS^FO10,75^BCN,56,N,N,N^FD2611250417^FS"
        "^FO10,140^A0N,22,20^FD26 1125 0417^FS^XZ"))
    assert [(d.text, d.name) for d in decisions if "0417" in d.text] == [
        ("2611250417", "specimen_id"), ("26 1125 0417", "specimen_id")]


def test_a_bin_label_has_a_location_not_a_sort_code() -> None:
    # As zplkit's bin_storage_4x3: a large code and its row and bay.
    values = draft_values(
        "^XA^PW812^LL609^FO50,50^A0N,90,90^FDA-01^FS^FO280,70^A0N,40,40^FDRow A, Bay 01^FS"
        "^FO50,180^A0N,30,30^FDDesignated Items:^FS"
        "^FO50,225^A0N,25,25^FD- Electronic Components^FS^XZ")
    assert values["location"] == "A-01" and values["location_2"] == "Row A, Bay 01"
    assert "Designated Items:" not in values.values()


@pytest.mark.parametrize("static", [
    "Inspected: ______", "Hand wash cold. Dry flat.", "Retail Product Label", "NORDWEG",
    "Keep refrigerated", "EAN-13",
    "Löwen-Apotheke", "Clinique Vétérinaire du Bocage", "Lincoln Elementary Cafeteria",
    "À consommer de préférence avant le", "Mindestens haltbar bis zum",
])
def test_layout_text_on_a_label_of_goods_stays_static(static: str) -> None:
    values = draft_values(
        f"^XA^PW812^LL406^FO30,20^A0N,50,50^FDOrganic Coffee Beans^FS"
        f"^FO30,120^A0N,25,25^FD{static}^FS^FO550,20^A0N,50,50^FD$12.99^FS^XZ")
    assert values == {"description": "Organic Coffee Beans", "price": "$12.99"}


def test_dates_written_after_words_without_a_colon() -> None:
    # As zplkit's food_meal_prep_2x1.
    values = draft_values(
        "^XA^PW406^LL203^FO20,20^A0N,55,55^FDLunch - Salmon^FS"
        "^FO20,140^A0N,30,30^FDPrepped 1/28^FS^FO250,140^A0N,30,30^FDUse by 2/1^FS^XZ")
    assert values == {"description": "Lunch - Salmon", "date": "1/28", "expiry_date": "2/1"}


def test_gs1_case_label_columns_and_composite_symbol() -> None:
    # As the written gs1_case_label: captions over their values in two columns, and
    # a GS1-128 of a GTIN with its best-before date (a record, not a GTIN).
    values = draft_values(
        "^XA^PW812^LL1218^FO30,260^A0N,22,20^FDGTIN^FS^FO30,288^A0N,34,32^FD05012345678900^FS"
        "^FO500,260^A0N,22,20^FDCOUNT^FS^FO500,288^A0N,34,32^FD6^FS"
        "^FO30,344^A0N,22,20^FDBEST BEFORE (dd.mm.yy)^FS^FO30,372^A0N,34,32^FD24.05.27^FS"
        "^FO500,344^A0N,22,20^FDBATCH/LOT^FS^FO500,372^A0N,34,32^FDL26329B^FS"
        "^FO80,560^BY3^BCN,140,N,N,N^FD>;>8010501234567890015270524^FS^XZ")
    assert values == {"gtin": "05012345678900", "quantity": "6", "expiry_date": "24.05.27",
                      "lot_number": "L26329B", "barcode_data": "010501234567890015270524"}


def test_a_shipping_label_is_not_a_label_of_goods() -> None:
    label = read_first_label("^XA^FO30,30^A0N,25^FDSHIP TO:^FS^FO30,60^A0N,25^FDAnna Berg^FS"
                             "^FO30,90^A0N,25^FDStorgatan 1^FS^XZ")
    assert not goods.is_goods_label(classify(label))
    label = read_first_label("^XA^FO30,30^A0N,25^FDM6 Titanium Bolt^FS^XZ")
    assert goods.is_goods_label(classify(label))


def test_a_parcel_whose_blocks_were_missed_is_no_label_of_goods() -> None:
    # No address found, but a parcel number and a weight: words stay as they were.
    label = read_first_label("^XA^FO30,30^A0N,25^FDHeavy Freight Services^FS"
                             "^FO30,90^A0N,25^FDWeight: 12.5 kg^FS"
                             "^FO30,150^BCN,80,N^FD1Z999AA10123456780^FS^XZ")  # check digit wrong
    decisions = classify(label)
    assert not goods.is_goods_label(decisions)
    assert not any(d.name == "description" for d in decisions)


def test_a_makers_title_and_tagline_stay_static_over_a_product_line() -> None:
    # As the written fabric_roll_ticket and coffee_roaster_bag: a title in capitals,
    # a small tagline under it, then the product.
    values = draft_values(
        "^XA^PW812^LL406^FO20,16^A0N,40,38^FDTESSITURA ALBANI^FS"
        "^FO20,60^A0N,20,18^FDWeaving mill - Prato, Italia^FS"
        "^FO20,120^A0N,34,32^FDGabardine Stretch^FS"
        "^FO20,200^A0N,24,22^FDMOISTURE SENSITIVE DEVICES^FS"
        "^FO420,120^A0N,34,32^FD$24.90^FS^XZ")
    assert values == {"description": "Gabardine Stretch", "price": "$24.90"}


def test_data_identifiers_name_the_barcodes_and_the_values_they_repeat() -> None:
    # As the written aiag_b10_parts_label: each value printed, then in Code 39 with
    # its data identifier (P part, Q quantity, S serial).
    values = draft_values(
        "^XA^PW812^LL406^FO20,20^A0N,30^FD15-742118-C^FS^FO20,60^B3N,N,50,N,N^FDP15-742118-C^FS"
        "^FO20,130^A0N,30^FD600^FS^FO20,170^B3N,N,50,N,N^FDQ600^FS"
        "^FO20,240^A0N,30^FD4M0087733^FS^FO20,280^B3N,N,50,N,N^FDS4M0087733^FS^XZ")
    assert values == {"part_number": "15-742118-C", "part_number_2": "P15-742118-C",
                      "quantity": "600", "quantity_2": "Q600",
                      "serial_number": "4M0087733", "serial_number_2": "S4M0087733"}


def test_a_data_identifiers_barcode_whose_value_is_printed_otherwise_takes_its_name() -> None:
    # A reel: part and lot printed as their barcodes hold them, the count with its unit.
    values = draft_values(
        "^XA^PW812^LL406^FO20,20^A0N,30^FDGRM155R71C104KA88D^FS"
        "^FO20,60^BCN,40,N,N^FDPGRM155R71C104KA88D^FS"
        "^FO20,120^A0N,30^FD10000 ks^FS^FO20,160^BCN,40,N,N^FDQ10000^FS"
        "^FO400,120^A0N,30^FD2644A17^FS^FO400,160^BCN,40,N,N^FD1T2644A17^FS^XZ")
    assert values.get("quantity_2") == "Q10000" or values.get("quantity") == "Q10000"


@pytest.mark.parametrize(("footer", "name"), [
    ("Do not remove. Report loss: (555) 010-0142", "asset_number"),  # an asset tag
    ("Handle with care", "serial_number"),  # a code of goods, not a parcel's number
    ("Master bank - 1.0E6 cells/vial", "specimen_id"),  # a frozen vial of cells
    ("UMC Biobank - aliquot", "specimen_id"),
    ("Bodemmonster - koel bewaren", "specimen_id"),  # a soil sample, in Dutch
    ("Cespite - non rimuovere", "asset_number"),  # an asset tag, in Italian
])
def test_a_long_code_on_goods_is_no_tracking_number(footer: str, name: str) -> None:
    # As on the written fixed-asset tag: owner header, the code and its Code 128, room.
    values = draft_values(
        "^XA^PW406^LL203^FO40,9^A0N,26,24^FR^FDNORTHWIND COUNTY SCHOOLS^FS"
        "^FO40,52^BY2,3^BCN,70,N,N,N^FDNCS-0048213^FS^FO40,130^A0N,32,30^FDNCS-0048213^FS"
        f"^FO290,136^A0N,22,20^FDRM 214^FS^FO40,172^A0N,18,16^FD{footer}^FS^XZ")
    assert values[name] == "NCS-0048213"


def test_small_captions_above_codes_name_them_known_or_not() -> None:
    # As on the written steel coil tag: captions without a colon over their values.
    values = draft_values(
        "^XA^PW812^LL1218^FO40,40^A0N,44,40^FDNORDSTAHL WALZWERK^FS"
        "^FO40,140^A0N,22,20^FDCoil No.^FS^FO40,166^A0N,72,66^FDK6-204417^FS"
        "^FO40,250^A0N,22,20^FDHeat No.^FS^FO40,276^A0N,40,36^FD8N3152^FS"
        "^FO420,250^A0N,22,20^FDGrade^FS^FO420,276^A0N,40,36^FDS355MC^FS"
        "^FO420,512^A0N,22,20^FDGross weight^FS^FO420,538^A0N,48,44^FD24 455 kg^FS^XZ")
    assert values == {"coil_number": "K6-204417", "heat_number": "8N3152", "grade": "S355MC",
                      "weight": "24 455 kg"}  # a weight by its unit


@pytest.mark.parametrize("caption", ["Bundle No.", "Bund-Nr. / Bundle no."])
def test_a_bundle_number_over_its_code_names_it(caption: str) -> None:
    # As on an extrusion bundle tag: the bundle's number printed large under its caption.
    values = draft_values(
        "^XA^PW812^LL1218^FO20,20^A0N,30,28^FDSTRANGPRESSPROFILE / EXTRUSIONS^FS"
        f"^FO20,98^A0N,22,20^FD{caption}^FS^FO20,122^A0N,56,50^FDB26-118407^FS"
        "^FO20,184^BCN,90,N^FDB26118407^FS^XZ")
    assert values == {"bundle_number": "B26-118407", "bundle_number_2": "B26118407"}


def test_a_makers_name_over_the_product_does_not_name_it() -> None:
    values = draft_values("^XA^PW406^LL203^FO14,12^A0N,22,20^FDGRÜNHAND SAATGUT^FS"
                          "^FO14,40^A0N,38,34^FDTomate 'Ochsenherz'^FS"
                          "^FO14,90^A0N,22,20^FDLot: 2611-04^FS^FO14,120^A0N,22,20^FD"
                          "Best before: 12/2028^FS^XZ")
    assert values["description"] == "Tomate 'Ochsenherz'"


def test_a_barcode_of_a_printed_code_takes_its_name() -> None:
    # As on the steel coil tag: the Code 128 holds the coil number without its dash.
    values = draft_values(
        "^XA^PW812^LL1218^FO40,140^A0N,22,20^FDCoil No.^FS^FO40,166^A0N,72,66^FDK6-204417^FS"
        "^FO40,276^A0N,30,30^FDLength^FS^FO220,276^A0N,34,32^FD62.5 m^FS"
        "^FO80,760^BY3,3^BCN,120,N,N,N^FDK6204417^FS^XZ")
    assert values == {"coil_number": "K6-204417", "coil_number_2": "K6204417",
                      "length": "62.5 m"}


def test_a_caption_left_of_its_value_names_it_and_stays_static() -> None:
    # As on the written cable drum label: a column of captions, values to their right.
    values = draft_values(
        "^XA^PW812^LL1218^FO30,40^A0N,40,36^FDKABELWERK NORD^FS"
        "^FO30,200^A0N,24,22^FDCross-section^FS^FO260,192^A0N,60,54^FD5x16 mm²^FS"
        "^FO30,270^A0N,24,22^FDData logger^FS^FO260,264^A0N,40,36^FDTL-5521-0087^FS"
        "^FO30,330^A0N,24,22^FDLot^FS^FO260,326^A0N,30,28^FDB26-1187^FS^XZ")
    assert values == {"cross_section": "5x16 mm²", "serial_number": "TL-5521-0087",
                      "lot_number": "B26-1187"}


def test_words_under_a_small_caption_on_goods_are_its_value() -> None:
    # As on the written museum box and steel coil labels.
    values = draft_values(
        "^XA^PW812^LL406^FO40,20^A0N,40,36^FDHARTLEY MILL ARCHIVE^FS"
        "^FO40,100^A0N,22,20^FDCondition^FS^FO40,126^A0N,32,30^FDFair^FS"
        "^FO300,100^A0N,22,20^FDCustomer^FS^FO300,126^A0N,32,30^FDBrandt Rohrwerke GmbH^FS"
        "^FO40,200^A0N,22,20^FDWAS^FS^FO40,226^A0N,32,30^FDNOW^FS"
        "^FO40,300^A0N,22,20^FDLot^FS^FO40,326^A0N,32,30^FDB26-1187^FS^XZ")
    assert values == {"condition": "Fair", "customer_name": "Brandt Rohrwerke GmbH",
                      "lot_number": "B26-1187"}


def test_words_under_a_small_caption_on_a_parcel_stay_static() -> None:
    values = draft_values(
        "^XA^PW812^LL1218^FO40,200^A0N,24,24^FDShip To:^FS^FO40,230^A0N,30,30^FDKen Ito^FS"
        "^FO40,265^A0N,30,30^FD1-2-3 Ginza^FS^FO40,300^A0N,30,30^FDTokyo 104-0061^FS"
        "^FO40,500^A0N,22,20^FDService^FS^FO40,526^A0N,40,40^FDIntl Economy^FS^XZ")
    assert "Intl Economy" not in values.values()


def test_a_price_after_words_and_a_dated_line_beside_a_heading() -> None:
    # As on the written US grocery shelf tag.
    values = draft_values(
        "^XA^PW609^LL300^FO16,8^A0N,30,28^FDSALE PRICE^FS^FO400,12^A0N,22,20^FD"
        "Sale ends 12/01/26^FS^FO16,52^A0N,30,28^FDKraft Macaroni & Cheese^FS"
        "^FO130,110^A0N,22,20^FDReg $1.59^FS^FO410,52^A0N,96,80^FD$1.29^FS^XZ")
    assert values["date"] == "12/01/26"
    assert values["price"] == "$1.59" or values.get("price_2") == "$1.59"


@pytest.mark.parametrize(("body", "values"), [
    ("^FO20,20^A0N,30,30^FDProduct: Motor Assembly^FS^FO20,70^A0N,30,30^FDLot: 26-4471^FS"
     "^FO20,120^A0N,30,30^FDExp: 2027-05-31^FS",
     {"description": "Motor Assembly", "lot_number": "26-4471", "expiry_date": "2027-05-31"}),
    ("^FO20,20^A0N,22,22^FDProdukt / Product^FS^FO20,46^A0N,32,32^FDVerdünnung V-204^FS"
     "^FO20,120^A0N,30,30^FDLot: 26-4471^FS^FO20,170^A0N,30,30^FDEXP 2027-05-31^FS",
     {"description": "Verdünnung V-204", "lot_number": "26-4471", "expiry_date": "2027-05-31"}),
    ("^FO20,20^A0N,30,30^FDProduct: EXPRESS^FS^FO20,70^A0N,30,30^FDSHIP TO:^FS"
     "^FO20,110^A0N,30,30^FDJane Doe^FS^FO20,150^A0N,30,30^FD12 Main St^FS"
     "^FO20,190^A0N,30,30^FDSpringfield IL 62701^FS",
     {"ship_to_name": "Jane Doe", "ship_to_address_1": "12 Main St",
      "ship_to_postal_city": "Springfield IL 62701"})])
def test_a_product_caption_names_the_goods_but_is_a_parcels_service(
        body: str, values: dict[str, str]) -> None:
    zpl = f"^XA^PW812^LL406{body}^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == values


def test_a_patients_surname_in_capitals_then_given_name() -> None:
    zpl = ("^XA^PW812^LL406^FO20,20^A0N,30,30^FDKOWALCZYK Zofia^FS"
           "^FO20,70^A0N,26,26^FDPESEL 58030714864^FS^FO20,120^A0N,26,26^FDS26-14872^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {
        "patient_name": "KOWALCZYK Zofia", "patient_id": "58030714864",
        "specimen_id": "S26-14872"}


def test_a_pharmacy_label_names_the_prescriber() -> None:
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO12,8^A0N,22,22^FDLöwen-Apotheke^FS"
        "^FO12,64^A0N,28,28^FDIbuprofen 400 mg Filmtabletten^FS"
        "^FO12,100^A0N,22,22^FDMaria Dolores Sanchis Ferrer^FS"
        "^FO12,140^A0N,18,18^FDRx 264118^FS^FO400,140^A0N,18,18^FDDr Samuel Okafor^FS^XZ")
    assert values["prescriber"] == "Dr Samuel Okafor"


def test_a_recipient_after_its_caption_on_goods_is_no_makers_address() -> None:
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO20,20^A0N,40,40^FDLubrocut SX 540^FS"
        "^FO20,80^A0N,24,24^FDCharge: L2409-17^FS^FO20,110^A0N,24,24^FDMHD: 11/2028^FS"
        "^FO20,150^A0N,20,20^FDEmpfänger: Zahnradwerk Pfalz GmbH, Halle 2^FS"
        "^FO20,300^A0N,28,28^FDBig bag n° 0412^FS^XZ")
    assert values.get("ship_to_name") == "Zahnradwerk Pfalz GmbH, Halle 2"
    assert "Big bag n° 0412" in values.values()


def test_a_patient_samples_priority_is_data() -> None:
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO20,20^A0N,24,24^FDMUELLER, ANNA K^FS"
        "^FO20,50^A0N,20,20^FDMRN 00482913^FS^FO20,80^A0N,20,20^FDDOB 03/14/1961^FS"
        "^FO400,20^A0N,30,30^FDCITO^FS^XZ")
    assert values["priority"] == "CITO"


def test_the_tube_of_a_patients_sample_is_its_specimen_type() -> None:
    # As the written lab_specimen_tube: the tube's additive and volume under the name.
    values = draft_values(
        "^XA^PW406^LL203^FO10,10^A0N,28,26^FDMUELLER, ANNA K^FS"
        "^FO10,45^A0N,20,18^FDMRN: 004417829^FS^FO10,75^A0N,20,18^FDLAV 4mL^FS"
        "^FO200,75^A0N,20,18^FDS2611250073^FS^XZ")
    assert values["specimen_type"] == "LAV 4mL"


@pytest.mark.parametrize("line", ["KC, CRP, TSH, fT4", "Hemograma, VS, PCR", "CBC W/DIFF"])
def test_the_tests_ordered_on_a_patients_sample(line: str) -> None:
    # As the written lab_specimen_tube: the tests ordered beside the sample's number.
    values = draft_values(
        "^XA^CI28^PW406^LL203^FO10,10^A0N,28,26^FDMUELLER, ANNA K^FS"
        "^FO10,45^A0N,20,18^FDMRN: 004417829^FS^FO10,75^BCN,56,N,N,N^FDS2611250073^FS"
        f"^FO10,140^A0N,22,20^FDS2611250073^FS^FO220,140^A0N,22,20^FD{line}^FS^XZ")
    assert values["test"] == line


@pytest.mark.parametrize("depth", ["VL 6,4", "LV6.1 RV6.3 LA5.8 RA5.9", "FL 7.0 mm"])
def test_a_wheels_place_and_millimetres_on_a_tyre_label_is_its_tread_depth(depth: str) -> None:
    # As the probes de_reifenhotel_radsatz_etikett and dev_nl_bandenhotel: a tyre
    # store's label of a customer's set of wheels, the depth under "Profil (mm)".
    values = draft_values(
        "^XA^CI28^PW812^LL812^FO20,136^A0N,26,26^FDKunde: Martina Scholl^FS"
        "^FO20,168^A0N,30,30^FD235/55 R18 104H XL^FS^FO20,254^A0N,22,22^FDProfil (mm)^FS"
        f"^FO20,280^A0N,26,26^FD{depth}^FS^XZ")
    assert values["tread_depth"] == depth


def test_a_tyres_load_index_and_speed_symbol_is_no_voltage() -> None:
    # As the probe dev_cz_pneumatika_dot_tyden: "LI / SI" over "91V" beside the size.
    values = draft_values(
        "^XA^CI28^PW812^LL812^FO84,100^A0N,22,22^FDRozměr^FS^FO84,126^A0N,30,30^FD205/55 R16^FS"
        "^FO560,100^A0N,22,22^FDLI / SI^FS^FO560,126^A0N,30,30^FD91V^FS^XZ")
    assert values["load_index"] == "91V"


def test_an_appliance_code_and_its_barcode_take_the_captions_name() -> None:
    # As the written uk_pat_test_pass_label: "Appliance ID" beside the code, and the
    # code again in a Data Matrix: the caption says more than the symbology (and an
    # appliance's ID is its asset number, as integrators name it).
    values = draft_values(
        "^XA^PW406^LL203^FO8,48^A0N,20,18^FDAppliance ID^FS^FO140,46^A0N,26,24^FDEHT-00913^FS"
        "^FO300,120^BXN,4,200^FDEHT-00913^FS^XZ")
    assert values == {"asset_number": "EHT-00913"}


@pytest.mark.parametrize(("line", "name"), [
    ("97% CO 3% EA", "composition"), ("100% Merino Wool", "material")])
def test_what_goods_are_made_of_a_mix_or_one_material(line: str, name: str) -> None:
    # As the written garment_hang_tag and fr_engrais_sac_npk: percentages of a fibre.
    values = draft_values(
        "^XA^CI28^PW406^LL406^FO20,20^A0N,26,24^FDSlim Fit Chino^FS"
        "^FO20,60^A0N,20,18^FDSize: 32/34^FS^FO20,90^A0N,20,18^FDPrice: 59.90^FS"
        f"^FO20,120^A0N,20,18^FD{line}^FS^FO20,160^BEN,60,Y,N^FD400638133393^FS^XZ")
    assert values[name] == line


def test_an_orders_row_starts_with_its_number() -> None:
    # As the written us_multi_carton_consolidation: rows of order, cartons and weight.
    values = draft_values(
        "^XA^PW812^LL406^FO30,40^A0N,28,26^FDCONSOLIDATED SHIPMENT^FS"
        "^FO30,100^A0N,22,20^FDSO-558102  2 CTN  18.4 LB^FS"
        "^FO30,130^A0N,22,20^FDSO-558119  1 CTN   6.2 LB^FS^XZ")
    assert values.get("order_number") == "SO-558102  2 CTN  18.4 LB"


def test_a_count_of_goods_is_a_quantity_not_a_parcel_count() -> None:
    # A product label with its pieces counted: how many, not the parcel's "1 of 3".
    values = draft_values(
        "^XA^PW406^LL406^FO20,20^A0N,26,24^FDM6 Titanium Bolt^FS"
        "^FO20,55^A0N,20,18^FDSKU: M6-TI-001^FS^FO20,85^A0N,20,18^FDPrice: 4.99^FS"
        "^FO20,120^A0N,20,18^FDPieces: 4^FS^XZ")
    assert values.get("quantity") == "4"


def test_a_large_article_code_on_goods_is_its_part_number() -> None:
    # As the written cz_autodily_olejovy_filtr: the filter's code printed large.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO30,30^A0N,28,26^FDOlejový filtr / Oil filter^FS"
        "^FO30,80^A0N,90,80^FDMF 712/4^FS^FO30,200^A0N,22,20^FDEAN 8595123456786^FS"
        "^FO30,240^BEN,60,Y,N^FD859512345678^FS^FO400,200^A0N,22,20^FDCena: 189 Kč^FS^XZ")
    assert values.get("part_number") == "MF 712/4"


@pytest.mark.parametrize("line", ["3x täglich 1 Kapsel, alle 8 Stunden", "Durante 8 semanas",
                                  "Give 2.4 ml by mouth once daily with food."])
def test_how_to_take_a_medicine_is_its_dosage(line: str) -> None:
    # As the written eu_pharmacy_dispensing, es_farmacia_dispensacion and
    # vet_prescription_dispensing.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO14,14^A0N,24,22^FDApotheke am Markt - Rezept^FS"
        "^FO14,60^A0N,26,24^FDAmoxicillin 500 mg^FS"
        f"^FO14,100^A0N,22,20^FD{line}^FS^FO14,140^A0N,18,16^FDCh.-B.: 2611A^FS^XZ")
    assert values.get("dosage_instructions") == line


@pytest.mark.parametrize("line", ["Flacon 32 ml", "52 delen / 52 pieces"])
def test_how_much_a_pack_holds_is_its_quantity(line: str) -> None:
    # As the written fr_veterinaire_flacon_suspension and nl_speelgoed_doos_ce.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO14,14^A0N,30,28^FDSuspension buvable^FS"
        f"^FO14,60^A0N,22,20^FD{line}^FS^FO14,100^A0N,22,20^FDLot: 26A114^FS"
        "^FO14,140^A0N,22,20^FDEXP: 11/2027^FS^XZ")
    assert values.get("quantity") == line


def test_captions_in_two_languages_stay_layout() -> None:
    # As the written adr_orange_panel_ibc_label and nl_speelgoed_doos_ce: a class and a
    # packing group captioned in German and English over their values printed large,
    # and where the goods were made, in Dutch and English.
    values = draft_values(
        "^XA^CI28^PW812^LL812^FO30,30^A0N,40,40^FDVerdünnung V-204 Kunstharz^FS"
        "^FO460,150^A0N,24,24^FDADR Klasse / Class^FS^FO460,178^A0N,60,60^FD3^FS"
        "^FO680,150^A0N,24,24^FDVG / PG^FS^FO680,178^A0N,60,60^FDII^FS"
        "^FO30,300^A0N,22,22^FDGemaakt in Polen / Made in Poland^FS"
        "^FO30,340^A0N,22,22^FDArt.-Nr. 204-0010-1000^FS^XZ")
    assert not {"ADR Klasse / Class", "VG / PG", "Gemaakt in Polen / Made in Poland"} \
        & set(values.values())


@pytest.mark.parametrize("line", ["Piso 4 - Enfermaria 12", "Ward 7B Bed 3", "Quarto 12 Cama 2"])
def test_a_ward_and_bed_on_a_hospital_label_is_its_location(line: str) -> None:
    # As the written pt_hospital_identificacao_cama: the floor and ward over the patient.
    values = draft_values("^XA^CI28^PW812^LL406^FO30,30^A0N,30,30^FD" + line + "^FS"
                          "^FO30,80^A0N,40,40^FDMaria da Conceição Ferreira Lopes^FS"
                          "^FO30,140^A0N,26,26^FDLote: L2609-114^FS^XZ")
    assert values.get("location") == line


@pytest.mark.parametrize("line", ["Via Roma 48, 36012 Asiago (VI) - IT 05 123 CE",
                                  "Via dell'Artigianato 14 - 20851 Lissone (MB)"])
def test_the_owners_address_in_one_line_on_goods_stays_static(line: str) -> None:
    # As the written it_formaggio_forma_stagionatura and it_etichetta_lotto_vernice: the
    # maker's street, postcode and town in small print under its name.
    values = draft_values("^XA^CI28^PW812^LL406^FO14,10^A0N,24,24^FDCaseificio Alto^FS"
                          f"^FO14,38^A0N,16,16^FD{line}^FS"
                          "^FO14,80^A0N,40,40^FDAsiago DOP fresco^FS"
                          "^FO14,140^A0N,26,26^FDLotto: L2609-114^FS^XZ")
    assert line not in values.values()


@pytest.mark.parametrize("line", ["Forgalmazó: Fényvár Kft., 1097 Budapest, Gubacsi út 12",
                                  "Gyártja: Tisza-Paprika Kft., 6728 Szeged, Kenyérgyári út 4"])
def test_the_maker_after_its_caption_with_an_address_stays_static(line: str) -> None:
    # As the written hu_led_izzo_doboz and hu_fuszerpaprika_tasak: who sells or made the
    # goods, with their address, in small print at the foot.
    values = draft_values("^XA^CI28^PW812^LL812^FO20,102^A0N,30,30^FDLED fényforrás E27^FS"
                          "^FO20,422^A0N,22,22^FDCikkszám: FV-A60-0952-27^FS"
                          "^FO20,450^A0N,22,22^FDGyártási tétel: L2643^FS"
                          f"^FO20,650^A0N,16,16^FD{line}^FS^XZ")
    assert not any(line.endswith(v) for v in values.values())
    assert values.get("lot_number") == "L2643"


def test_a_packing_slips_columns_name_prices_and_garment_sizes() -> None:
    # As the probe dev_wh_ecom_packing_slip_en: a table of items under SKU / ITEM /
    # SIZE / QTY / PRICE; a sum's shape says money, the column says which.
    header = "".join(f"^FO{x},286^A0N,24,24^FD{t}^FS" for x, t in
                     ((40, "SKU"), (230, "ITEM"), (540, "SIZE"), (610, "QTY"), (680, "PRICE")))
    rows = "".join(
        f"^FO40,{y}^A0N,18,18^FD{sku}^FS^FO230,{y}^A0N,24,24^FD{item}^FS"
        f"^FO540,{y}^A0N,24,24^FD{size}^FS^FO620,{y}^A0N,24,24^FD{qty}^FS"
        f"^FO680,{y}^A0N,24,24^FD{price}^FS"
        for y, sku, item, size, qty, price in (
            (330, "TW-FLC-2208-NV", "Harbor fleece pullover, navy", "M", "1", "$64.00"),
            (370, "TW-SCK-0417-GY", "Merino trail socks, 3-pack", "L", "2", "$38.00")))
    values = draft_values("^XA^PW812^LL1218^FO30,132^A0N,22,22^FDSHIP TO^FS"
                          "^FO30,158^A0N,32,32^FDMegan Castellano^FS"
                          "^FO30,194^A0N,28,28^FD2217 Alder Creek Rd, Apt 4^FS"
                          "^FO30,228^A0N,28,28^FDBend, OR 97701^FS" + header + rows + "^XZ")
    assert values.get("size") == "M" and values.get("size_2") == "L"
    assert values.get("price_2") == "$38.00"


def test_an_item_caption_over_a_code_names_the_items_code() -> None:
    # As the probe dev_wh_lpn_license_plate_en: "ITEM" over "HX-2240-BLK", "QTY" over
    # "24 CS".
    values = draft_values("^XA^PW812^LL1218^FO44,462^A0N,30,30^FDITEM^FS"
                          "^FO44,500^A0N,48,48^FDHX-2240-BLK^FS^FO420,462^A0N,30,30^FDQTY^FS"
                          "^FO420,500^A0N,80,80^FD24 CS^FS^XZ")
    assert values.get("part_number") == "HX-2240-BLK"
    assert values.get("quantity") == "24 CS"


def test_a_valid_gtin_under_a_contents_caption_is_the_gtin() -> None:
    # As the probe dev_wh_gs1_pallet_label_sv: "INNEHÅLL (GTIN)" over the case's GTIN.
    values = draft_values("^XA^CI28^PW812^LL1218^FO30,262^A0N,24,24^FDINNEHÅLL (GTIN)^FS"
                          "^FO30,290^A0N,40,40^FD07354018207139^FS^XZ")
    assert values.get("gtin") == "07354018207139"


def test_a_data_identifier_9d_names_the_date_code() -> None:
    # As the probe dev_en_smd_component_reel: Code 128s with ANSI MH10.8.2 data
    # identifiers beside their printed values.
    values = draft_values(
        "^XA^PW812^LL609^FO30,318^A0N,20,20^FD(Q) QTY^FS^FO120,312^A0N,34,34^FD3000^FS"
        "^FO30,352^BCN,50,N^FDQ3000^FS^FO30,420^A0N,20,20^FD(9D) D/C^FS"
        "^FO120,414^A0N,34,34^FD2647^FS^FO30,454^BCN,50,N^FD9D2647^FS^XZ")
    assert values.get("date_code") == "2647"
    assert values.get("quantity") == "3000"


def test_a_carton_count_after_its_caption_and_goods_under_their_caption() -> None:
    # As the probe dev_wh_customs_export_carton_en: "C/N 3 OF 7" at the top, the goods'
    # words under "DESCRIPTION OF GOODS", the count under them ("PAGE 1 OF 1" is a form's).
    values = draft_values("^XA^PW812^LL1218^FO520,80^A0N,36,36^FDC/N 3 OF 7^FS"
                          "^FO36,574^A0N,22,22^FDDESCRIPTION OF GOODS^FS"
                          "^FO36,604^A0N,28,28^FDBrass ball valves 1/2 in NPT^FS"
                          "^FO36,636^A0N,28,28^FDQty 240 pcs^FS"
                          "^FO36,1100^A0N,18,18^FDPAGE 1 OF 1^FS^XZ")
    assert values.get("piece_count") == "C/N 3 OF 7"
    assert values.get("description") == "Brass ball valves 1/2 in NPT"
    assert values.get("quantity") == "240 pcs"
    assert "PAGE 1 OF 1" not in values.values()


@pytest.mark.parametrize("line", ["Baguette de tradition 250 g", "Organic rolled oats 250 g",
                                  "Lingonsylt 12 x 400 g"])
def test_goods_named_with_their_size_are_a_description(line: str) -> None:
    # As the probes dev_fr_caisse_boulangerie_tournee, dev_wh_replenishment_task_en and
    # dev_wh_gs1_pallet_label_sv: words of no caption, then a weight or a pack.
    decision = one_line(line)
    assert (decision.variable, decision.name) == (True, "description")


def test_a_weight_after_its_caption_stays_a_weight() -> None:
    assert one_line("Gross weight 12 kg").name == "weight"


@pytest.mark.parametrize("owner", ["Kreisklinik Hohenried", "Metrix Calibration Services",
                                   "Biblioteka Publiczna Gminy Zielonka-Las"])
def test_the_institution_that_owns_a_label_is_no_goods_description(owner: str) -> None:
    # As the probes dev_de_patientenarmband, dev_en_calibration_sticker and
    # dev_pl_biblioteka_rezerwacja: the hospital, firm or library printed on each one.
    assert not goods._description_like(owner)


def test_a_caption_beside_a_date_says_which_date() -> None:
    # As the probe dev_it_dispositivo_medico_scatola: "Data di scadenza" and "Data di
    # fabbricazione" left of their dates.
    values = draft_values("^XA^PW812^LL609^FO24,436^A0N,24,24^FDData di scadenza^FS"
                          "^FO250,432^A0N,32,32^FD2029-06-30^FS"
                          "^FO24,476^A0N,24,24^FDData di fabbricazione^FS"
                          "^FO250,472^A0N,32,32^FD2026-06-30^FS^XZ")
    assert values.get("expiry_date") == "2029-06-30"
    assert values.get("manufacture_date") == "2026-06-30"


def test_the_mill_over_a_reel_label_with_a_side_strip_is_its_owner() -> None:
    # As the probe dev_pt_bobine_papel: the mill's name across the top, its works under
    # it; the reel's number printed sideways down the edge is not the top line.
    decisions = classify(read_first_label(
        "^XA^PW1218^LL812^FO40,36^A0N,44,44^FDPAPELEIRA DO VOUGA^FS"
        "^FO40,84^A0N,22,22^FDFábrica de Albergaria - PM2^FS"
        "^FO1150,20^A0R,40,40^FD26P2-114382^FS"
        "^FO40,156^A0N,22,22^FDQualidade^FS^FO40,182^A0N,40,40^FDKraftliner castanho^FS"
        "^FO40,300^A0N,22,22^FDLote^FS^FO40,330^A0N,40,40^FDL-2611-07^FS"
        "^FO40,400^A0N,22,22^FDData de fabrico^FS^FO300,400^A0N,30,30^FD25.11.2026^FS^XZ"))
    owner = [d for d in decisions if d.text in ("PAPELEIRA DO VOUGA",
                                                "Fábrica de Albergaria - PM2")]
    assert owner and not any(d.variable for d in owner)


@pytest.mark.parametrize(("line", "variable"), [
    ("Made in Portugal", True),  # a garment's tag: where this one was made
    ("MADE IN SPAIN / HECHO EN ESPAÑA", False),  # the probe dev_es_marcado_caja_exportacion
    ("PRODUCT OF ITALY · CONTAINS SULFITES · 750 ml", False),  # dev_it_cartone_vino_export_usa
    ("PRODUCT OF THAILAND", False),  # an export case's marking, in capitals
])
def test_a_made_in_line_in_two_languages_or_among_notices_is_layout(line: str,
                                                                     variable: bool) -> None:
    zpl = f"^XA^CI28^FO30,300^A0N,30,30^FD{line}^FS^XZ".encode().decode("latin-1")
    assert classify(read_first_label(zpl))[0].variable is variable


@pytest.mark.parametrize("line", ["by JMK", "By: P. Okonkwo / Chen Lab", "Picker JT"])
def test_who_did_it_after_by_is_the_operator(line: str) -> None:
    # As the probes dev_wh_lpn_license_plate_en, dev_en_cryobox_cell_line_freezer and
    # dev_en_online_grocery_tote; a code that starts with "BY" stays a code.
    decision = one_line(line, 24)
    assert (decision.variable, decision.name) == (True, "operator")
    assert one_line("BY3", 60).name != "operator"


def test_words_right_above_a_barcode_caption_it_on_a_label_of_goods() -> None:
    """"IMEI 1" and "WLAN MAC" over their Code 128s are captions, not descriptions."""
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO220,20^A0N,30,28^FDNova X5 5G^FS"
        "^FO560,22^A0N,22,20^FDModel: NX5-256-MB^FS"
        "^FO20,110^A0N,18,18^FDIMEI 1^FS^FO20,132^BY2^BCN,60,N^FD356789104523418^FS"
        "^FO20,200^A0N,22,20^FD356789104523418^FS"
        "^FO420,110^A0N,18,18^FDWLAN MAC^FS^FO420,132^BY2^BCN,60,N^FD3CA62F8B14E7^FS"
        "^FO420,200^A0N,22,20^FD3C:A6:2F:8B:14:E7^FS^FO440,420^A0N,22,20^FDLot: L26329B^FS"
        "^FO64,388^BY2^BEN,60,Y,N^FD697140815521^FS^FO440,448^A0N,22,20^FDEUR 499.00^FS^XZ")
    assert "IMEI 1" not in values.values() and "WLAN MAC" not in values.values()


def test_a_block_under_a_caption_on_a_label_of_goods_is_where_it_goes_not_the_maker() -> None:
    """An accompanying note for outside work: the subcontractor's block under "An
    Lohnbearbeiter" changes with every note; the maker's line at the top does not."""
    label = LABELS / "dev_de_warenbegleitschein_lohnbeschichtung.zpl"
    values = draft_values(label.read_text(encoding="utf-8"))
    assert values.get("ship_to_postal_city") == "73066 Uhingen"
    assert "An Lohnbearbeiter" not in values.values()


@pytest.mark.parametrize(("label", "start"), [
    ("dev_it_pallet_gdo_sscc", "Spaghetti n.5"),  # under "DESCRIZIONE"
    ("dev_mx_autopartes_caja_aiag", "BALATA DELANTERA"),  # under "DESCRIPCIÓN"
    ("dev_ro_mobila_colet_dulap", "Dulap 3"),  # under "Produs"
])
def test_the_word_for_description_over_the_goods_name_in_other_languages(label: str,
                                                                          start: str) -> None:
    values = draft_values((LABELS / f"{label}.zpl").read_text(encoding="utf-8"))
    assert any(value.startswith(start) for value in values.values())


def test_sizes_under_their_systems_captions_on_a_shoebox() -> None:
    values = draft_values((LABELS / "dev_en_shoebox_end_label.zpl").read_text(encoding="utf-8"))
    assert {"10.5", "9.5", "44.5"} <= {v for k, v in values.items() if k.startswith("size")}


@pytest.mark.parametrize(("weight", "per_unit", "total"), [
    ("0,312 kg", "29,80 €", "9,30 €"),  # by the kilo, the price per kilo printed larger
    ("452 g", "12,800", "57,856"),  # by 100 g, in won
])
def test_a_scales_weight_times_its_price_per_unit_is_the_price(weight: str, per_unit: str,
                                                              total: str) -> None:
    # As a cheese counter's scale label: the weight, the price per kilo and the price
    # to pay side by side, under captions that say little.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO14,72^A0N,30,28^FDComté AOP 18 mois^FS"
        "^FO14,196^A0N,22,20^FDLOT C261104^FS^FO200,196^A0N,22,20^FDEMB. 24/11/2026^FS"
        f"^FO14,302^A0N,26,24^FD{weight}^FS^FO150,302^A0N,26,24^FD{per_unit}^FS"
        f"^FO300,290^A0N,48,44^FD{total}^FS^FO14,344^BEN,60,Y,N^FD239812000930^FS^XZ")
    assert values.get("unit_price") == per_unit
    assert values.get("price") == total


@pytest.mark.parametrize(("caption", "name"), [("Lot No.", "lot_number"),
                                               ("Order No.", "order_number")])
def test_a_barcode_takes_the_name_of_its_value_captioned_apart(caption: str, name: str) -> None:
    # the caption a field of its own over the printed value; the QR code beside them
    decisions = classify(read_first_label(
        "^XA^PW812^LL406^FO18,13^A0N,22,22^FDHokuto Denki^FS^FO18,36^A0N,22,22^FDStore dry^FS"
        f"^FO18,60^A0N,22,22^FD{caption}^FS"
        "^FO18,86^A0N,48,44^FDIT-2026-03381^FS^FO430,62^BQN,2,4^FDQA,IT-2026-03381^FS^XZ"))
    assert [d.name for d in decisions if d.source.is_barcode] == [name]


@pytest.mark.parametrize(("line", "name"), [("NDC 55111-0467-01", "ndc"),
                                            ("UDI-DI 08051234567892", "gtin")])
def test_a_known_abbreviation_before_a_code_names_it(line: str, name: str) -> None:
    values = draft_values(
        "^XA^PW812^LL406^FO24,20^A0N,30,28^FDAmoxicillin 500 mg capsules^FS"
        "^FO24,70^A0N,22,20^FDLot: L2611-04^FS^FO24,100^A0N,22,20^FDExp: 11/2027^FS"
        f"^FO24,140^A0N,22,20^FD{line}^FS^XZ")
    assert values.get(name) == line


@pytest.mark.parametrize(("line", "name"), [("Ref. HR-DC-050", "part_number"),
                                            ("Referenz-Nr.: AT-HB-2611-0873", "reference")])
def test_ref_on_goods_is_the_article_but_a_reference_number_is_not(line: str, name: str) -> None:
    values = draft_values(
        "^XA^PW812^LL406^FO24,20^A0N,30,28^FDRindfleisch Hüftsteak^FS"
        "^FO24,70^A0N,22,20^FDVerbrauchen bis: 02.12.2026^FS"
        f"^FO24,100^A0N,22,20^FD{line}^FS^XZ")
    assert values.get(name) == line.split(" ", 1)[1]


@pytest.mark.parametrize("line", ["Hecho en Portugal", "Fremstillet i Malaysia",
                                  "Tillverkad i Sverige"])
def test_where_goods_are_made_in_other_languages(line: str) -> None:
    # As the probes dev_es_etiqueta_precio_textil and dev_da_elektronik_emballage_serienr.
    decision = one_line(line, 24)
    assert (decision.variable, decision.name) == (True, "country_of_origin")


def test_a_made_in_line_in_capitals_on_a_products_box_is_its_origin() -> None:
    # As the probe dev_en_shoebox_end_label: no case's marking, the box of one product.
    values = draft_values(
        "^XA^PW406^LL203^FO20,20^A0N,28,28^FDTrail Runner 3 GTX^FS"
        "^FO20,55^A0N,20,20^FDSKU: TR3-M-041^FS^FO20,85^BCN,50,N,N,N^FDTR3-M-041^FS"
        "^FO320,20^A0N,40,40^FD$89.99^FS^FO20,150^A0N,20,20^FDMADE IN VIETNAM^FS^XZ")
    assert values.get("country_of_origin") == "MADE IN VIETNAM"


def test_an_address_and_phone_after_a_caption_unknown_on_goods_is_the_makers() -> None:
    # As the probe dev_zh_dianlan_panbiao: the cable maker's address at the foot.
    zpl = ("^XA^CI28^PW812^FO30,30^A0N,30,30^FD电缆盘标^FS"
           "^FO30,80^A0N,24,24^FD批号：B2611204^FS^FO30,120^A0N,24,24^FD重量：2860 kg^FS"
           "^FO30,160^A0N,24,24^FD生产日期：2026-11-20^FS"
           "^FO30,700^A0N,22,22^FD地址：江苏省宜兴市官林镇工业集中区 电话：0510-8721 5566^FS"
           "^XZ")
    values = draft_values(zpl)
    assert not any("0510" in value for value in values.values())
    assert "B2611204" in values.values()


@pytest.mark.parametrize(("line", "patient"), [
    ("^FO10,70^A0N,26,26^FDHerr Beat Zürcher^FS^FO400,76^A0N,20,20^FDgeb. 14.03.1951^FS",
     "Herr Beat Zürcher"),  # the probe dev_ch_apotheke_abgabeetikett_dosierung
    ("^FO20,166^A0N,20,20^FDNome^FS^FO120,160^A0N,30,30^FDMaria da Conceição Lopes^FS"
     "^FO20,210^A0N,20,20^FDData nasc.: 14/03/1941^FS",
     "Maria da Conceição Lopes"),  # the probe pt_hospital_identificacao_cama
])
def test_a_name_on_the_line_of_a_birth_date_or_after_a_name_caption_is_the_patient(
        line: str, patient: str) -> None:
    values = draft_values(f"^XA^CI28^PW812^LL406^FO10,8^A0N,24,24^FDApotheke am Platz^FS{line}"
                          "^FO10,300^A0N,22,22^FDAbgabe^FS^FO96,300^A0N,22,22^FD25.11.2026^FS^XZ")
    assert values.get("patient_name") == patient


@pytest.mark.parametrize(("offer", "name"), [
    ("Save 40%", "discount"),  # the probe retail_markdown_price_tag
    ("Any 3 for £10.00", "promotion"),  # the probe dev_en_shelf_edge_multibuy_offer
    ("2 für 5 €", "promotion"),
])
def test_a_price_tags_offer_is_named_by_what_it_offers(offer: str, name: str) -> None:
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO14,64^A0N,28,28^FDMen's Quilted Field Jacket^FS"
        "^FO14,122^A0N,22,22^FDWas^FS^FO64,118^A0N,30,30^FD$89.99^FS"
        f"^FO400,300^A0N,24,24^FD{offer}^FS^FO14,158^A0N,22,22^FDNOW^FS"
        "^FO84,150^A0N,40,40^FD$53.99^FS^FO14,220^BCN,50,N,N,N^FD04817263001^FS^XZ")
    assert values.get(name) == offer


def test_a_medicine_and_its_strength_on_a_pharmacys_label_is_the_description() -> None:
    # As the probe dev_us_pharmacy_iv_bag: not named by the drug's own first word.
    values = draft_values(
        "^XA^PW812^LL812^FO20,16^A0N,22,22^FDST. ALDRIC MEDICAL CENTER - INPATIENT PHARMACY^FS"
        "^FO20,80^A0N,30,30^FDHALVORSEN, ERIK J^FS"
        "^FO20,118^A0N,22,22^FDMRN 004418265^FS^FO20,168^A0N,30,30^FDVancomycin 1,250 mg^FS^XZ")
    assert values.get("description") == "Vancomycin 1,250 mg"


@pytest.mark.parametrize("code", ["4127-0058", "AX-2210-04"])
def test_an_item_code_under_a_count_caption_is_the_items_number(code: str) -> None:
    values = draft_values("^XA^CI28^PW812^LL812^FO36,468^A0N,22,22^FDITEM / ARTICLE^FS"
                          f"^FO36,496^A0N,32,32^FD{code}^FS"
                          "^FO260,468^A0N,22,22^FDQTY^FS^FO260,496^A0N,32,32^FD6^FS^XZ")
    assert values["part_number"] == code


def test_a_personal_identity_number_is_the_patients_record() -> None:
    # (the twelve digits of "19580314-2746" pass a parcel number's check by chance)
    zpl = ("^XA^CI28^PW400^LL200^FO10,8^A0N,24,24^FDLindqvist, Karin Elisabet^FS"
           "^FO10,36^A0N,26,26^FD19580314-2746^FS^FO10,64^BCN,40,N^FD6611840275^FS"
           "^FO10,120^A0N,20,20^FD6611840275^FS^XZ")
    values = draft_values(zpl)
    assert values["patient_id"] == "19580314-2746"
    assert values["patient_name"] == "Lindqvist, Karin Elisabet"
    assert values["specimen_id"] == "6611840275"


@pytest.mark.parametrize("other", ["USA 8", "US M / UK 38", "MEX 30 | JP 26"])
def test_a_size_in_other_systems_beside_the_garments_size_is_a_size(other: str) -> None:
    # A garment's tag: its size, then the same size in other systems on a line of its own.
    values = draft_values(
        "^XA^CI28^PW406^LL609^FO20,30^A0N,30,30^FDStickad tröja rund hals^FS"
        "^FO20,80^A0N,24,24^FDStorlek / Size^FS^FO20,115^A0N,40,40^FDM^FS"
        f"^FO150,115^A0N,24,24^FDEU 48/50^FS^FO150,145^A0N,24,24^FD{other}^FS"
        "^FO20,200^A0N,36,36^FD699 kr^FS^XZ")
    assert other in {v for k, v in values.items() if k.startswith("size")}


def test_a_drug_with_a_hyphenated_name_is_no_parcel_number() -> None:
    # A pharmacy's bottle label: the drug's name joins two words with a hyphen.
    values = draft_values(
        "^XA^PW812^LL406^FO20,20^A0N,28,28^FDRx# 6183427^FS"
        "^FO20,60^A0N,28,28^FDMARTINEZ, ROSA L^FS"
        "^FO20,100^A0N,28,28^FDTAKE 1 TABLET BY MOUTH TWICE DAILY^FS"
        "^FO20,140^A0N,28,28^FDAMOXICILLIN-CLAV 875-125 MG TAB^FS"
        "^FO20,180^A0N,24,24^FDQty: 20^FS^XZ")
    named = {v: k for k, v in values.items()}
    assert not named["AMOXICILLIN-CLAV 875-125 MG TAB"].startswith("tracking_number")


@pytest.mark.parametrize(("zone", "count"), [("Zona B", "6 buc"), ("Zone C", "12 db"),
                                             ("Zona 4", "3 adet")])
def test_a_pick_labels_zone_and_count_are_a_zone_and_a_quantity(zone: str, count: str) -> None:
    # A warehouse's pick label: no parcel, so "Zona" is the store's zone, and a count of
    # pieces in the local word under its caption is the quantity.
    values = draft_values(
        f"^XA^CI28^PW812^LL609^FO24,14^A0N,40,40^FDCULEGERE^FS^FO480,18^A0N,40,40^FD{zone}^FS"
        "^FO24,88^A0N,28,28^FDComanda: CMD-2611-55290^FS"
        "^FO24,130^A0N,22,22^FDLocatie^FS^FO24,156^A0N,60,60^FDB-12-03-2^FS"
        f"^FO480,130^A0N,22,22^FDCantitate^FS^FO480,156^A0N,60,60^FD{count}^FS"
        "^FO24,256^A0N,22,22^FDCod articol^FS^FO200,252^A0N,30,30^FD100384772^FS"
        "^FO24,296^A0N,22,22^FDDenumire^FS^FO200,292^A0N,30,30^FDDetergent lichid 2,5 L^FS^XZ")
    assert values.get("zone") == zone.split()[-1]
    assert values.get("quantity") == count


@pytest.mark.parametrize(("line", "name"), [("N° série 56739142", "serial_number"),
                                            ("Nº lote 2611-B3", "lot_number")])
def test_a_numbered_caption_written_with_the_ordinal_sign_names_its_number(
        line: str, name: str) -> None:
    values = draft_values("^XA^CI28^PW812^LL406^FO20,20^A0N,30,30^FDOmega Seamaster 300^FS"
                          f"^FO20,60^A0N,28,28^FD{line}^FS^FO20,100^A0N,28,28^FDCHF 420.00^FS^XZ")
    assert values.get(name, "").endswith(line.split()[-1])


@pytest.mark.parametrize("born", ["14.03.1952", "1968-07-02", "03/14/1952"])
def test_an_uncaptioned_day_of_the_last_century_is_a_birth_date(born: str) -> None:
    # A wristband: the patient's name, a date of birth with no caption, today's admission.
    values = draft_values("^XA^CI28^PW812^LL203^FO20,20^A0N,34,34^FDNOWAKOWSKA Halina^FS"
                          f"^FO20,70^A0N,28,28^FD{born}^FS^FO420,70^A0N,28,28^FD27.11.2026^FS^XZ")
    assert values.get("date_of_birth") == born


@pytest.mark.parametrize(("line", "name"), [
    ("Avd 14", "department"), ("Lvl 4", "level"), ("Wave 12", "wave_number"),
    ("Waage 3", "scale_number")])
def test_a_caption_leading_a_line_of_goods_names_it(line: str, name: str) -> None:
    zpl = ("^XA^CI28^PW812^LL609^FO30,30^A0N,40,40^FDOrganic Rolled Oats^FS"
           "^FO30,90^A0N,28,28^FDBest before: 12.05.2027^FS"
           f"^FO30,300^A0N,22,22^FD{line}^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get(name) == line


@pytest.mark.parametrize("line", ["Items: 2 x wool socks in grey", "Carton: CT5120-4471"])
def test_a_count_caption_before_goods_or_a_code_names_no_count(line: str) -> None:
    zpl = ("^XA^CI28^PW812^LL609^FO30,30^A0N,40,40^FDOrganic Rolled Oats^FS"
           "^FO30,90^A0N,28,28^FDBest before: 12.05.2027^FS"
           f"^FO30,300^A0N,22,22^FD{line}^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("quantity") != line and values.get("piece_count") != line


@pytest.mark.parametrize("name", ["OKONKWO, GRACE T", "Lindqvist, Maja"])
def test_a_name_surname_first_on_a_pharmacys_label_is_the_patients(name: str) -> None:
    zpl = ("^XA^CI28^PW812^LL406^FO20,16^A0N,26,26^FDHARBOR PHARMACY #0288^FS"
           "^FO20,60^A0N,22,22^FDRx# 5520917^FS"
           f"^FO20,100^A0N,32,32^FD{name}^FS"
           "^FO20,150^A0N,24,24^FDTAKE 1 CAPSULE BY MOUTH DAILY^FS"
           "^FO20,200^A0N,24,24^FDQty: 30^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get("patient_name") == name


@pytest.mark.parametrize(("caption", "barcode"), [
    ("ANTAL KOLLI", ">;>80215701234000126152612093748>810263301"),
    ("CARTONS", ">;>80215701234000126152612093748"),
])
def test_a_number_a_gs1_barcode_counts_as_trade_items_is_the_quantity(
        caption: str, barcode: str) -> None:
    # (37): how many trade items the pallet holds, whatever the caption over it calls them
    values = draft_values("^XA^CI28^PW812^LL1218^FO40,40^A0N,24,24^FDSSCC^FS"
                          "^FO40,70^A0N,40,40^FD(00) 357012340000041765^FS"
                          f"^FO420,340^A0N,20,20^FD{caption}^FS"
                          "^FO420,370^A0N,50,50^FD48^FS"
                          f"^FO60,590^BY3^BCN,120,N^FD{barcode}^FS^XZ")
    assert values.get("quantity") == "48"


@pytest.mark.parametrize(("line", "name"), [
    ("Store sealed, cool and dry. Best before: 23 May 2027", "expiry_date"),
    ("Keep frozen; packed on: 02/03/2026", "pack_date"),
    ("Sold frozen, best before: 02/03/2027", "expiry_date"),
    ("PRET VEN 27/11", "delivery_date"), ("DEP 24/11", "date")])
def test_a_caption_inside_a_line_says_which_date_and_no_price_is_a_day(line: str,
                                                                       name: str) -> None:
    # the caption right before the date names it, however the line starts; a word read
    # as a price or a sort code before a day means something else ("prêt": ready)
    assert one_line(line).name == name


def test_a_repair_ready_on_a_day_is_handed_back_then() -> None:
    values = draft_values(
        "^XA^FO24,472^A0N,22,22^FDDéposé le 23.11.2026^FS"
        "^FO24,498^A0N,22,22^FDPrêt le 18.12.2026^FS^XZ")
    assert values == {"date": "23.11.2026", "delivery_date": "18.12.2026"}


def test_captions_of_packing_and_selling_over_dates_say_which_date() -> None:
    # as a deli scale's label and a meat packer's: small captions over the two dates
    values = draft_values(
        "^XA^FO10,90^A0N,28,28^FDSliced Turkey Breast^FS"
        "^FO10,126^A0N,16,16^FDPACKED ON^FS^FO10,144^A0N,24,24^FD11/25/26^FS"
        "^FO180,126^A0N,16,16^FDSELL BY^FS^FO180,144^A0N,24,24^FD11/30/26^FS"
        "^FO10,200^A0N,16,16^FDEmbalado em^FS^FO10,224^A0N,24,24^FD24.11.2026^FS^XZ")
    assert values["sell_by_date"] == "11/30/26"
    assert values["pack_date_2"] == "24.11.2026"


def test_captions_of_a_racks_parts_name_the_parts_over_them() -> None:
    # as a pick bin's label: aisle, bay, level and position each under its caption, the
    # whole place printed and in a barcode below
    values = draft_values(
        "^XA^PW812^LL406^FO16,14^A0N,20,20^FDAISLE^FS^FO150,14^A0N,20,20^FDBAY^FS"
        "^FO284,14^A0N,20,20^FDLEVEL^FS^FO418,14^A0N,20,20^FDPOS^FS"
        "^FO16,38^A0N,90,90^FD14^FS^FO150,38^A0N,90,90^FD07^FS^FO284,38^A0N,90,90^FDC^FS"
        "^FO418,38^A0N,90,90^FD2^FS^FO16,150^BCN,70,N,N,N^FD14-07-C-2^FS"
        "^FO16,238^A0N,30,30^FD14-07-C-2^FS^XZ")
    assert (values["aisle"], values["bay"], values["level"], values["position"]) == (
        "14", "07", "C", "2")


@pytest.mark.parametrize("caption", ["Zone", "Almacén / Zona"])
def test_a_zone_over_its_value_off_a_parcel_is_the_warehouses_zone(caption: str) -> None:
    # as a shelf's stock label: a zone of the store under its caption, no carrier's sort
    values = draft_values(
        f"^XA^PW812^LL406^FO24,130^A0N,20,20^FDUbicación^FS^FO24,152^A0N,40,40^FDP3-A-12-03-B^FS"
        f"^FO450,130^A0N,20,20^FD{caption}^FS^FO450,152^A0N,40,40^FDZAR1 Picking^FS^XZ")
    assert values.get("zone") == "ZAR1 Picking"


def test_a_code_in_the_row_of_a_date_caption_is_no_date() -> None:
    # as a prepared reagent's bottle: "Utgår:" (expires) and its day, the bottle's
    # code further along the row
    values = draft_values(
        "^XA^PW812^LL406^FO16,50^A0N,30,30^FDSaltsyra, HCl^FS^FO16,198^A0N,20,20^FDUtgår:^FS"
        "^FO140,194^A0N,26,26^FD2027-05-23^FS^FO384,196^A0N,24,24^FDRG-26-0583^FS^XZ")
    assert values["expiry_date"] == "2027-05-23"
    assert "expiry_date_2" not in values


@pytest.mark.parametrize(("caption", "line", "name"), [
    ("Contents:", "20 x 10 syringes (200 doses)", "quantity"),  # how many, not what
    ("Conținut:", "50 000 boabe", "quantity"),  # seeds, in Romanian
    ("", "4 film + 1 CD", "quantity"),
    ("", "3 Rx in bag", "quantity"),
    ("", "412 Azul marinho", "description"),  # a colour and its code
    ("", "18 mois d'affinage", "description"),  # how long, not how many
])
def test_a_count_of_things_on_goods_is_their_quantity(caption: str, line: str, name: str) -> None:
    # As the written vaccine_cold_chain_carton and seed packets: a lot and an expiry date
    # make it goods; the line says how many the pack holds.
    zpl = ("^XA^CI28^PW812^LL609^FO30,30^A0N,40,40^FDFluvacta Tetra 2026/2027^FS"
           "^FO30,90^A0N,28,28^FDLot: NV26F0931^FS^FO420,90^A0N,28,28^FDExp: 30 JUN 2027^FS"
           f"^FO30,304^A0N,24,24^FD{caption}^FS^FO160,300^A0N,28,28^FD{line}^FS^XZ")
    named = [n for n, value in draft_values(zpl).items() if value == line]
    assert [n.rstrip("_0123456789") for n in named] == [name]


@pytest.mark.parametrize("line", ["Fluvacta Tetra 2026/2027", "Ducati 1299 Panigale"])
def test_a_product_line_is_not_named_by_its_first_word(line: str) -> None:
    # A brand or a make leads the line, no caption: the line is the goods' description.
    values = draft_values(
        f"^XA^CI28^PW812^LL609^FO30,30^A0N,40,40^FD{line}^FS"
        "^FO30,90^A0N,28,28^FDLot: NV26F0931^FS^FO420,90^A0N,28,28^FDExp: 30 JUN 2027^FS^XZ")
    assert values.get("description") == line


@pytest.mark.parametrize("line", ["Säsong HT26", "Saison: HW26", "Stagione: PE26"])
def test_a_garments_season_is_named_in_its_language(line: str) -> None:
    # As the written Swedish hang tag: the season a garment is sold in, by its caption.
    values = draft_values(
        "^XA^CI28^PW406^LL609^FO40,40^A0N,36,36^FDMerino Crew Neck^FS"
        "^FO40,100^A0N,28,28^FDStorlek: M^FS^FO40,150^A0N,28,28^FD599,00 kr^FS"
        f"^FO40,220^A0N,22,22^FD{line}^FS^XZ")
    assert values.get("season", "").endswith(line.split()[-1])


@pytest.mark.parametrize(("given", "keeps", "expected"), [
    ("14.05.2026", "09/2027", "expiry_date"),  # kept to the month, after the day given
    ("2026-05-14", "2027-09", "expiry_date"),
    ("14.05.2026", "03/2026", "date"),  # an earlier month: no expiry
])
def test_a_month_later_than_a_day_on_goods_is_their_expiry(given: str, keeps: str,
                                                           expected: str) -> None:
    # A pharmacy's bag: the medicine, the day it was handed out and, after a caption
    # of the pharmacy's language, the month it keeps to.
    zpl = ("^XA^PW600^LL400^FO16,16^A0N,28,26^FDParacetamol 500 mg^FS"
           "^FO16,60^A0N,24,22^FD20 tablets^FS^FO16,110^A0N,22,20^FDLot 4471^FS"
           f"^FO16,150^A0N,22,20^FDDato:^FS^FO120,150^A0N,22,20^FD{given}^FS"
           f"^FO330,150^A0N,22,20^FDTerm:^FS^FO400,150^A0N,22,20^FD{keeps}^FS^XZ")
    values = draft_values(zpl)
    assert {v: k for k, v in values.items()}.get(keeps, "").startswith(expected)


@pytest.mark.parametrize(("caption", "value"), [
    ("Kontrola:", "P. Dvořák"), ("Control calitate", "QC 07"), ("Kontrolle:", "QS-12"),
    ("Controllo:", "M. Bianchi")])
def test_who_checked_the_goods_is_no_check(caption: str, value: str) -> None:
    # A person or an inspector's stamp under the caption of a check signs it.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO30,30^A0N,40,40^FDShelf unit 80 x 40 cm^FS"
        "^FO30,90^A0N,28,28^FDLot: 2611A-04^FS"
        f"^FO430,300^A0N,24,24^FD{caption}^FS^FO430,330^A0N,28,28^FD{value}^FS^XZ")
    assert values.get("operator") == value


@pytest.mark.parametrize("line", ["Raum 0.14 - Schrank 3", "Hab. 204 - Planta 2",
                                  "Kemlab 2, rum B214", "Salle 3 - Étagère 2",
                                  "Cardiologie Zi. 412-2"])
def test_a_room_or_an_aisle_by_its_word_is_a_location(line: str) -> None:
    # A line with a word for a room, an aisle or a shelf and its number names the
    # place inside a building the thing goes to or is kept in, not a sort code.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO30,30^A0N,36,36^FDKOVALENKO, ANNA^FS"
        "^FO30,80^A0N,24,24^FDMRN 004418265^FS"
        f"^FO30,130^A0N,24,24^FD{line}^FS^FO30,190^BCN,60,N,N,N^FDS2611250073^FS^XZ")
    assert values.get("location") == line


@pytest.mark.parametrize(("line", "name"), [
    ("Prod. 2026-10", "manufacture_date"), ("Emb. 03/2027", "pack_date"),
    ("Prod.: 24.11.2026", "manufacture_date")])
def test_the_abbreviation_of_an_event_names_the_date_after_it(line: str, name: str) -> None:
    # "Prod." and "Emb." say which date, or which month, follows them on goods.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO30,30^A0N,36,36^FDSertéskaraj csont nélkül^FS"
        "^FO30,90^A0N,24,24^FDLot L26330-07^FS"
        f"^FO30,140^A0N,24,24^FD{line}^FS^XZ")
    assert line.endswith(values.get(name, "?"))


def test_a_hungarian_caption_of_packing_names_the_pack_date() -> None:
    # "Csomagolás" (packing) beside a date, as on a Hungarian meat carton.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO30,30^A0N,36,36^FDSertéskaraj csont nélkül^FS"
        "^FO30,100^A0N,24,24^FDTételszám:^FS^FO330,96^A0N,32,32^FDL26330-07^FS"
        "^FO30,150^A0N,24,24^FDCsomagolás:^FS^FO330,146^A0N,32,32^FD2026.11.24.^FS"
        "^FO30,200^A0N,24,24^FDFogyasztható:^FS^FO330,196^A0N,32,32^FD2026.12.08.^FS^XZ")
    assert values.get("pack_date") == "2026.11.24."


@pytest.mark.parametrize(("day", "name"), [
    ("26.11.2026 07:42", "piece_count"), ("2026.11.25. 14:37", "piece_count"),
    ("11/24/2026 07:42", "date")])  # (a label that writes its dates month first)
def test_a_month_and_day_among_dates_written_day_first_is_a_count(day: str, name: str) -> None:
    # A pick label of a European warehouse: "3/14" is the line of how many, no date.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO24,14^A0N,40,40^FDCULEGERE^FS"
        "^FO24,130^A0N,22,22^FDLocație^FS^FO24,156^A0N,40,40^FDB-12-03-2^FS"
        "^FO24,296^A0N,22,22^FDDenumire^FS^FO200,292^A0N,28,28^FDDetergent lichid 2,5 L^FS"
        f"^FO24,534^A0N,22,22^FD{day}^FS^FO560,500^A0N,40,40^FD3/14^FS^XZ")
    assert {v: k for k, v in values.items()}.get("3/14", "").startswith(name)


@pytest.mark.parametrize(("line", "name"), [
    ("Obsthof Mostviertel · 0,75 l", "description"), ("Prairie d'Argoat - 6 x 1 L", "description"),
    ("Flacon 32 ml", "quantity")])
def test_a_makers_name_with_the_packs_size_is_the_description(line: str, name: str) -> None:
    # A shelf label: the product, then a line of the maker or brand and the pack's size.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO28,24^A0N,34,34^FDApfelsaft naturtrüb^FS"
        f"^FO28,64^A0N,26,26^FD{line}^FS^FO48,140^BEN,60,Y,N^FD901234567890^FS"
        "^FO490,40^A0N,60,60^FD2,49 €^FS^XZ")
    assert {v: k for k, v in values.items()}.get(line, "").startswith(name)


@pytest.mark.parametrize(("fields", "prices"), [
    ("^FO362,122^A0N,36,36^FD$^FS^FO384,118^A0N,110,110^FD179^FS"
     "^FO536,122^A0N,48,48^FD00^FS", {"179", "00"}),  # the sign before, the cents apart
    ("^FO390,70^A0N,24,24^FD€^FS^FO390,96^A0N,84,84^FD34,99^FS", {"34,99"}),  # over it
    ("^FO300,118^A0N,120,120^FD2,^FS^FO512,122^A0N,60,60^FD49^FS"
     "^FO518,184^A0N,30,30^FD€^FS", {"2,", "49"})])  # after the cents
def test_a_number_beside_a_currency_sign_is_the_price(fields: str, prices: set[str]) -> None:
    # A shelf label printing its price large, the currency's sign in a field of its own.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO12,56^A0N,28,28^FDMuurverf extra mat wit 2,5 liter^FS"
        "^FO12,122^A0N,18,18^FDArt.nr.^FS^FO56,122^A0N,18,18^FD2467391^FS"
        f"^FO36,218^BEN,60,Y,N^FD871234541882^FS{fields}^XZ")
    assert {v for k, v in values.items() if k.startswith("price")} == prices


@pytest.mark.parametrize("grade", ["77-88 mm", "63 à 73 g", "3 (80-100 g)"])
def test_a_range_of_millimetres_or_grams_is_the_size_goods_are_graded_to(grade: str) -> None:
    # A carton of fruit or a box of eggs: the calibre, by diameter or weight.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO40,40^A0N,36,36^FDNaranjas Navelina^FS"
        "^FO40,100^A0N,24,24^FDPeso neto: 15 kg^FS^FO40,150^A0N,24,24^FDLote L26-0412^FS"
        f"^FO330,150^A0N,24,24^FD{grade}^FS^XZ")
    assert values.get("size") == grade


@pytest.mark.parametrize(("caption", "name"), [
    ("TOTE", "tote_id"), ("BAC", "tote_id"), ("Wanne", "tote_id"),
    ("Colis", "tracking_number"),  # a parcel's count: its barcode stays a parcel's number
])
def test_the_barcode_on_a_label_that_names_its_tote_is_the_totes_id(
        caption: str, name: str) -> None:
    # As a wholesaler's tote to a pharmacy: the pharmacy's address, the order after its
    # caption, the tote's caption over its count, and the tote's own code in Code 128.
    decisions = classify(read_first_label(
        "^XA^PW812^LL609^FO20,20^A0N,30,30^FDPHARMACIE DU ROND-POINT^FS"
        "^FO20,60^A0N,26,26^FD12 avenue Pasteur^FS^FO20,96^A0N,26,26^FD49300 CHOLET^FS"
        "^FO20,150^A0N,24,24^FDORDER 7781045^FS"
        f"^FO500,150^A0N,22,22^FD{caption}^FS^FO500,176^A0N,40,40^FD2 / 4^FS"
        "^FO40,300^BY2^BCN,90,N,N,N^FD49031187C2633028713^FS"
        "^FO40,420^A0N,26,26^FD49031187C2633028713^FS^XZ"))
    assert [d.name for d in decisions if d.text == "49031187C2633028713"] == [name] * 2


@pytest.mark.parametrize(("heading", "caption", "due", "name"), [
    ("CALIBRATED", "Instr. ID", "Due date", "asset_number"),
    ("TARATO / CALIBRATED", "Cod.", "Scadenza / Due", "asset_number"),
    ("Étalonné", "Code", "Prochain étalonnage", "asset_number"),
    ("QUALITY CHECKED", "Cod.", "Scadenza / Due", "part_number"),  # no calibration's word
])
def test_the_code_on_a_calibrated_instruments_label_is_its_asset_number(
        heading: str, caption: str, due: str, name: str) -> None:
    # As a calibration sticker: the instrument's code after a caption that is no serial
    # number's, its serial after its own caption, and when it was calibrated and is due.
    decisions = classify(read_first_label(
        f"^XA^CI28^PW600^LL400^FO16,14^A0N,30,30^FD{heading}^FS"
        "^FO16,72^A0N,22,22^FDStrumento^FS^FO150,68^A0N,26,26^FDCalibro digitale 0-150 mm^FS"
        "^FO16,106^A0N,22,22^FDMatricola^FS^FO150,102^A0N,26,26^FD1108-4472^FS"
        f"^FO340,106^A0N,22,22^FD{caption}^FS^FO420,102^A0N,26,26^FDMIS-0418^FS"
        "^FO16,218^A0N,20,20^FDData^FS^FO16,242^A0N,26,26^FD19/11/2026^FS"
        f"^FO310,218^A0N,20,20^FD{due}^FS^FO310,242^A0N,26,26^FD19/11/2027^FS^XZ"
        .encode().decode("latin-1")))
    assert [d.name for d in decisions if d.text in ("MIS-0418", "1108-4472")] \
        == ["serial_number", name]


@pytest.mark.parametrize(("line", "name"), [
    ("Muestreó: J. Ruiz Martín", "specimen_id"),
    ("Sampled by: J. Ruiz", "specimen_id"),
    ("Probenahme: J. Ruiz", "specimen_id"),
    ("Geprüft: J. Ruiz", "serial_number"),  # no word of a sample: a code of unknown kind
])
def test_a_code_on_a_label_that_says_who_took_the_sample_is_the_samples(
        line: str, name: str) -> None:
    # As a water laboratory's sample bottle: the laboratory, the sample's code printed and
    # in Code 128, when and by whom it was taken.
    decisions = classify(read_first_label(
        "^XA^CI28^PW600^LL300^FO10,8^A0N,22,22^FDLAB. AGUAS DEL HENARES^FS"
        "^FO10,38^A0N,30,30^FDM-2611-04718^FS^FO380,34^BCN,60,N,N,N^FDM-2611-04718^FS"
        "^FO10,98^A0N,20,20^FDToma: 25/11/2026 09:35^FS"
        f"^FO10,164^A0N,20,20^FD{line}^FS^XZ".encode().decode("latin-1")))
    assert {d.name for d in decisions if d.text == "M-2611-04718"} == {name}


@pytest.mark.parametrize(("left", "collected", "name"), [
    ("Entrada  lu 23/11", "Recoger  ju 26/11", "ticket_number"),
    ("Déposé le 23.11.2026", "Prêt le 18.12.2026", "ticket_number"),
    ("Depositato 26/11/2026", "Ritiro previsto 26/11", "ticket_number"),
    ("Lavado 23/11", "Planchado 26/11", "reference"),  # nothing left to collect
])
def test_the_number_on_a_ticket_for_a_thing_left_to_collect_is_the_tickets(
        left: str, collected: str, name: str) -> None:
    # As a dry cleaner's ticket: the shop, "Ticket" beside its number, the customer, the
    # garment, and when it was left and is to be collected.
    decisions = classify(read_first_label(
        "^XA^CI28^PW600^LL400^FO16,12^A0N,24,24^FDTINTORERIA LA ALAMEDA^FS"
        "^FO16,72^A0N,22,22^FDTicket^FS^FO110,66^A0N,34,34^FD31874^FS"
        "^FO16,130^A0N,24,24^FDRUIZ ORTEGA, MERCEDES^FS^FO16,200^A0N,24,24^FDABRIGO LANA^FS"
        f"^FO16,298^A0N,22,22^FD{left}^FS^FO300,298^A0N,22,22^FD{collected}^FS^XZ"
        .encode().decode("latin-1")))
    assert [d.name for d in decisions if d.text == "31874"] == [name]


@pytest.mark.parametrize(("owner", "name"), [
    ("University of Leicester - School of Chemistry", "asset_number"),
    ("Universidad de Zaragoza - Dpto. Química Analítica", "asset_number"),
    ("Fisher Scientific UK Ltd", "part_number"),  # the maker's bottle: its article's code
])
def test_a_code_on_a_schools_own_chemical_bottle_is_its_inventory_number(
        owner: str, name: str) -> None:
    # As a chemistry department's COSHH label: its code printed large, the chemical, its
    # hazard and precautionary statements.
    decisions = classify(read_first_label(
        f"^XA^CI28^PW812^LL609^FO18,40^A0N,44,44^FDCHM-004417^FS"
        f"^FO300,18^A0N,20,20^FD{owner}^FS^FO300,48^A0N,30,30^FDHydrochloric acid 37%^FS"
        "^FO84,168^A0N,20,20^FDH290 May be corrosive to metals. H314 Causes severe skin "
        "burns and eye damage.^FS^FO84,266^A0N,20,20^FDP280 Wear gloves, goggles and lab "
        "coat.^FS^XZ".encode().decode("latin-1")))
    assert [d.name for d in decisions if d.text == "CHM-004417"] == [name]


@pytest.mark.parametrize(("row", "seat", "name"), [
    ("FILA", "POSTO", "ticket_number"),
    ("Row", "Seat", "ticket_number"),
    ("Reihe", "Platz", "ticket_number"),
    ("Zone", "Level", "code128_data"),  # no seat: a code of unknown kind
])
def test_the_barcode_on_a_ticket_to_a_seat_is_the_tickets_number(
        row: str, seat: str, name: str) -> None:
    # As a theatre's ticket: the theatre and the show, the sector, row and seat under
    # their captions, and the ticket's code in Code 128 with its printed form.
    decisions = classify(read_first_label(
        "^XA^CI28^PW812^LL406^FO20,20^A0N,26,26^FDTEATRO DEL GIGLIO - LUCCA^FS"
        "^FO20,56^A0N,30,30^FDIl barbiere di Siviglia^FS"
        f"^FO300,110^A0N,20,20^FD{row}^FS^FO420,110^A0N,20,20^FD{seat}^FS"
        "^FO300,140^A0N,40,40^FDF^FS^FO420,140^A0N,40,40^FD14^FS"
        "^FO20,220^BCN,80,N,N,N^FD000488172231^FS^FO20,310^A0N,22,22^FD000488172231^FS^XZ"))
    assert [d.name for d in decisions if d.text == "000488172231"] == [name] * 2


@pytest.mark.parametrize(("caption", "pack"), [
    ("Contenido:", "6 botellas × 750 ml"), ("Contents:", "6 x 750 ml"), ("Inhalt:", "0,75 l")])
def test_a_pack_under_a_caption_of_contents_is_its_quantity(caption: str, pack: str) -> None:
    # As the tequila's case: how much the case holds, no words for the goods.
    values = draft_values("^XA^CI28^PW812^LL812^FO30,40^A0N,34,34^FDTequila Reposado^FS"
                          f"^FO30,262^A0N,22,22^FD{caption}^FS"
                          f"^FO200,256^A0N,30,30^FD{pack}^FS^XZ")
    assert values.get("quantity") == pack


@pytest.mark.parametrize(("fields", "expected"), [
    ("^FO10,278^A0N,30,30^FDMIN 4^FS^FO10,316^A0N,30,30^FDMAX 24^FS",
     {"min_quantity": "MIN 4", "max_quantity": "MAX 24"}),
    ("^FO30,228^A0N,20,20^FDMin^FS^FO30,252^A0N,30,30^FD6 szt.^FS"
     "^FO280,228^A0N,20,20^FDMax^FS^FO280,252^A0N,30,30^FD20 szt.^FS",
     {"min_quantity": "6 szt.", "max_quantity": "20 szt."}),
    ("^FO30,228^A0N,20,20^FDMín.^FS^FO30,252^A0N,30,30^FD12^FS"
     "^FO280,228^A0N,20,20^FDMáx.^FS^FO280,252^A0N,30,30^FD60^FS",
     {"min_quantity": "12", "max_quantity": "60"})])
def test_a_bins_minimum_and_maximum_printed_apart_are_its_stock_levels(
        fields: str, expected: dict[str, str]) -> None:
    # As the auto parts bin and the spare parts' shelf: the two levels of a refill.
    values = draft_values("^XA^CI28^PW812^LL406^FO24,22^A0N,24,24^FDBIN^FS"
                          "^FO24,56^A0N,60,60^FDA-14-03-B^FS" + fields + "^XZ")
    assert {name: values.get(name) for name in expected} == expected


def test_a_maximum_alone_says_no_stock_level() -> None:
    values = draft_values("^XA^CI28^PW812^LL406^FO24,22^A0N,24,24^FDBIN^FS"
                          "^FO30,228^A0N,20,20^FDMax^FS^FO30,252^A0N,30,30^FD20^FS^XZ")
    assert "max_quantity" not in values


def _band(lines: str) -> dict[str, str]:
    """A patient's band: the name, the birth date, the record, then ``lines``."""
    return draft_values("^XA^CI28^PW812^LL406^FO30,20^A0N,30,30^FDGUTIERREZ, MARIA L^FS"
                        "^FO30,60^A0N,24,24^FDDOB: 03/14/1958^FS"
                        "^FO30,90^A0N,24,24^FDMRN: 004417729^FS" + lines + "^XZ")


@pytest.mark.parametrize(("lines", "allergies"), [
    ("^FO500,20^A0N,30,30^FDALLERGY^FS^FO500,60^A0N,30,30^FDPENICILLIN^FS"
     "^FO500,100^A0N,30,30^FDLATEX^FS", ["PENICILLIN", "LATEX"]),
    ("^FO500,20^A0N,30,30^FDALLERGIE^FS^FO490,72^A0N,26,26^FDPenicillin, Latex^FS",
     ["Penicillin, Latex"]),
    ("^FO500,20^A0N,32,32^FDALLERGIE^FS^FO490,72^A0N,24,24^FDFANS, iodio^FS"
     "^FO490,126^A0N,18,18^FDNon rimuovere il braccialetto^FS", ["FANS, iodio"]),
    ("^FO500,20^A0N,40,40^FDALERGIA^FS^FO486,86^A0N,24,24^FDpenicylina, jod^FS"
     "^FO486,126^A0N,20,20^FDGrupa krwi: A Rh+^FS", ["penicylina, jod"])])
def test_the_lines_under_a_bands_allergy_caption_are_the_patients_allergies(
        lines: str, allergies: list[str]) -> None:
    # As the American, German, Italian and Polish bands: no name, no goods' words.
    values = _band(lines)
    assert [v for k, v in values.items() if k.startswith("allergies")] == allergies


@pytest.mark.parametrize("doctor", ["Dr. PATEL, ANIKA", "Dr. med. T. Albers"])
def test_a_doctor_on_a_patients_band_is_the_physician(doctor: str) -> None:
    # As the American and German bands: the physician in charge, printed with no caption.
    values = _band(f"^FO30,130^A0N,24,24^FD{doctor}^FS")
    assert values.get("physician") == doctor


@pytest.mark.parametrize(("lines", "name"), [
    ("^FO30,130^A0N,24,24^FDMédico assistente: Dra. Inês Carvalho^FS", "physician"),
    ("^FO30,130^A0N,24,24^FDFarmacia Centrala^FS"
     "^FO30,170^A0N,24,24^FDMedic: Dr. Andrei Popescu^FS", "prescriber")])
def test_a_doctors_caption_names_the_physician_or_on_a_pharmacys_label_the_prescriber(
        lines: str, name: str) -> None:
    assert name in _band(lines)


@pytest.mark.parametrize("ward", ["St. 7B Kardiologie", "St. INT-3", "Kardiologisk Afd. B2",
                                  "UF 2216 Cardio", "SERVIÇO DE MEDICINA INTERNA B"])
def test_a_hospitals_unit_on_a_patients_label_is_the_department(ward: str) -> None:
    # As the German, Danish, French and Portuguese tubes and bands: the ward's word and
    # code, or a medical specialty; the hospital's name over it stays the heading.
    values = _band("^FO30,130^A0N,24,24^FDSt. Luke's Regional Hospital^FS"
                   f"^FO30,170^A0N,24,24^FD{ward}^FS")
    assert values.get("department") == ward
    assert "St. Luke's Regional Hospital" not in values.values()


@pytest.mark.parametrize(("line", "name"), [
    ("Letto 12", "bed"), ("Stue 4, seng 2", "bed"),
    ("Reparto: Ortopedia 2 - letto 14", "department")])  # (the ward's caption names it)
def test_a_bed_by_its_word_and_number_on_a_patients_label_is_the_bed(line: str,
                                                                    name: str) -> None:
    # As the Danish band and the Italian infusion bag.
    values = _band(f"^FO30,170^A0N,24,24^FD{line}^FS")
    assert name in values and line.endswith(values[name])


@pytest.mark.parametrize(("caption", "value", "name"), [
    ("CARTON NO.", "4287", "serial_number"), ("Cartone n.", "447232", "serial_number"),
    ("Kartonszám:", "2504", "serial_number"), ("N° carton", "1870", "serial_number"),
    ("Carton No.:", "3 of 12", "piece_count")])
def test_a_caption_of_a_cartons_number_names_its_number_not_a_count(
        caption: str, value: str, name: str) -> None:
    # An exporter's carton: the product, its weight and batch, the carton's own number
    # (or which of the consignment's cartons it is) under its caption.
    values = draft_values(
        "^XA^CI28^PW812^LL609^FO30,40^A0N,36,36^FDSALTED BUTTER 25 KG^FS"
        "^FO30,120^A0N,22,22^FDNET WEIGHT^FS^FO30,146^A0N,30,30^FD25.00 kg^FS"
        "^FO400,120^A0N,22,22^FDBATCH^FS^FO400,146^A0N,30,30^FDB4418^FS"
        f"^FO30,220^A0N,22,22^FD{caption}^FS^FO30,246^A0N,30,30^FD{value}^FS^XZ")
    assert {v: k for k, v in values.items()}.get(value) == name


@pytest.mark.parametrize(("fields", "earlier", "name"), [
    ("^FO20,176^A0N,22,22^FDWas^FS^FO20,200^A0N,40,40^FD£4.25^FS"
     "^FO200,176^A0N,22,22^FDNow^FS^FO200,200^A0N,40,40^FD£3.50^FS", "£4.25", "was_price"),
    ("^FO20,206^A0N,22,22^FDstatt^FS^FO90,200^A0N,40,40^FD2,99 €^FS"
     "^FO20,256^A0N,22,22^FDjetzt nur^FS^FO160,250^A0N,40,40^FD2,09 €^FS", "2,99 €",
     "was_price"),
    ("^FO20,176^A0N,22,22^FDAdviesprijs^FS^FO20,200^A0N,40,40^FD€ 799,-^FS"
     "^FO300,200^A0N,60,60^FD€ 649,-^FS", "€ 799,-", "list_price")])
def test_a_price_under_a_caption_of_an_earlier_or_list_price_is_that_price(
        fields: str, earlier: str, name: str) -> None:
    # A shelf edge label with the goods, their barcode and two prices: the one captioned
    # as the price before the offer, or as the maker's list price, and the price now.
    values = draft_values(
        "^XA^CI28^PW812^LL406^FO20,30^A0N,34,34^FDHarvest Fields Granola Clusters^FS"
        f"^FO420,180^BEN,60,Y,N^FD500012345678^FS{fields}^XZ")
    assert {v: k for k, v in values.items()}.get(earlier) == name


@pytest.mark.parametrize("count", ["18 of/de 40", "3 DE/OF 12"])
def test_which_case_of_how_many_in_canadas_two_languages_is_the_count(count: str) -> None:
    # A Canadian case label: the goods, their lot, and which case of the order this is,
    # its caption and its "of" in English and French.
    values = draft_values(
        "^XA^CI28^PW812^LL1218^FO30,156^A0N,40,40^FDPure Maple Syrup^FS"
        "^FO430,380^A0N,22,22^FDLOT^FS^FO430,410^A0N,36,36^FD26-0412-B^FS"
        f"^FO514,656^A0N,22,22^FDCase / Caisse^FS^FO514,680^A0N,36,36^FD{count}^FS"
        "^FO220,760^BCN,160,Y,N^FD10628230000125^FS^XZ")
    assert {v: k for k, v in values.items()}.get(count) == "piece_count"
