"""Recognisers that validate: check digits, GS1 application identifiers, phone numbers
by their numbering plans, weights and sizes by their units."""

from __future__ import annotations

import unicodedata

import pytest

from labelrender.synth import recognise, shapes
from labelrender.synth.glossary import GLOSSARY
from labelrender.synth.vocabulary import CAPTION_NAMES


@pytest.mark.parametrize(("text", "expected"), [
    ("1Z999AA10123456784", ("tracking_number", 0.95)),  # UPS, valid check character
    ("1Z999AA10123456785", ("tracking_number", 0.8)),  # UPS shape, wrong check
    ("EE123456785US", ("tracking_number", 0.95)),  # UPU S10
    ("9405 5501 0579 6017 6694 67", ("tracking_number", 0.95)),  # USPS IMpb
    ("(00) 0 00 12345 555555555 8", ("sscc", 0.95)),  # GS1 AI 00, valid check digit
    ("(420) 54956", ("ship_to_postal_code", 0.85)),  # GS1 AI 420: ship-to postal code
    ("(2L)SE69430+02000000", ("routing_code", 0.85)),  # DHL routing
    ("CA 902 1-00", ("routing_code", 0.85)),  # UPS routing
    ("ID 834 9-01 X", ("routing_code", 0.85)),
    ("(J)JD00006046070035930001", ("tracking_number", 0.9)),  # licence plate
    ("0.72 kg", ("weight", 0.85)),
    ("0 kg 396 g", ("weight", 0.85)),
    ("3700,00GR", ("weight", 0.85)),
    ("17x17x17", ("dimensions", 0.85)),
    ("2026-04-09 12:33:34", ("date", 0.85)),
    ("08/04/2026", ("date", 0.85)),
    ("11.03.2024 14:30", ("date", 0.85)),  # a date and a time
    ("Mar 11, 2024", ("date", 0.85)),  # month names in the carriers' languages
    ("11-MAR-2024", ("date", 0.85)),
    ("11. März 2024", ("date", 0.85)),
    ("WED - 04 FEB 5:00P", ("date", 0.85)),
    ("18/03", ("date", 0.7)),  # 18 pieces of 3 cannot be: day and month
    ("+46 70 011 22 33", ("phone", 0.8)),
    ("(901) 555-1234", ("phone", 0.65)),  # national: less sure
    ("614.984.1858x3989", ("phone", 0.65)),
    ("3x400 V  50 Hz", ("voltage", 0.7)), ("3~ 400 V", ("voltage", 0.7)),  # three phases
    ("230 V~ 50 Hz", ("voltage", 0.7)),
    ("Hylly 14-3", ("location", 0.6)), ("Regał 12-3", ("location", 0.6)),  # shelves
    ("Polica 3-2", ("location", 0.6)), ("Hylde 4", ("location", 0.6)),
    ("12 x 750 g = 9,0 kg", ("quantity", 0.7)),  # a pack and what it weighs
    ("480 / 472 Stk", ("quantity", 0.7)), ("1200 / 1180 pcs", ("quantity", 0.7)),  # planned, made
    ("6 kpl / 330 g", ("quantity", 0.7)), ("4 szt. / 1,2 kg", ("quantity", 0.7)),  # pack's count
])
def test_printed_values(text: str, expected: tuple[str, float]) -> None:
    assert recognise.text_value(text) == expected


@pytest.mark.parametrize("text", ["Wooden logs", "1 OF 1", "12345", "ACME PARCEL", "3/11",
                                  "Marseille", "2 May Street", "10 Rue de Lyon"])
def test_plain_text_is_not_recognised(text: str) -> None:
    assert recognise.text_value(text) is None


@pytest.mark.parametrize("text", ["3x400 V  50 Hz", "2 x 35 mm 1200 kg"])
def test_a_measure_with_its_units_is_no_parcel_number(text: str) -> None:
    assert not shapes.is_tracking(text)


@pytest.mark.parametrize(("data", "symbology", "expected"), [
    (">;>800000123455555555558", "BC", ("sscc", 0.95)),
    (">;>842077082", "BC", ("ship_to_postal_code", 0.85)),  # FNC1, then AI 420
    (">:>8420L5T1Z6", "BC", ("ship_to_postal_code", 0.85)),  # a Canadian postcode
    ("42085251", "BC", ("routing_code", 0.85)),  # bare digits: a carrier's sort barcode
    ("40327660015+99000942000000", "BC", ("routing_code", 0.85)),
    ("2LSE69430+02000000", "BC", ("routing_code", 0.85)),
    ("4006381333931", "BE", ("gtin", 0.9)),  # an EAN-13 is a product, not a parcel
    ("4006381333932", "BE", ("gtin", 0.7)),
    ("042100005264", "BU", ("gtin", 0.9)),
    (">:1Z999AA10123456784", "BC", ("tracking_number", 0.95)),
    ("42000000>892612903000000000000000000", "BC", ("tracking_number", 0.9)),
    # 18 digits that check, without the "00" in front: an SSCC or a parcel number
    ("573313433000000006", "BC", ("sscc", 0.6)),
    # Interleaved 2 of 5 that is no GTIN-14: a bag tag's or an Identcode's number, and
    # DHL's 14-digit Leitcode (as the written airline_baggage_tag and de_dhl_paket_retoure)
    ("0057481229", "B2", ("tracking_number", 0.55)),
    ("36251001006256", "B2", ("routing_code", 0.55)),
    # SSCC-shaped parcel numbers of carriers: DHL Paket's own prefix (the written
    # de_dhl_paket_retoure), Swiss Post's 99 (the corpus's swisspost)
    ("00340434161094027318", "BC", ("tracking_number", 0.9)),
    ("996000000000000000", "BC", ("tracking_number", 0.8)),
    ("00340123451234567895", "BC", ("sscc", 0.95)),
    ("3SKRNS482031577", "BC", ("tracking_number", 0.9)),  # PostNL (the written
    # nl_postnl_pakket)
])
def test_barcode_data(data: str, symbology: str, expected: tuple[str, float]) -> None:
    assert recognise.barcode_data(data, symbology) == expected


