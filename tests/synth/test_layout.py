"""Layout: address blocks assigned to the party their caption says, in the languages
carriers print, captions kept static, rotated blocks read in their own direction, and
captions in fields of their own naming the value beside or below them."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.synth.engine import SynthesisRequest, make_engine

ENGINE = make_engine("heuristic")
LABELS = Path(__file__).resolve().parents[2] / "benchmarks" / "synthesis_labels"


def _one_line(line: str, x: int = 340, y: int = 400) -> dict[str, str]:
    """The draft's values for one small line of text."""
    zpl = f"^XA^CI28^PW812^LL406^FO{x},{y}^A0N,16,14^FD{line}^FS^XZ"
    return ENGINE.synthesize(SynthesisRequest(zpl)).draft.values


def _values(zpl: str) -> dict[str, str]:
    """The draft's values for a label."""
    return ENGINE.synthesize(SynthesisRequest(zpl)).draft.values


def _stacked(lines: list[str], x: int, top: int, step: int, size: int) -> dict[str, str]:
    """The draft's values for ``lines`` printed one under another (UTF-8)."""
    zpl = "^XA^CI28^PW812^LL1218" + "".join(
        f"^FO{x},{top + step * i}^A0N,{size},{size}^FD{line}^FS"
        for i, line in enumerate(lines)) + "^XZ"
    return ENGINE.synthesize(SynthesisRequest(zpl)).draft.values


def two_blocks(sender_caption: str, receiver_caption: str) -> str:
    """A sender block above a receiver block, each under its caption (as on the
    Swedish DB Schenker label of the corpus)."""
    return (f"^XA^CI28^PW812^LL1218"
            f"^FO70,70^A0N,22^FD{sender_caption}^FS"
            "^FO70,95^A0N,28^FDMerchant AB^FS"
            "^FO70,125^A0N,28^FDAxvallagatan 10^FS"
            "^FO70,155^A0N,28^FD532 37 Skara^FS"
            f"^FO70,225^A0N,22^FD{receiver_caption}^FS"
            "^FO70,255^A0N,36^FDIngrid Tester^FS"
            "^FO70,295^A0N,36^FDStårgatan 1^FS"
            "^FO70,335^A0N,36^FD532 38 Ankeborg^FS^XZ")


def on_a_parcel(fields: str) -> str:
    """``fields`` on a label with a recipient's block: a parcel's, not a label of goods."""
    return ("^XA^CI28^PW812^LL1218^FO40,200^A0N,24,24^FDShip To:^FS"
            "^FO40,230^A0N,30,30^FDKen Ito^FS^FO40,265^A0N,30,30^FD1-2-3 Ginza^FS"
            f"^FO40,300^A0N,30,30^FDTokyo 104-0061^FS{fields}^XZ")


@pytest.mark.parametrize(("sender", "receiver"), [
    ("Från:", "Till:"), ("Von:", "An:"), ("Absender", "Empfänger"),
    ("Expéditeur", "Destinataire"), ("Mittente", "Destinatario"), ("Remitente", "Destinatario"),
    ("Afzender", "Geadresseerde"), ("Nadawca", "Odbiorca"), ("Afsender", "Modtager"),
    ("Fornecedor", "Afleveradres"),
    ("FROM:", "SHIP TO:"), ("Sender:", "Deliver To:"),
], ids=lambda c: c)
def test_each_block_takes_the_party_its_caption_names(sender: str, receiver: str) -> None:
    draft = ENGINE.synthesize(SynthesisRequest(two_blocks(sender, receiver))).draft
    assert draft.values["ship_from_name"] == "Merchant AB"
    assert draft.values["ship_from_postal_city"] == "532 37 Skara"
    assert draft.values["ship_to_name"] == "Ingrid Tester"
    assert draft.values["ship_to_postal_city"] == "532 38 Ankeborg"
    # The captions stay static text of the body.
    assert f"^FD{sender}^FS" in draft.body and f"^FD{receiver}^FS" in draft.body


def test_vietnamese_from_and_to_name_their_blocks() -> None:
    # As the written dev_vn_ghn_cod: "Từ:" and "Đến:" beside each block, no postcodes.
    values = _values("^XA^CI28^PW812^LL1218^FO36,256^A0N,24,24^FDTừ:^FS"
                     "^FO90,256^A0N,24,24^FDShop Gốm Bát Tràng Mộc - 0912 608 315^FS"
                     "^FO90,286^A0N,22,22^FDSố 8 ngõ 142 Giang Cao, Xã Bát Tràng^FS"
                     "^FO36,356^A0N,22,22^FDĐến:^FS"
                     "^FO90,352^A0N,38,36^FDTrần Thị Bảo Ngọc^FS"
                     "^FO90,398^A0N,34,32^FD0908 314 527^FS"
                     "^FO90,442^A0N,26,26^FDSố 47 Nguyễn Đình Chiểu, Phường Võ Thị Sáu^FS^XZ")
    assert values.get("ship_to_name") == "Trần Thị Bảo Ngọc"
    assert values.get("ship_to_address_1") == "Số 47 Nguyễn Đình Chiểu, Phường Võ Thị Sáu"
    assert values.get("ship_from_address_1") == "Số 8 ngõ 142 Giang Cao, Xã Bát Tràng"