@pytest.mark.parametrize(("text", "is_phone"), [
    ("+46700000000", True), ("0700112233", True), ("Tel: +36 70 123 4567", True),
    ("0500-00000", True), ("08/04/2026", False), ("2024-03-06", False), ("94107", False),
    ("1Z999AA10123456784", False), ("0000 0000 0000", False),
])
def test_phone_numbers_follow_their_numbering_plan(text: str, is_phone: bool) -> None:
    assert recognise.phone(text) is is_phone


@pytest.mark.parametrize("data", ["DEFRAAFRCDGAAUN60412003100182",
                                  "TRISTADELEJAAUN62031007000184"])
def test_a_upu_receptacle_identifier_is_the_mail_bags(data: str) -> None:
    # UPU S9: two offices of exchange, category, subclass, then 14 digits
    assert recognise.barcode_data(data, "BC") == ("receptacle_id", 0.85)
    spaced = f"{data[:6]} {data[6:12]} {data[12:15]} {data[15]} {data[16:20]} {data[20:23]} " \
        f"{data[23]} {data[24]} {data[25:]}"
    assert recognise.text_value(spaced) == ("receptacle_id", 0.85)


@pytest.mark.parametrize(("data", "carton"), [
    ("FBA18K7Q2WZLU000007", True),  # shipment FBA18K7Q2WZL, its seventh carton
    ("FBA15DJ0Q7G6U000112", True),
    ("FBA18K7Q2WZL", False),  # the shipment's id alone: no carton's
])
def test_an_amazon_fba_box_id_is_the_cartons(data: str, carton: bool) -> None:
    assert (recognise.barcode_data(data, "BC") == ("carton_id", 0.85)) is carton
    assert (recognise.text_value(data) == ("carton_id", 0.85)) is carton


@pytest.mark.parametrize(("data", "plate"), [
    ("1JUN801223746000418207", True),  # a unit load's, under DUNS 801223746
    ("6JUN0451234560000000123", True),  # a transport unit's
    ("JUN123456789A0017", True),
    ("1JUN8012237", False),  # no DUNS number of nine digits and a serial after it
])
def test_an_mh10_license_plate_is_the_packages_id(data: str, plate: bool) -> None:
    # ANSI MH10.8.2: a "J" data identifier, "UN" and a DUNS number, the serial
    assert (recognise.barcode_data(data, "B3") == ("package_id", 0.85)) is plate
    assert (recognise.text_value(data) == ("package_id", 0.85)) is plate


@pytest.mark.parametrize(("key", "valid"), [
    ("35261127865412000140550010000482171739204810", True),  # an NF-e's, check digit 0
    ("35261127865412000140550010000482171739204811", False),  # its check digit wrong
    ("35261127865412000140990010000482171739204810", False),  # no document model "99"
])
def test_a_brazilian_access_key_is_the_invoices_key(key: str, valid: bool) -> None:
    found = recognise.barcode_data(key, "BC")
    assert (found == ("access_key", 0.9)) is valid
    spaced = " ".join(key[i:i + 4] for i in range(0, 44, 4))  # as a DANFE prints it
    assert (recognise.text_value(spaced) == ("access_key", 0.9)) is valid


def test_check_digit_helpers() -> None:
    assert recognise.gs1_valid("4006381333931") and not recognise.gs1_valid("4006381333930")
    assert recognise.ups_valid("1Z999AA10123456784")
    assert recognise.s10_valid("EE123456785US") and not recognise.s10_valid("EE123456784US")


@pytest.mark.parametrize(("text", "meaning"), [
    ("(10) L2409A", "lot_number"), ("(17) 270131", "expiry_date"), ("(15)260101", "expiry_date"),
    ("(11) 250907", "manufacture_date"), ("(37) 48", "quantity"), ("(3102) 001250", "weight"),
    ("(21) SN-88121", "serial_number"), ("(400) PO7781", "purchase_order"),
])
def test_gs1_trade_item_lines_are_named_by_their_application_identifier(
        text: str, meaning: str) -> None:
    assert recognise.text_value(text) == (meaning, 0.85)


@pytest.mark.parametrize("text", ["(15)270518(3301)006124", "(17) 270131 (10) L2409A",
                                  "(3102)001250(15)270518"])
def test_a_date_or_weight_with_more_values_after_it_is_a_record(text: str) -> None:
    # A fixed-length value's end is where the next application identifier starts.
    assert recognise.text_value(text) == ("barcode_data", 0.8)
    symbol = ">;>8" + "".join(c for c in text if c.isalnum())
    assert recognise.barcode_data(symbol, "BC") == ("barcode_data", 0.8)


def test_a_gs1_128_symbol_starting_with_a_lot_is_a_lot() -> None:
    assert recognise.barcode_data(">;>810L2409A", "BC") == ("lot_number", 0.85)
    assert recognise.barcode_data(">;>8370048", "BC") == ("quantity", 0.85)


@pytest.mark.parametrize(("text", "name"), [
    ("B-14-03-2", "location"), ("A07-12-3", "location"), ("HB-M8-25", None),
    ("M6-TI-001", None)])
def test_a_rack_location_is_aisle_then_numbers(text: str, name: str | None) -> None:
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Hinban (Part No.)", ("part_number", 0.85)), ("Ukeire (Dock)", ("location", 0.85)),
    ("Sekkei (Design)", ("design", 0.45)), ("Raffineur / Refiner", ("refiner", 0.45)),
    ("BEST BEFORE (dd.mm.yy)", ("expiry_date", 0.85))])
def test_a_caption_in_two_languages_is_read_in_either(caption: str,
                                                      name: tuple[str, float]) -> None:
    assert shapes.caption_name(caption) == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Sklad:", "location"), ("Sklad", "location"), ("Skład:", "material")])
def test_a_czech_store_is_no_polish_composition(caption: str, name: str) -> None:
    # As the probes dev_cz_pneumatika_dot_tyden and dev_wh_kanban_card_cs: "Sklad" over
    # "B-14-03" is where the goods are stored.
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Réf.", "part_number"), ("RÉF :", "part_number"), ("Réf. / Ref.", "reference"),
    ("Ref.", "reference"), ("Réf. client", "reference"), ("Réf. expéditeur", "reference")])
def test_the_french_ref_alone_is_the_articles_reference(caption: str, name: str) -> None:
    # As the written dev_fr_bon_preparation_quincaillerie and
    # dev_fr_carton_cosmetiques_expedition: "Réf." names the article; a shipper's or a
    # customer's reference says whose, and an English "Ref." is any reference.
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Alkup. erä / Ursprungl. sats", "lot_number"), ("Caja / Case N°", "case_number"),
    ("N° client / Kunden-Nr.", "customer_number"), ("Raffineur / Refiner", "refiner")])
def test_a_word_of_either_half_of_a_caption_in_two_languages_names_it(caption: str,
                                                                      name: str) -> None:
    # As the written fi_sv_kemikaali_toissijainen_astia: neither half is a caption of
    # the vocabulary as a whole, but a word of one is ("erä", a batch).
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Hoogte", ("height", 0.6)), ("Värd / Host", ("host", 0.6)), ("Kweker", ("grower", 0.6)),
    ("Pressão máx.", ("pressure", 0.5)), ("Hinmei", ("description", 0.6))])
def test_a_caption_of_another_language_is_named_in_english(caption: str,
                                                           name: tuple[str, float]) -> None:
    # by the glossary, for review: the kinds of the vocabulary come first
    assert shapes.caption_name(caption) == name


def test_the_glossary_repeats_no_caption_of_the_vocabulary() -> None:
    known = {shapes._caption_key(k) for k in CAPTION_NAMES}
    assert not [k for k in GLOSSARY if shapes._caption_key(k) in known]


@pytest.mark.parametrize(("caption", "name"), [
    ("Ramburs", "cod_amount"), ("Sadržaj", "description"), ("Traseu", "routing_code"),
    ("Observații", "remarks"), ("Nr klienta", "customer_number"), ("Telf", "phone"),
    ("京都府", "field"), ("Auftrags-Nr.", "order_number"), ("Kunden-Nr.", "customer_number"),
    ("Pallets", "quantity"), ("Quantidade", "quantity"),
    # a whole caption of the glossary before a word of the vocabulary inside it
    ("Datum výroby", "manufacture_date"), ("MÜŞTERİ ADI", "customer_name"),
    # a first word that means something else in English: no sales order, no mass
    ("Số tem", "so_tem"), ("Masa tanam", "masa_tanam"),
    # the next inspection, service or calibration: the date it is due
    ("Prochain contrôle", "due_date"), ("Nächste Wartung", "due_date"),
    ("Próxima revisión", "due_date"),
    # the article or preposition that leads to the date is no part of the caption
    ("À utiliser avant le", "expiry_date"), ("Ontvangen op", "received_date"),
    # which date, in more languages: best before, expires, kept for pick-up until,
    # filled, posted, issued
    ("CONSUMIR PREF. ANTES:", "expiry_date"), ("Utgår:", "expiry_date"),
    ("Odbierz do:", "expiry_date"), ("Dolum Tarihi", "manufacture_date"),
    ("Feladás", "ship_date"), ("Hakko:", "print_date"),
    # a parcel locker, where the recipient picks the parcel up
    ("PAŠTOMATAS", "pickup_point"), ("Pakiautomaat", "pickup_point"), ("Pakomāts", "pickup_point"),
    # how many items or order lines
    ("Positionen", "quantity"), ("Artigos", "quantity"), ("NB UC", "quantity"),
    # a fishing boat, a carrier's extra service, a parcel's size class, a municipality
    ("Fartøy:", "vessel"), ("Zusatzleistung:", "additional_service"), ("Gabaryt:", "size"),
    ("Commune :", "city"),
    # a certificate's caption, before the certificate's number
    ("Cert.", "certificate_number"), ("Zertifikat", "certificate_number"),
    # how many order lines, or how many of a thing in Turkish
    ("Lignes :", "quantity"), ("Koni adedi", "quantity"), ("Bobin sayısı", "quantity")])