def test_a_rotated_block_is_read_down_its_own_lines() -> None:
    # ^FWB: every field turned 270 degrees; a block's lines follow each other to the
    # right, each line reading upwards (the DHL Parcel UK layout).
    zpl = ("^XA^PW812^LL1218^FWB"
           "^FO230,1198^A0,34^FDTo:^FS"
           "^FO272,1198^A0,30^FDA Recipient^FS"
           "^FO312,1198^A0,30^FDDun Roamin Cottage^FS"
           "^FO352,1198^A0,30^FD12 Long Lane^FS"
           "^FO392,1198^A0,30^FDGL55 6HU Chipping Campden^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values["ship_to_name"] == "A Recipient"
    assert draft.values["ship_to_address_1"] == "Dun Roamin Cottage"
    assert draft.values["ship_to_postal_city"] == "GL55 6HU Chipping Campden"


def test_a_caption_in_its_own_field_names_the_value_beside_it() -> None:
    zpl = ("^XA^PW812^LL1218"
           "^FO20,656^A0N,22^FDAccount No:^FS^FO170,656^A0N,22^FD253120^FS"
           "^FO20,679^A0N,22^FDShipment Id:^FS^FO170,679^A0N,22^FD675 501 586 1^FS"
           "^FO543,538^A0N,22^FDGewicht:^FS^FO544,572^A0N,28^FD0.72 kg^FS"
           "^FO20,740^A0N,22^FDDelivery instructions:^FS"
           "^FO20,800^A0N,22^FDReceivers ref:^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {"account_number": "253120", "tracking_number": "675 501 586 1",
                            "weight": "0.72 kg"}


def test_a_phone_beside_a_block_belongs_to_that_party() -> None:
    zpl = ("^XA^PW812^LL1218"
           "^FO10,90^A0N,22^FDFrom:^FS^FO20,110^A0N,22^FDPICKUP NAME^FS"
           "^FO20,135^A0N,22^FDPICKUP STREET 1^FS^FO20,160^A0N,22^FD70230 OREBRO^FS"
           "^FO610,120^A0N,22^FDPhone:^FS^FO610,145^A0N,22^FD+46 70 011 22 33^FS"
           "^FO25,250^A0N,22^FDTo:^FS^FO35,275^A0N,28^FDRECEIVER NAME^FS"
           "^FO35,305^A0N,28^FDRECEIVER STREET 1^FS^FO35,335^A0N,28^FD69430 HALLSBERG^FS"
           "^FO610,275^A0N,22^FDPhone:^FS^FO610,300^A0N,22^FD+46 70 099 88 77^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values["ship_from_phone"] == "+46 70 011 22 33"
    assert draft.values["ship_to_phone"] == "+46 70 099 88 77"


@pytest.mark.parametrize("line", ["SWEDEN", "HU - Magyarország", "United States (USA)",
                                  "UNITED STATES US", "España", "(US)"])
def test_a_country_line_in_a_block_is_its_country(line: str) -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO20,20^A0N,24^FDShip To:^FS"
           "^FO20,50^A0N,30^FDJane Doe^FS^FO20,85^A0N,30^FDHarbour Road 12^FS"
           f"^FO20,120^A0N,30^FD{line}^FS^FO20,155^A0N,30^FD+46 70 011 22 33^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values["ship_to_country"] == line
    assert draft.values["ship_to_phone"] == "+46 70 011 22 33"


def test_a_caption_word_without_a_colon_names_its_value_for_review() -> None:
    zpl = "^XA^PW812^LL1218^FO20,20^A0N,30^FDOrder 5521^FS^FO20,80^A0N,30^FDPO 88123^FS^XZ"
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    # The caption stays in the body; its name is only a guess without a colon.
    assert result.draft.values == {"order_number": "5521", "purchase_order": "88123"}
    assert "^FN1^FDOrder ^FS" in result.draft.body
    assert all(c < 0.7 for c in result.field_confidence.values())


def test_the_printed_form_of_an_unnamed_barcode_is_named_by_its_own_shape() -> None:
    # A DataMatrix record holding the tracking number among other data.
    zpl = ("^XA^PW812^LL1218^FO40,40^BXN,5,200^FD1Z999AA10123456784|SHIPTO|94107^FS"
           "^FO40,260^A0N,30^FD1Z 999 AA1 01 2345 6784^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["tracking_number"] == "1Z 999 AA1 01 2345 6784"
    assert values["datamatrix_data"] == "1Z999AA10123456784|SHIPTO|94107"


def uncaptioned(sender_height: int, receiver_height: int) -> str:
    """A sender block and a receiver block without captions, a routing code printed
    large above the sender (as on the Polish Pocztex label of the corpus)."""
    return ("^XA^CI28^PW812^LL1218"
            "^FO70,20^A0N,60^FDBY1^FS"
            f"^FO70,100^A0N,{sender_height}^FDMerchant AB^FS"
            f"^FO70,125^A0N,{sender_height}^FDSkrytka pocztowa nr 100^FS"
            f"^FO70,150^A0N,{sender_height}^FD62-056 Komorniki^FS"
            f"^FO70,400^A0N,{receiver_height}^FDAnna Nowak^FS"
            f"^FO70,440^A0N,{receiver_height}^FDWyzwolenia 106^FS"
            f"^FO70,480^A0N,{receiver_height}^FD85-790 Bydgoszcz^FS^XZ")


def test_uncaptioned_blocks_take_their_party_from_their_print_size() -> None:
    # The recipient's block is printed larger; a post-office box line is an address
    # line, not a caption; the large code above the sender is not the sender's name.
    draft = ENGINE.synthesize(SynthesisRequest(uncaptioned(22, 34))).draft
    assert draft.values["ship_from_name"] == "Merchant AB"
    assert draft.values["ship_from_address_1"] == "Skrytka pocztowa nr 100"
    assert draft.values["ship_from_postal_city"] == "62-056 Komorniki"
    assert draft.values["ship_to_name"] == "Anna Nowak"
    assert draft.values["ship_to_postal_city"] == "85-790 Bydgoszcz"
    # At equal size, the lower block is the recipient's.
    same = ENGINE.synthesize(SynthesisRequest(uncaptioned(28, 28))).draft
    assert same.values["ship_to_name"] == "Anna Nowak"
    assert same.values["ship_from_name"] == "Merchant AB"


def test_a_postcode_on_its_own_line_under_the_town() -> None:
    zpl = ("^XA^PW812^LL1218"
           "^FO70,70^A0N,28^FDDeliver To:^FS"
           "^FO70,100^A0N,28^FDA Recipient^FS"
           "^FO70,135^A0N,28^FD12 Long Lane^FS"
           "^FO70,170^A0N,28^FDChipping Campden^FS"
           "^FO70,205^A0N,28^FDGL55 6HU^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values["ship_to_city"] == "Chipping Campden"
    assert draft.values["ship_to_postal_code"] == "GL55 6HU"


def test_print_size_makes_the_parties_surer_than_place_alone() -> None:
    def reviewed(zpl: str) -> set[str]:
        result = ENGINE.synthesize(SynthesisRequest(zpl))
        return {name for name, c in result.field_confidence.items() if c < 0.7}
    # A recipient printed larger than the sender: both blocks are sure enough.
    assert not {"ship_to_name", "ship_from_name"} & reviewed(uncaptioned(22, 34))
    # At equal size only the place says whose block is whose: a person should look.
    assert {"ship_to_name", "ship_from_name"} <= reviewed(uncaptioned(28, 28))


def test_an_australian_town_line_then_its_postcode_and_captioned_data_ends_a_block() -> None:
    zpl = ("^XA^PW812^LL1218"
           "^FO30,255^A0N,18^FDDELIVER TO:^FS"
           "^FO30,285^A0N,35^FDEmma Williams^FS"
           "^FO30,325^A0N,28^FD78 Collins Street^FS"
           "^FO30,395^A0N,35^FDMelbourne VIC^FS"
           "^FO30,435^A0N,50^FD3000^FS"
           "^FO30,490^A0N,18^FDSERVICE: EXPRESS POST^FS"
           "^FO30,515^A0N,18^FDNEXT BUSINESS DAY^FS"
           "^FO30,905^A0N,18^FDITEMS: 1 OF 1^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values["ship_to_city"] == "Melbourne VIC"
    assert draft.values["ship_to_postal_code"] == "3000"
    assert draft.values["piece_count"] == "1 OF 1"
    assert "NEXT BUSINESS DAY" not in draft.values.values()


@pytest.mark.parametrize(("caption", "name"), [
    ("Termin ważności etykiety:", "expiry_date"),  # a known caption and one more word
    ("REJON:", "routing_code"), ("Sort area:", "routing_code"), ("CAD:", "account_number"),
    # (on a label that carries nothing of a parcel a plain count is a quantity of goods)
    ("BULTOS:", "quantity"), ("Szt.:", "quantity"),
    ("Auftragsnummer:", "order_number"), ("Lieferschein:", "reference"), ("Ref1:", "reference"),
    ("Destination:", "routing_code"), ("Piece ID:", "tracking_number"),
])
def test_longer_and_more_captions_name_their_value(caption: str, name: str) -> None:
    zpl = (f"^XA^PW812^LL1218^FO50,50^A0N,24^FD{caption}^FS"
           "^FO400,50^A0N,24^FD4711^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {name: "4711"}


@pytest.mark.parametrize("service", [
    "^FO30,530^A0N,25^FDSERVICE: BPACK 24H BUSINESS^FS",
    "^FO30,530^A0N,25^FDService: System Premium^FS",
    "^FO30,530^A0N,25^FDSERVICE:^FS^FO160,530^A0N,25^FDEXPRESS 9AM^FS",
])
def test_a_service_line_is_part_of_the_layout(service: str) -> None:
    # Another service is another layout: the banner stays static, the data beside it not.
    zpl = f"^XA^PW812^LL1218{service}^FO30,600^A0N,25^FDREF: AB-2026-0315^FS^XZ"
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {"reference": "AB-2026-0315"}


def test_a_danish_block_with_its_country_code_before_the_town_and_a_blank_line() -> None:
    # As on the GLS return label of the corpus: an uncaptioned block whose town line
    # starts after a "DK" field, and a rotated sender block with a blank second
    # street line and the parcel number beside its caption.
    zpl = ("^XA^CI28^PW812^LL1218"
           "^FO50,694^A0N,40^FDIngrid Tester^FS"
           "^FO50,799^A0N,40^FDPer frediks allee 21^FS"
           "^FO50,867^A0N,26^FDDK^FS^FO110,867^A0N,26^FD2500  Copenhagen^FS"
           "^FO50,899^A0N,20^FDKontakt^FS"
           "^FO750,474^A0R,20^FDAfsender^FS^FO750,584^A0R,20^FD2080000075^FS"
           "^FO725,474^A0R,23^FDJens Hansen^FS"
           "^FO700,474^A0R,23^FD^FS^FO675,474^A0R,23^FD^FS"
           "^FO650,474^A0R,23^FDStrandvejen 4^FS"
           "^FO625,474^A0R,23^FDDK^FS^FO625,514^A0R,23^FD8000^FS"
           "^FO625,584^A0R,23^FDAarhus^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert {k: v for k, v in values.items() if k.startswith(("ship_to", "ship_from"))} == {
        "ship_to_name": "Ingrid Tester", "ship_to_address_1": "Per frediks allee 21",
        "ship_to_country": "DK", "ship_to_postal_city": "2500  Copenhagen",
        "ship_from_name": "Jens Hansen", "ship_from_address_1": "Strandvejen 4",
        "ship_from_country": "DK", "ship_from_postal_code": "8000",
        "ship_from_city": "Aarhus"}
    assert "Kontakt" not in values.values()


def test_a_printed_form_with_dots_shares_its_barcode_name() -> None:
    zpl = ("^XA^PW812^LL1218^FO400,60^BCN,80,N^FD996000000000000000^FS"
           "^FO400,160^A0N,24^FD99.60.000000.00000000^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    # named as its barcode is (Swiss Post's parcel number), not ``text_2``
    assert names == ["tracking_number", "tracking_number_2"]


@pytest.mark.parametrize("postcode", ["6539", "GL55 6HU", "75002"])
def test_a_postcode_alone_under_its_town_closes_an_uncaptioned_block(postcode: str) -> None:
    # The British form of the DHL Parcel UK label, with a Norwegian, a British and a
    # French code: name, two streets, the town, then the code on a line of its own.
    zpl = ("^XA^CI28^PW812^LL1218"
           "^FO40,272^A0N,28^FDMay Ellingsen^FS^FO40,353^A0N,28^FDBerntsenroa 7^FS"
           "^FO40,393^A0N,28^FDSthergropa 4^FS^FO40,475^A0N,28^FDJanfjell^FS"
           f"^FO40,515^A0N,28^FD{postcode}^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"ship_to_name": "May Ellingsen", "ship_to_address_1": "Berntsenroa 7",
                      "ship_to_address_2": "Sthergropa 4", "ship_to_city": "Janfjell",
                      "ship_to_postal_code": postcode}


def test_a_caption_written_with_fh_escapes_names_its_value() -> None:
    # "Zawartość:" as the Pocztex label of the corpus writes it.
    zpl = ("^XA^CI28^PW812^LL1218"
           "^FT21,688^A0N,21^FH_^FDZawarto_c5_9b_c4_87: Other (Clothing)^FS^XZ")
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {"description": "Other (Clothing)"}
    assert "^FDZawarto_c5_9b_c4_87: ^FS" in draft.body.replace("^FN1", "")


@pytest.mark.parametrize("caption", [
    "^FO91,89^A0N,30^FDSHIP^FS^FO91,130^A0N,30^FDTO :^FS",  # a two-line caption
    "^FO91,130^A0N,43^FDTO^FS",  # one caption centred on the block
])
def test_a_block_that_starts_above_its_caption_keeps_its_first_line(caption: str) -> None:
    zpl = ("^XA^PW812^LL1218" + caption +
           "^FO188,89^A0N,30^FDSGT JOHN SMITH^FS^FO188,130^A0N,30^FDPSC 1 BOX 1234^FS"
           "^FO188,171^A0N,30^FDAPO AE 09009-0013^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"ship_to_name": "SGT JOHN SMITH", "ship_to_address_1": "PSC 1 BOX 1234",
                      "ship_to_postal_city": "APO AE 09009-0013"}


def test_a_phone_and_email_far_from_any_block_take_the_nearest_party_for_review() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO49,380^A0N,22^FDODBIORCA:^FS"
           "^FO49,408^A0N,30^FDPocztex AUTOMAT^FS^FO49,470^A0N,30^FDWyzwolenia 106^FS"
           "^FO49,531^A0N,30^FD85-790 Bydgoszcz^FS"
           "^FO245,804^A0N,27^FDtel. 600123456^FS"
           "^FO245,844^A0N,27^FDtest.receiver@example.com^FS^XZ")
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    assert result.draft.values["ship_to_phone"] == "600123456"  # "tel. " stays in the body
    assert result.draft.values["ship_to_email"] == "test.receiver@example.com"
    assert result.field_confidence["ship_to_email"] < 0.7  # listed for review


def test_a_sort_area_repeats_the_recipient_when_both_parties_share_a_town() -> None:
    # Sender and recipient in one town (a third of the generated labels are so):
    # the sort area routes to the recipient.
    zpl = ("^XA^CI28^PW812^LL1218^FO30,105^A0N,18^FDFROM:^FS"
           "^FO30,130^A0N,22^FDShop GmbH^FS^FO30,160^A0N,18^FDRing 4^FS"
           "^FO30,185^A0N,18^FDH-3437 Baja^FS^FO30,260^A0N,18^FDTO:^FS"
           "^FO30,290^A0N,35^FDAnna Kiss^FS^FO30,330^A0N,28^FDFo utca 1^FS"
           "^FO30,400^A0N,35^FDH-3437 Baja^FS"
           "^FO570,285^A0N,60^FDH-3437^FS^FO570,340^A0N,40^FDBAJA^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_postal_code"] == "H-3437" and values["ship_to_city"] == "BAJA"
    assert values["ship_from_postal_city"] == values["ship_to_postal_city"] == "H-3437 Baja"


def test_a_street_with_its_number_first_is_no_town_above_a_lone_postcode() -> None:
    zpl = ("^XA^PW812^LL1218^FO30,255^A0N,18^FDDELIVER TO:^FS"
           "^FO30,285^A0N,35^FDEmma Williams^FS^FO30,325^A0N,28^FD78580 Gonzalez Island^FS"
           "^FO30,395^A0N,35^FDPhillipchester^FS^FO30,435^A0N,50^FD48876^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"ship_to_name": "Emma Williams",
                      "ship_to_address_1": "78580 Gonzalez Island",
                      "ship_to_city": "Phillipchester", "ship_to_postal_code": "48876"}


@pytest.mark.parametrize("street", ["40917 Marsh Landing", "2231 Cedar Springs Suite 140",
                                    "10582 Old Mill Alley", "61344 Hargrove Fort",
                                    "7731 Pine Valley"])
def test_a_us_street_of_any_postal_suffix_is_no_postcode_and_town(street: str) -> None:
    # A house number of four or five digits reads like a postcode; the street's kind,
    # any of the suffixes the US Postal Service lists, says it is the street.
    # (The town has no postcode beside it, as Turkish and Nigerian blocks print it.)
    zpl = ("^XA^PW812^LL1218^FO30,255^A0N,24^FDSHIP TO:^FS"
           f"^FO30,285^A0N,30^FDNora Whitley^FS^FO30,320^A0N,30^FD{street}^FS"
           "^FO30,355^A0N,30^FDEast Calvinport^FS^FO30,390^A0N,30^FD0 (532) 418 22 61^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_address_1"] == street
    assert "ship_to_postal_city" not in values


def test_a_phone_on_the_caption_line_and_a_country_right_of_the_town() -> None:
    # As on the FedEx label of the corpus: the sender's phone, written without its
    # plus sign, beside "FROM:"; the recipient's country far right of the town.
    zpl = ("^XA^PW812^LL1218^FO32,3^A0N,30^FDFROM:^FS^FO224,3^A0N,30^FD46737671317^FS"
           "^FO32,37^A0N,30^FDMerchant AB^FS^FO32,55^A0N,30^FD100 Test Suite 200^FS"
           "^FO32,91^A0N,30^FDLewis Center OH 43000^FS"
           "^FO9,136^A0N,21^FDTO^FS^FO39,136^A0N,39^FDTest Receiver^FS"
           "^FO39,220^A0N,39^FD5000 S 160th St^FS^FO39,304^A0N,43^FDDes Moines WA 11111^FS"
           "^FO719,304^A0N,43^FD(US)^FS^XZ")
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    assert result.draft.values["ship_from_phone"] == "46737671317"
    assert result.field_confidence["ship_from_phone"] < 0.7  # for a person to check
    assert result.draft.values["ship_to_country"] == "(US)"


def test_a_reference_beside_a_caption_is_no_phone() -> None:
    zpl = ("^XA^PW812^LL1218^FO32,3^A0N,30^FDFROM:^FS^FO224,3^A0N,30^FD2080000075^FS"
           "^FO32,37^A0N,30^FDMerchant AB^FS^FO32,70^A0N,30^FDLewis Center OH 43000^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert "ship_from_phone" not in values


@pytest.mark.parametrize("caption", ["From: ", "FROM: ", "Ship From: ", "Absender: "])
def test_a_name_after_its_caption_starts_that_partys_block(caption: str) -> None:
    # As on the zplkit UPS and USPS labels of the corpus.
    zpl = ("^XA^PW812^LL1218"
           f"^FO50,370^A0N,28,28^FD{caption}Tech Solutions Inc^FS"
           "^FO50,410^A0N,25,25^FD200 Tech Park, Austin, TX 78701^FS^XZ")
    result = ENGINE.synthesize(SynthesisRequest(zpl))
    assert result.draft.values == {"ship_from_name": "Tech Solutions Inc",
                                   "ship_from_postal_city": "200 Tech Park, Austin, TX 78701"}
    assert f"^FD{caption}^FS" in result.draft.body.replace("^FN1", "")


@pytest.mark.parametrize(("rule", "first"), [
    ("^FO50,100^GB712,4,4^FS", "Bob Johnson"),  # a rule under the brand: not the block's
    ("", "UPS"),  # without it the brand reads as the first line
])
def test_a_rule_drawn_between_lines_ends_a_block(rule: str, first: str) -> None:
    zpl = ("^XA^PW812^LL1218^FO50,30^A0N,50,50^FDUPS^FS" + rule +
           "^FO50,130^A0N,40,40^FDBob Johnson^FS^FO50,180^A0N,30,30^FD555 Pine Street^FS"
           "^FO50,220^A0N,30,30^FDDenver, CO 80202^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_name"] == first


def test_a_form_version_is_static_and_an_sscc_in_a_block_is_no_address_line() -> None:
    zpl = ("^XA^PW812^LL1218^FO30,255^A0N,18^FDSHIP TO:^FS"
           "^FO30,285^A0N,35^FDEmma Williams^FS^FO30,325^A0N,28^FD78 Collins Street^FS"
           "^FO30,365^A0N,28^FD573313433000000006^FS"
           "^FO30,405^A0N,35^FDMelbourne VIC 3000^FS"
           "^FO686,1175^A0N,9^FDVER: 01.06^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    # (a parcel's number in the form of an SSCC, where nothing says "SSCC", is its
    # tracking number: see test_values)
    assert values == {"ship_to_name": "Emma Williams", "ship_to_address_1": "78 Collins Street",
                      "tracking_number": "573313433000000006",
                      "ship_to_postal_city": "Melbourne VIC 3000"}


@pytest.mark.parametrize(("line", "code"), [
    ("^FO74,796^A0N,70^FDSKA^FS^FO267,796^A0N,70^FDSK13^FS", "SKA"),  # as on the DBS label
    ("^FO74,796^A0N,70^FDSKA^FS", None),  # alone it says nothing
])
def test_a_short_code_on_the_line_of_a_sort_code_is_routing(line: str, code: str | None
                                                            ) -> None:
    zpl = f"^XA^PW812^LL1218{line}^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("routing_code") == code


def test_a_unit_in_a_field_of_its_own_makes_the_number_before_it_a_weight() -> None:
    # As on the GLS return label: "0.10" then "kg", then the parcel count.
    zpl = ("^XA^PW812^LL1218^FO330,404^A0N,60^FD0.10^FS^FO420,424^A0N,30^FDkg^FS"
           "^FO470,414^A0N,30^FD001 / 001^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"weight": "0.10", "piece_count": "001 / 001"}


def test_column_headers_name_the_numbers_below_them() -> None:
    # The customs declaration of the USPS APO label: headers in a row, values below.
    zpl = ("^XA^PW812^LL1218^FO176,346^A0N,14^FDQty.^FS^FO230,346^A0N,14^FDWgt^FS"
           "^FO305,346^A0N,14^FDValue^FS^FO370,344^A0N,14^FDHS Tariff Number;^FS"
           "^FO182,401^A0N,17^FD1^FS^FO217,399^A0N,17^FD5^FS^FO305,400^A0N,17^FD50.00^FS"
           "^FO50,999^A0N,20^FDNote^FS^FO150,999^A0N,20^FDclothes^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"quantity": "1", "weight": "5", "value": "50.00", "remarks": "clothes"}


@pytest.mark.parametrize(("caption", "name"), [
    ("Contents", "description"), ("Contenido", "description"), ("Note", "remarks")])
def test_words_below_a_caption_of_words_are_its_value(caption: str, name: str) -> None:
    # As on the LBC Express and Chilexpress labels: the caption over what was sent.
    zpl = (f"^XA^PW812^LL1218^FO40,690^A0N,22,22^FD{caption}^FS"
           "^FO40,718^A0N,26,26^FDClothes and shoes^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {name: "Clothes and shoes"}


def test_words_below_a_caption_of_a_number_stay_static() -> None:
    zpl = ("^XA^PW812^LL1218^FO40,690^A0N,22,22^FDWeight^FS"
           "^FO40,718^A0N,26,26^FDHandle with care^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {}


@pytest.mark.parametrize(("line", "code"), [
    ("^FO585,40^A0N,80,80^FDORD^FS", "ORD"),  # top right, as on the DHL eCommerce label
    ("^FO100,700^A0N,40,40^FDCO-DEN^FS", "CO-DEN"),  # two codes joined by a dash
    ("^FO50,30^A0N,50,50^FDUPS^FS", None),  # the carrier's logo in the top left corner
    ("^FO300,500^A0N,64,64^FDPPL^FS^FO40,900^A0N,20,20^FDPPL Parcel CZ Business^FS", None),
    ("^FO300,500^A0N,40,40^FDDDP^FS", None),  # terms of trade, not a place
    ("^FO300,500^A0N,20,20^FDNRT^FS", None),  # small print
])
def test_three_capitals_in_a_large_font_are_a_hub(line: str, code: str | None) -> None:
    zpl = on_a_parcel(line)
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("routing_code") == code


def test_a_mexican_block_reads_street_colonia_postcode_and_town() -> None:
    # As on the Estafeta label: the house number looks like a postcode, "C.P." has
    # a line of its own, and the town follows it.
    zpl = ("^XA^PW812^LL1218^FO35,318^A0N,24^FDDestinatario^FS"
           "^FO35,348^A0N,44^FDLic. Fernanda Ruiz Cárdenas^FS"
           "^FO35,400^A0N,34^FDAv. Insurgentes Sur 1602, Int. 4B^FS"
           "^FO35,442^A0N,34^FDCol. Crédito Constructor^FS^FO35,488^A0N,34^FDC.P. 03940^FS"
           "^FO35,530^A0N,34^FDBenito Juárez, Ciudad de México^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"ship_to_name": "Lic. Fernanda Ruiz Cárdenas",
                      "ship_to_address_1": "Av. Insurgentes Sur 1602, Int. 4B",
                      "ship_to_address_2": "Col. Crédito Constructor",
                      "ship_to_postal_code": "C.P. 03940",
                      "ship_to_city": "Benito Juárez, Ciudad de México"}


def test_a_block_without_postcode_ends_with_its_town_above_the_phone() -> None:
    # As on the Chilexpress label: no postcode; the town is the last line of words.
    zpl = ("^XA^PW812^LL1218^FO40,430^A0N,24^FDDESTINATARIO^FS"
           "^FO40,462^A0N,30^FDJaviera Paz Muñoz^FS"
           "^FO40,500^A0N,30^FDPasaje Los Aromos 2245, Depto 31^FS"
           "^FO40,538^A0N,30^FDVilla Los Héroes^FS^FO40,576^A0N,30^FDCONCEPCIÓN - BIOBÍO^FS"
           "^FO40,614^A0N,30^FDFono: +56 9 8732 1106^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_city"] == "CONCEPCIÓN - BIOBÍO"
    assert values["ship_to_address_1"] == "Pasaje Los Aromos 2245, Depto 31"
    assert values["ship_to_address_2"] == "Villa Los Héroes"


@pytest.mark.parametrize(("caption", "name"), [
    ("N° de facture :", "invoice"), ("Shipper Order No.", "order_number")])
def test_a_caption_names_a_code_that_only_looks_like_a_parcel_number(caption: str,
                                                                     name: str) -> None:
    # As on the Colissimo CN23 (caption beside) and Ninja Van (caption above) labels.
    zpl = on_a_parcel(f"^FO40,940^A0N,22,22^FD{caption}^FS"
                      "^FO40,968^A0N,30,30^FDLHL-SG-7730915^FS")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values[name] == "LHL-SG-7730915"


@pytest.mark.parametrize("footer", ["emiratespost.ae - 600 599 999", "www.chilexpress.cl",
                                    "LOOMIS-EXPRESS.COM 1-855-256-6647"])
def test_a_web_address_of_any_country_stays_static(footer: str) -> None:
    zpl = f"^XA^PW812^LL1218^FO40,1150^A0N,20,20^FD{footer}^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {}


def test_the_next_line_of_a_captioned_description_continues_it() -> None:
    # As on the AIAG B-10 label: the part's description on two lines under its caption.
    zpl = ("^XA^PW812^LL1218^FO622,220^A0N,22,20^FDDESCRIPTION^FS"
           "^FO632,256^A0N,30,28^FDCLIP, WIRE HARNESS^FS^FO632,296^A0N,30,28^FDNYLON 6/6 BLK^FS"
           "^FO622,346^A0N,22,20^FDENG CHG LEVEL^FS^FO632,376^A0N,30,28^FDREV 04^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"description": "CLIP, WIRE HARNESS", "description_2": "NYLON 6/6 BLK",
                      "revision": "REV 04"}


def test_a_contact_between_two_blocks_belongs_to_the_block_above() -> None:
    # As on the Palletways label: the consignee's block, its contact, then the consignor.
    zpl = ("^XA^PW812^LL1218^FO35,375^A0N,22,22^FDConsignee:^FS"
           "^FO35,405^A0N,40,40^FDGLENCAIRN FLOORING LTD^FS"
           "^FO35,452^A0N,32,32^FDMme Laure Castagnier^FS"
           "^FO35,492^A0N,32,32^FD12 BRIDGE STREET^FS^FO35,532^A0N,40,40^FDNEWBRIDGE^FS"
           "^FO35,580^A0N,56,56^FDEH28 8SY^FS^FO35,645^A0N,24,24^FDContact: Ross McInnes^FS"
           "^FO35,695^A0N,22,22^FDConsignor:^FS^FO35,720^A0N,22,22^FDMidland Tile Supplies^FS"
           "^FO35,745^A0N,22,22^FD4 Hall Court^FS^FO35,770^A0N,22,22^FDTelford TF3 3BD^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_contact"] == "Mme Laure Castagnier"
    assert values["ship_to_contact_2"] == "Ross McInnes"


def test_a_depot_code_in_a_large_font_is_routing_not_any_number() -> None:
    # As on the GLS return label: "DK0063" printed large, four digits and all.
    zpl = on_a_parcel("^FO40,409^A0N,50,30^FDDK0063^FS")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values["routing_code"] == "DK0063"


@pytest.mark.parametrize(("line", "name"), [
    ("Emballé le 25/11/2026", "pack_date"), ("À consommer jusqu'au 28/11/2026", "expiry_date"),
    ("Consumir até 30/11/2026", "expiry_date")])
def test_a_caption_with_accents_and_no_colon_keeps_its_value(line: str, name: str) -> None:
    # As on the French deli scale label: UTF-8 captions, the date after them.
    zpl = f"^XA^CI28^PW812^LL406^FO10,176^A0N,18,16^FD{line}^FS^XZ"
    draft = ENGINE.synthesize(SynthesisRequest(zpl)).draft
    assert draft.values == {name: line.rsplit(" ", 1)[1]}


@pytest.mark.parametrize(("line", "values"), [
    ("Ticket 0187", {"reference": "0187"}), ("Client 10482", {"customer_number": "10482"}),
    ("Schuur 3411", {"schuur": "Schuur 3411"})])
def test_a_word_before_a_number_names_it_known_or_not(line: str, values: dict[str, str]
                                                      ) -> None:
    # As on the scale and flower-auction labels: no colon, the word says what it is (a
    # word of the vocabulary is a caption, kept static; an unknown one names it all).
    zpl = f"^XA^PW812^LL406^FO330,372^A0N,16,16^FD{line}^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == values


@pytest.mark.parametrize(("line", "values"), [
    ("Gross 8.9 kg", {"weight": "8.9 kg"}), ("Scaffale C-14-3", {"location": "C-14-3"})])
def test_a_value_that_names_itself_after_unknown_words(line: str, values: dict[str, str]
                                                       ) -> None:
    zpl = f"^XA^PW812^LL406^FO330,372^A0N,16,16^FD{line}^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == values


@pytest.mark.parametrize(("line", "values"), [
    ("Operador 7", {"operator": "7"}), ("Turno M", {"shift": "M"}), ("Rev: C", {"revision": "C"}),
    ("Rev: 01.06", {}), ("PART NO", {})])
def test_a_known_word_before_one_letter_or_a_small_number(line: str, values: dict[str, str]
                                                          ) -> None:
    assert _one_line(line) == values


def test_a_person_caption_before_a_number_names_their_number() -> None:
    zpl = "^XA^PW812^LL406^FO340,400^A0N,16,14^FDPatient 58213^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {"patient_id": "58213"}


@pytest.mark.parametrize(("line", "name"), [
    ("Ref.ª cliente: ENC-2026-5531", "reference"), ("VS: 2611240093", "reference"),
    ("AP Article Id: 2JD5412345 01000 93150 9", "tracking_number")])
def test_a_caption_of_an_identifier_beats_a_parcel_number_shape(line: str, name: str) -> None:
    zpl = on_a_parcel(f"^FO40,700^A0N,24,24^FD{line}^FS")
    names = ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map
    assert name in names


def test_a_carriers_name_under_its_caption_is_data_and_the_caption_no_echo() -> None:
    # As on the VICS bill of lading label: "CARRIER" over the carrier the load goes with.
    zpl = ("^XA^PW812^LL1218^FO20,302^A0N,22,20^FDSHIP FROM^FS"
           "^FO20,328^A0N,26,24^FDHARBOR STONE TILE CO^FS"
           "^FO20,358^A0N,26,24^FD4100 PORT INDUSTRIAL BLVD^FS"
           "^FO20,388^A0N,26,24^FDSAVANNAH, GA 31408^FS"
           "^FO20,472^A0N,22,20^FDCARRIER^FS^FO20,498^A0N,30,28^FDESTES EXPRESS LINES^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["carrier"] == "ESTES EXPRESS LINES"
    assert "CARRIER" not in values.values()


def test_a_destination_caption_over_an_airport_code_is_routing() -> None:
    # As on the IATA air cargo piece label.
    zpl = ("^XA^PW812^LL609^FO24,160^A0N,18,18^FDDESTINATION^FS"
           "^FO24,182^A0N,130,110^FDORD^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {"routing_code": "ORD"}


@pytest.mark.parametrize(("sender", "receiver"), [
    ("ПОШИЉАЛАЦ / Pošiljalac", "ПРИМАЛАЦ / Primalac"), ("Expeditor", "Destinatar"),
    ("Sūtītājs", "Saņēmējs"), ("Pengirim:", "Penerima:"), ("寄件人", "收件人"),
    ("If undelivered please return to:", "Deliver to:"), ("Retourner à :", "Destinataire")])
def test_more_languages_caption_the_parties(sender: str, receiver: str) -> None:
    draft = ENGINE.synthesize(SynthesisRequest(two_blocks(sender, receiver))).draft
    assert draft.values["ship_from_name"] == "Merchant AB"
    assert draft.values["ship_to_name"] == "Ingrid Tester"


def test_a_japanese_block_reads_postcode_mark_honorific_and_phone() -> None:
    # As on the written Yu-Pack label: the name comes after the address.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,145^A0N,24^FDお届け先^FS"
           "^FO40,180^A0N,38^FD〒 604-8005^FS^FO40,228^A0N,32^FD京都府京都市中京区^FS"
           "^FO40,268^A0N,32^FD恵比須町 534-3^FS^FO40,320^A0N,46^FD松本 彩花 様^FS"
           "^FO40,378^A0N,28^FD電話 075-231-4486^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_name"] == "松本 彩花 様"
    assert values["ship_to_postal_code"] == "〒 604-8005"
    assert values["ship_to_phone"] == "075-231-4486"  # the caption stays in the body


@pytest.mark.parametrize(("line", "part"), [
    ("〒812-0011 福岡県福岡市博多区博多駅前3-25-21", "address_1"),  # down to the house
    ("〒 150-0001  東京都渋谷区神宮前 3-21-7", "address_1"),
    ("〒604-8005 京都府京都市中京区", "postal_city"),  # the code and the town only
    ("〒604-8005", "postal_code"),
])
def test_a_japanese_line_after_its_postcode_mark_is_the_part_it_holds(line: str,
                                                                     part: str) -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO40,145^A0N,24^FDご依頼主^FS"
           f"^FO40,180^A0N,30^FD{line}^FS^FO40,228^A0N,32^FD株式会社 博多物産^FS"
           "^FO40,276^A0N,28^FDTEL 092-431-1187^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get(f"ship_from_{part}") == line
    assert values.get("ship_from_name") == "株式会社 博多物産"


@pytest.mark.parametrize(("lines", "code"), [
    # As on the GIG waybill: the hub is in the 2D symbol's record too.
    ("^FO560,55^A0N,50,50^FDLOS^FS^FO300,900^BQN,2,4^FDMA,GIG|1142078853|LOS|ABV^FS", "LOS"),
    # As on the FedEx Freight label: a small code under its caption.
    ("^FO520,665^A0N,20,20^FDORIGIN^FS^FO520,690^A0N,30,30^FDCHI^FS", "CHI")])
def test_a_hub_code_repeated_in_data_or_under_its_caption(lines: str, code: str) -> None:
    zpl = on_a_parcel(lines)
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["routing_code"] == code


def test_a_state_after_the_town_is_no_country() -> None:
    # As on the Pos Laju label: postcode and town, then the state.
    zpl = ("^XA^PW812^LL1218^FO40,200^A0N,24,24^FDPenerima:^FS^FO40,230^A0N,30,30^FDNur Aisyah^FS"
           "^FO40,265^A0N,30,30^FDLot 2281, Kampung Kubang^FS"
           "^FO40,300^A0N,30,30^FD16150 Kota Bharu^FS^FO40,335^A0N,30,30^FDKelantan^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert "ship_to_country" not in values
    assert "Kelantan" in values.values()


@pytest.mark.parametrize(("line", "values"), [
    ("Valija 3 de 5", {"piece_count": "3 de 5"}),
    ("Case 0213 of 0480", {"piece_count": "0213 of 0480"}),
    ("PAGE 1 OF 1", {})])
def test_a_count_after_any_word_but_a_page(line: str, values: dict[str, str]) -> None:
    zpl = f"^XA^PW812^LL1218^FO560,20^A0N,22,22^FD{line}^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == values


def test_contact_lines_and_a_captioned_postcode_in_a_block() -> None:
    # As on the trans-o-flex and FAN Courier labels.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,200^A0N,24,24^FDDestinatar:^FS"
           "^FO40,230^A0N,30,30^FDFarmacia Centrală SRL^FS"
           "^FO40,265^A0N,30,30^FDz. Hd. Frau Dr. Meike Vossberg^FS"
           "^FO40,300^A0N,30,30^FDStr. Observatorului nr. 112^FS"
           "^FO40,335^A0N,30,30^FDCluj-Napoca, jud. Cluj^FS"
           "^FO40,370^A0N,30,30^FDCod poștal 400363^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_contact"] == "z. Hd. Frau Dr. Meike Vossberg"
    assert values["ship_to_postal_code"] == "Cod poștal 400363"
    assert values["ship_to_city"] == "Cluj-Napoca, jud. Cluj"


@pytest.mark.parametrize(("line", "name"), [
    ("NIT 830.114.562-7", "ship_from_tax_id"), ("RUC 20601234571", "ship_from_tax_id"),
    ("OIB 73018254906", "ship_from_tax_id"), ("CUIT 30-71234567-9", "ship_from_tax_id"),
    ("DNI 28.704.316", "dni"),
], ids=lambda c: c)
def test_a_tax_or_identity_number_in_a_block_is_no_address_line(line: str, name: str) -> None:
    # The sender's tax number printed under their name, as couriers of Latin America
    # and the Balkans print it: the street is still the block's first address line.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,100^A0N,24,24^FDREMITENTE^FS"
           "^FO40,130^A0N,26,26^FDFerretería Los Andes S.A.^FS"
           f"^FO40,160^A0N,26,26^FD{line}^FS"
           "^FO40,190^A0N,26,26^FDAv. Libertad 2280^FS"
           "^FO40,220^A0N,26,26^FD15074 Lima^FS"
           "^FO40,300^A0N,24,24^FDDESTINATARIO^FS"
           "^FO40,330^A0N,30,30^FDJulia Paredes Soto^FS"
           "^FO40,365^A0N,30,30^FDCalle Olmos 51^FS"
           "^FO40,400^A0N,30,30^FD04001 Arequipa^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values[name] == line
    assert values["ship_from_address_1"] == "Av. Libertad 2280"


@pytest.mark.parametrize("care_of", ["c/o Hollis & Grant Solicitors", "C/O Bay 4 Self Storage",
                                     "Care of Dr. Amrein", "c/o Praxis Seidl"])
def test_a_care_of_line_in_a_block_is_part_of_its_address(care_of: str) -> None:
    # Where the parcel is left for the recipient, as the postal services write it
    # under the name: a line of the address, not a person to ask for.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,200^A0N,24,24^FDShip To:^FS"
           "^FO40,230^A0N,30,30^FDMartin Kessler^FS"
           f"^FO40,265^A0N,30,30^FD{care_of}^FS"
           "^FO40,300^A0N,30,30^FD18 Quarry Road^FS"
           "^FO40,335^A0N,30,30^FDLeeds LS6 2AB^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_address_1"] == care_of
    assert values["ship_to_address_2"] == "18 Quarry Road"
    assert "ship_to_contact" not in values


@pytest.mark.parametrize("quarter", ["Barrio Chicó Norte", "Vila Olímpia", "Col. Americana",
                                     "Kec. Sukomanunggal", "Quartier Bellevue", "Bairro Savassi"])
def test_a_quarter_named_by_its_kind_is_no_town(quarter: str) -> None:
    # A block without postcode or town, its last line of words a quarter of the town.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,430^A0N,24^FDDESTINATARIO^FS"
           "^FO40,462^A0N,30^FDAndrés Felipe Garzón^FS"
           "^FO40,500^A0N,30^FDCra 15 # 93-47 Apto 502^FS"
           f"^FO40,538^A0N,30^FD{quarter}^FS"
           "^FO40,576^A0N,30^FDCel. 310 482 1937^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("ship_to_address_2") == quarter
    assert "ship_to_city" not in values


@pytest.mark.parametrize("code", ["Cód. postal 110231", "Cod. postal 4000-322", "Cód.postal 28014"])
def test_an_abbreviated_postcode_caption_on_its_own_line_in_a_block(code: str) -> None:
    # Spanish and Portuguese abbreviate "Código postal"; the town is the line above.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,200^A0N,24,24^FDDESTINATARIO^FS"
           "^FO40,230^A0N,30,30^FDCamila Ortiz Vélez^FS"
           "^FO40,265^A0N,30,30^FDCarrera 7 # 71-21 Apto 502^FS"
           "^FO40,300^A0N,30,30^FDBOGOTÁ - CUNDINAMARCA^FS"
           f"^FO40,335^A0N,30,30^FD{code}^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_postal_code"] == code
    assert values["ship_to_city"] == "BOGOTÁ - CUNDINAMARCA"


@pytest.mark.parametrize("street", ["Str. Lalelelor nr. 9", "Strada Morii nr. 112",
                                    "ul. Kwiatowa nr 5"])
def test_a_street_with_nr_before_its_house_number_is_no_caption(street: str) -> None:
    # Romanian and Polish streets write "nr." before the number: the line is the
    # street, not a reference after a caption.
    zpl = ("^XA^CI28^PW812^LL1218^FO24,196^A0N,22,22^FDEXPEDITOR^FS"
           "^FO24,220^A0N,24,24^FDSC Lemnul Verde SRL^FS"
           f"^FO24,248^A0N,24,24^FD{street}^FS"
           "^FO24,276^A0N,24,24^FD550182 Sibiu, jud. Sibiu^FS"
           "^FO24,304^A0N,24,24^FDTel. 0269 211 457^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_from_address_1"] == street


def test_captions_turned_down_the_edge_label_the_upright_blocks_beside_them() -> None:
    # As on the Servientrega label: "DESTINATARIO" and "REMITENTE" printed sideways
    # level with their blocks.
    zpl = ("^XA^CI28^PW812^LL1218^FO30,380^A0R,22,22^FDDESTINATARIO^FS"
           "^FO70,385^A0N,34,34^FDCarlos Andrés Restrepo Ochoa^FS"
           "^FO70,425^A0N,28,28^FDCra. 15 # 88-64 Of. 502^FS"
           "^FO70,461^A0N,28,28^FDEdificio Torre Chicó^FS"
           "^FO70,497^A0N,34,34^FDBogotá D.C. - Cundinamarca^FS"
           "^FO30,630^A0R,20,20^FDREMITENTE^FS^FO70,635^A0N,22,22^FDCafé de la Sierra S.A.S.^FS"
           "^FO70,661^A0N,22,22^FDCalle 22 # 3-45, Santa Marta^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_name"] == "Carlos Andrés Restrepo Ochoa"
    assert values["ship_from_name"] == "Café de la Sierra S.A.S."


def test_a_turned_caption_over_a_turned_block_reads_in_its_own_direction() -> None:
    # As on the Austrian Post label: the sender's block and caption both turned.
    zpl = ("^XA^CI28^PW812^LL1218^FO130,170^A0R,22,22^FDAbsender^FS"
           "^FO100,170^A0R,22,22^FDAlpenkaffee Rösterei GmbH^FS"
           "^FO70,170^A0R,22,22^FDMuseumstraße 5, 6020 Innsbruck^FS"
           "^FO300,400^A0N,30,30^FDAn:^FS^FO300,440^A0N,36,36^FDElisabeth Haider^FS"
           "^FO300,480^A0N,30,30^FDLandstraßer Hauptstraße 41^FS"
           "^FO300,520^A0N,30,30^FD1030 Wien^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_from_name"] == "Alpenkaffee Rösterei GmbH"
    assert values["ship_to_name"] == "Elisabeth Haider"


def test_a_service_banner_under_a_caption_and_lines_under_an_inline_caption_stay_static(
) -> None:
    # As on the DB Schenker label (the product printed large under its caption) and
    # the UPS import control label (a service line under "DESC: ...").
    zpl = on_a_parcel("^FO70,521^A0N,17,17^FDTransportinstruktion:^FS"
                      "^FO70,541^A0N,40,40^FDDB SCHENKERsystem^FS"
                      "^FO10,1053^A0N,22,22^FDDESC: Test merchandise for testing^FS"
                      "^FO10,1075^A0N,22,22^FDIMPORT CONTROL - PAYMENT GUARANTEED^FS")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["description"] == "Test merchandise for testing"
    assert not {"DB SCHENKERsystem", "IMPORT CONTROL - PAYMENT GUARANTEED"} & set(values.values())


def test_a_block_without_a_postcode_ends_at_its_phone() -> None:
    lines = ["RECEIVER", "Ibrahim Musa Danjuma", "Plot 1127, Aminu Kano Cres.", "Wuse II",
             "Abuja, FCT", "0906 331 5582", "Service Centre", "Wuse Zone 4 SC"]
    values = _stacked(lines, 410, 265, 30, 24)
    assert values["ship_to_city"] == "Abuja, FCT"
    assert values["ship_to_address_1"] == "Plot 1127, Aminu Kano Cres."


def test_words_in_a_row_of_data_under_column_captions_are_its_value() -> None:
    header = [(35, "Description détaillée du contenu"), (380, "Qté"), (440, "Poids (kg)"),
              (550, "Valeur")]
    row = [(35, "Bougies parfumées en cire de soja"), (390, "6"), (450, "1,20"),
           (550, "84,00 €")]
    zpl = "^XA^PW812^LL1218" + "".join(
        f"^FO{x},728^A0N,18,18^FD{text}^FS" for x, text in header) + "".join(
        f"^FO{x},762^A0N,22,22^FD{text}^FS" for x, text in row) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["description"] == "Bougies parfumées en cire de soja"
    assert values["quantity"] == "6"


def test_words_under_an_office_caption_are_the_routing_code() -> None:
    zpl = ("^XA^PW812^LL406^FO560,20^A0N,22,22^FDTo office^FS"
           "^FO560,45^A0N,50,50^FDUSLAXA^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {"routing_code": "USLAXA"}


@pytest.mark.parametrize(("code", "variable"), [
    ("KRA-W3 / 12", True), ("R14 KSM-C", True), ("25 LLEIDA", True), ("1/X", False)])
def test_a_code_of_groups_in_a_large_font_is_variable(code: str, variable: bool) -> None:
    zpl = f"^XA^PW812^LL1218^FO40,878^A0N,64,64^FD{code}^FS^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (code in values.values()) is variable


def test_a_town_that_starts_like_a_phone_caption_is_a_town() -> None:
    lines = ["TO", "Noa Ben-David", "23 Rothschild Blvd., Apt 9", "Tel Aviv-Yafo 6688112",
             "Israel"]
    values = _stacked(lines, 130, 290, 40, 30)
    assert values["ship_to_postal_city"] == "Tel Aviv-Yafo 6688112"


def test_words_under_a_caption_in_a_grid_of_captions_over_data_are_values() -> None:
    # Small captions over larger values, as on a waybill: two of them head data, so
    # the words under the others are values too (the caption words stay static).
    cells = [(40, 135, "Waybill", "1142078853"), (40, 580, "Declared Value", "NGN 85,000"),
             (40, 500, "Payment", "Wallet - Prepaid"),
             (410, 470, "Delivery Type", "HOME DELIVERY")]
    zpl = "^XA^PW812^LL1218" + "".join(
        f"^FO{x},{y}^A0N,22,22^FD{caption}^FS^FO{x},{y + 26}^A0N,28,28^FD{value}^FS"
        for x, y, caption, value in cells) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["payment_type"] == "Wallet - Prepaid"
    assert "HOME DELIVERY" in values.values()
    assert not {"Payment", "Delivery Type", "Waybill"} & set(values.values())


def test_a_numbered_caption_in_a_row_of_captions_is_static() -> None:
    # "Ref. 1" heads the value under it; it is not the value of "Weight" beside it.
    zpl = ("^XA^PW812^LL1218^FO300,555^A0N,20,20^FDWeight / Poids^FS"
           "^FO300,580^A0N,36,36^FD9 kg^FS^FO540,555^A0N,20,20^FDRef. 1^FS"
           "^FO540,580^A0N,28,28^FDNB-ORD-418207^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values == {"weight": "9 kg", "reference": "NB-ORD-418207"}


def test_rows_of_a_table_go_on_under_its_column_captions() -> None:
    header = [(20, "QTY"), (100, "ITEM"), (560, "SKU")]
    rows = [[(20, "2"), (100, "Beeswax Wrap Set, Meadow (3 pc)"), (560, "BWR-3-MDW")],
            [(20, "1"), (100, "Bamboo Dish Brush w/ Head"), (560, "BDB-01-NAT")]]
    zpl = "^XA^PW812^LL1218" + "".join(
        f"^FO{x},312^A0N,22,22^FD{text}^FS" for x, text in header) + "".join(
        f"^FO{x},{342 + 36 * i}^A0N,26,26^FD{text}^FS"
        for i, row in enumerate(rows) for x, text in row) + "^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {
        "quantity": "2", "description": "Beeswax Wrap Set, Meadow (3 pc)", "sku": "BWR-3-MDW",
        "quantity_2": "1", "description_2": "Bamboo Dish Brush w/ Head", "sku_2": "BDB-01-NAT"}


def test_a_british_block_has_six_lines_over_its_postcode() -> None:
    lines = ["Mrs Eleanor Ashworth", "Flat 3", "Rosebank House", "27 Victoria Road",
             "Hebden Bridge", "West Yorkshire", "HX7 8AA"]
    values = _stacked(lines, 300, 195, 35, 30)
    assert values["ship_to_name"] == "Mrs Eleanor Ashworth"
    assert values["ship_to_postal_code"] == "HX7 8AA"


def test_town_state_and_zip_in_fields_of_their_own() -> None:
    zpl = ("^XA^PW812^LL1218^FO40,150^A0N,22,22^FDSHIP TO^FS^FO40,182^A0N,38,38^FDSamuel Okafor^FS"
           "^FO40,228^A0N,32,32^FD2744 Larimer St Apt 608^FS^FO40,274^A0N,42,42^FDDENVER^FS"
           "^FO340,274^A0N,42,42^FDCO^FS^FO440,274^A0N,42,42^FD80205^FS"
           "^FO40,326^A0N,26,26^FD(720) 555-0193^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_address_1"] == "2744 Larimer St Apt 608"  # not a postcode line
    assert (values["ship_to_city"], values["ship_to_state"], values["ship_to_postal_code"]) \
        == ("DENVER", "CO", "80205")


def test_the_country_ends_a_block() -> None:
    lines = ["Mottagare / Addressee", "Hannah Whitcombe", "52 Aro Street, Aro Valley",
             "Wellington 6021", "NEW ZEALAND",
             "Jag intygar att uppgifterna i denna deklaration är riktiga"]
    values = _stacked(lines, 16, 348, 24, 22)
    assert values["ship_to_country"] == "NEW ZEALAND" and len(values) == 4


@pytest.mark.parametrize(("caption", "name"), [
    ("N.º de série", "serial_number"), ("N° de commande", "order_number"),
    ("Nº de lote", "lot_number"), ("N. di serie", "serial_number")])
def test_a_number_caption_in_the_romance_languages_reads_as_spelled_out(
        caption: str, name: str) -> None:
    zpl = f"^XA^PW812^LL406^FO340,400^A0N,16,14^FD{caption}: AVN2611-00184^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {name: "AVN2611-00184"}


def test_a_column_of_a_table_names_its_codes_and_numbers() -> None:
    # A batch-pick cart: slots and the orders in them, two tables side by side.
    header = [(16, "Přihrádka"), (160, "Objednávka"), (460, "Přihrádka"), (604, "Objednávka")]
    rows = [[(16, "1"), (160, "E-2611-90412"), (460, "5"), (604, "E-2611-90452")],
            [(16, "2"), (160, "E-2611-90415"), (460, "6"), (604, "E-2611-90458")]]
    zpl = "^XA^PW812^LL1218" + "".join(
        f"^FO{x},248^A0N,20,20^FD{text}^FS" for x, text in header) + "".join(
        f"^FO{x},{276 + 34 * i}^A0N,28,28^FD{text}^FS"
        for i, row in enumerate(rows) for x, text in row) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert {v for k, v in values.items() if k.startswith("order_number")} == {
        "E-2611-90412", "E-2611-90415", "E-2611-90452", "E-2611-90458"}
    assert {"1", "2", "5", "6"} <= set(values.values())


def test_a_vendor_caption_over_a_code_names_the_vendor_number() -> None:
    zpl = "^XA^PW812^LL406^FO340,400^A0N,16,14^FDVendor: V801223746^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {
        "supplier_number": "V801223746"}


@pytest.mark.parametrize(("body", "values"), [
    ("^FO40,40^A0N,30,30^FDFrom: SW-01 Port 24^FS^FO40,100^A0N,30,30^FDTo: Rack B-12 Srv 3^FS",
     {"location": "SW-01 Port 24", "location_2": "Rack B-12 Srv 3"}),
    ("^FO40,40^A0N,30,30^FDVon: 01-045-2^FS", {"location": "01-045-2"}),
    ("^FO40,40^A0N,100,100^FDGang 4 / Regal 12 / Fach 3^FS",
     {"location": "Gang 4 / Regal 12 / Fach 3"})])
def test_places_in_a_warehouse_are_locations(body: str, values: dict[str, str]) -> None:
    # A from or to caption before a place's code names no party.
    zpl = f"^XA^PW812^LL406{body}^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == values


@pytest.mark.parametrize(("lines", "part", "text"), [
    (["DESTINATARIO", "Lucía Fernández", "Av. Santa Fe 3250, Piso 4 B", "Buenos Aires",
      "C1425DBP"], "ship_to_postal_code", "C1425DBP"),  # Argentina's CPA
    (["TO", "Priya Raman", "12 Nungambakkam High Road", "Chennai 600 017, Tamil Nadu",
      "+91 98400 12345"], "ship_to_postal_city", "Chennai 600 017, Tamil Nadu")])
def test_postcodes_of_argentina_and_india(lines: list[str], part: str, text: str) -> None:
    assert _stacked(lines, 40, 150, 36, 28)[part] == text


def test_a_ukrainian_block_under_its_caption() -> None:
    lines = ["Кому:", "Бондар Сергій Миколайович", "вул. Дерибасівська, 16, кв. 8", "м. Одеса",
             "65026"]
    values = _stacked(lines, 40, 200, 34, 28)
    assert values["ship_to_name"] == "Бондар Сергій Миколайович"


def test_a_code_with_a_dash_is_no_postal_line() -> None:
    zpl = "^XA^PW812^LL406^FO20,20^A0N,30,30^FDAsset: EHT-00913^FS^XZ"
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {"asset_number": "EHT-00913"}


def test_a_vietnamese_block_under_its_caption() -> None:
    lines = ["Người nhận:", "Lê Quang Vũ", "Thôn Phú Lộc, Xã Hòa Tiến",
             "Huyện Hòa Vang, TP. Đà Nẵng", "ĐT: 0905 471 236"]
    values = _stacked(lines, 40, 200, 34, 28)
    assert values["ship_to_name"] == "Lê Quang Vũ"
    assert values["ship_to_phone"] == "0905 471 236"


def test_a_routing_table_of_a_work_order() -> None:
    # Headers, then rows further apart than a caption from its value; "WORK CTR" is a
    # column's caption, not a goods' name.
    header = [(30, "OP"), (100, "OPERATION"), (420, "WORK CTR"), (560, "QTY"),
              (640, "SIGN / DATE")]
    rows = [("010", "SAW CUT BLANKS", "SAW1"), ("020", "CNC MILL OP1", "HAAS-3"),
            ("030", "DEBURR / TUMBLE", "FIN1")]
    cells = "".join(
        f"^FO30,{y}^A0N,24,24^FD{op}^FS^FO100,{y}^A0N,24,24^FD{what}^FS"
        f"^FO420,{y}^A0N,24,24^FD{where}^FS"
        for y, (op, what, where) in zip((420, 480, 540), rows, strict=True))
    zpl = ("^XA^PW812^LL1218^FO30,160^A0N,28,28^FDPart No: 7731-220-B^FS"
           "^FO30,240^A0N,24,24^FDQty: 250 pcs^FS" + "".join(
               f"^FO{x},372^A0N,22,22^FD{text}^FS" for x, text in header) + cells + "^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    named = {v: k.rsplit("_", 1)[0] if k[-1].isdigit() else k for k, v in values.items()}
    assert [named[op] for op in ("010", "020", "030")] == ["operation"] * 3
    assert [named[wc] for wc in ("SAW1", "HAAS-3", "FIN1")] == ["work_center"] * 3
    assert "WORK CTR" not in values.values()


def test_a_person_then_a_company_both_name_the_party() -> None:
    lines = ["SHIP TO:", "PRIYA RAMAN", "(647) 555-0192", "NORTHSIDE KITCHEN SUPPLY",
             "88 DUFFERIN ST UNIT 4", "TORONTO ON  M6K 1Y5"]
    values = _stacked(lines, 60, 165, 38, 30)
    assert (values["ship_to_name"], values["ship_to_name_2"]) == (
        "PRIYA RAMAN", "NORTHSIDE KITCHEN SUPPLY")
    assert values["ship_to_address_1"] == "88 DUFFERIN ST UNIT 4"


def test_a_contact_beside_an_address_caption_is_that_partys() -> None:
    zpl = ("^XA^PW812^LL1218^FO40,60^A0N,20,20^FDFROM:^FS^FO100,60^A0N,22,22^FDAcme Tools^FS"
           "^FO100,86^A0N,22,22^FD12 Mill Road^FS^FO100,112^A0N,22,22^FDLeeds LS1 4AP^FS"
           "^FO40,270^A0N,24,24^FDTO:^FS^FO100,270^A0N,30,30^FDATTN: MAILROOM / DANA WHITFIELD^FS"
           "^FO100,308^A0N,36,36^FDKESSLER & HART LLP^FS"
           "^FO100,352^A0N,32,32^FD1180 AVENUE OF THE AMERICAS^FS"
           "^FO100,392^A0N,32,32^FDNEW YORK NY 10036^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_contact"] == "MAILROOM / DANA WHITFIELD"


def test_words_in_small_print_over_a_large_code_are_its_caption() -> None:
    zpl = ("^XA^PW812^LL1218^FO400,68^A0N,20,20^FDSORT ROUTE^FS"
           "^FO400,92^A0N,60,60^FDM3-07^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert "SORT ROUTE" not in values.values() and "ROUTE" not in values.values()
    assert "M3-07" in values.values()


def test_a_block_over_a_phone_without_caption_or_postcode() -> None:
    zpl = ("^XA^PW812^LL1218^FO20,75^A0N,20,20^FDFrom: Noor Organics, Gulberg III, Lahore^FS"
           "^FO20,100^GB772,0,2^FS^FO20,115^A0N,34,34^FDAyesha Siddiqui^FS"
           "^FO20,155^A0N,26,26^FDFlat 4B, Askari Tower, Clifton Block 2^FS"
           "^FO20,187^A0N,30,30^FDKarachi^FS^FO20,222^A0N,26,26^FD+92 321 2480915^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (values["ship_to_name"], values["ship_to_city"], values["ship_to_phone"]) == (
        "Ayesha Siddiqui", "Karachi", "+92 321 2480915")


# A caption and its value in one field, in many languages: each named for what it
# says, and for the value it has (an event's date, a count, a rating, a code).
@pytest.mark.parametrize(("line", "values"), [
    ("Entrega estimada: 27/11/2026", {"delivery_date": "27/11/2026"}),
    ("Delivery: 25/11/26 AM", {"delivery_date": "25/11/26 AM"}),
    ("Gültig bis: 31.12.2026", {"valid_until": "31.12.2026"}),
    ("Delivery: Standard", {"delivery": "Standard"}),
    ("CLASS: 77.5", {"freight_class": "77.5"}), ("CLASS: 3", {"class": "3"}),
    ("PIN: 335981420172", {"tracking_number": "335981420172"}),
    ("Case 0213 of 0480", {"piece_count": "0213 of 0480"}),
    ("Volume: 1/2", {"piece_count": "1/2"}), ("Tilavuus: 0,018 m3", {"volume": "0,018 m3"}),
    ("Payment: Prepaid", {"payment_type": "Prepaid"}),
    ("Operatore: M. Ferraris", {"operator": "M. Ferraris"}),
    ("Kd.-Nr. 1044728", {"customer_number": "1044728"}),
    ("A/C No: GCK-10277", {"account_number": "GCK-10277"}),  # not "A:", a recipient
    ("Items: 2", {"quantity": "2"}), ("ITEMS: 1 OF 1", {"piece_count": "1 OF 1"}),
    ("Items: 2 x human hair wig (boxed)", {"description": "2 x human hair wig (boxed)"}),
    ("Contents: 6 x 75 cl", {"quantity": "6 x 75 cl"}),
    ("2 st", {"quantity": "2 st"}), ("12 pcs", {"quantity": "12 pcs"}),
    ("Rif. ordine: ECE-77120", {"reference": "ECE-77120"}),  # not a postcode's shape
    ("Indice: E", {"revision": "E"}), ("REV B2", {"revision": "B2"}),
    ("Kleur wit", {"color": "wit"}), ("Size matters a lot", {}), ("Kolor / Colour", {}),
    ("Velikost rámu / Frame size: L", {"size": "L"}),  # a caption in two languages
    ("Ditta: Studio Tecnico Ferrario & Associati",
     {"company": "Studio Tecnico Ferrario & Associati"}),
    ("Baujahr 2026", {"manufacture_date": "2026"}),
    ("Modelo: CPV-22 VSD", {"model": "CPV-22 VSD"}),
    ("Nata il: 21/09/1952", {"date_of_birth": "21/09/1952"}),
    ("Magasin: Q12 / M3", {"location": "Q12 / M3"}),
    ("Da consumarsi preferibilmente entro il: 31/05/2028", {"expiry_date": "31/05/2028"}),
    ("Maršrutas: KN-07", {"routing_code": "KN-07"}),
    ("Pakuotė 2 iš 3", {"piece_count": "2 iš 3"}),
    ("Cikkszám: FV-A60-0952-27", {"part_number": "FV-A60-0952-27"}),
    ("Ingevroren op: 12-11-2026", {"manufacture_date": "12-11-2026"}),
    ("Vytištěno 25.11.2026 10:22", {"print_date": "25.11.2026 10:22"}),
    ("SHIP 11/25/2026", {"ship_date": "11/25/2026"}),
    ("Verpackt am: 24.11.2026", {"pack_date": "24.11.2026"}),
    ("Ship by: 26-11-2026", {"ship_date": "26-11-2026"}),
    ("Émis le 25/11/2026 à 17:05", {"print_date": "25/11/2026 à 17:05"}),
    ("PRINTED 11/25/2026 02:41  LBL-DC-STR REV C",
     {"print_date": "PRINTED 11/25/2026 02:41  LBL-DC-STR REV C"}),
    ("Cód.: VM-RML-214", {"part_number": "VM-RML-214"}),  # "código", not cash on delivery
    ("COD: PKR 2,499", {"cod_amount": "PKR 2,499"}),
    # a day of the week is the date's, not its caption
    ("WED 26 NOV", {"date": "WED 26 NOV"}), ("Fr 27.11.2026", {"date": "Fr 27.11.2026"}),
    ("donderdag 26 november", {"date": "donderdag 26 november"}),
    ("bis 12.12.2026", {"date": "bis 12.12.2026"}),  # and so is "until"
    ("Stand 24.11.2026", {"print_date": "24.11.2026"}),  # the day a shelf label is as of
    ("Kiloprijs € 11,63", {"unit_price": "€ 11,63"}),  # an amount, and per what
    ("Was £24.99", {"was_price": "£24.99"}),  # or before a markdown
    # a package's own number under a caption of a count: no count starts with a zero
    ("Packstück-Nr.: 105334812", {"serial_number": "105334812"}),
    ("CARTON NO. 0612", {"serial_number": "0612"}),
])
def test_a_caption_and_its_value_in_one_line(line: str, values: dict[str, str]) -> None:
    assert _one_line(line) == values


def test_a_hazard_labels_signal_word_changes_with_its_statements() -> None:
    values = _stacked(["Isopropanol 99 %", "GEFAHR / DANGER",
                       "H225 Flüssigkeit und Dampf leicht entzündbar.",
                       "P210 Von Hitze fernhalten."], 40, 60, 60, 28)
    assert values["signal_word"] == "GEFAHR / DANGER"
    assert values["hazard_statements"].startswith("H225 ")
    assert values["precautionary_statements"].startswith("P210 ")
    # without hazard statements, "WARNING" is a heading of the layout
    assert "signal_word" not in _stacked(["WARNING", "Keep dry"], 40, 60, 60, 28)


def test_a_received_by_caption_names_the_person_beside_it() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO30,100^A0N,28,28^FDRECEIVED BY^FS"
           "^FO260,96^A0N,36,36^FDD. ALVAREZ^FS^FO30,160^A0N,28,28^FDTIME^FS"
           "^FO260,156^A0N,36,36^FD14:32^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["received_by"] == "D. ALVAREZ"
    assert values["time"] == "14:32"


def test_an_orange_plates_numbers_are_the_hazard_and_the_un_number() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO40,40^A0N,28,28^FDGefahrgut / Dangerous goods^FS"
           "^FO600,120^A0N,60,60^FD33^FS^FO580,190^A0N,60,60^FD1993^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (values["hazard_number"], values["un_number"]) == ("33", "1993")


def test_a_barcodes_number_printed_under_it_is_no_phone() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO60,100^BY3^B2N,120,N^FD0057481229^FS"
           "^FO60,240^A0N,50,50^FD0057 481229^FS^XZ")
    names = set(ENGINE.synthesize(SynthesisRequest(zpl)).draft.values)
    assert not any("phone" in name for name in names), names


@pytest.mark.parametrize("code", ["DNG-HC", "CHN/TNR"])
def test_two_letter_codes_joined_are_a_hub_printed_large(code: str) -> None:
    zpl = on_a_parcel(f"^FO560,60^A0N,60,60^FD{code}^FS")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get("routing_code") == code


def test_a_caption_word_printed_large_under_a_routing_caption_is_its_value() -> None:
    zpl = on_a_parcel("^FO560,30^A0N,22,22^FDDEST.^FS^FO560,55^A0N,50,50^FDABV^FS")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get("routing_code") == "ABV"


def test_a_block_with_the_phone_under_the_name() -> None:
    zpl = ("^XA^PW812^LL1218^FO20,20^A0N,40,40^FDPathao Courier^FS"
           "^FO20,280^A0N,30,30^FDTanvir Ahmed^FS^FO20,316^A0N,26,26^FD01712-449083^FS"
           "^FO20,350^A0N,24,24^FDHouse 18, Road 11, Sector 6^FS"
           "^FO20,380^A0N,24,24^FDUttara, Dhaka^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (values["ship_to_name"], values["ship_to_phone"], values["ship_to_city"]) == (
        "Tanvir Ahmed", "01712-449083", "Uttara, Dhaka")


def test_a_name_printed_large_over_its_address_is_the_blocks_first_line() -> None:
    zpl = ("^XA^PW812^LL1218^FO40,40^A0N,30,30^FDACME PARCEL^FS"
           "^FO40,300^A0N,56,56^FDMaria Gonzalez^FS^FO40,370^A0N,26,26^FD1200 Elm Street^FS"
           "^FO40,400^A0N,26,26^FDSpringfield IL 62704^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (values["ship_to_name"], values["ship_to_address_1"]) == (
        "Maria Gonzalez", "1200 Elm Street")


def test_a_party_caption_in_a_forms_column_of_captions_takes_the_value_beside_it() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO20,306^A0N,22,22^FDLieferant^FS"
           "^FO230,302^A0N,26,26^FDSchmiedewerk Lüdenscheid GmbH^FS"
           "^FO20,340^A0N,22,22^FDEntscheid^FS^FO230,336^A0N,26,26^FDSortierung 100 %^FS"
           "^FO20,374^A0N,22,22^FDGesperrt von^FS^FO230,370^A0N,26,26^FDA. Petrović, QS^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_from_name"] == "Schmiedewerk Lüdenscheid GmbH"
    assert "Entscheid" not in values.values() and "Gesperrt von" not in values.values()


def test_an_airport_code_that_spells_a_party_caption_is_no_caption() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO24,330^A0N,18,16^FDORIGIN^FS^FO24,352^A0N,50,50^FDFRA^FS"
           "^FO24,420^A0N,18,16^FDPIECE^FS^FO24,442^A0N,44,44^FD7 / 12^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert not any(name.startswith("ship_from") for name in values), values


def test_a_town_marked_as_one_in_a_cyrillic_block() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO30,205^A0N,24,24^FDКому:^FS"
           "^FO130,205^A0N,36,36^FDБондар Сергій^FS^FO130,250^A0N,30,30^FDвул. Дерибасівська, 16^FS"
           "^FO130,288^A0N,30,30^FDм. Одеса^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values["ship_to_city"] == "м. Одеса"


def test_a_japanese_block_in_romaji_ends_with_the_honoured_name() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO30,200^A0N,24,24^FDOtodoke-saki^FS"
           "^FO30,230^A0N,30,30^FD〒150-0002^FS^FO30,265^A0N,30,30^FDTokyo-to Shibuya-ku 2-21-1^FS"
           "^FO30,300^A0N,30,30^FDYamada Taro sama^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values["ship_to_name"] == \
        "Yamada Taro sama"


def test_a_code_of_unknown_kind_off_a_parcel_is_named_by_its_symbology() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO30,30^A0N,40,40^FDSEAL^FS"
           "^FO30,100^BY2^BCN,80,N,N^FD111014004127^FS^FO30,200^A0N,30,30^FD1110-14-004127^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert "tracking_number" not in values and values["code128_data"] == "111014004127"


def test_a_caption_in_utf8_before_prose_splits_where_it_prints() -> None:
    values = _one_line("Ingrédients : semoule de blé, tomate, concombre, oignon, menthe")
    assert values == {"ingredients": "semoule de blé, tomate, concombre, oignon, menthe"}


def test_an_unknown_caption_before_a_barcodes_value_names_both() -> None:
    # As the written us_school_lunch_tray: "Student ID 204417" over its Code 128.
    zpl = ("^XA^PW406^LL406^FO10,100^A0N,20,18^FDStudent ID 204417^FS"
           "^FO250,330^BCN,60,N,N,N^FD204417^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {"student_id": "204417"}


def test_words_in_a_tables_column_take_its_caption() -> None:
    # As the written work_order_traveller: an operations table, words in its rows.
    rows = [("010", "SAW CUT BLANKS", "SAW1"), ("020", "CNC MILL OP1 PER PRG", "HAAS-3"),
            ("030", "DEBURR / TUMBLE", "FIN1")]
    zpl = "^XA^PW812^LL812^FO30,372^A0N,22,20^FDOP^FS^FO100,372^A0N,22,20^FDOPERATION^FS" \
          "^FO420,372^A0N,22,20^FDWORK CTR^FS" + "".join(
              f"^FO30,{420 + 60 * i}^A0N,24,22^FD{op}^FS^FO100,{420 + 60 * i}^A0N,24,22^FD{what}^FS"
              f"^FO420,{420 + 60 * i}^A0N,24,22^FD{centre}^FS" for i, (op, what, centre)
              in enumerate(rows)) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert [values.get(f"operation_{n}") for n in (2, 4, 6)] == [r[1] for r in rows]


def test_a_partys_inline_caption_ends_the_block_above_it() -> None:
    # As the written us_xpo_ltl_pallet: "MARK FOR: STORE ..." under the SHIP TO block.
    values = _stacked(["SHIP TO", "SUNBELT OFFICE DEPOT DC 4412", "7200 INDUSTRIAL BLVD",
                       "CHARLOTTE NC 28269", "MARK FOR: STORE #1183 ASHEVILLE"], 355, 280, 30, 22)
    assert values["ship_to_name"] == "SUNBELT OFFICE DEPOT DC 4412"
    assert values["mark_for_name"] == "STORE #1183 ASHEVILLE"


def test_a_dated_line_under_a_block_is_no_address_line() -> None:
    values = _stacked(["SHIP TO", "SUNBELT OFFICE DEPOT DC 4412", "7200 INDUSTRIAL BLVD",
                       "CHARLOTTE NC 28269", "APPT 11/27 13:30 CONF# 88410"], 355, 280, 30, 22)
    assert not [n for n, v in values.items() if n.startswith("ship_to") and "APPT" in v]


@pytest.mark.parametrize(("code", "name"), [
    ("WO-26-04417", "work_order"), ("SO-558102", "order_number"),
    ("PO-4500-0123", "purchase_order"), ("AB-26-04417", "code39_data")])
def test_a_codes_abbreviation_names_it_when_nothing_else_does(code: str, name: str) -> None:
    # As the written work_order_traveller: the work order in Code 39 and printed again.
    zpl = (f"^XA^PW812^LL406^FO382,16^B3N,N,60,N,N^FD{code}^FS"
           f"^FO382,96^A0N,30,28^FD{code}^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values == {name: code}


def test_a_caption_over_a_date_in_a_larger_print_names_it() -> None:
    # As the written isbt128_blood_bag: "EXPIRES" over the date, its hour below.
    zpl = ("^XA^PW812^LL812^FO426,520^A0N,22,20^FDEXPIRES^FS^FO426,552^A0N,48,44^FD29 DEC 2026^FS"
           "^FO426,606^A0N,36,32^FD23:59^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values["expiry_date"] == "29 DEC 2026"


def test_a_time_under_a_named_date_is_that_events_hour() -> None:
    zpl = ("^XA^PW812^LL812^FO426,520^A0N,22,20^FDEXPIRES^FS^FO426,552^A0N,48,44^FD29 DEC 2026^FS"
           "^FO426,606^A0N,36,32^FD23:59^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("expiry_time") == "23:59"


def test_a_date_under_a_barcode_of_an_expiry_is_its_printed_form() -> None:
    # A blood bag's ISBT 128 expiry ("&>" and the year, day of year and hour) and the
    # same date and hour printed under it for people, with a caption the label's own.
    zpl = ("^XA^PW812^LL812^FO426,400^A0N,22,20^FDVervaldatum^FS"
           "^FO440,430^BCN,90,N,N,N^FD&>0273412359^FS"
           "^FO440,530^A0N,36,32^FD07 DEC 2027^FS^FO440,580^A0N,30,28^FD23:59^FS^XZ")
    values = _values(zpl)
    assert values.get("expiry_date_2") == "07 DEC 2027"  # (the bars are the first)
    assert values.get("expiry_time") == "23:59"


@pytest.mark.parametrize("caption", ["DISPOSE BY", "Dispose by:"])
def test_the_day_a_chemical_is_disposed_by_is_its_expiry(caption: str) -> None:
    # A laboratory's bottle: the day it came in, and the day it must go, in a row.
    zpl = ("^XA^PW812^LL406^FO60,40^A0N,30,28^FDSodium hydroxide 1 M^FS"
           "^FO60,200^A0N,18,18^FDRECEIVED^FS^FO60,222^A0N,24,22^FD03/02/2026^FS"
           f"^FO420,200^A0N,18,18^FD{caption}^FS^FO420,222^A0N,24,22^FD03/02/2028^FS^XZ")
    assert _values(zpl).get("expiry_date") == "03/02/2028"


def test_a_phone_line_with_more_after_the_number_is_the_partys_phone() -> None:
    # As the written de_dhl_ecommerce_cn22: the phone and the e-mail on one line.
    values = _stacked(["SHIP TO", "Emily Tran", "2210 Packard St", "Ann Arbor MI 48104",
                       "Tel. +1 734 555 0148  emily.tran84@gmail.com"], 30, 300, 30, 22)
    assert values["ship_to_phone"] == "Tel. +1 734 555 0148  emily.tran84@gmail.com"


@pytest.mark.parametrize(("code", "name"), [("7730129", "seal_number"), ("intact", "seal")])
def test_a_thing_named_by_its_number_takes_number_for_a_code(code: str, name: str) -> None:
    # As the written courier_consolidation_bag_seal_label: "BAG NO." and "SEAL" over
    # their codes.
    zpl = ("^XA^PW812^LL812^FO24,260^A0N,20,20^FDBAG NO.^FS^FO24,284^A0N,40,38^FDB26NUN0448173^FS"
           f"^FO520,260^A0N,20,20^FDSEAL^FS^FO520,284^A0N,40,38^FD{code}^FS"
           "^FO24,346^A0N,20,20^FDPARCELS^FS^FO24,370^A0N,60,56^FD42^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get(name) == code


@pytest.mark.parametrize(("line", "name", "value"), [
    ("Contenedor: MSKU 482117 4", "container_number", "MSKU 482117 4"),
    ("Container: TGHU 771204-3", "container_number", "TGHU 771204-3"),
    ("Reel ID: R-261126-00418", "reel_id", "R-261126-00418"),
])
def test_a_freight_containers_number_and_a_reels_id_are_named_so(
        line: str, name: str, value: str) -> None:
    # A container caption over an ISO 6346 number (owner, U, serial, check digit) is
    # that container's number; a reel's identifier is the reel's.
    zpl = ("^XA^CI28^PW812^LL812^FO24,40^A0N,30,30^FDExport carton^FS"
           f"^FO24,260^A0N,28,28^FD{line}^FS"
           "^FO24,346^A0N,28,28^FDLot: 2644A17^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get(name) == value


@pytest.mark.parametrize("fields", [
    "^FO24,260^A0N,20,20^FDBehälter^FS^FO24,290^A0N,40,40^FDKLT 6429^FS",
    "^FO24,260^A0N,20,20^FDTyp obalu^FS^FO24,290^A0N,40,40^FDKLT 4314^FS",
])
def test_a_vda_load_carrier_is_the_container_type(fields: str) -> None:
    # A kanban card or a VDA 4902 tag: "KLT 6429" says which kind of box, not which box.
    zpl = ("^XA^CI28^PW812^LL812^FO24,40^A0N,30,30^FDKanban^FS" + fields
           + "^FO24,346^A0N,28,28^FDMenge: 120^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("container_type", "").endswith(("6429", "4314"))


@pytest.mark.parametrize(("line", "name"), [
    ("Closed by: D. PATEL", "operator"), ("Verif.: L. Prieto", "operator"),
    ("Tester: J. Okonkwo", "operator"), ("Handed to: Team B", "handed_to")])
def test_a_person_by_initial_under_an_unknown_caption_is_the_operator(line: str,
                                                                      name: str) -> None:
    # As the written us_trailer_load_door_placard and es_calibre_pasa_no_pasa.
    assert name in _one_line(line)


def test_a_parcels_size_is_its_dimensions() -> None:
    # As the written au_sendle_parcel: the satchel's size on a parcel label.
    values = _stacked(["SHIP TO", "Emily Tran", "2210 Packard St", "Ann Arbor MI 48104",
                       "Size: Satchel M"], 30, 300, 30, 22)
    assert values.get("dimensions") == "Satchel M"


@pytest.mark.parametrize(("line", "name"), [
    ("24.11.2026  K. Brandt", "date"), ("MD 11/25", "date"), ("Flexslang 3/8 350 mm", None),
    ("SO-558102  2 CTN  18.4 LB", None)])
def test_a_days_date_in_a_line_of_a_number_names_it(line: str, name: str | None) -> None:
    # As the written de_dhl_ecommerce_cn22 and retail_markdown_price_tag: a date with a
    # signature or a word; not an inch fraction or a weight.
    values = _one_line(line)
    assert (values.get("date") == line) is (name == "date")


def test_a_barcode_holding_another_fields_value_and_more_is_its_own_data() -> None:
    # As the written lv_dpd_pickup_pakomats: a code of the locker, then more, in one barcode.
    zpl = ("^XA^PW812^LL812^FO30,40^A0N,30,28^FDCE 123 456 785 EE^FS"
           "^FO30,100^A0N,30,28^FDLV1067 PICKUP^FS"
           "^FO30,160^BCN,80,N,N,N^FD05401823307144LV1067PICKUPLV11345^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("barcode_data") == "05401823307144LV1067PICKUPLV11345"


@pytest.mark.parametrize(("second", "record"), [
    ("WD3-2611-044", True),  # the trolley's and the load's codes, written apart
    ("Sterilgut", False)])   # one code and more, printed again as a code of its own
def test_a_barcode_of_two_fields_printed_again_under_it_is_a_record(second: str,
                                                                   record: bool) -> None:
    # As the written dev_en_hospital_sterile_supply_transport: the barcode joins the
    # values of two captioned fields, without their hyphens, and prints the join again.
    zpl = ("^XA^CI28^PW812^LL812^FO40,40^A0N,24,22^FDTrolley:^FS"
           "^FO180,40^A0N,30,28^FDCT-118^FS^FO420,40^A0N,24,22^FDLoad:^FS"
           f"^FO520,40^A0N,30,28^FD{second}^FS"
           "^FO60,200^BCN,100,N,N,N^FDCT118WD32611044^FS"
           "^FO60,320^A0N,30,28^FDCT118WD32611044^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert (values.get("barcode_data") == "CT118WD32611044") is record


@pytest.mark.parametrize(("caption", "words", "name"), [
    ("Paciente:", "María Dolores Sanchis Ferrer", "patient_name"),
    ("Criado em:", "Portugal", "reared_in")])
def test_a_glossary_caption_with_its_colon_names_the_words_beside_it(caption: str, words: str,
                                                                      name: str) -> None:
    # As the written es_farmacia_dispensacion and pt_talho_bovino_rastreabilidade.
    zpl = (f"^XA^CI28^PW812^LL406^FO14,182^A0N,18,16^FD{caption}^FS"
           f"^FO120,180^A0N,24,22^FD{words}^FS^XZ")
    assert ENGINE.synthesize(SynthesisRequest(zpl)).draft.values.get(name) == words


def test_the_first_caption_of_a_line_of_several_names_it() -> None:
    # As the written us_multi_carton_consolidation: a PRO number and a bill of lading.
    values = _one_line("PRO# 0421-8870311   BOL 7718240")
    assert values == {"tracking_number": "PRO# 0421-8870311   BOL 7718240"}


@pytest.mark.parametrize("street", ["58498 Jones Creek", "0627 Ryan Pines Suite 576",
                                    "747 Flores Unions"])
def test_a_us_street_whose_number_looks_like_a_postcode_is_a_street(street: str) -> None:
    # (as generated from the written ng_gig_logistics_waybill: no postcode, the town
    # on its own line)
    values = _stacked(["RECEIVER", "Thomas Massey", street, "Walkerbury", "(407)419-4041"],
                      410, 265, 28, 24)
    assert values.get("ship_to_address_1") == street


def test_units_over_the_values_of_a_rating_plate_name_what_they_measure() -> None:
    # As the written de_motor_typenschild: a row of units over a row of values.
    units = [("V", "400 Δ / 690 Y"), ("A", "14,9 / 8,6"), ("kW", "7,5"), ("Hz", "50")]
    zpl = "^XA^CI28^PW812^LL609" + "".join(
        f"^FO{18 + 200 * i},108^A0N,20,18^FD{unit}^FS^FO{18 + 200 * i},130^A0N,28,26^FD{value}^FS"
        for i, (unit, value) in enumerate(units)) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert {n: values.get(n) for n in ("voltage", "current", "power", "frequency")} == {
        "voltage": "400 Δ / 690 Y", "current": "14,9 / 8,6", "power": "7,5", "frequency": "50"}


def test_a_units_letter_after_a_caption_is_still_a_grade() -> None:
    assert _one_line("Categoria A") == {"category": "A"}


@pytest.mark.parametrize(("caption", "name"), [("Precinto / Seal No.", "seal_number"),
                                               ("Cage Nr.", "cage_number")])
def test_a_caption_ending_in_its_number_word_names_a_barcodes_printed_form(
        caption: str, name: str) -> None:
    # As the written mx_bolsa_valores_precinto: the caption has no colon, the code is
    # printed large under it and its Code 128 below; the symbology says nothing.
    zpl = ("^XA^CI28^PW812^LL1218^FO24,106^A0N,22,22^FD" + caption + "^FS"
           "^FO24,132^A0N,70,60^FDMX 0441 7782^FS"
           "^FO40,212^BY3^BCN,120,N^FDMX04417782^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get(name) == "MX 0441 7782"


def test_a_known_caption_names_a_long_code_over_its_parcel_number_shape() -> None:
    # As the written pt_palete_gs1_entreposto_retalho: an order number of ten digits
    # looks like a parcel number, and its caption says what it is.
    assert _one_line("Encomenda: 7100448812") == {"order_number": "7100448812"}
    # As the written cz_jizdni_kolo_vyrobni_stitek: a year looks like a postcode.
    assert _one_line("Modelový rok / Model year: 2027") == {"model_year": "2027"}


def test_a_caption_in_two_languages_heads_its_value_in_a_grid_of_captions() -> None:
    # As the Purolator label of the corpus: small captions in English and French over
    # larger values; the terminal's name holds no digit.
    cells = [(40, "Pieces / Pièces", "1 of/de 2"), (300, "Weight / Poids", "5 kg"),
             (40, "Sort / Tri", "82 T"),
             (300, "Delivery terminal / Terminal de livraison", "MTL-ST LAURENT")]
    zpl = "^XA^CI28^PW812^LL1218" + "".join(
        f"^FO{x},{555 + 360 * (i // 2)}^A0N,20,20^FD{caption}^FS"
        f"^FO{x},{580 + 360 * (i // 2)}^A0N,40,40^FD{value}^FS"
        for i, (x, caption, value) in enumerate(cells)) + "^XZ"
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert "MTL-ST LAURENT" in values.values()


@pytest.mark.parametrize(("line", "name"), [
    ("Abs.: Teeladen Sonnenblick, Lindenstr. 1, 79098 Freiburg", "ship_from_address"),
    ("Abs.: Teeladen Sonnenblick", "ship_from_name"),
    # the street's kind as a word of its own (Hungarian "u.", Latvian "iela")
    ("Feladó: Bükki Méhészet Kft., Kossuth u. 12., 3300 Eger", "ship_from_address")])
def test_a_sender_line_that_holds_the_street_is_the_senders_address(line: str,
                                                                    name: str) -> None:
    # As the written de_deutschepost_warenpost_datamatrix: the sender in one small line.
    assert name in _one_line(line, 40, 130)


def test_a_letter_printed_far_larger_under_its_caption_is_its_value() -> None:
    # As the written garment_hang_tag: "SIZE" in small print over a large "M".
    zpl = ("^XA^CI28^PW609^LL812^FO40,210^A0N,28,28^FDMerino Crew Sweater^FS"
           "^FO282,236^A0N,18,18^FDSIZE^FS^FO296,262^A0N,54,54^FDM^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("size") == "M"


def test_a_glossary_caption_names_the_letter_printed_large_under_it() -> None:
    # As the written adr_orange_panel_ibc_label and hu_led_izzo_doboz: captions without
    # a colon over a class, a packing group and an energy class printed large.
    zpl = ("^XA^CI28^PW812^LL812"
           "^FO460,150^A0N,24,24^FDADR Klasse / Class^FS^FO460,178^A0N,60,60^FD3^FS"
           "^FO680,150^A0N,24,24^FDVG / PG^FS^FO680,178^A0N,60,60^FDII^FS"
           "^FO446,306^A0N,20,20^FDEnergiaosztály^FS^FO480,332^A0N,70,70^FDE^FS"
           "^FO40,400^A0N,30,30^FDGB^FS^FO40,370^A0N,14,14^FDPostage Paid^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert {n: values.get(n) for n in ("hazard_class", "packing_group", "energy_class")} == {
        "hazard_class": "3", "packing_group": "II", "energy_class": "E"}
    assert "GB" not in values.values()


def test_digits_in_groups_under_a_blocks_country_are_its_phone() -> None:
    # (as generated from the written de_dhl_ecommerce_cn22: the phone printed after the
    # country, without its caption)
    values = _stacked(["Empfänger", "Emil Niksa", "ulica Górna 11", "51-446 Piotrków",
                       "Polska", "505 638 133"], 80, 300, 34, 28)
    assert values.get("ship_to_phone") == "505 638 133"


def test_captions_with_their_unit_in_brackets_head_the_values_below() -> None:
    # As the written mx_paquetexpress_terrestre: a row of three captions, two with a
    # unit, over their values; "Volumen (m3)" is the next heading, no weight.
    zpl = ("^XA^CI28^PW812^LL1218"
           "^FO30,740^A0N,20,20^FDBultos^FS^FO30,765^A0N,40,40^FD2 de 3^FS"
           "^FO250,740^A0N,20,20^FDPeso (kg)^FS^FO250,765^A0N,40,40^FD12.80^FS"
           "^FO480,740^A0N,20,20^FDVolumen (m3)^FS^FO480,765^A0N,40,40^FD0.064^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("piece_count") == "2 de 3" and values.get("weight") == "12.80"
    assert "Volumen (m3)" not in values.values()


def test_a_state_and_country_after_the_postal_line_end_the_address() -> None:
    # As the written mx_paquetexpress_terrestre: the state and the country after the
    # postal line, the phone below them.
    values = _stacked(["Destinatario", "Lucía Garza", "Av. Constitución 2050",
                       "CP 64000 Monterrey", "Nuevo León, México", "81 8340 1200"],
                      30, 405, 36, 26)
    assert values.get("ship_to_country") == "Nuevo León, México"


def test_a_town_on_the_baseline_of_its_postcode_in_a_smaller_print_is_the_town() -> None:
    # As the written ar_correo_argentino_paquete: CPA and town share their baseline, the
    # town printed smaller.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,160^A0N,22,22^FDDESTINATARIO^FS"
           "^FO40,192^A0N,38,38^FDSr. Federico Iturralde^FS"
           "^FO40,238^A0N,32,32^FDAv. Raúl Scalabrini Ortiz 2150^FS"
           "^FO40,322^A0N,44,44^FDC1425DBP^FS"
           "^FO230,328^A0N,38,38^FDCIUDAD AUTÓNOMA DE BUENOS AIRES^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("ship_to_city") == "CIUDAD AUTÓNOMA DE BUENOS AIRES"


def test_a_block_of_a_street_and_a_town_has_no_name() -> None:
    # As the written nl_orderpick_verzamelbak: the delivery address, street and town.
    values = _stacked(["Afleveradres", "Keizersgracht 612-III", "1017 EK Amsterdam"],
                      20, 374, 30, 26)
    assert values.get("ship_to_address_1") == "Keizersgracht 612-III"
    assert "ship_to_name" not in values


def test_the_address_under_a_pickup_point_is_the_recipients() -> None:
    # As the written pl_inpost_paczkomat_locker: the locker's code, its street and town
    # under it; the recipient's block has a name and a phone only.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,165^A0N,24,24^FDPaczkomat docelowy:^FS"
           "^FO40,200^A0N,110,80^FDKRA01M^FS"
           "^FO40,320^A0N,26,26^FDul. Mogilska 43 (przy Biedronce)^FS"
           "^FO40,352^A0N,26,26^FD31-545 Kraków^FS"
           "^FO40,410^A0N,24,24^FDOdbiorca:^FS^FO200,405^A0N,36,36^FDZofia Wierzbicka^FS"
           "^FO40,455^A0N,24,24^FDTelefon:^FS^FO200,450^A0N,36,36^FD+48 601 234 567^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("ship_to_address_1") == "ul. Mogilska 43 (przy Biedronce)"
    assert values.get("ship_to_postal_city") == "31-545 Kraków"


def test_a_postcode_printed_large_under_a_block_without_one_is_its_postcode() -> None:
    # As the written ua_ukrposhta_express: the postcode alone, larger and a little
    # indented, under the region's line.
    zpl = ("^XA^CI28^PW812^LL1218^FO30,205^A0N,24,24^FDКому:^FS"
           "^FO130,205^A0N,36,36^FDБондар Сергій Миколайович^FS"
           "^FO130,250^A0N,30,30^FDвул. Дерибасівська, 16, кв. 8^FS"
           "^FO130,288^A0N,30,30^FDм. Одеса^FS^FO130,326^A0N,30,30^FDОдеська обл.^FS"
           "^FO145,382^A0N,50,50^FD65026^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("ship_to_postal_code") == "65026"


def test_a_bilingual_phone_line_ends_the_block_under_its_town() -> None:
    # As the probe dev_ca_purolator_bilingual: the town (with its province) over its
    # postcode alone, then "Tél. / Tel." and the number.
    values = _stacked(["To / À:", "Émilie Tremblay-Gagnon", "1250, rue Saint-Denis, app. 4",
                       "Montréal (Québec)", "H2X 3J7", "Tél. / Tel. 514-555-0273"],
                      40, 144, 40, 30)
    assert values.get("ship_to_city") == "Montréal (Québec)"
    assert values.get("ship_to_postal_code") == "H2X 3J7"
    assert values.get("ship_to_phone") == "Tél. / Tel. 514-555-0273"


def test_captions_over_values_on_a_badge_are_no_address() -> None:
    # As the probe dev_event_badge: "ACCESS" over the zones, the registration number
    # under them; no postcode, so no party.
    zpl = ("^XA^PW812^LL609^FO330,490^A0N,20,20^FDACCESS^FS"
           "^FO330,516^A0N,34,34^FDA B C · SPK LOUNGE^FS"
           "^FO330,560^A0N,20,20^FDReg. CCS26-04418^FS^XZ")
    names = _values(zpl)
    assert not any(name.startswith("ship_to") for name in names)


def test_an_address_line_wrapped_by_a_field_block_keeps_the_block_together() -> None:
    # As the probe dev_ro_fan_courier_ramburs: a street wrapped over three lines by
    # ^FB, the town, its six-digit postcode alone, the phone.
    zpl = ("^XA^CI28^PW812^LL1218^FO420,400^A0N,18,18^FDDESTINATAR^FS"
           "^FO420,428^A0N,30,30^FDIoana Marinescu^FS"
           "^FO420,464^FB360,3,4,L,0^A0N,24,24^FDStr. Calea Dorobantilor nr. 87, bl. 4, "
           "sc. B, ap. 12^FS^FO420,560^A0N,28,28^FDCluj-Napoca, jud. Cluj^FS"
           "^FO420,594^A0N,28,28^FD400609^FS^FO420,630^A0N,34,34^FD0745 318 226^FS^XZ")
    values = _values(zpl)
    assert values.get("ship_to_city") == "Cluj-Napoca, jud. Cluj"
    assert values.get("ship_to_postal_code") == "400609"
    assert values.get("ship_to_phone") == "0745 318 226"


def test_dublins_district_over_its_eircode() -> None:
    # As the probe dev_ie_anpost_parcel.
    values = _stacked(["Deliver to:", "Aoife Brennan", "Apartment 14, Cypress Court",
                       "South Circular Road", "Dublin 8", "D08 K7F3"], 40, 160, 40, 32)
    assert values.get("ship_to_city") == "Dublin 8"
    assert values.get("ship_to_postal_code") == "D08 K7F3"


def test_the_address_under_a_pickup_point_is_its_own_where_the_recipient_has_one() -> None:
    # The locker's street and town under its code, and the recipient's block with
    # its own street and town: the lines under the code say where the locker is.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,165^A0N,24,24^FDPaczkomat docelowy:^FS"
           "^FO40,200^A0N,110,80^FDKRA01M^FS"
           "^FO40,320^A0N,26,26^FDul. Mogilska 43 (przy Biedronce)^FS"
           "^FO40,352^A0N,26,26^FD31-545 Kraków^FS"
           "^FO40,430^A0N,24,24^FDOdbiorca:^FS^FO40,460^A0N,36,36^FDZofia Wierzbicka^FS"
           "^FO40,500^A0N,36,36^FDul. Lipowa 8^FS^FO40,540^A0N,36,36^FD30-702 Kraków^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("ship_to_address_1") == "ul. Lipowa 8"
    points = {v for k, v in values.items() if k.startswith("pickup_point")}
    assert "ul. Mogilska 43 (przy Biedronce)" in points


def test_a_block_under_a_pickup_caption_is_the_pickup_point() -> None:
    # The probe dev_be_bpost_pickup_bilingue: the recipient's name, phone and e-mail,
    # then the Point Poste under "À retirer au / Af te halen in".
    zpl = (LABELS / "dev_be_bpost_pickup_bilingue.zpl").read_text(encoding="utf-8")
    values = _values(zpl)
    assert values.get("pickup_point") == "Carrefour Express Flagey"
    assert "1050 Ixelles / Elsene" in {v for k, v in values.items() if k.startswith("pickup")}
    assert "À retirer au / Af te halen in" not in values.values()
    assert values.get("ship_to_name") == "Lotte Vermeulen"


def test_a_phones_caption_inside_a_block_is_no_address_line() -> None:
    # As the probe dev_ee_omniva_pakiautomaat: "Saaja telefon" over the number.
    values = _stacked(["SAAJA", "Kristjan Tamm", "Saaja telefon", "+372 5123 4567"],
                      24, 170, 30, 26)
    assert "Saaja telefon" not in values.values()
    assert values.get("ship_to_phone") == "+372 5123 4567"


@pytest.mark.parametrize("code", ["ΘΕΣ-12", "ПД 412"])
def test_a_sort_code_in_capitals_of_any_script(code: str) -> None:
    # As the probes dev_gr_acs_courier and dev_bg_speedy_do_ofis: the station's code
    # printed large at the top right.
    zpl = (f"^XA^CI28^PW812^LL1218^FO494,40^A0N,70,70^FD{code}^FS"
           "^FO100,300^A0N,40,40^FDCE610928374EE^FS^XZ")
    values = _values(zpl)
    assert values.get("routing_code") == code


def test_a_units_abbreviation_before_a_town_is_no_weight() -> None:
    # As the probe dev_bg_speedy_do_ofis: "гр." is "town" before a town's name.
    values = _stacked(["ПОДАТЕЛ", "Розова Долина Козметикс ЕООД", "гр. Казанлък, ул. Искра 14",
                       "тел. 0431 6 22 18"], 24, 250, 28, 24)
    assert "weight" not in values
    assert values.get("ship_from_address_1") == "гр. Казанлък, ул. Искра 14"


def test_a_segmented_code_printed_large_on_a_parcel_is_its_sort_code() -> None:
    # As Japan Post's Yu-Pack label of the corpus: "61-04-2" is no rack.
    zpl = ("^XA^CI28^PW812^LL1218^FO500,40^A0N,50,50^FD61-04-2^FS"
           "^FO100,300^A0N,40,40^FDCE610928374EE^FS^XZ")
    values = _values(zpl)
    assert values.get("routing_code") == "61-04-2"


def test_versender_captions_the_shipper() -> None:
    # As the probe dev_de_sammelgut_stueckgutlabel: the forwarder's name across the top,
    # then "Versender" over the shipper's block.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,38^A0N,46,46^FDKRAMER SPEDITION^FS"
           "^FO40,112^A0N,20,20^FDVersender^FS^FO40,136^A0N,26,26^FDHolzwerk Pfeiffer GmbH^FS"
           "^FO40,166^A0N,26,26^FDSägewerkstraße 3^FS^FO40,196^A0N,26,26^FD88499 Riedlingen^FS"
           "^FO40,272^A0N,20,20^FDEmpfänger^FS^FO40,300^A0N,42,42^FDBauzentrum Lindner e.K.^FS"
           "^FO40,348^A0N,34,34^FDGewerbepark Nord 17^FS^FO40,390^A0N,48,48^FD06618 Naumburg^FS^XZ")
    values = _values(zpl)
    assert values.get("ship_from_name") == "Holzwerk Pfeiffer GmbH"
    assert "Versender" not in values.values()


def test_numbered_reference_captions_are_layout() -> None:
    # As the probe dev_us_regional_overnight_landscape.
    zpl = ("^XA^PW1218^LL812^FO660,610^A0N,20,20^FDREF 1^FS^FO740,606^A0N,28,28^FDPO 55-0918^FS"
           "^FO660,650^A0N,20,20^FDREF 2^FS^FO740,646^A0N,28,28^FDLIVE SEED SAMPLES^FS^XZ")
    values = _values(zpl)
    assert "REF 1" not in values.values() and "1" not in values.values()


def test_a_shelf_label_with_prices_and_a_shelf_place_is_no_address() -> None:
    # As the probe dev_en_shelf_edge_multibuy_offer: "Was" over the old price, the unit
    # price, the item's code and its aisle under the product's name.
    values = _stacked(["Maple & Pecan 500g", "Was", "£4.25", "70p per 100g",
                       "Code 0481 2276", "Aisle 7  Bay 3  Shelf 2"], 24, 136, 34, 22)
    assert not any(name.startswith("ship_to") for name in values)


def test_a_colon_printed_in_a_column_of_its_own_joins_its_caption() -> None:
    # As the probes dev_tr_radyoloji_film_zarfi and dev_tr_yurtici_kargo: captions, a
    # column of colons, the values.
    zpl = ("^XA^CI28^PW812^LL609"
           "^FO24,158^A0N,18,18^FDSipariş No^FS^FO210,158^A0N,18,18^FD:^FS"
           "^FO228,154^A0N,28,28^FD#TR-558102^FS"
           "^FO24,196^A0N,18,18^FDTetkik^FS^FO210,196^A0N,18,18^FD:^FS"
           "^FO228,192^A0N,28,28^FDLomber Vertebra MR^FS^XZ")
    values = _values(zpl)
    assert values.get("order_number") == "#TR-558102"
    assert "Tetkik" not in values.values() and "Sipariş No" not in values.values()


@pytest.mark.parametrize("caption", ["MITT:", "Afz.:", "REM:"])
def test_abbreviated_sender_captions_with_their_colon(caption: str) -> None:
    # As the probes dev_it_busta_documenti_corriere, dev_nl_sameday_koerier_tijdvak and
    # dev_ar_andreani_estandar: "MITT: STUDIO NOTARILE BERARDI" and its street under it.
    zpl = (f"^XA^PW812^LL1218^FO30,40^A0N,22,22^FD{caption} STUDIO NOTARILE BERARDI^FS"
           "^FO30,66^A0N,22,22^FDVIA MERULANA 118 - 00185 ROMA RM^FS^XZ")
    values = _values(zpl)
    assert values.get("ship_from_name") == "STUDIO NOTARILE BERARDI"


def test_a_number_under_its_caption_after_the_town_is_no_address_line() -> None:
    # As the probe dev_ch_pharmagrossist_apotheke_kiste: "z.H." names the contact; the
    # customer's number after the town line is the caption's.
    values = _stacked(["Empfänger", "Apotheke Bärenplatz AG", "z.H. Dr. Miriam Gerber",
                       "Marktgasse 14", "3011 Bern", "Kunden-Nr. 204 771"], 46, 142, 40, 30)
    assert values.get("ship_to_contact") == "z.H. Dr. Miriam Gerber"
    assert values.get("customer_number") == "Kunden-Nr. 204 771"


def test_a_party_named_in_words_after_its_caption_is_no_prose() -> None:
    # As the probes dev_nz_dairy_carton_butter_export and dev_ar_courier_pampa_domicilio.
    zpl = ("^XA^PW812^LL1218^FO30,512^A0N,28,28^FDDestination: Jeddah, Kingdom of Saudi Arabia^FS"
           "^FO30,900^A0N,22,22^FDRte: Tienda Mate Criollo^FS^XZ")
    values = _values(zpl)
    assert values.get("destination") == "Jeddah, Kingdom of Saudi Arabia"  # (a place)
    assert values.get("ship_from_name") == "Tienda Mate Criollo"


def test_bins_under_from_and_to_captions_are_places_not_parties() -> None:
    """A replenishment task moves stock from one bin to another: "FROM" over
    "R-22-14-D" is a location, not a sender's block."""
    values = _values("^XA^CI28^PW812^LL609"
                     "^FO20,80^A0N,22,20^FDFROM (reserve)^FS^FO20,104^A0N,56,50^FDR-22-14-D^FS"
                     "^FO420,80^A0N,22,20^FDTO (pick face)^FS^FO420,104^A0N,56,50^FDP-05-031-A^FS"
                     "^FO20,256^A0N,22,20^FDSKU^FS^FO120,252^A0N,34,32^FD4017-ORB-250^FS^XZ")
    assert values["location"] == "R-22-14-D"
    assert values["location_2"] == "P-05-031-A"


@pytest.mark.parametrize(("caption", "name"), [
    ("Piegādes datums", "delivery_date"),  # Latvian: no caption of the vocabulary as a whole
    ("À consommer jusqu'au / Te gebruiken tot", "expiry_date"),  # in French and Dutch
    ("À consommer de préférence avant le", "expiry_date"),  # six words
    ("Zustellung", "delivery_date"), ("Livraison", "delivery_date"),  # an event's word
    ("Uiterste gebruiksdatum", "expiry_date"),  # ("geb..." here is no birth)
    ("納品日", "delivery_date"),
    ("ROASTED ON", "roast_date"), ("BOTTLED", "bottling_date"),  # when the goods were made
    ("NEXT EXAMINATION DUE", "due_date"),  # a few words that end in an event's
    ("Avondlevering", "delivery_date"), ("Rücklieferung", "due_date"),  # compound words
    ("Próx. verif.:", "due_date"),  # the next check: when it is due
])
def test_a_caption_that_says_which_date_names_the_date_under_it(caption: str, name: str) -> None:
    values = _values("^XA^CI28^PW812^LL406^FO30,100^A0N,20,18^FD" + caption + "^FS"
                     "^FO30,124^A0N,34,32^FD09.12.2026^FS"
                     "^FO420,100^A0N,20,18^FDLot^FS^FO420,124^A0N,34,32^FDL26329B^FS^XZ")
    assert values[name] == "09.12.2026"


def test_a_caption_names_the_value_under_it_not_one_far_along_its_line() -> None:
    # As on a café's sandwich label: "Use by" over the day, the price in a column of
    # its own far to the right on the caption's line.
    values = _values("^XA^CI28^PW812^LL609^FO16,374^A0N,18,16^FDUse by^FS"
                     "^FO16,394^A0N,30,28^FDWED 26 NOV^FS"
                     "^FO176,374^A0N,18,16^FDEnergy per pack^FS"
                     "^FO176,394^A0N,30,28^FD512 kcal^FS"
                     "^FO340,380^A0N,60,50^FD£5.45^FS^XZ")
    assert values["expiry_date"] == "WED 26 NOV"
    assert values.get("price") == "£5.45"


def test_phones_on_a_parcel_with_no_address_block_found_are_the_recipients_then_the_senders(
        ) -> None:
    """An address in a script the blocks do not read (Hebrew here) leaves its phones
    alone: the first is the recipient's, the next the sender's, for review."""
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO40,140^BY3^BCN,120,N,N,N^FDGX7721049356^FS"
                     "^FO40,470^A0N,34,32^FDרחוב הרצל 118, דירה 9^FS"
                     "^FO40,568^A0N,30,28^FD054-7731902^FS"
                     "^FO40,774^A0N,24,22^FDTel. 03-6817420^FS^XZ")
    assert values["ship_to_phone"] == "054-7731902"
    assert values["ship_from_phone"].endswith("03-6817420")


@pytest.mark.parametrize(("caption", "value", "name"), [
    ("Netto", "18 420 kg", "weight"), ("Brutto", "18 505 kg", "weight"),
    ("Kilos", "14,30", "weight"),  # a weight captioned by "net", "gross" or its unit in words
    ("Reason", "Damaged in transit", "reason"),  # the reason, a code only where it says so
    ("Motivo", "Talla pequeña", "reason"),
    ("CHECK", "72", "check_digits"),  # the digits a picker reads back at the bin
])
def test_short_captions_of_weights_and_reasons(caption: str, value: str, name: str) -> None:
    values = _values("^XA^CI28^PW812^LL406^FO40,100^A0N,20,18^FD" + caption + "^FS"
                     "^FO40,124^A0N,34,32^FD" + value + "^FS"
                     "^FO420,100^A0N,20,18^FDLot^FS^FO420,124^A0N,34,32^FDL26329B^FS^XZ")
    assert values[name] == value


@pytest.mark.parametrize(("line", "name"), [
    ("Lev. 26.11.2026", "delivery_date"), ("EMB. 24/11/2026", "pack_date"),
    ("gedr. 23-11-26", "print_date"), ("Impreso 24/11/2026", "print_date"),
    ("f. 12.04.1951", "date_of_birth"), ("Schlachtdatum: 02.11.2026", "slaughter_date"),
])
def test_a_word_or_abbreviation_before_a_date_says_which(line: str, name: str) -> None:
    values = _one_line(line)
    assert list(values) == [name] and line.endswith(values[name])


@pytest.mark.parametrize(("line", "name"), [
    ("Expedición: 0462819005371", "tracking_number"),  # a Spanish carrier's shipment
    ("Expedición: 25/11/2026", "ship_date"),  # the day it was sent
])
def test_a_spanish_expedicion_on_a_parcel_is_its_shipment(line: str, name: str) -> None:
    values = _values(on_a_parcel(f"^FO40,700^A0N,26,26^FD{line}^FS"))
    assert line.endswith(values.get(name) or "(none)")


def test_a_county_between_the_town_and_the_postcode_is_no_town() -> None:
    values = _stacked(["Mrs Eleanor Ashworth", "Flat 3", "27 Victoria Road", "Hebden Bridge",
                       "West Yorkshire", "HX7 8AA"], 300, 195, 35, 28)
    assert values["ship_to_city"] == "Hebden Bridge"


def test_a_hungarian_block_gives_its_town_before_the_street() -> None:
    values = _stacked(["Címzett:", "Nagy Krisztina", "Szeged", "Kossuth Lajos sgt. 44. 3/12.",
                       "6722"], 130, 40, 52, 34)
    assert values["ship_to_city"] == "Szeged"


@pytest.mark.parametrize("line", ["Kiszedő: Tóth Gábor (K118)", "Contador: Ana Ferreira (#118)",
                                  "Atendido por: Marta S."])
def test_a_person_after_a_caption_of_no_known_word_is_the_operator(line: str) -> None:
    values = _one_line(line)
    assert list(values) == ["operator"]


@pytest.mark.parametrize(("line", "name"), [
    ("Käsermeister: Martin Fink", "operator"), ("Preparatore: Inf. L. Colombo", "operator"),
    ("Cerró: Mariana López Ortega  No. emp. 88", "operator"),
    ("Testigo: Raúl Castañeda  No. emp. 90117", "operator"),
    ("Tohyo kanrisha: Nakamura Kenji", "operator"),
    # a place's name of three words, and a person a preposition addresses, are no worker
    ("Tohyojo: Kishimachi Shogakko Taiikukan", "tohyojo"), ("Für: Katharina Schneider", "fur")])
def test_a_whole_name_after_a_caption_of_a_step_is_the_operator(line: str, name: str) -> None:
    # As the cheese wheel, the hospital's infusion bag and the seal of the fresh probes:
    # the caption unknown says which step the person did, on any label with no recipient.
    assert list(_one_line(line)) == [name]


def test_a_whole_name_on_a_parcel_stays_its_captions() -> None:
    values = _values(on_a_parcel("^FO40,400^A0N,24,24^FDPolier: Thomas Brandstätter^FS"))
    assert "operator" not in values


@pytest.mark.parametrize("caption", ["Técnico:", "Techniker:", "Technicien :", "Tekniker:"])
def test_the_technician_on_a_maintenance_tag_is_the_operator(caption: str) -> None:
    # As the Spanish press's maintenance tag: who serviced the machine.
    zpl = ("^XA^CI28^PW812^LL812^FO120,58^A0N,20,20^FDEquipo^FS"
           "^FO120,80^A0N,30,30^FDPRENSA HIDRÁULICA PH-12^FS"
           "^FO120,184^A0N,22,22^FDN.º activo:^FS^FO300,180^A0N,28,28^FDACT-004512^FS"
           f"^FO120,342^A0N,22,22^FD{caption}^FS^FO300,338^A0N,28,28^FDJavier Roig Almela^FS"
           "^XZ")
    assert _values(zpl).get("operator") == "Javier Roig Almela"


def test_a_surname_signed_with_initials_is_the_operator_on_a_parcel_too() -> None:
    # As the German delivery note to a coater: "Erstellt" (made out by) and the
    # clerk's short sign, which no recipient is written as.
    values = _values(on_a_parcel("^FO40,400^A0N,24,24^FDErstellt: Schäfer, AV^FS"))
    assert values.get("operator") == "Schäfer, AV"


@pytest.mark.parametrize("caption", ["Delivery Unit", "Sucursal distribución", "Empfangs-NL"])
def test_a_large_code_on_a_parcel_is_its_sort_code_under_words_of_no_caption(
        caption: str) -> None:
    values = _values(on_a_parcel(f"^FO536,30^A0N,20,20^FD{caption}^FS"
                                 "^FO536,56^A0N,62,60^FDDSU 8-3^FS"))
    assert values.get("routing_code") == "DSU 8-3"


@pytest.mark.parametrize(("caption", "size"), [("Suurus", "M"), ("Gabaryt", "B")])
def test_a_lockers_size_by_letter_is_no_parcels_dimensions(caption: str, size: str) -> None:
    # As the probes dev_pl_kurier_odbiorca_obrocony and dev_pl_pocztex_kurier48_pobranie:
    # a Polish parcel's size class ("Gabaryt") in one letter, A to C.
    values = _values(on_a_parcel(f"^FO420,34^A0N,20,20^FD{caption}^FS"
                                 f"^FO440,60^A0N,80,70^FD{size}^FS"))
    assert values.get("size") == size


def test_the_day_a_parcel_was_collected_is_its_ship_date() -> None:
    values = _values(on_a_parcel("^FO40,400^A0N,24,24^FDCollected 25-11-2026^FS"))
    assert values.get("ship_date") == "25-11-2026"


@pytest.mark.parametrize("day", ["WED 11/25", "FRI - 21 NOV 10:30A", "Do 26.11.2026"])
def test_a_date_with_its_weekday_on_a_parcel_is_the_promised_delivery(day: str) -> None:
    values = _values(on_a_parcel(f"^FO40,420^A0N,40,40^FD{day}^FS"))
    assert values.get("delivery_date") == day
    assert "date" not in values


def test_money_on_a_label_of_no_consignment_is_a_price() -> None:
    card = ["Temperatura de servicio: 16-18 °C", "Crianza 2021", "18,95 €"]
    assert _stacked(card, 40, 40, 50, 30).get("price") == "18,95 €"
    parcel = _values("^XA^CI28^PW812^LL1218^FO40,40^A0N,30,30^FD18,95 €^FS"
                     "^FO40,200^BCN,80^FD1Z999AA10123456784^FS^XZ")
    assert parcel.get("value") == "18,95 €"  # beside a parcel's number: its value


def test_a_note_in_words_on_a_parcel_is_for_the_driver() -> None:
    values = _values(on_a_parcel("^FO40,400^A0N,24,24^FDHinweis: Hebebühne^FS"))
    assert values.get("delivery_instructions") == "Hebebühne"


@pytest.mark.parametrize(("caption", "data", "name"), [
    ("IMEI 1", "356789104523418", "imei"),
    ("WLAN MAC", "3CA62F8B14E7", "mac_address"),
    ("Specimen ID", "CB-2611-0073", "specimen_id"),
])
def test_a_caption_over_a_barcode_names_it_and_its_printed_form(caption: str, data: str,
                                                                 name: str) -> None:
    # (the printed form holds the barcode's value: one field)
    zpl = (f"^XA^CI28^PW812^LL406^FO20,110^A0N,20,20^FD{caption}^FS"
           f"^FO20,132^BCN,60,N^FD{data}^FS^FO20,200^A0N,22,22^FD{data}^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    assert names == [name]


@pytest.mark.parametrize(("turn", "caption_at", "bars_at", "printed_at"), [
    ("R", "^FO481,20", "^FO415,20", "^FO381,20"),  # tops to the right: up is +x
    ("I", "^FO500,276", "^FO500,214", "^FO500,184"),  # upside down: up is +y
])
def test_a_caption_over_a_turned_barcode_names_it(turn: str, caption_at: str, bars_at: str,
                                                  printed_at: str) -> None:
    # A turned field's ^FO is the corner its text or bars grow from: over the caption,
    # the bars of a Code 128 62 dots tall reach nearly to it, as they do upright.
    zpl = (f"^XA^CI28^PW609^LL812^FW{turn}{caption_at}^A0,20,20^FDIMEI 1^FS"
           f"{bars_at}^BY2^BC,62,N^FD356789104523418^FS"
           f"{printed_at}^A0,22,22^FD356789104523418^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    assert names == ["imei"]


@pytest.mark.parametrize(("bars_x", "name"), [
    (30, "imei"), (50, "imei"),  # the bars set in by their quiet zone
    (400, "serial_number"),  # far right of the caption: not under it, a serial by its shape
])
def test_a_caption_over_a_barcode_set_in_a_little_names_it(bars_x: int, name: str) -> None:
    # The caption at the margin, its Code 128 under it indented by its quiet zone (as
    # "Lieferschein-Nr." and "CARTON ID" are printed over their bars).
    zpl = ("^XA^CI28^PW812^LL406^FO20,110^A0N,20,20^FDIMEI 1^FS"
           f"^FO{bars_x},140^BCN,60,N^FD356789104523418^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    assert names == [name]


@pytest.mark.parametrize(("caption", "name"), [
    ("CARTON ID", "carton_id"),  # the glossary's whole caption, no carton count
    ("Piece ID", "tracking_number"),  # no whole caption known: an identifier of a piece
])
def test_a_whole_caption_the_glossary_knows_beats_the_vocabularys_word_in_it(
        caption: str, name: str) -> None:
    zpl = (f"^XA^CI28^PW812^LL406^FO30,110^A0N,20,20^FD{caption}^FS"
           "^FO30,140^BCN,60,N^FDPS2261480-02^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    assert names == [name]


def test_a_caption_just_left_of_a_barcode_names_it() -> None:
    zpl = ("^XA^CI28^PW812^LL406^FO16,184^A0N,20,20^FDMAC^FS"
           "^FO60,182^BCN,40,N^FD3CA17E520B9F^FS^XZ")
    names = sorted(ENGINE.synthesize(SynthesisRequest(zpl)).draft.field_map)
    assert names == ["mac_address"]


@pytest.mark.parametrize(("caption", "name"), [
    ("資産番号", "asset_number"), ("资产编号", "asset_number"), ("資產編號", "asset_number"),
    ("자산번호", "asset_number"), ("店番", "store_number"), ("门店编号", "store_number"),
    ("매장번호", "store_number"),
])
def test_an_identifier_captioned_in_chinese_japanese_or_korean(caption: str, name: str) -> None:
    values = _values(f"^XA^CI28^PW812^LL406^FO18,13^A0N,22,22^FDHokuto Denki^FS"
                     f"^FO18,60^A0N,22,22^FD{caption}^FS^FO18,86^A0N,48,44^FDIT-2026-03381^FS^XZ")
    assert values.get(name) == "IT-2026-03381"


@pytest.mark.parametrize(("line", "name"), [
    ("Venda: 2000012318874420", "order_number"),  # a marketplace's sale, in Portuguese
    ("Br. porudžbine: ZP-09127", "order_number"),  # Serbian
    ("Mã đơn shop: BTM-251124-066", "order_number"),  # the shop's order, in Vietnamese
    ("Manifesto No: KEX-M-261125-031", "manifest_number"),  # Turkish
])
def test_an_order_or_manifest_caption_names_a_code_shaped_like_a_parcel_number(
        line: str, name: str) -> None:
    values = _values(on_a_parcel(f"^FO40,400^A0N,24,24^FD{line}^FS"))
    assert values.get(name) == line.split(": ")[1]


def test_rows_of_a_named_rows_form_under_it_are_rows_of_the_same_kind() -> None:
    # As the probe dev_us_wip_traveler: a job traveller's operations, each a number, a
    # gap and words; the first named by the column's caption, the others alike.
    rows = ["10  SAW CUT BLANKS    WC-110", "20  CNC MILL OP1      WC-240",
            "30  DEBURR            WC-310", "40  FINAL INSPECT     QC-01"]
    zpl = ("^XA^PW812^LL1218^FO36,34^A0N,40,40^FDJOB TRAVELER^FS"
           "^FO30,442^A0N,22,22^FDOP^FS^FO110,442^A0N,22,22^FDOPERATION^FS"
           "^FO470,442^A0N,22,22^FDWORK CTR^FS^FO610,442^A0N,22,22^FDOPER^FS"
           "^FO680,442^A0N,22,22^FDDATE^FS^FO740,442^A0N,22,22^FDQTY^FS"
           + "".join(f"^FO30,{480 + 44 * i}^A0N,24,24^FD{row}^FS" for i, row in enumerate(rows))
           + "^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert [values.get(name) for name in ("operation", "operation_2", "operation_3",
                                          "operation_4")] == rows


@pytest.mark.parametrize(("second", "name"), [
    ("Hyde Park Physiotherapy", "ship_to_name_2"), ("Praxis am Rosenberg", "ship_to_name_2"),
    ("عبدالرحمن القحطاني", "ship_to_name_2"), ("Shipping Dept", "ship_to_address_1"),
    ("Dun Roamin Cottage", "ship_to_address_1"),
])
def test_a_line_of_words_between_the_name_and_the_street_names_the_party(second: str,
                                                                         name: str) -> None:
    values = _stacked(["Deliver To:", "Tomasz Wieczorek", second, "42 Headingley Lane",
                       "Leeds LS6 2AB"], 40, 300, 40, 30)
    assert values["ship_to_name"] == "Tomasz Wieczorek"
    assert values[name] == second


def _sideways_sender(fields: str = "") -> str:
    """A sender turned down the left edge, its caption printed at the edge, beside an
    upright recipient's block under its own caption (as Turkish carriers print them)."""
    return ("^XA^CI28^PW812^LL1218"
            "^FO40,40^A0N,46,46^FDMNG KARGO^FS^FO430,45^A0N,26,26^FDStandart Gönderi^FS"
            "^FO30,120^A0R,22,22^FDGönderici^FS"
            "^FO60,120^A0R,24,24^FDKuzey Elektronik A.Ş.^FS"
            "^FO90,120^A0R,22,22^FDİkitelli OSB Mah. 7. Sk. No:3^FS"
            "^FO120,120^A0R,22,22^FDBaşakşehir / İSTANBUL^FS"
            "^FO180,120^A0N,22,22^FDAlıcı Adı Soyadı^FS"
            "^FO180,148^A0N,38,38^FDZeynep Kaya^FS"
            "^FO180,222^A0N,28,28^FDAlipaşa Mah. Kışla Cad. Güneş Apt.^FS"
            "^FO180,290^A0N,34,34^FDŞehitkamil / GAZİANTEP^FS"
            f"{fields}^XZ")


def test_a_caption_turned_down_the_edge_labels_its_own_column_not_the_upright_block() -> None:
    values = _values(_sideways_sender())
    assert values["ship_to_name"] == "Zeynep Kaya"
    assert values["ship_to_city"] == "Şehitkamil / GAZİANTEP"
    assert values["ship_from_address_1"] == "İkitelli OSB Mah. 7. Sk. No:3"
    assert values["ship_from_city"] == "Başakşehir / İSTANBUL"


def test_captions_and_phones_pair_only_with_fields_that_read_their_way() -> None:
    # "Telefon" over the recipient's number is level with the sender's first line as that
    # line reads down the edge: neither the caption nor the phone is the sender's.
    values = _values(_sideways_sender("^FO180,335^A0N,22,22^FDTelefon^FS"
                                      "^FO180,362^A0N,30,30^FD+90 533 604 12 85^FS"))
    assert values["ship_from_name"] == "Kuzey Elektronik A.Ş."
    assert values["ship_to_phone"] == "+90 533 604 12 85"


def test_a_caption_turned_up_the_edge_with_its_block_beside_it_takes_that_block() -> None:
    # "Lähettäjä" reads up the edge, its block on its lines further up: the upright
    # "Lähetystunnus" (the shipment's number) beside it is no sender.
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO30,710^A0B,22,20^FDLähettäjä^FS"
                     "^FO28,420^A0B,26,24^FDSähkötarvike Nieminen Oy^FS"
                     "^FO56,420^A0B,24,22^FDTeollisuuskatu 8^FS"
                     "^FO84,420^A0B,24,22^FD33100 TAMPERE^FS"
                     "^FO140,148^A0N,22,20^FDVastaanottaja^FS"
                     "^FO140,176^A0N,38,34^FDJuho Hämäläinen^FS"
                     "^FO140,224^A0N,30,28^FDKaarlenkatu 11 B 24^FS"
                     "^FO140,268^A0N,34,30^FD00530 HELSINKI^FS"
                     "^FO140,636^A0N,22,20^FDLähetystunnus^FS"
                     "^FO170,670^BY3^BCN,160,N,N,N^FDMH19572048361^FS^XZ")
    assert values["ship_from_name"] == "Sähkötarvike Nieminen Oy"
    assert values["ship_from_postal_city"] == "33100 TAMPERE"
    assert "Lähetystunnus" not in values.values()


def test_a_block_turned_down_the_edge_takes_no_upright_line_into_its_column() -> None:
    # The sender's name reads down the edge; in its frame the recipient's upright phone
    # lines up under it, but a block's lines all read one way.
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO78,30^A0R,22,20^FDFeladó:^FS"
                     "^FO78,130^A0R,24,22^FDKertész-Pont Webáruház Kft.^FS"
                     "^FO130,24^A0N,70,64^FDGLS^FS^FO532,28^A0N,22,20^FDHU 1134^FS"
                     "^FO130,164^A0N,22,22^FDCímzett:^FS"
                     "^FO130,194^A0N,48,44^FDSzabó Eszter^FS"
                     "^FO130,250^A0N,38,34^FDVáci út 47/B.^FS"
                     "^FO130,300^A0N,38,34^FD1134 Budapest^FS"
                     "^FO130,436^A0N,28,26^FD+36 30 214 5587^FS^XZ")
    assert values["ship_from_name"] == "Kertész-Pont Webáruház Kft."
    assert values["ship_to_phone"] == "+36 30 214 5587"


@pytest.mark.parametrize("caption", ["Collect at locker:", "Pickup point:", "Paczkomat:"])
def test_a_block_under_a_pickup_caption_above_the_recipient_is_no_sender(caption: str) -> None:
    values = _values("^XA^CI28^PW812^LL1218"
                     f"^FO40,170^A0N,22,22^FD{caption}^FS"
                     "^FO40,200^A0N,34,34^FDTesco Express Camden^FS"
                     "^FO40,240^A0N,30,30^FD45 Camden High Street^FS"
                     "^FO40,278^A0N,34,34^FDLondon NW1 7JH^FS"
                     "^FO40,345^A0N,22,22^FDRecipient:^FS"
                     "^FO40,375^A0N,40,40^FDPriya Raman^FS"
                     "^FO40,422^A0N,28,28^FD+44 7700 900418^FS^XZ")
    assert not any(name.startswith("ship_from") for name in values)
    assert values["pickup_point"] == "Tesco Express Camden"
    assert values["ship_to_name"] == "Priya Raman"


@pytest.mark.parametrize(("first", "second", "role"), [
    ("FROM", "RETURN TO", "ship_to"), ("Absender:", "Zurück an:", "ship_to"),
    ("SHIP TO", "RETURN TO", "ship_from"),
])
def test_return_to_is_the_recipient_only_on_a_label_whose_sender_has_its_own_caption(
        first: str, second: str, role: str) -> None:
    values = _values("^XA^CI28^PW812^LL812"
                     f"^FO30,126^A0N,18,16^FD{first}^FS"
                     "^FO30,148^A0N,26,24^FDDerek Lindqvist^FS"
                     "^FO30,178^A0N,26,24^FD418 NE Brazee St^FS"
                     "^FO30,208^A0N,26,24^FDPortland OR 97212^FS"
                     f"^FO30,266^A0N,18,16^FD{second}^FS"
                     "^FO30,292^A0N,36,32^FDNorthwind Apparel Returns^FS"
                     "^FO30,376^A0N,36,32^FD2250 S 208th St^FS"
                     "^FO30,418^A0N,36,32^FDKent WA 98032-1307^FS^XZ")
    assert values[f"{role}_name"] == "Northwind Apparel Returns"


@pytest.mark.parametrize("caption", ["Collected from:", "Picked up from:", "Collection address"])
def test_where_a_courier_collected_the_parcel_is_the_sender_even_under_the_recipient(
        caption: str) -> None:
    values = _values(two_blocks("Deliver to:", caption))
    assert values["ship_to_name"] == "Merchant AB"
    assert values["ship_from_name"] == "Ingrid Tester"
    assert values["ship_from_postal_city"] == "532 38 Ankeborg"


@pytest.mark.parametrize("caption", ["PSČ", "Postcode", "PLZ"])
def test_a_postcode_under_its_own_caption_beside_a_block_is_that_partys(caption: str) -> None:
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO40,282^A0N,22,22^FDAdresát^FS"
                     "^FO40,314^A0N,48,44^FDIng. Tomáš Novotný^FS"
                     "^FO40,370^A0N,42,38^FDÚdolní 512/33^FS"
                     "^FO40,424^A0N,56,52^FDBrno^FS"
                     f"^FO534,428^A0N,20,20^FD{caption}^FS"
                     "^FO534,456^A0N,64,60^FD602 00^FS^XZ")
    assert values["ship_to_postal_code"] == "602 00"


@pytest.mark.parametrize("line", ["Fabrikstrasse 8, 3012 Bern",
                                  "Am Stedtfelder Weg 2, 99817 Eisenach",
                                  "Pärnu mnt 139c, 11317 Tallinn"])
def test_a_street_and_its_town_on_one_line_are_the_address(line: str) -> None:
    values = _stacked(["Empfänger:", "Labor Länggasse AG", line], 40, 300, 40, 30)
    assert values["ship_to_address_1"] == line


@pytest.mark.parametrize("phone", ["38067***5803", "138****5678", "+420 *** *** 318"])
def test_a_phone_with_its_middle_digits_masked_is_the_partys_phone(phone: str) -> None:
    values = _stacked(["Deliver To:", "Olena Kovalenko", phone, "Sumska St 9", "61000 Kharkiv"],
                      40, 300, 40, 30)
    assert values["ship_to_phone"] == phone
    assert values["ship_to_address_1"] == "Sumska St 9"


def test_a_country_ending_the_other_column_is_not_this_towns() -> None:
    # The recipient's block ends with its country level with the sender's town line.
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO20,20^A0N,20,20^FDFROM:^FS"
                     "^FO20,46^A0N,22,22^FDCEDARLINE HOME GOODS^FS"
                     "^FO20,72^A0N,22,22^FD2201 E Valley Rd Dock 9^FS"
                     "^FO20,96^A0N,22,22^FDRenton, WA 98057^FS"
                     "^FO420,20^A0N,20,20^FDSHIP TO:^FS"
                     "^FO420,46^A0N,22,22^FDAmazon.com Services^FS"
                     "^FO420,72^A0N,22,22^FDHebron, KY 41048-9122^FS"
                     "^FO420,96^A0N,22,22^FDUS^FS^XZ")
    assert values["ship_to_country"] == "US"
    assert "ship_from_country" not in values


def test_a_phone_under_its_caption_after_the_town_is_no_town_line() -> None:
    values = _stacked(["Destinatário:", "Marcenaria Bom Lar Ltda ME",
                       "Rua Prof. Pedro Viriato, 3901", "81200-100  Curitiba/PR",
                       "Fone (41) 3027-5518"], 20, 458, 44, 30)
    assert values["ship_to_postal_city"] == "81200-100  Curitiba/PR"


@pytest.mark.parametrize("line", ["Kontakt: +49 541 90876-0 / wareneingang@hafen.de",
                                  "Avis: 02305 97 41 80"])
def test_a_contact_or_notice_that_is_a_phone_number_is_the_partys_phone(line: str) -> None:
    values = _values(on_a_parcel(f"^FO40,335^A0N,24,24^FD{line}^FS"))
    assert values["ship_to_phone"] == line.split(": ", 1)[1]


@pytest.mark.parametrize("street", ["Erlaaer Straße 71/4/12", "Wiener Str. 5/2/7",
                                    "Hamburger Weg 12"])
def test_a_street_named_by_a_word_of_its_kind_is_an_address_line(street: str) -> None:
    # (an Austrian stair and door after the house number reads like a date: it is not one)
    values = _stacked(["Empfänger", "Markus Pöltl", street, "1230 Wien"], 80, 200, 50, 40)
    assert values["ship_to_address_1"] == street


@pytest.mark.parametrize(("line", "name"), [("Code client : 0493 1187", "customer_number"),
                                             ("Kunden-Nr.: 0711 443 29", "customer_number")])
def test_a_number_its_caption_names_is_no_phone_however_it_looks(line: str, name: str) -> None:
    values = _values(on_a_parcel(f"^FO40,360^A0N,24,24^FD{line}^FS"))
    assert values[name] == line.split(": ", 1)[1]


@pytest.mark.parametrize("line", ["Départ 13h40", "Vertrek 08h15"])
def test_an_unknown_word_before_a_value_of_a_known_kind_gives_way_to_it(line: str) -> None:
    assert _one_line(line) == {"time": line}


@pytest.mark.parametrize("line", ["z 4", "de 240", "of 12", "von 5"])
def test_the_total_of_a_count_on_a_line_of_its_own_is_data(line: str) -> None:
    assert _one_line(line) == {"piece_count": line}


def test_a_zone_letter_and_number_is_no_total() -> None:
    assert "piece_count" not in _one_line("Z 27")


def test_captions_printed_a_character_a_line_name_the_blocks_beside_them() -> None:
    # (Japanese "お届け先" and "ご依頼主" stacked down the left edge of each block; the
    # recipient's honorific in a field of its own, the sender's block without one)
    stack = "".join(f"^FO30,{top + 48 * i}^AJN,40,40^FR^FD{char}^FS"
                    for top, word in ((360, "お届け先"), (676, "ご依頼主"))
                    for i, char in enumerate(word))
    values = _values("^XA^CI28^PW812^LL1218" + stack +
                     "^FO104,344^AJN,32,32^FD〒160-0023^FS"
                     "^FO104,384^AJN,36,36^FD東京都新宿区西新宿3-7-1^FS"
                     "^FO104,426^AJN,36,36^FD新宿パークタワー12F^FS"
                     "^FO104,524^AJN,58,58^FD山田 花子^FS^FO440,536^AJN,44,44^FD様^FS"
                     "^FO104,602^AJN,30,30^FDTEL 03-5321-8870^FS"
                     "^FO104,676^AJN,26,26^FD〒530-0001 大阪府大阪市北区梅田1-2-3^FS"
                     "^FO104,710^AJN,30,30^FD有限会社 北浜雑貨^FS"
                     "^FO104,750^AJN,26,26^FDTEL 06-6345-1120^FS^XZ")
    assert values["ship_to_name"] == "山田 花子"
    assert values["ship_to_address_1"] == "東京都新宿区西新宿3-7-1"
    assert values["ship_from_name"] == "有限会社 北浜雑貨"
    assert values["ship_from_phone"] == "06-6345-1120"


def test_a_japanese_time_slot_under_its_caption_is_the_delivery_time() -> None:
    values = _values("^XA^CI28^PW812^LL609^FO420,256^AJN,22,22^FD時間帯指定^FS"
                     "^FO420,290^AJN,48,46^FD14時～16時^FS^XZ")
    assert values == {"delivery_time": "14時～16時"}


@pytest.mark.parametrize(("line", "name"), [
    ("ORIGIN ID:SANA  (858) 555-0133", "ship_from_phone"),  # as FedEx prints it
    ("ORIGIN ID: CHAA  (630) 555-0182", "ship_from_phone"),
    ("ORIGIN ID: +34 974 19 98 16", "ship_from_phone"),
    ("ORIGIN ID:MEMA", "routing_code"),  # the station alone
])
def test_a_phone_after_the_origin_stations_code_is_the_senders(line: str, name: str) -> None:
    values = _values(on_a_parcel(f"^FO420,40^A0N,22,22^FD{line}^FS"))
    assert values.get(name) == line.split(":", 1)[1].strip()


@pytest.mark.parametrize(("corner", "name"), [
    ("Pin 400053", "ship_to_postal_code"),  # the recipient's code again, captioned
    ("Pin 400071", "routing_code"),  # another code: where the parcel is sorted
])
def test_a_captioned_postcode_repeated_in_the_corner_is_the_same(corner: str,
                                                                  name: str) -> None:
    # As the written dev_in_delhivery_cod: "Pin 400053" up by the carrier's name.
    values = _values("^XA^CI28^PW812^LL1218^FO560,64^A0N,30,30^FD" + corner + "^FS"
                     "^FO36,304^A0N,24,24^FDShip To:^FS"
                     "^FO36,330^A0N,30,30^FDRohan Venkatesh Kulkarni^FS"
                     "^FO36,366^A0N,26,26^FDFlat 704, Sai Darshan CHS, Off Veera Desai Road^FS"
                     "^FO36,400^A0N,26,26^FDAndheri West^FS"
                     "^FO36,434^A0N,26,26^FDMumbai, Maharashtra^FS"
                     "^FO36,490^A0N,26,26^FDPIN: 400053^FS^XZ")
    assert values.get("ship_to_postal_code") == "400053"
    assert values.get("routing_code") == ("400071" if name == "routing_code" else None)


@pytest.mark.parametrize("amount", ["385.000 VND", "1 250,00 DH", "120 MAD", "QAR 85.00"])
def test_a_sum_under_a_caption_naming_a_party_is_no_address(amount: str) -> None:
    # As the written dev_vn_ghn_cod: "Tiền thu Người nhận" (to collect from the
    # recipient) over the sum, in the currency's code.
    values = _values(on_a_parcel("^FO270,810^A0N,22,22^FDTiền thu Người nhận:^FS"
                                 f"^FO270,850^A0N,44,42^FD{amount}^FS"))
    assert amount in values.values()
    assert not any(name.startswith("ship_to_name") and value == amount
                   for name, value in values.items())


def test_an_indian_pin_code_under_its_caption_is_the_recipients_postcode() -> None:
    values = _values(on_a_parcel("^FO40,340^A0N,24,24^FDPIN^FS^FO40,370^A0N,30,30^FD560095^FS"))
    assert values["ship_to_postal_code"] == "560095"


def test_a_text_printing_a_field_of_a_2d_symbols_record_is_data() -> None:
    values = _values("^XA^CI28^PW812^LL1218^FO556,60^A0N,38,36^FDSOF-ML1^FS"
                     "^FO600,820^BQN,2,5^FDLA,611204873355|SOF-ML1|COD45.96EUR^FS^XZ")
    assert values.get("routing_code") == "SOF-ML1"


def _tag_of_goods(caption: str, code: str, barcode: str) -> str:
    """A tag on a unit of goods, with no recipient: what it is, its caption over a
    code and the code again in a barcode."""
    return ("^XA^CI28^PW812^LL1218"
            "^FO30,30^A0N,40,40^FDPINE VALLEY SAWMILL^FS"
            "^FO30,140^A0N,22,22^FDSPECIES^FS^FO30,170^A0N,40,40^FDHEMLOCK^FS"
            "^FO30,260^A0N,22,22^FDGRADE^FS^FO30,290^A0N,40,40^FDSTD & BTR^FS"
            f"^FO30,400^A0N,22,22^FD{caption}^FS^FO30,430^A0N,44,44^FD{code}^FS"
            f"^FO60,520^BY3^BCN,120,N^FD{barcode}^FS^XZ")


@pytest.mark.parametrize("caption, name", [("BUNDLE NO.", "bundle_number"),
                                           ("ASSET NO.", "asset_number")])
def test_a_parcel_number_by_its_shape_alone_off_a_parcel_is_what_its_caption_says(
        caption: str, name: str) -> None:
    # "0526-1130-0105" happens to pass a carrier's check digit; on goods that go to no
    # recipient, the caption over it names it, and the barcode that holds it.
    values = _values(_tag_of_goods(caption, "0526-1130-0105", "052611300105"))
    assert values[name] == "0526-1130-0105"
    assert values[f"{name}_2"] == "052611300105"
    assert "tracking_number" not in values


def test_a_postcode_shaped_number_on_a_label_with_no_address_is_no_routing_code() -> None:
    # A sterilised tray goes to no one: "0388" beside "LOAD" is the load's number, not
    # a sort code, however much it looks like a postcode.
    values = _values("^XA^CI28^PW812^LL406"
                     "^FO20,20^A0N,30,30^FDSTERILE PROCESSING^FS"
                     "^FO20,70^A0N,24,24^FDBASIC SUTURE SET^FS"
                     "^FO20,120^A0N,18,18^FDLOAD^FS^FO90,118^A0N,22,22^FD0388^FS"
                     "^FO20,160^A0N,18,18^FDEXPIRES^FS^FO120,158^A0N,22,22^FD03/14/2027^FS"
                     "^XZ")
    assert values["load_number"] == "0388"
    assert "routing_code" not in values


@pytest.mark.parametrize("line", ["Preparado: 24/11/2026 21:47  Operario: M. Ruiz",
                                  "Kontrolliert: 2026-11-19 / Linie 2"])
def test_a_date_after_a_caption_of_no_known_meaning_is_a_date(line: str) -> None:
    assert _one_line(line) == {"date": line.split(" ", 1)[1].strip()}


@pytest.mark.parametrize(("line", "name"), [
    ("Livraison : vendredi 27/11/2026 avant 6h", "delivery_date"),
    ("Ausgabe: Dienstag 24.11.2026, 2. Schicht", "date"),
])
def test_a_day_of_the_week_before_a_date_leaves_it_a_date(line: str, name: str) -> None:
    assert _one_line(line) == {name: line.split(":", 1)[1].strip()}


@pytest.mark.parametrize(("line", "name"), [
    ("geldig t/m 06-12-2026", "valid_until"),  # the word of an event says which date
    ("Gepickt 26/11 14:32", "date"),
    ("Kaiserstraße 42/3/14", None),  # stair and door of a house, no date
])
def test_a_word_of_no_known_meaning_before_a_date_names_no_field(line: str,
                                                                  name: str | None) -> None:
    names = list(_one_line(line))
    assert (name in names) if name else ("date" not in names)


@pytest.mark.parametrize("code", ["R41 04", "0418 - 51", "147 MID 063", "D0105 RIX-S4"])
def test_a_short_grouped_code_without_caption_on_a_parcel_is_its_sort_code(code: str) -> None:
    values = _values(on_a_parcel(f"^FO500,60^A0N,32,32^FD{code}^FS"))
    assert values.get("routing_code") == code


@pytest.mark.parametrize("code", ["ZB 4712", "HU 1134", "K 2201"])
def test_a_sort_code_of_capitals_and_four_digits_is_no_postcode_and_town(code: str) -> None:
    # Two capitals name no town: a carrier's district or depot, not "4712 ZB".
    values = _values(on_a_parcel(f"^FO500,60^A0N,32,32^FD{code}^FS"))
    assert values.get("routing_code") == code


@pytest.mark.parametrize(("caption", "town", "name"), [
    ("Lähettäjä", "20540 TURKU", "ship_from_postal_city"),
    ("Feladó:", "6720 Szeged", "ship_from_postal_city"),
    ("Destinataire :", "69002 Lyon", "ship_to_postal_city"),
])
def test_a_town_line_after_a_partys_name_and_a_fixed_street_is_that_partys(
        caption: str, town: str, name: str) -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO40,40^A0N,24,24^FD" + caption + "^FS"
           "^FO40,70^A0N,30,30^FDNorrskog Design Oy^FS^FO40,250^A0N,30,30^FDRuukinkatu 4^FS"
           "^FO40,430^A0N,30,30^FD" + town + "^FS^XZ")
    assert _values(zpl).get(name) == town


def test_an_indian_town_with_its_pin_after_a_dash_is_the_town_line() -> None:
    values = _stacked(["From:", "Kavya Home Decor Pvt Ltd", "B-62, Okhla Industrial Area",
                       "New Delhi - 110020"], 20, 900, 28, 24)
    assert values.get("ship_from_postal_city") == "New Delhi - 110020"


def test_a_tracking_caption_with_a_hash_names_a_number_led_by_its_carriers_letters() -> None:
    values = _values(on_a_parcel("^FO40,900^A0N,24,24^FDTRACKING # BC 4471 0928 336^FS"))
    assert "TRACKING # BC 4471 0928 336".endswith(values.get("tracking_number", "?"))


@pytest.mark.parametrize(("caption", "order", "count", "code"), [
    ("PO NO", "4500718263", "37 / 120", "4500718263037"),
    ("PEDIDO", "7300248815", "4 / 11", "B7300248815004"),
    ("ORDER", "SO-0098214", "2 OF 5", "SO0098214-02")])
def test_a_barcode_of_the_order_and_the_cartons_place_in_the_count_is_its_carton_id(
        caption: str, order: str, count: str, code: str) -> None:
    # As the written dev_tr_tekstil_ihracat_koli and dev_es_caja_tienda_pedido.
    zpl = ("^XA^CI28^PW812^LL1218^FO40,40^A0N,24,24^FDSHIP TO:^FS"
           "^FO40,70^A0N,30,30^FDNordic Home Textiles AB^FS"
           "^FO40,105^A0N,30,30^FDBox 1142, 501 11 Borås, SWEDEN^FS"
           f"^FO40,236^A0N,20,20^FD{caption}^FS^FO40,258^A0N,30,30^FD{order}^FS"
           f"^FO560,236^A0N,20,20^FDCTN^FS^FO560,258^A0N,30,30^FD{count}^FS"
           f"^FO60,620^BY3^BCN,120,N,N^FD{code}^FS^XZ")
    values = _values(zpl)
    assert values.get("carton_id") == code


def test_a_consignments_number_and_the_parcels_place_stays_its_tracking_number() -> None:
    # As the written dev_it_rete_pallet_bancale: a carrier's parcels are numbered alike.
    zpl = on_a_parcel("^FO40,400^A0N,30,30^FD2 di 3^FS"
                      "^FO80,600^BY3^BCN,120,N,N^FD0671420088314002^FS"
                      "^FO80,740^A0N,30,30^FD067-1420088314^FS")
    assert "carton_id" not in _values(zpl)


@pytest.mark.parametrize("owner", ["HARTWELL COUNTY LIBRARY", "Biblioteka Publiczna Gminy Las",
                                   "Stadtbibliothek Ulm"])
def test_a_barcode_on_a_librarys_label_is_the_items_barcode(owner: str) -> None:
    # As the written dev_en_library_item_barcode_label and dev_pl_biblioteka_rezerwacja.
    zpl = (f"^XA^CI28^PW812^LL406^FO14,12^A0N,24,24^FD{owner}^FS"
           "^FO14,38^BY2^BCN,70,N,N^FD31234001873265^FS"
           "^FO14,114^A0N,22,22^FD3 1234 00187 3265^FS"
           "^FO14,144^A0N,20,20^FDMexico: the cookbook / Margarita Carrillo^FS^XZ")
    values = _values(zpl)
    assert values.get("item_barcode") == "31234001873265"
    assert values.get("item_barcode_2") == "3 1234 00187 3265"


@pytest.mark.parametrize("stack", [["641.5945", "HAZ", "2019", "c.2"], ["FIC", "ERD", "2026"],
                                   ["823.914", "ORW"]])
def test_the_parts_stacked_on_a_librarys_spine_label_are_the_call_number(
        stack: list[str]) -> None:
    # As the spine label, the book pocket and the item's label: the class, the author's
    # letters, the year and the copy, one under another; the shelf's note is no part.
    zpl = ("^XA^CI28^PW812^LL406^FO146,10^A0N,20,20^FDRiverside Public Library^FS"
           + "".join(f"^FO20,{20 + 38 * i}^A0N,30,30^FD{part}^FS" for i, part in enumerate(stack))
           + "^FO20,300^A0N,22,22^FDOVERSIZE^FS^XZ")
    values = _values(zpl)
    assert [v for k, v in values.items() if k.startswith("call_number")] == stack


@pytest.mark.parametrize(("company", "person"), [
    ("Vormann Elektrotechnik GmbH", "Jens Albers"),
    ("Distribuciones Romero, S.L.", "Francisco Javier Ruiz Ortega"),
    ("Apotheke Bärenplatz AG", "Dr. Miriam Gerber"),
    ("Kuciak s.c.", "Ksawery Gasik"),  # legal forms of more countries
    ("Farmacia San Lorenzo SNC", "Lukas de Keijzer"),
])
def test_a_persons_name_under_a_companys_is_the_contact(company: str, person: str) -> None:
    values = _stacked(["Empfänger:", company, person, "Hafenstraße 112", "28217 Bremen"],
                      40, 200, 35, 30)
    assert values.get("ship_to_name") == company
    assert values.get("ship_to_contact") == person


@pytest.mark.parametrize(("company", "person"), [
    ("Andersson & Johansson HB", "Abbas Nilsson Andersson"),  # a firm of its partners
    ("Foster, Harris and Meyers", "Melissa Johnson"),
    ("Cabinet Fiduciaire Weber & Associés", "Mikaela Johnsson-Olsson"),
    ("Vormann Elektrotechnik GmbH", "Brian Green-Briggs"),  # a hyphenated surname
    ("Spedition Kühne KG", "Ida-Andrea Thorsen"),  # and given name
])
def test_a_person_under_a_firm_of_partners_is_the_contact(company: str, person: str) -> None:
    values = _stacked(["Empfänger:", company, person, "Hafenstraße 112", "28217 Bremen"],
                      40, 200, 35, 30)
    assert values.get("ship_to_name") == company
    assert values.get("ship_to_contact") == person


def test_a_couple_is_no_firm() -> None:
    values = _stacked(["Empfänger:", "Mr & Mrs Kent", "Jens Albers", "Hafenstraße 112",
                       "28217 Bremen"], 40, 200, 35, 30)
    assert "ship_to_contact" not in values


@pytest.mark.parametrize(("captions", "block"), [
    (("Artikel", "Legering", "Ytbeh.", "Längd"), False),  # a bundle's column of captions
    (("Bauteil", "Werkstoff", "Oberfl.", "Länge:"), False),
    (("", "", "", ""), True),  # the same lines alone: a name, streets and a town
])
def test_values_each_beside_a_word_of_caption_are_no_address(captions: tuple[str, ...],
                                                              block: bool) -> None:
    # As the written dev_sv_aluminium_profilbunt: a column of values, each after its
    # caption on its line; the last ("6000 mm") only looks like a postcode and town.
    lines = ("NF-40118 Profil Nord", "Industrigatan 12", "Hus B Plan 3", "6000 Motala")
    zpl = "^XA^CI28^PW812^LL812" + "".join(
        (f"^FO35,{192 + 44 * i}^A0N,24,24^FD{caption}^FS" if caption else "")
        + f"^FO200,{188 + 44 * i}^A0N,30,30^FD{value}^FS"
        for i, (caption, value) in enumerate(zip(captions, lines, strict=True))) + "^XZ"
    values = _values(zpl)
    assert any(name.startswith("ship_to_") for name in values) is block


def test_a_street_under_a_companys_name_is_no_contact() -> None:
    values = _stacked(["Deliver to:", "McCabe Pharmacy Ltd", "Main Street", "Kilcock",
                       "Co. Kildare", "W23 X2T6"], 40, 200, 35, 30)
    assert "ship_to_contact" not in values


@pytest.mark.parametrize("line", ["Mailed from ZIP 97209", "From 78704", "Mailed from 10025",
                                  "Shipped from: SW1A 1AA"])
def test_a_postcode_after_from_is_the_senders_postcode(line: str) -> None:
    values = _values(on_a_parcel(f"^FO400,40^A0N,22,22^FDUS POSTAGE PAID^FS"
                                 f"^FO400,70^A0N,22,22^FD{line}^FS"))
    assert line.endswith(values.get("ship_from_postal_code") or "(none)")


@pytest.mark.parametrize("line", ["Bairro: Sumaré", "Short Address: RAKA4381"])
def test_a_line_of_an_unknown_caption_inside_a_block_is_an_address_line(line: str) -> None:
    values = _stacked(["Consignee:", "Juliana Ferreira Costa", "Rua Doutor Arnaldo, 1180", line,
                       "01255-000  São Paulo - SP"], 40, 200, 36, 30)
    assert line.split(": ")[1] in [value for name, value in values.items()
                                   if name.startswith("ship_to_address")]


@pytest.mark.parametrize(("caption", "place", "name"), [
    ("DESTINO / DESTINATION", "HAMBURG - GERMANY", "destination"),
    ("TO", "PARIS CDG FRCDGA", "destination"),
    ("FROM", "FRANKFURT DEFRAA", "origin"),
    ("Destination:", "Shanghai, China", "destination"),
    ("FROM", "CPH", "routing_code")])
def test_a_place_alone_under_a_party_caption_is_where_the_goods_travel(
        caption: str, place: str, name: str) -> None:
    values = _values(f"^XA^CI28^PW812^LL1218^FO40,100^A0N,22,22^FD{caption}^FS"
                     f"^FO40,130^A0N,30,30^FD{place}^FS"
                     "^FO40,400^A0N,30,30^FDSPEC 3127^FS^XZ")
    assert values.get(name) == place
    assert not any(key.startswith(("ship_to", "ship_from")) for key in values)


def test_a_place_after_its_caption_over_the_consignee() -> None:
    values = _values("^XA^CI28^PW812^LL1218"
                     "^FO30,512^A0N,28,28^FDDestination: Jeddah, Kingdom of Saudi Arabia^FS"
                     "^FO30,548^A0N,28,28^FDConsignee: Al Waha Food Industries Co.^FS^XZ")
    assert values.get("destination") == "Jeddah, Kingdom of Saudi Arabia"


def test_a_bag_tags_number_stays_a_parcels_number_beside_its_airports() -> None:
    values = _values("^XA^CI28^PW812^LL1218^FO20,246^A0N,22,20^FDFROM^FS"
                     "^FO100,242^A0N,32,30^FDLYS^FS^FO100,282^A0N,30,28^FD19 KG^FS"
                     "^FO40,420^BY3^B2N,200,N,N,N^FD0057481229^FS^XZ")
    assert values.get("routing_code") == "LYS"
    assert values.get("tracking_number") == "0057481229"


def test_a_number_after_ph_is_the_partys_phone_not_an_acidity() -> None:
    values = _values(on_a_parcel("^FO40,335^A0N,30,30^FDPh: 944 72 452^FS"))
    assert values.get("ship_to_phone") == "944 72 452"


@pytest.mark.parametrize("caption", ["STORE", "MAGASIN / STORE", "MARK FOR STORE / MAGASIN"])
def test_a_number_alone_under_a_store_caption_is_the_stores_number(caption: str) -> None:
    values = _stacked([caption, "0287"], 30, 116, 26, 24)
    assert values.get("store_number") == "0287"
    assert "mark_for_name" not in values


def test_korean_parcel_captions_name_both_parties_and_the_bracketed_postcode() -> None:
    # As the probe dev_kr_lotte_courier: "받는분" and "보내는분" beside their blocks.
    values = _values("^XA^CI28^PW812^LL1015^FO20,214^A0N,26,24^FD받는분^FS"
                     "^FO150,210^A0N,40,38^FD김민지^FS"
                     "^FO150,260^A0N,32,30^FD서울특별시 송파구 올림픽로 300^FS"
                     "^FO150,344^A0N,28,26^FD(05551)^FS^FO20,390^GB772,0,3^FS"
                     "^FO20,404^A0N,26,24^FD보내는분^FS^FO150,404^A0N,28,26^FD(주)한빛리빙^FS"
                     "^FO150,440^A0N,24,22^FD경기도 성남시 분당구 판교로 242^FS^XZ")
    assert values.get("ship_to_name") == "김민지"
    assert values.get("ship_to_postal_code") == "(05551)"
    assert values.get("ship_from_name") == "(주)한빛리빙"


def test_a_caption_printed_a_character_a_line_names_a_block_without_an_honorific() -> None:
    # As the probe dev_kr_cj_logistics_taekbae: "받/는/분" down the block's left edge.
    values = _values("^XA^CI28^PW812^LL1015^FO30,270^A0N,30,30^FD받^FS"
                     "^FO30,330^A0N,30,30^FD는^FS^FO30,390^A0N,30,30^FD분^FS"
                     "^FO96,254^A0N,40,40^FD한지민^FS"
                     "^FO96,306^A0N,32,32^FD서울특별시 강남구 테헤란로 152^FS"
                     "^FO96,394^A0N,24,24^FD(06236)^FS^XZ")
    assert values.get("ship_to_name") == "한지민"
    assert values.get("ship_to_address_1") == "서울특별시 강남구 테헤란로 152"


@pytest.mark.parametrize("caption", ["收货人 CONSIGNEE:", "CONSIGNEE 收货人", "荷受人 CONSIGNEE"])
def test_a_caption_in_two_scripts_without_a_slash_names_its_party(caption: str) -> None:
    values = _stacked([caption, "NORDHOLM TRADING AB", "HAMNGATAN 18", "211 22 MALMÖ"],
                      20, 104, 34, 28)
    assert values.get("ship_to_name") == "NORDHOLM TRADING AB"


def test_a_contact_beside_the_postcode_is_no_town() -> None:
    # As the probe dev_ca_ltl_pallet_bilingual: "Att: ..." right of "H7L 4S3".
    values = _values("^XA^CI28^PW812^LL1218^FO24,262^A0N,22,22^FDCONSIGNEE^FS"
                     "^FO24,290^A0N,30,30^FDDistribution Québec Nord Inc.^FS"
                     "^FO24,336^A0N,30,30^FD2250 boul. Industriel, porte 14^FS"
                     "^FO24,374^A0N,30,30^FDLaval QC^FS^FO24,414^A0N,34,34^FDH7L 4S3^FS"
                     "^FO400,418^A0N,26,26^FDAtt: Réception / Receiving^FS^XZ")
    assert values.get("ship_to_contact") == "Réception / Receiving"
    assert values.get("ship_to_postal_code") == "H7L 4S3"


@pytest.mark.parametrize(("lines", "contact"), [
    (["Empfänger", "Löwen-Apotheke am Stadtpark", "Inh. Dr. Miriam Assmann e. K.",
      "Bahnhofstraße 22", "34117 Kassel"], "Inh. Dr. Miriam Assmann e. K."),
    (["Príjemca", "Lekáreň Pod Hradom", "Mgr. Lucia Horváthová", "Hlinkova 1882/14",
      "010 01 Žilina"], "Mgr. Lucia Horváthová")])
def test_a_pharmacys_owner_or_pharmacist_under_its_name_is_the_contact(
        lines: list[str], contact: str) -> None:
    assert _stacked(lines, 40, 100, 36, 28).get("ship_to_contact") == contact


@pytest.mark.parametrize("street", ["Mühleweg 7491", "Fritschstr. 1992"])
def test_a_street_with_a_four_digit_house_number_is_no_postcode_line(street: str) -> None:
    # A block with no town line, as the Korean and Ukrainian senders' blocks print it.
    values = _stacked(["Absender", "Marian Bohlander", street, "Tel. 0993 056750"],
                      40, 400, 36, 26)
    assert values.get("ship_from_address_1") == street


def test_a_form_of_captioned_address_parts_takes_the_party_of_its_block() -> None:
    # As the probe dev_ar_courier_pampa_domicilio: captions down the left, values right.
    rows = [("Destinatario:", "María Belén Quiroga"), ("Domicilio:", "Av. Colón 1452, Piso 3"),
            ("Localidad:", "Córdoba Capital, Córdoba"), ("CPA:", "X5004FHJ")]
    values = _values("^XA^CI28^PW812^LL1218" + "".join(
        f"^FO30,{206 + 44 * i}^A0N,24,24^FD{caption}^FS^FO210,{202 + 44 * i}^A0N,28,28^FD{value}^FS"
        for i, (caption, value) in enumerate(rows)) + "^XZ")
    assert values.get("ship_to_address") == "Av. Colón 1452, Piso 3"
    assert values.get("ship_to_city") == "Córdoba Capital, Córdoba"
    assert values.get("ship_to_postal_code") == "X5004FHJ"


def test_the_one_uncaptioned_block_under_a_captioned_recipient_is_the_senders() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO130,200^A0N,24,24^FDEMPFÄNGER^FS"
           "^FO130,232^A0N,32,32^FDPraxis Dr. med. Lüthi^FS"
           "^FO130,276^A0N,32,32^FDMarktgasse 29^FS^FO130,312^A0N,32,32^FD3011 Bern^FS"
           "^FO36,606^A0N,26,26^FDLabor Länggasse AG^FS"
           "^FO36,640^A0N,26,26^FDFabrikstrasse 8^FS^FO36,674^A0N,26,26^FD3012 Bern^FS^XZ")
    values = _values(zpl)
    assert values.get("ship_to_name") == "Praxis Dr. med. Lüthi"
    assert values.get("ship_from_name") == "Labor Länggasse AG"
    assert values.get("ship_from_postal_city") == "3012 Bern"


@pytest.mark.parametrize(("field", "code"), [
    ("^FO420,700^A0N,30,30^FD(06236)^FS", "(06236)"),
    ("^FO420,120^A0N,30,30^FD〒150-0012^FS", "〒150-0012"),
])
def test_a_marked_postcode_on_its_own_is_the_nearest_partys(field: str, code: str) -> None:
    values = _values(on_a_parcel("^FO420,600^A0N,28,28^FD010-4823-1957^FS" + field))
    assert values.get("ship_to_postal_code") == code


def _with_stray_line(line: str, fields: str = "") -> dict[str, str]:
    """``line`` alone in mid-label, under an order number and beside a weight."""
    return _values("^XA^CI28^PW812^LL1218^FO40,40^A0N,28,28^FDOrder: 7781240^FS"
                   "^FO40,120^A0N,24,24^FDWeight: 12,5 kg^FS"
                   f"^FO300,600^A0N,30,30^FD{line}^FS{fields}^XZ")


@pytest.mark.parametrize("line", [
    "Mühlgasse 17", "Korsvägen 41", "רחוב ויצמן 40", "大阪府堺市北区中百舌鳥町5-1",
    "세종빌딩 8층 803호", "al. Niepodległości 118/4", "os. Kopernika 17/32"])
def test_a_lone_street_line_is_the_recipients_address(line: str) -> None:
    assert _with_stray_line(line).get("ship_to_address") == line


@pytest.mark.parametrize("line", ["Calle Mayor 212, 28013 Madrid",
                                  "Fredrikinkatu 22, 00120 Helsinki"])
def test_a_lone_street_line_beside_a_recipients_block_is_the_senders(line: str) -> None:
    values = _values(on_a_parcel(f"^FO420,700^A0N,30,30^FD{line}^FS"))
    assert values.get("ship_from_address") == line


@pytest.mark.parametrize(("street", "town"), [
    ("14 quai Jean Moulin", "69002 Lyon"), ("3 PLACE DU CONCERT", "59800 LILLE"),
    ("Hagenstraße 57", "4040 Linz"), ("Storgatan 5", "165 18 Örebro")])
def test_a_lone_town_line_under_a_lone_street_closes_the_recipients_address(
        street: str, town: str) -> None:
    values = _with_stray_line(street, f"^FO300,636^A0N,30,30^FD{town}^FS")
    assert values.get("ship_to_address") == street
    assert values.get("ship_to_postal_city") == town


@pytest.mark.parametrize("line", ["Ala Norte - Edifício C, Piso 3", "VIA GENOVA - TORONTO",
                                  "NO GLUTEN / NO DAIRY"])
def test_a_line_without_a_street_and_its_number_is_no_address(line: str) -> None:
    assert not any("address" in name for name in _with_stray_line(line))


def test_a_bracketed_postcode_is_the_postcode_of_the_party_above_it() -> None:
    zpl = ("^XA^CI28^PW812^LL1218^FO420,214^A0N,28,28^FD010-5531-2087^FS"
           "^FO150,344^A0N,28,28^FD(04524)^FS"
           "^FO420,404^A0N,28,28^FD02-3345-7781^FS^FO150,500^A0N,28,28^FD[13487]^FS^XZ")
    values = _values(zpl)
    assert values.get("ship_to_postal_code") == "(04524)"
    assert values.get("ship_from_postal_code") == "[13487]"


def test_a_stack_with_a_date_or_a_measure_is_no_address() -> None:
    # a reagent's identifier, dates, who made it and how much: "1000 mL" reads like a
    # postcode and its town, but a measure or a date is no line of an address
    values = _stacked(["RGT-2611-0417", "24-NOV-2026", "24-FEB-2027", "M. Chen (MC)",
                       "1000 mL"], 150, 122, 30, 22)
    assert not any(name.startswith("ship_") for name in values)
    assert values["quantity"] == "1000 mL"


def test_a_caption_of_four_known_words_names_the_large_number_under_it() -> None:
    # as an air cargo piece label: the pieces' total printed large under its caption
    values = _values(
        "^XA^PW812^LL1218^FO24,160^A0N,20,20^FDDESTINATION^FS^FO24,182^A0N,80,80^FDORD^FS"
        "^FO330,160^A0N,20,20^FDTOTAL NO. OF PIECES^FS^FO330,186^A0N,80,80^FD12^FS^XZ")
    assert values.get("piece_count") == "12"


@pytest.mark.parametrize(("caption", "name"), [
    ("Bunt nr", "bundle_number"),  # Swedish: the bundle's number
    ("Bundle No", "bundle_number"),  # (a caption of the vocabulary did so already)
    ("Coil No.", "coil_number")])
def test_a_glossary_caption_of_a_number_names_the_code_printed_large_beside_it(
        caption: str, name: str) -> None:
    # As the written dev_sv_aluminium_profilbunt: a bundle's number printed large beside
    # its caption, on a label of goods, is no sort code.
    rows = [("Artikel", "NF-40118 L-profil 40x20x2"), ("Legering", "EN AW-6063 T6"),
            ("Ytbeh.", "anodiserad E6/EV1 20 µm"), ("Längd", "6000 mm")]
    values = _values("^XA^CI28^PW812^LL812^FO35,30^A0N,42,40^FDNORRFORS ALUMINIUM AB^FS"
                     f"^FO35,120^A0N,24,22^FD{caption}^FS^FO200,112^A0N,56,50^FD2611-08842^FS"
                     + "".join(f"^FO35,{192 + 44 * i}^A0N,24,22^FD{row}^FS"
                               f"^FO200,{188 + 44 * i}^A0N,32,30^FD{value}^FS"
                               for i, (row, value) in enumerate(rows)) + "^XZ")
    assert values[name] == "2611-08842"


def test_a_code_printed_large_again_is_the_number_its_caption_named() -> None:
    # As the written dev_fi_terasrulla_kelalappu: the coil's number under "KELANRO" and
    # again, as large, down the tag's edge, is no sort code there.
    values = _values("^XA^CI28^PW812^LL812^FO36,32^A0N,34,32^FDPOHJOLAN TERÄS OY^FS"
                     "^FO36,112^AFN,26,13^FDKELANRO^FS^FO36,140^A0N,70,64^FDK26-418837^FS"
                     "^FO36,234^A0N,22,20^FDLAATU^FS^FO36,262^A0N,34,32^FDS355MC^FS"
                     "^FO716,110^A0R,72,64^FDK26-418837^FS^XZ")
    assert values["coil_number"] == values["coil_number_2"] == "K26-418837"


@pytest.mark.parametrize(("caption", "value", "name"), [
    ("お客様管理番号:", "HMZ-20261125-0087", "reference"),  # the customer's control number
    ("製造ロット番号:", "L2611-04", "lot_number"),  # the making's lot number
])
def test_a_japanese_compound_caption_is_named_by_its_ending(caption: str, value: str,
                                                           name: str) -> None:
    # As the written dev_jp_sagawa_ehiden_haitatsu_shitei: a caption not known whole is
    # named by the caption it ends in, as Japanese and Chinese compounds are built.
    assert _one_line(f"{caption} {value}") == {name: value}


@pytest.mark.parametrize(("caption", "store"), [
    ("STORE / MAGASIN", True), ("MARK FOR STORE", True), ("Filiale", True),
    ("ROUTE / STOP", False)])
def test_a_bare_number_under_a_stores_caption_is_the_store_number(caption: str,
                                                                  store: bool) -> None:
    # As the written dev_ca_bilingual_retail_carton_store and us_dc_store_delivery_carton:
    # a distribution centre's carton goes to store "0287", no party's name or postcode.
    values = _values("^XA^CI28^PW812^LL1218^FO20,20^A0N,28,26^FDFROM: DC 6022 WAYNESBORO VA^FS"
                     f"^FO40,200^A0N,24,22^FD{caption}^FS^FO40,230^A0N,60,50^FD0287^FS^XZ")
    assert (values.get("store_number") == "0287") is store


@pytest.mark.parametrize(("caption", "name"), [
    ("Trommel-Nr.", "drum_number"), ("ECHANTILLON", "specimen_id")])
def test_a_code_printed_again_takes_the_name_of_its_first_printing(caption: str,
                                                                   name: str) -> None:
    # As the written dev_fr_prelevement_eau_laboratoire: the sample's number under its
    # caption, and again in a corner with nothing to name it.
    values = _values(f"^XA^CI28^PW812^LL812^FO10,60^A0N,22,20^FD{caption}^FS"
                     "^FO200,60^A0N,40,36^FDT14-07731^FS"
                     "^FO600,700^A0N,20,18^FDT14-07731^FS^XZ")
    assert values.get(name) == values.get(f"{name}_2") == "T14-07731"


def test_a_caption_over_a_barcodes_printed_form_names_the_barcode_too() -> None:
    # As the written dev_en_lockout_tagout_danger_tag: "L-0392" only looks like a
    # postcode; the caption over its printed form says it is the lock's number.
    values = _values("^XA^CI28^PW812^LL1218^FO30,60^A0N,60,50^FDDANGER^FS"
                     "^FO30,916^A0N,22,20^FDLOCK NO.^FS^FO30,944^A0N,40,36^FDL-0392^FS"
                     "^FO300,916^BY2^BCN,70,N,N,N^FDL-0392^FS^XZ")
    assert values == {"lock_number": "L-0392"}


@pytest.mark.parametrize(("caption", "name"), [
    ("SERIAL NUMBER (S)", "serial_number"), ("PART NO. (P)", "part_number")])
def test_a_caption_with_its_data_identifier_names_the_barcode_under_it(caption: str,
                                                                       name: str) -> None:
    # As the written dev_us_electronics_asset_receiving: on an asset's label the
    # caption over the bars says which of its numbers they hold.
    values = _values("^XA^CI28^PW812^LL812^FO36,28^A0N,34,32^FDRECEIVED - IT ASSET^FS"
                     f"^FO20,192^A0N,20,18^FD{caption}^FS"
                     "^FO20,214^BY2^B3N,N,60,N,N^FD7HQK9Z3^FS^XZ")
    assert values.get(name) == "7HQK9Z3"


@pytest.mark.parametrize(("line", "born"), [
    ("* 07.09.1968  w", True), ("*14.03.51 m", True), ("Serum 07.09.2026", False)])
def test_a_date_after_the_star_is_a_birth_date(line: str, born: bool) -> None:
    # As the written dev_de_laborprobe_roehrchen_serum: German hospitals print a
    # patient's birth date after a star, and the sex after it.
    values = _values("^XA^CI28^PW812^LL406^FO8,6^A0N,22,20^FDMüller-Lüdenscheidt, Karin^FS"
                     f"^FO8,30^A0N,18,18^FD{line}^FS^XZ")
    assert (values.get("date_of_birth") == line) is born


@pytest.mark.parametrize("caption", ["", "^FO560,60^A0N,22,22^FDVastaanottaja:^FS"])
def test_a_block_on_a_label_with_a_birth_date_is_the_patients(caption: str) -> None:
    # As the written dev_fi_apteekki_annosteluohje: a pharmacy's dispensing label, a
    # name over the drug and its pack, no party's caption; with one, a parcel's block.
    values = _values("^XA^CI28^PW812^LL406^FO20,16^A0N,26,26^FDKallion apteekki^FS"
                     "^FO20,104^A0N,32,30^FDLeppänen Aino Maria^FS"
                     "^FO560,110^A0N,22,22^FDs. 14.03.1952^FS"
                     "^FO20,150^A0N,26,26^FDMetoprolol Sandoz 47,5 mg depottabletti^FS"
                     "^FO20,186^A0N,26,26^FD100 fol  ·  Vnr 457512^FS" + caption + "^XZ")
    patient = values.get("patient_name") == "Leppänen Aino Maria"
    assert patient is not bool(caption)
    assert any(name.startswith("ship_to_address") for name in values) is bool(caption)


def test_a_caption_with_its_value_beside_it_does_not_name_the_bars_under_it() -> None:
    # As the written dev_ie_lab_specimen_tube: "MRN" captions the record number on
    # its line; the bars under it are the sample's.
    values = _values("^XA^CI28^PW812^LL406^FO8,6^A0N,22,20^FDMURPHY, Siobhan^FS"
                     "^FO8,32^A0N,18,16^FDMRN^FS^FO48,30^A0N,22,20^FD00841275^FS"
                     "^FO200,32^A0N,18,16^FDDOB^FS^FO240,30^A0N,22,20^FD14/03/1968^FS"
                     "^FO8,58^BY2^BCN,60,N,N,N^FDS26-3304871^FS"
                     "^FO8,124^A0N,20,18^FDS26-3304871^FS"
                     "^FO8,178^A0N,18,16^FDSt. James's Hospital - Ward 6B^FS^XZ")
    assert values.get("patient_id") == "00841275"
    assert values.get("specimen_id") == "S26-3304871"


@pytest.mark.parametrize(("caption", "name"), [
    ("N° fiche NC", "reference"), ("N.º tarefa", "reference"), ("Nr skrzyni", "reference"),
    ("Begleitschein-Nr.", "reference"), ("Hoja de conteo Nº", "reference"),
    ("Kit No.", "kit_number"), ("Set-nr", "set_number"),  # English words keep their name
])
def test_the_number_of_something_in_another_language_is_its_reference(caption: str,
                                                                       name: str) -> None:
    # As the written non-conformity and cycle count tags: the number under its caption.
    values = _values("^XA^CI28^PW812^LL406^FO30,30^A0N,40,40^FDQUARANTAINE^FS"
                     f"^FO30,120^A0N,24,24^FD{caption}^FS^FO30,150^A0N,28,28^FDNC-26-04117^FS"
                     "^XZ")
    assert values.get(name) == "NC-26-04117"


@pytest.mark.parametrize(("caption", "name"), [
    ("DEPARTAMENTO", "department"), ("ANFITRIÃO", "host"), ("Poste de charge", "description")])
def test_a_caption_of_another_language_names_the_words_under_it(caption: str, name: str) -> None:
    # As the written Portuguese visitor's pass: a caption the glossary knows, whole, over
    # a line of words; a caption only a word of which is known ("charge") may be a
    # maker's or a place's name, and names nothing.
    values = _values("^XA^CI28^PW812^LL609^FO20,20^A0N,26,26^FDLaboratórios Tágide, S.A.^FS"
                     "^FO556,24^A0N,28,28^FDVISITANTE^FS^FO556,58^A0N,26,26^FD25 NOV 2026^FS"
                     f"^FO420,266^A0N,20,20^FD{caption}^FS"
                     "^FO420,290^A0N,26,26^FDQualidade - Edifício B^FS^XZ")
    assert values.get(name) == "Qualidade - Edifício B"


@pytest.mark.parametrize("line", ["Nội dung hàng: Bộ ấm chén men lam 6 món",
                                  "Isi Kiriman: Kain batik tulis 2 lembar"])
def test_a_parcels_contents_are_captioned_in_the_carriers_language(line: str) -> None:
    # As Vietnamese and Indonesian carriers print what the parcel holds.
    values = _values(on_a_parcel(f"^FO40,420^A0N,26,26^FD{line}^FS"))
    assert values.get("description", "").endswith(line.split(": ")[1])


def test_a_number_inside_a_brazilian_access_key_keeps_its_own_caption() -> None:
    # The key holds the invoice's number ("000048217"); printed alone under its caption
    # it is that number, not the key.
    key = "35261127865412000140550010000482171739204810"
    zpl = ("^XA^CI28^PW812^LL1218^FO28,234^A0N,20,20^FDNÚMERO NF-e^FS"
           "^FO28,262^A0N,30,30^FD000.048.217^FS^FO28,744^A0N,20,20^FDCHAVE DE ACESSO^FS"
           f"^FO110,774^BY2^BCN,120,N^FD{key}^FS^XZ")
    values = ENGINE.synthesize(SynthesisRequest(zpl)).draft.values
    assert values.get("invoice") == "000.048.217"
    assert values.get("access_key") == key


@pytest.mark.parametrize(("line", "name"), [
    ("Noutopisteen tunnus 203418", "pickup_point"), ("Cert C26-3391", "certificate_number"),
    ("Req. nº 58213-1", "order_number")])
def test_two_words_of_a_known_caption_name_the_code_after_them(line: str, name: str) -> None:
    # The first word alone is unknown; with the word after it, the caption is known.
    assert _one_line(line).get(name) == line


@pytest.mark.parametrize(("caption", "value", "name"), [
    ("Delivery slot", "Thu 26 Nov  18:00-19:00", "delivery_date"),
    ("Créneau de livraison", "ven. 27/11 - 8h/13h", "delivery_date"),
    ("Delivery slot", "18:00-19:00", "time_slot")])  # (no day: the hours alone)
def test_a_slot_of_hours_on_a_day_is_the_date_of_its_event(caption: str, value: str,
                                                           name: str) -> None:
    # A grocery tote: the slot's caption over the day and the window of its hours.
    values = _values(
        "^XA^CI28^PW812^LL609^FO24,20^A0N,30,30^FDORDER 40017723^FS"
        f"^FO24,200^A0N,20,20^FD{caption}^FS^FO24,226^A0N,30,30^FD{value}^FS^XZ")
    assert {v: k for k, v in values.items()}.get(value) == name


@pytest.mark.parametrize(("line", "name"), [
    ("Startverzögerung: 30 min", "start_delay"), ("Duration: 45 min", "duration")])
def test_a_span_of_time_after_a_known_caption_is_what_the_caption_says(line: str,
                                                                      name: str) -> None:
    # As the written cold_chain_data_logger_label: the logger starts recording after
    # its delay; the value's shape alone only says it is a span of time.
    values = _one_line(line)
    assert values.get(name) == line.split(": ")[1]


@pytest.mark.parametrize(("line", "name"), [
    ("Skład: mąka żytnia typ 2000 (62%), woda, sól", "ingredients"),
    ("Zusammensetzung: Weizen, Gerste, Sojaschrot", "ingredients"),
    ("Skład: 100% bawełna", "material")])
def test_a_list_after_a_caption_of_what_goods_are_made_of_is_their_ingredients(
        line: str, name: str) -> None:
    # As the written dev_pl_etykieta_waga_piekarnia and es_pienso_vacuno_saco: bread and
    # feed list what they are made of; a fabric is one material.
    values = _one_line(line)
    assert values.get(name) == line.split(": ")[1]


@pytest.mark.parametrize(("caption", "code", "name"), [
    ("ID Pickup", "PT13487", "pickup_point_id"),
    ("Kods", "9135", "pickup_point_id"),
    ("Punt-ID", "2105473", "pickup_point_id"),
    ("Rota", "PT13487", "routing_code"),  # a route's caption: the sort code
])
def test_a_code_a_pickup_point_parcel_captions_as_an_id_is_the_points(
        caption: str, code: str, name: str) -> None:
    # As DPD Portugal's pickup label: the service's words, the recipient's block, the
    # pickup point's name and street, and its code printed large under its caption.
    values = _values(
        "^XA^CI28^PW812^LL1218^FO150,60^A0N,26,26^FDEntrega em Ponto Pickup^FS"
        "^FO20,240^A0N,24,24^FDPara / To:^FS^FO150,240^A0N,28,28^FDRita Carvalho Nunes^FS"
        "^FO150,276^A0N,24,24^FDRua de Santa Catarina 112^FS"
        "^FO150,306^A0N,24,24^FD4000-442 Porto^FS"
        f"^FO600,340^A0N,22,22^FD{caption}^FS^FO600,370^A0N,48,48^FD{code}^FS"
        "^FO110,676^BCN,200,N,N,N^FD09435103927118^FS^XZ")
    assert {key for key, value in values.items() if value == code} == {name}


@pytest.mark.parametrize(("sender", "recipient"), [
    ("NADAWCA: GOSP. SADOWNICZE KOWALCZYK", "ODBIORCA: HURTOWNIA OWOCÓW TARCZYN"),
    ("Absender: Obsthof Lindner", "Empfänger: Frischemarkt Ahrensburg"),
    ("From: Greenfield Farm", "To: Northside Market"),
], ids=lambda c: c)
def test_each_party_after_its_caption_on_lines_one_under_another(
        sender: str, recipient: str) -> None:
    # A crate's or a tote's two parties, each named after its caption on its own line
    # with no address: the second line starts the recipient's block, no line of the
    # sender's.
    values = _stacked(["Skrzynia zwrotna E2", sender, recipient, "CYKL: 37"], 200, 312, 30, 24)
    assert values["ship_from_name"] == sender.split(": ")[1]
    assert values["ship_to_name"] == recipient.split(": ")[1]


@pytest.mark.parametrize(("lines", "town", "code"), [
    (["DESTINATARIO", "Valentina Sepúlveda Araya", "Los Carrera 1475, depto. 302",
      "Concepción, Región del Biobío", "CP 4030000"],
     "Concepción, Región del Biobío", "CP 4030000"),  # Chile's seven digits after "CP"
    (["נמען", "נועה בן-דוד", "רחוב הרצל 57 דירה 12", "ראשון לציון", "7526518"],
     "ראשון לציון", "7526518"),  # Israel's seven digits alone: no phone
], ids=["cl", "il"])
def test_a_seven_digit_postcode_on_a_line_of_its_own_under_the_town(
        lines: list[str], town: str, code: str) -> None:
    values = _stacked(lines, 40, 200, 36, 28)
    assert values["ship_to_city"] == town
    assert values["ship_to_postal_code"] == code


@pytest.mark.parametrize(("town_caption", "code_caption"), [
    ("Localitate:", "Cod poștal:"), ("Miejscowość:", "Kod pocztowy:"),
    ("Település:", "Irányítószám:"),
], ids=["ro", "pl", "hu"])
def test_a_form_of_a_party_captions_its_town_and_its_postcode_printed_large(
        town_caption: str, code_caption: str) -> None:
    # As a Romanian courier prints the recipient: name and street under the caption, then
    # the town and the postcode each beside its caption, the code large for the sorter.
    zpl = ("^XA^CI28^PW812^LL1218^FO24,354^A0N,22,22^FDDESTINATAR^FS"
           "^FO24,382^A0N,30,30^FDAndreea Popescu^FS"
           "^FO24,436^A0N,26,26^FDStr. Gheorghe Doja nr. 22, ap. 8^FS"
           f"^FO24,486^A0N,22,22^FD{town_caption}^FS^FO180,478^A0N,32,32^FDPloiești^FS"
           f"^FO24,574^A0N,22,22^FD{code_caption}^FS^FO180,566^A0N,40,40^FD100066^FS"
           "^FO38,664^A0N,28,28^FDRAMBURS 349,00 lei^FS^XZ")
    values = _values(zpl)
    assert values["ship_to_city"] == "Ploiești"
    assert values["ship_to_postal_code"] == "100066"


@pytest.mark.parametrize(("lines", "name", "street"), [
    (["GÖNDEREN", "Ege Zeytinyağı Gıda A.Ş.", "Atatürk Cad. No: 88 Ayvalık / BALIKESİR",
      "Tel: 0266 312 40 55"], "ship_from_address_1", "Atatürk Cad. No: 88 Ayvalık / BALIKESİR"),
    (["ALICI", "Zeynep Kaya", "Alipaşa Mah. Kışla Cad. Güneş Apt.", "No:17 Daire:4",
      "Şehitkamil / GAZİANTEP"], "ship_to_address_2", "No:17 Daire:4"),
], ids=["after-the-street", "alone"])
def test_a_turkish_house_number_after_no_is_a_line_of_the_street(
        lines: list[str], name: str, street: str) -> None:
    # "No:" is how Turkish addresses number the house, after the street's kind or on a
    # line of its own with the flat: no caption of a number.
    assert _stacked(lines, 150, 584, 30, 24)[name] == street


@pytest.mark.parametrize(("lines", "box", "town"), [
    (["CONSIGNEE", "Wanjiku Kamau", "Otieno Kanyadhiang Road, Milimani",
      "P.O. Box 4417-40100", "KISUMU", "Simu: 0722 514 903"], "P.O. Box 4417-40100", "KISUMU"),
    (["DELIVER TO", "Grace Namukasa", "Plot 14, Kampala Road", "P.O. Box 7062", "Kampala"],
     "P.O. Box 7062", "Kampala"),
], ids=["ke", "ug"])
def test_a_post_office_box_over_the_town_is_a_line_of_the_address(
        lines: list[str], box: str, town: str) -> None:
    # East Africa addresses by the box (with its postcode after a hyphen in Kenya), then
    # the town on a line of its own.
    values = _stacked(lines, 40, 200, 36, 28)
    assert values["ship_to_address_2"] == box
    assert values["ship_to_city"] == town


@pytest.mark.parametrize("phone", ["310 482 1937", "7659 0833", "+57 310 482 1937"])
def test_a_bare_phone_ends_a_block_with_no_postcode_under_its_town(phone: str) -> None:
    # No postcode (Colombia, the Gulf): the last line of words before the phone is the
    # town, whether the phone has a caption or not.
    values = _stacked(["REMITENTE", "Distribuidora Cafetal del Quindío S.A.S.",
                       "Calle 21 # 14-36 Local 3", "Pereira", phone], 262, 426, 30, 24)
    assert values["ship_from_city"] == "Pereira"
    assert values["ship_from_address_1"] == "Calle 21 # 14-36 Local 3"


@pytest.mark.parametrize(("caption", "line"), [
    ("Return Address:", "Kaveri Home Essentials, Unit 3, Plot 41, KIADB Industrial Area"),
    ("Return Address:", "Grangränd 903"),
    ("Adresse de retour :", "Atelier Lumière, 12 rue des Lilas, 69003 Lyon"),
], ids=["in-name-first", "se-street", "fr"])
def test_one_line_under_a_caption_of_an_address_is_the_address(caption: str, line: str) -> None:
    # As Indian marketplaces print the seller's return address: one line, the caption
    # says it is the address, not the name of a party.
    zpl = ("^XA^CI28^PW812^LL1218^FO36,40^A0N,40,40^FDPREPAID^FS"
           f"^FO36,1002^A0N,22,22^FD{caption}^FS^FO36,1028^A0N,22,22^FD{line}^FS"
           "^FO36,1110^A0N,18,18^FDIf undelivered, return to the above address.^FS^XZ")
    assert _values(zpl)["ship_from_address"] == line


@pytest.mark.parametrize("street", ["2064 Walsh Rapid Apt. 659", "8459 Schultz Loaf Suite 709"])
def test_a_street_with_its_flat_last_is_no_postcode_and_town(street: str) -> None:
    # The house number first, as a postcode before its town would be, but the flat or
    # the suite last: a line of the street, and the town under it with no postcode.
    values = _stacked(["CONSIGNEE", "Wanjiku Kamau", "Otieno Kanyadhiang Road, Milimani", street,
                       "KISUMU", "Simu: 0722 514 903"], 40, 200, 36, 28)
    assert street in [v for k, v in values.items() if k.startswith("ship_to_address")]
    assert values["ship_to_city"] == "KISUMU"


@pytest.mark.parametrize(("fields", "value", "name"), [
    ("^FO40,600^A0N,26,26^FDDEST: SINGAPORE^FS", "SINGAPORE", "destination"),
    ("^FO40,600^A0N,26,26^FDDestination: SAUDI ARABIA^FS", "SAUDI ARABIA", "destination"),
    ("^FO40,580^A0N,20,20^FDOrigen / Origin^FS"
     "^FO40,604^A0N,28,28^FDEspaña - Comunitat Valenciana^FS",
     "España - Comunitat Valenciana", "origin"),
    ("^FO40,580^A0N,20,20^FDDestino^FS^FO40,604^A0N,28,28^FDNZ-AKL^FS", "NZ-AKL",
     "routing_code")])
def test_a_country_after_a_destination_or_origin_caption_is_that_place(
        fields: str, value: str, name: str) -> None:
    # An exporter's carton: its goods, weight and lot, then where it goes or comes
    # from; a code there is still the hub's.
    values = _values(
        "^XA^CI28^PW812^LL1218^FO40,40^A0N,36,36^FDHydra Calming Toner 200 ml^FS"
        "^FO40,120^A0N,22,22^FDG.W.^FS^FO300,116^A0N,30,30^FD14.2 KG^FS"
        "^FO40,180^A0N,22,22^FDLot^FS^FO300,176^A0N,30,30^FDHT26K14^FS"
        f"{fields}^XZ")
    assert {v: k for k, v in values.items()}.get(value, "").startswith(name)


@pytest.mark.parametrize(("caption", "point", "address"), [
    ("NOUTOPISTE", "K-Market Hervanta", "Hervannan valtaväylä 10, 33720 Tampere"),
    ("Výdejní místo", "Papírnictví U Nádraží", "Nádražní 118, 702 00 Ostrava")])
def test_the_name_and_street_under_a_pickup_points_caption_are_the_points(
        caption: str, point: str, address: str) -> None:
    # A parcel to be collected: the recipient's block, then under its caption the shop
    # the parcel waits at, and that shop's street and town on one line.
    values = _values(
        "^XA^CI28^PW812^LL1218^FO20,146^A0N,24,24^FDVASTAANOTTAJA^FS"
        "^FO40,174^A0N,32,32^FDJuho Mäkelä^FS^FO40,220^A0N,32,32^FDInsinöörinkatu 38 B 17^FS"
        "^FO40,260^A0N,32,32^FD33720 TAMPERE^FS"
        f"^FO20,372^A0N,24,24^FD{caption}^FS^FO40,400^A0N,30,30^FD{point}^FS"
        f"^FO40,440^A0N,26,26^FD{address}^FS"
        "^FO110,760^BCN,160,N,N^FDMH3102004577182296^FS^XZ")
    names = {v: k for k, v in values.items()}
    assert (names.get(point), names.get(address)) == ("pickup_point_name",
                                                      "pickup_point_address")