def test_captions_of_more_languages(caption: str, name: str) -> None:
    # A caption in a script the vocabulary cannot spell names nothing (it once named
    # every line of a Japanese label an order number).
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("text", "name"), [
    ("SAR 349.00", "value"), ("284,50 RON", "value"), ("1 480 Kč", "value"),
    ("Rp 250.000", "value"), ("RM 214", None), ("15 ft", None)])
def test_amounts_in_more_currencies(text: str, name: str | None) -> None:
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


def test_an_itf14_and_its_printed_form_are_a_gtin() -> None:
    assert recognise.barcode_data("15012345000128", "B2") == ("gtin", 0.85)
    assert recognise.text_value("1 50 12345 00012 8") == ("gtin", 0.85)
    assert recognise.barcode_data("15012345000129", "B2") != ("gtin", 0.85)  # no check


@pytest.mark.parametrize(("text", "split"), [
    ("Description: Animal vaccines - KEEP COOL", 13),
    ("Zutaten: Kuhrohmilch, Speisesalz, Lab, Milchsäurebakterien", 9),
    ("TOBACCO: FEDERAL LAW REQUIRES PROOF OF AGE", None)])
def test_prose_after_a_caption_of_prose_is_its_value(text: str, split: int | None) -> None:
    assert shapes.caption_split(text) == split


@pytest.mark.parametrize("caption", ["Preço/kg", "PRET/KG", "Prijs per liter", "Hinta/kg"])
def test_a_price_per_kilo_or_litre_in_more_languages_is_a_unit_price(caption: str) -> None:
    assert shapes.caption_name(caption) == ("unit_price", 0.85)


def test_a_price_for_an_amount_is_a_unit_price() -> None:
    assert recognise.text_value("1 kg = 11,64 €") == ("unit_price", 0.85)
    assert recognise.text_value("100 g = 1,29 €") == ("unit_price", 0.85)
    assert recognise.text_value("1 kg = heavy") is None


@pytest.mark.parametrize(("caption", "name"), [
    ("Вес:", ("weight", 0.85)), ("№ отправления:", ("tracking_number", 0.85)),
    ("Оплата при получении:", ("cod_amount", 0.85)), ("重量", ("weight", 0.85)),
    ("お届け予定日", ("delivery_date", 0.85)), ("Номер заказа магазина:", ("order_number", 0.7))])
def test_a_caption_in_another_script_is_named(caption: str, name: tuple[str, float]) -> None:
    assert shapes.caption_name(caption) == name


@pytest.mark.parametrize(("text", "name"), [
    ("1055 lm", "luminous_flux"), ("2700 K meleg fehér", "colour_temperature"),
    ("220-240 V AC, 50/60 Hz", "voltage"), ("7,5 kW", "power"), ("10 bar", "pressure"),
    ("1460 min-1", "speed"), ("3 A", None), ("2 K", None)])
def test_a_rating_is_named_by_its_unit(text: str, name: str | None) -> None:
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("text", "postal"), [
    ("Schmiedewerk Lüdenscheid GmbH (70233)", False), ("R. Villanueva #4471", False),
    ("PES-0417 Merluza filete IQF", False),  # the end of an article's code
    ("PLZ: 80331 München", True), ("75008 Paris", True), ("D-12345 Berlin", True),
    ("Tokyo 105-0012, Japan", True),
    # a country's letters before the code
    ("PL-00-950 Warszawa", True), ("SE-111 22 Stockholm", True), ("CZ-110 00 Praha 1", True),
    # an identifier's caption before the number, but Idaho's letters before a ZIP
    ("Pakkeshop ID 95131", False), ("IDAHO FALLS ID 83402", True)])
def test_a_number_in_brackets_or_after_a_number_sign_is_no_postcode(text: str,
                                                                    postal: bool) -> None:
    assert shapes.is_postal_line(text) is postal


@pytest.mark.parametrize(("text", "name"), [
    ("22:47", "time"), ("7:05 PM", "time"), ("14h30", "time"),
    ("12.50", None), ("4:1", None), ("25:10", None),  # a price, a ratio, no hour
    ("H314 Verursacht schwere Verätzungen der Haut", "hazard_statements"),
    ("EUH208 Contains linalool. May produce an allergic reaction.", "hazard_statements"),
    ("H225", "hazard_statements"),
    ("P305+P351+P338 IF IN EYES: Rinse cautiously", "precautionary_statements"),
    ("GHS02 GHS07", "pictograms"), ("GHS05", "pictograms"),
    ("H2O", None), ("P100 filter", None),
    ("235/55 R18 104H XL", "tyre_size"), ("205/55ZR16 91W", "tyre_size"),
    ("(420) L7E0Z4", "ship_to_postal_code"),  # a Canadian postcode in GS1's AI 420
    ("UN 1993", "un_number"), ("UN1263 PAINT, 3, III", "proper_shipping_name"),
    ("250 g e", "weight"), ("3 150 руб.", "value"), ("1.249,90 TL", "value"),
    ("CÁMARA 3", "location"), ("Dock 12", "location"), ("LANE C-06", "location"),
    ("POST", None), ("HALF", None), ("Oddz. Chir.", "department"),
    ("Avd. Inköp, Hus 211", "department"), ("Service de livraison", None),
    ("+2°C bis +8°C", "temperature"), ("2-8 °C", "temperature"), ("260°C", "temperature"),
    ("Store below 25°C", None), ("45°", None),
    ("TREMBLAY/ISABELLE MS", "passenger_name"), ("AND/OR", None), ("KG/LB", None),
    ("MIÉRCOLES", "day_of_week"), ("46% vol", "abv"), ("10 min", "duration"),
    ("$1.37 per qt", "unit_price"), ("2,49 €/kg", "unit_price"), ("5 per kg", None),
    ("CAS 7647-01-0", "cas_number"), ("67-63-0", "cas_number"), ("67-63-1", None),
    ("CAS 67-63-0  EY 200-661-7", "cas_number"),  # its EC number after it (Finnish)
    ("6C:5A:B0:3E:91:0C", "mac_address"), ("MAC: 6C-5A-B0-3E-91-0C", "mac_address"),
    # a colour by its system's code, as paint is mixed and plastics ordered
    ("NCS S 3010-G30Y", "colour_code"), ("RAL 9016", "colour_code"),
    ("Pantone 186 C", "colour_code"), ("RAL 0123", None),
    # the production line and its shift
    ("Linea 3 · turno B", "production_line"), ("Linka L2 / směna B", "production_line"),
    ("Line 4 - Shift C", "production_line"), ("Line 2", None),
    # a bin's stock levels in pieces or cases; a load's or a heat's limit is no count
    ("MIN 4   MAX 18 CS", "min_max"), ("Mini 500 / Maxi 2000", "min_max"),
    ("Max 48 fp", "max_quantity"), ("Max 40 kg", None), ("Max 25C", None),
    # the tunnel restriction code of dangerous goods by road, after its caption
    ("Tunnel (D/E)", "tunnel_code"), ("Tunnelbeschränkungscode: (E)", "tunnel_code"),
    ("Tunnel (X)", None),
    ("0,6/1 kV", "voltage"), ("she/her", "pronouns"), ("They/Them", "pronouns"),
    ("DELIVER TO FRONT DESK", "delivery_instructions"), ("LIFTGATE REQUIRED",
                                                         "delivery_instructions"),
    ("Gate code #4410, leave with concierge", "delivery_instructions"),
    ("Store in a dry place", None), ("Bitte klingeln", "delivery_instructions"),
    ("Leave in a cool place", None), ("PLEASE LEAVE THIS LABEL UNCOVERED", None),
    ("DDP", "incoterm"), ("FCA Hamburg", "incoterm"), ("DDX", None),
    ("Пн-Вс 10:00-21:00", "opening_hours"), ("Mon-Fri 8:00-18:00", "opening_hours"),
    ("WK 2647", "date_code"), ("KW 47/26", "date_code"), ("WK 2699", None),
    ("MSKU 704512 6", "container_number"), ("CSQU3054383", "container_number"),
    ("MSKU7045127", None)])
def test_times_hazard_statements_and_tyre_sizes(text: str, name: str | None) -> None:
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("text", "country"), [
    ("MARTINIQUE", True), ("Україна", True), ("Bangladesh", True), ("HU - Magyarország", True),
    ("European Union", False), ("Hebden Bridge", False)])
def test_countries_by_their_names_in_the_carriers_languages(text: str, country: bool) -> None:
    assert shapes.is_country(text) is country


@pytest.mark.parametrize(("data", "name"), [
    ("=W04122601234500", "donation_number"), ("=%6200", "blood_group"),
    ("=<E0336V00", "product_code"), ("=>026363 2359", "expiry_date"),
    ("&>0263632359", "expiry_date"), ("=*026320", "collection_date")])
def test_isbt_128_data_identifiers_say_what_a_blood_labels_code_holds(data: str,
                                                                      name: str) -> None:
    # As the written isbt128_blood_bag: each Code 128 starts with its identifier.
    assert recognise.barcode_data(data, "BC") == (name, 0.8)


@pytest.mark.parametrize(("text", "count"), [
    ("2 of/de 3", True), ("1 sur 2", True), ("3 di 6", True), ("1 od 4", True),
    ("2 von/of 3", True), ("A of B", False), ("12 of 2024x", False)])
def test_a_count_of_pieces_in_the_languages_of_labels(text: str, count: bool) -> None:
    # (the Purolator label of the corpus prints "2 of/de 3"; the written
    # it_etichetta_lotto_vernice "Fusto 3 di 6")
    assert bool(shapes.PIECES.match(text)) is count


def test_a_caption_in_another_script_matches_in_any_spelling() -> None:
    # Decomposed letters (NFD) and a Sinhala caption whose zero-width joiner was dropped.
    assert shapes.caption_name(unicodedata.normalize("NFD", "Вес:"))[0] == "weight"
    assert shapes.caption_name("ට්රැකින් අංකය:")[0] == "tracking_number"


def test_a_typeset_apostrophe_reads_as_a_plain_one() -> None:
    assert shapes.caption_name("Date d’expédition:") == shapes.caption_name(
        "Date d'expédition:")
    assert shapes.caption_name("Numero d’ordine:")[0] == "order_number"


@pytest.mark.parametrize(("text", "expected"), [
    # an IBAN, as the probe dev_at_post_paket_nachnahme
    ("AT75 2011 1824 7360 5122", ("account_number", 0.9)),
    ("SI56 0201 0025 8813 038", ("account_number", 0.9)),  # as dev_si_posta_paket24_odkupnina
    ("PL61 1090 1014 0000 0712 1981 2874", ("account_number", 0.9)),  # as the Pocztex probe
    ("DE89 3704 0044 0532 0130 01", None),  # the check fails: no IBAN
    ("7.5", None),  # kilograms under "Actual kg" (dev_za_courier_guy_parcel), no 7 May
    ("24.11", ("date", 0.7)),
    ("7.5.", ("date", 0.7)),
])
def test_ibans_by_their_check_and_decimals_that_are_no_dates(
        text: str, expected: tuple[str, float] | None) -> None:
    assert recognise.text_value(text) == expected


@pytest.mark.parametrize(("text", "postal"), [
    ("CC ****4172", False),  # a masked identity document on a visitor pass
    ("Reg. CCS26-04418", False),  # a badge's registration number: the end of a code
    ("Depositato 26/11/2026 09:12 - Giulia R.", False),  # a day's date, no town
    ("Tokyo 105-0012, Japan", True),
    ("PL-00-950 Warszawa", True),
    ("Galway H91 R2FX", True),  # Ireland's Eircode
])
def test_lines_that_only_look_like_a_town_line(text: str, postal: bool) -> None:
    assert shapes.is_postal_line(text) is postal


def test_a_bilingual_phone_caption_starts_a_phone_line() -> None:
    assert recognise.starts_with_phone("Tél. / Tel. 514-555-0273")
    assert recognise.starts_with_phone("Telm.: 912 336 784")


@pytest.mark.parametrize("code", ["12-031-D", "14-052-04", "R-22-14-D", "P-05-031-A"])
def test_a_racks_aisle_bay_and_level_is_a_location(code: str) -> None:
    # As the probes dev_wh_rack_upright_levels_en, dev_wh_putaway_de and
    # dev_wh_replenishment_task_en (a date stays a date).
    assert recognise.text_value(code) == ("location", 0.7)
    assert recognise.text_value("24-11-26") == ("date", 0.85)


@pytest.mark.parametrize("place", ["Pad 7 - Vak 14 - Plank 2", "LOCKER B-14", "Zone 3 Rack 12"])
def test_places_spelled_in_the_words_of_a_store_or_a_locker(place: str) -> None:
    # As the probes dev_nl_schapkaart_actie and dev_us_evidence_label.
    found = recognise.text_value(place)
    assert found is not None and found[0] == "location"


def test_a_numbered_reference_caption_and_a_portuguese_mobile_caption() -> None:
    # As the probes dev_us_regional_overnight_landscape ("REF 1" left of its value) and
    # dev_pt_loja_online_ponto_recolha ("Telem." before a mobile number).
    assert recognise.starts_with_phone("Telem. 912 408 337")
    assert shapes.caption_name("Telem.")[0] == "phone"


def test_whole_euros_written_with_a_dash_are_money() -> None:
    # As the probe dev_nl_elektronica_schaplabel_qr: "€ 649,-".
    assert recognise.text_value("€ 649,-") == ("value", 0.7)


@pytest.mark.parametrize("text", ["25,27 €/litro", "70p per 100g", "1,29 € / kilo"])
def test_a_price_per_litre_or_in_pence_is_a_unit_price(text: str) -> None:
    # As the probes dev_es_vinoteca_cartel_estante and dev_en_shelf_edge_multibuy_offer.
    assert recognise.text_value(text) == ("unit_price", 0.85)


@pytest.mark.parametrize("caption", ["GTIN (02)", "COUNT (37)", "BEST BEFORE (15)", "BATCH (10)"])
def test_a_caption_with_its_gs1_application_identifier_is_a_caption(caption: str) -> None:
    # As the probe dev_ae_hypermarket_pallet_sscc_arabic.
    assert shapes.is_known_caption(caption)


def test_ph_before_a_number_is_a_phone_but_ph_before_a_reading_is_not() -> None:
    # As the probe dev_au_road_express_freight.
    assert recognise.starts_with_phone("Ph 07 3277 0915")
    assert not recognise.starts_with_phone("pH 7.2")


def test_a_country_named_in_two_languages() -> None:
    # As the probe dev_be_bpost_pickup_bilingue: "Belgique / België" ends the sender.
    assert shapes.is_country("Belgique / België")
    assert not shapes.is_country("Belgique / Bruxelles")


@pytest.mark.parametrize(("text", "date"), [
    ("12/3/14", True), ("31.12.2026", True), ("2026-11-25", True),
    ("42/3/14", False), ("7/45/26", False),  # a flat's door ("Kaiserstraße 42/3/14"), no day
])
def test_a_date_has_a_day_and_a_month_that_can_be(text: str, date: bool) -> None:
    found = recognise.text_value(text)
    assert (found is not None and found[0] == "date") is date


@pytest.mark.parametrize(("caption", "name"), [
    ("Cód.", "part_number"), ("CÓD:", "part_number"),  # "código", with its accent
    ("COD", "cod_amount"), ("Cod.", "cod_amount"),  # cash on delivery
])
def test_cod_with_an_accent_is_a_code_not_cash_on_delivery(caption: str, name: str) -> None:
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("data", "name"), [
    ("(01)15060123456780(15)280531(10)L26330B", "barcode_data"),  # several AIs: a record
    ("(01)19401234567013(3101)000250", "barcode_data"),
    ("(00)354149630002318760", "sscc"), ("(420)30253", "ship_to_postal_code"),  # one AI: its key
])
def test_gs1_data_with_its_ais_in_brackets(data: str, name: str) -> None:
    found = recognise.barcode_data(data, "BC")
    assert found is not None and found[0] == name


@pytest.mark.parametrize("caption", ["Tri", "AGENCE ARRIVÉE", "MAIL RUN"])
def test_sort_captions_of_french_and_british_carriers(caption: str) -> None:
    assert shapes.caption_name(caption)[0] == "routing_code"


def test_a_range_that_runs_downwards_is_no_rating() -> None:
    assert recognise.text_value("75-2A") is None  # a sort code ("Tri" over it)
    assert recognise.text_value("220-240 V") == ("voltage", 0.7)


@pytest.mark.parametrize(("text", "name"), [
    ("12 db", "quantity"), ("48 Kartons", "quantity"), ("3 CS", "quantity"),
    ("48 kos", "quantity"), ("69 dB", "noise"),  # "db" is Hungarian for pieces
])
def test_counts_of_pieces_and_cases_in_their_languages(text: str, name: str) -> None:
    found = recognise.text_value(text)
    assert found is not None and found[0] == name


@pytest.mark.parametrize(("text", "split"), [
    ("订单号：JD20261126447018", 4),  # the probe dev_cn_sf_express_waybill
    ("部署：経理部 財務課", 3),  # the probe dev_ja_it_shisan_kanri_label
    ("签收时间：    月    日    时", None),  # a blank to write the date in by hand
])
def test_a_caption_with_a_full_width_colon(text: str, split: int | None) -> None:
    assert shapes.caption_split(text) == split


def test_an_asset_tags_japanese_captions_and_a_full_width_colon_after_a_phone() -> None:
    assert shapes.caption_name("部署")[0] == "department"
    assert shapes.caption_name("使用者")[0] == "user"
    assert recognise.starts_with_phone("电话：0510-8721 5566")


@pytest.mark.parametrize("text", ["512 kcal", "2140 kJ", "2140 kJ / 512 kcal"])
def test_a_foods_energy_is_named_by_its_unit(text: str) -> None:
    # As the probe dev_en_cafe_sandwich_ppds_allergens ("Energy per pack" over it).
    assert recognise.text_value(text) == ("energy", 0.7)


@pytest.mark.parametrize(("text", "split"), [
    ("Allergens: wheat, barley, egg, mustard, celery", 11),  # dev_en_cafe_sandwich_ppds_allergens
    ("Access: Plenary - Workshops - Gala dinner", 8),  # the probe conference_attendee_badge
    ("WARNING: KEEP OUT OF REACH OF CHILDREN", None),  # prose, no list
])
def test_a_list_after_a_known_caption_is_its_value(text: str, split: int | None) -> None:
    assert shapes.caption_split(text) == split


@pytest.mark.parametrize(("caption", "name"), [
    ("NF", "invoice"), ("Cubagem", "volume"), ("Empfangsrelation", "routing_code"),
    ("Empfangs-NL", "routing_code"), ("Datenlogger-Nr.", "serial_number"),
    ("Data logger", "serial_number"), ("Mã đơn", "tracking_number"),
    ("Mã đơn shop", "order_number"), ("Må stilles", "delivery_instructions"),
    ("Zustellung bis", "delivery_date"), ("Příjemka", "receipt_number"),
    ("Leveranciersnr.", "supplier_number"), ("Total HU", "piece_count"), ("Teil", "part_number"),
    ("Tasting", "tasting_notes"), ("Cust.", "customer_number"), ("Eng. Chg.", "revision"),
    ("N° d'expédition", "tracking_number"), ("LDV n.", "tracking_number"), ("Travée", "bay"),
    ("Prescrit par", "prescriber"), ("Préleveur", "operator"), ("Procesmonster", "specimen_id"),
    ("Tratamiento postcosecha", "treatment"), ("Reseptnr.", "prescription_number"),
    ("Löpmeter", "length"), ("Sortownia", "routing_code"), ("Acc", "account_number")])
def test_captions_that_were_named_by_their_own_words(caption: str, name: str) -> None:
    # As the probes' foreign or shortened captions, once copied into the name.
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize(("text", "is_patient"), [("19580314-2746", True), ("20081130-1187", True),
                                                   ("20261125-0042", False),
                                                   ("19581314-2746", False)])
def test_a_personal_identity_number_is_a_birth_date_and_four_digits(text: str,
                                                                   is_patient: bool) -> None:
    # (an order number dated this year, or no date at all, is no one's birth)
    found = recognise.text_value(text)
    assert (found is not None and found[0] == "patient_id") is is_patient


@pytest.mark.parametrize("text", ["14時～16時", "9時", "18時30分"])
def test_a_japanese_hour_or_time_slot_is_a_time(text: str) -> None:
    assert recognise.text_value(text) == ("time", 0.75)


@pytest.mark.parametrize(("text", "kind"), [("12 x 900 g", "quantity"), ("12 x 80 st.", "quantity"),
                                            ("0.012m³", "volume"), ("1,4 cbm", "volume")])
def test_a_pack_of_units_is_a_quantity_and_cubic_metres_a_volume(text: str, kind: str) -> None:
    assert recognise.text_value(text) == (kind, 0.7)


@pytest.mark.parametrize(("text", "expected"), [
    ("6 botellas × 750 ml", ("quantity", 0.7)), ("48 pytlů à 25 kg", ("quantity", 0.7)),
    ("24 Flaschen à 0,5 l", ("quantity", 0.7)), ("12 bottles x 75cl", ("quantity", 0.7)),
    ("24 Dosen à 0,33 l", ("quantity", 0.7)), ("3 Gitterboxen", None),
    ("63 à 73 g", None)])  # (a range of weights, no pack)
def test_a_pack_with_its_units_word_is_a_quantity(text: str, expected: object) -> None:
    assert recognise.text_value(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("$ 189.900 COP", ("value", 0.7)), ("$ 1.234,50 ARS", ("value", 0.7)),
    ("$1,250.00 MXN", ("value", 0.7)), ("$ 12 ABC", None)])  # (no currency's code)
def test_an_amount_with_its_sign_and_its_currencys_code_is_money(text: str,
                                                                 expected: object) -> None:
    # As the Colombian cash-on-delivery parcel: the peso's sign, then its code.
    assert recognise.text_value(text) == expected


@pytest.mark.parametrize(("text", "kind"), [("P2 1,10 kW", "power"), ("Q  12,0 m³/h", "flow_rate"),
                                            ("n 2870 min-1", "speed"), ("U 400 V", "voltage")])
def test_a_rating_after_its_plate_symbol_is_still_a_rating(text: str, kind: str) -> None:
    assert recognise.text_value(text) == (kind, 0.7)


def test_a_code_ending_like_a_rating_is_none() -> None:
    assert recognise.text_value("A4 230 V") is None  # (a one-letter unit after a small number)


@pytest.mark.parametrize(("caption", "name"), [("Hentested", "pickup_point"),
                                               ("Recept", "prescription_number"),
                                               ("Vágás dátuma", "slaughter_date"),
                                               ("Datum izdavanja", "dispense_date")])
def test_round_thirteens_captions_name_their_fields(caption: str, name: str) -> None:
    assert shapes.caption_name(caption)[0] == name


@pytest.mark.parametrize("text", ["LYS 25NOV26 0942 AGT 3317", "LABEL 25NOV26 1512",
                                  "FRA 03MAR27 2217 K4"])
def test_an_airlines_issue_stamp_is_the_print_date(text: str) -> None:
    # a station or a word, the day in the airlines' form, four digits of time, the agent
    assert recognise.text_value(text) == ("print_date", 0.6)


@pytest.mark.parametrize(("text", "name"), [
    ("2026. 11. 26.", "date"), ("2026.11.24.", "date"), ("2026.11.25. 14:37", "date"),
    ("26.11.2026.", "date"), ("2026年11月25日", "date"), ("2026년 11월 25일", "date"),
    ("令和8年11月25日", "date"), ("2026年11月", "date"),
    ("26. 11. 2026", "date"), ("03/2028", "date"), ("11.2026", "date"),
    ("2026.13.01.", None), ("12.34.56.", None), ("13/2028", None)])
def test_dates_as_other_countries_write_them(text: str, name: str | None) -> None:
    # Hungarian year first with full stops, a full stop after the year (Croatian, Serbian,
    # Slovene), the units of year, month and day (Japanese, Chinese, Korean), a month/year
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("text", "name"), [
    ("1 520 kg", "weight"), ("12 500,5 kg", "weight"), ("2 400 lb", "weight"),
    ("1520 kg", "weight"), ("1 52 kg", None)])
def test_a_weight_with_its_thousands_set_apart_by_a_space(text: str, name: str | None) -> None:
    # An IBC's or a pallet's gross weight as Europe writes it.
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("text", "name"), [
    ("2028 AL 12", "date"), ("27 JA 05", "date"), ("2026 NO 30", "date"), ("AL 12", None),
    ("2026 DE 32", None), ("2026 XY 12", None)])
def test_a_canadian_best_before_date_with_its_bilingual_month(text: str,
                                                              name: str | None) -> None:
    # The year, the month's symbol in both official languages, the day.
    found = recognise.text_value(text)
    assert (found[0] if found else None) == name


@pytest.mark.parametrize(("caption", "name"), [
    ("Congelación", "manufacture_date"), ("Fecha de congelación", "manufacture_date"),
    ("MISE EN BOUTEILLE", "bottling_date"), ("DEPART", "ship_date"), ("Abfahrt", "ship_date"),
    ("Palackozva:", "bottling_date"), ("Lahvováno", "bottling_date"),
    ("Butelkowano", "bottling_date"), ("Gebotteld op", "bottling_date")])
def test_words_of_freezing_bottling_and_departing_say_which_date(caption: str,
                                                                 name: str) -> None:
    assert shapes.event_date(caption) == name


@pytest.mark.parametrize("caption", ["Filled", "Date Filled", "Fill date"])
def test_a_filled_prescription_has_its_fill_date(caption: str) -> None:
    assert shapes.caption_name(caption)[0] == "fill_date"
