"""Labels of goods, not of shipments: product, shelf, bin, asset and lab labels.

A label with no address caption and no carrier's data (a validated parcel number,
a sort code, a service) is read as a label of goods, and so is one
whose only address-like block sits beside two signs of goods (a lot, an expiry
date, a price, a GTIN...): that block is the maker's own address and stays static.
There the printed words carry the data: the product's name and description lines
change from one label to the next, an amount is a price (not a declared value), an
identifier under an "ASSET TAG" or "SPECIMEN" heading is that identifier (not a
parcel number), and a large code on a bin label is its location (not a sort code).
A name given here from layout alone is at most 0.7 sure, most below the review
threshold, so they are listed in "names to review".
"""

from __future__ import annotations

import re

from . import recognise, shapes
from .addresses import COMPANY
from .captions import above, beside, line_under, raw_caption_split
from .decision import Decision, leading_spaces, mark_variable, rename_shaped_codes

# A party's field name (a bill-to party is no sign of a parcel's blocks).
PARTY = re.compile(r"^(?:ship_to|ship_from|mark_for)_")
# Names whose validated data says "shipment": a label carrying one is a shipping label.
_SHIPMENT = frozenset({"tracking_number", "sscc", "routing_code"})
# Names that only labels of goods carry, and the symbologies of retail goods.
_GOODS = frozenset({"lot_number", "expiry_date", "manufacture_date", "pack_date", "price",
                    "unit_price", "gtin", "country_of_origin", "part_number", "sku",
                    "serial_number", "quantity", "material", "size", "color", "date_code",
                    "patient_id", "date_of_birth", "specimen_id", "asset_number", "location",
                    "ingredients", "abv", "vintage", "manufacturer", "vendor", "supplier"})
_RETAIL_SYMBOLS = frozenset({"BE", "B8", "BU", "B9"})
# Names a parcel's data takes, validated or not.
_PARCEL_SIGNS = frozenset({"tracking_number", "sscc", "routing_code", "weight", "piece_count",
                           "reference", "ship_date", "delivery_date"})
# Heading names that name the label's main identifier ("ASSET TAG" -> asset_number).
_IDENTIFIERS = frozenset({"asset_number", "specimen_id", "serial_number", "part_number",
                          "sku", "lot_number", "location", "work_order", "order_number",
                          "patient_id"})
# Names data shapes give an identifier on a shipping label; wrong on goods.
_PARCEL_NAMES = frozenset({"tracking_number", "text", "field", "reference"})
# Words of a form's title, of a barcode's caption, or of handling and care text:
# such lines are layout, not a product's description.
_LAYOUT_WORDS = re.compile(
    r"\b(?:label|labels|tag|etikett|etikette|étiquette|etichetta|etiqueta|ean|upc|qr|"
    r"barcode|code ?128|code ?39|gs1|sscc|gtin|fragile|keep|do not|don't|handle|store|"
    r"attach|caution|warning|danger|this side|stock|stocker|in stock|sample|example|scan|"
    r"www|http|inc|ltd|gmbh|llc|s\.?a\.?|b\.?v\.?|number|nummer|numéro|numero|"
    r"signature|signed|date|sas|sarl|s\.?r\.?l|s\.?p\.?a|ag|sp\. z o\.o|conservare|"
    r"aufbewahren|lagern|conserver|conservar|bewaren|förvaras|przechowywać|lato|alto|"
    r"oben|haut|arriba|boven|góra|thank you|thanks|gracias|merci|danke|grazie|"
    r"dziękujemy|tack|bedankt|köszönjük|sensitive|hazard|flammable|corrosive|toxic|"
    r"gefahr|achtung|attention|attenzione|atención|contains|contient|enthält|contiene|"
    r"tel|phone|fax|tél|telefon|arrow|direction)\b|\((?:€|\$|£|eur|usd|gbp|kg|g|lb|mm|cm|m|in|%)\)$|"
    r"(?:since|est\.?|seit|dal|depuis|desde|od|sinds|"
    r"sedan|anno|gegr\.?|fondée? en)\s+\d{4}", re.IGNORECASE)
# Kinds of business and institution: a line naming one is the label owner's name
# ("Löwen-Apotheke", "Clinique Vétérinaire du Bocage", "Lincoln Elementary Cafeteria"),
# printed on every label of its goods.
_OWNER = re.compile(
    r"\b(?:apotheke|pharmacy|pharmacie|farmacia|farmácia|apotek|apteka|lékárna|clinic|"
    r"clinique|klinik|clínica|clinica|kliniek|hospital|hôpital|krankenhaus|ospedale|"
    r"ziekenhuis|cafeteria|canteen|kantine|mensa|restaurant|bakery|boulangerie|bäckerei|"
    r"bakkerij|panadería|maison|caseificio|fromagerie|käserei|consorzio|cooperativa|"
    r"coopérative|genossenschaft|tuincentrum|gartencenter|garden cent(?:re|er)|jardinerie|"
    r"vivaio|\w*dienst|school|schule|école|scuola|escuela|universit\w*|laborat\w*|"
    r"brewery|brauerei|brasserie|birrificio|winery|weingut|dairy|molkerei|\w*røgeri|"
    r"\w*rökeri|räucherei|smokehouse|metzgerei|boucherie|butcher|macelleria|carnicería|"
    r"talho|slagerij|\w*hotel|"
    # (and a hospital, a library, a court or an office that owns the label)
    r"\w*klinik\w*|\w*klinikum|\w*krankenhaus|\w*spital|sjukhus\w*|szpital\w*|nemocnice|"
    r"kórház|ospedal\w*|hospital\w*|bibliot\w*|library|libraries|sheriff\w*|police|polizei|"
    r"policja|court|\w*gericht|tribunal\w*|museum|musée|museo|archiv\w*|sterilcentral\w*|"
    r"services|systems|nurser(?:y|ies)|fábrica|fabrica|fabrik|factory|usine|stabilimento|"
    r"zakład|závod|gyár)\b", re.IGNORECASE)
_LARGE = 40
# A degree after a number ("10-15 °C"), not the sign of a number ("n° 0412").
_DEGREES = re.compile(r"\d\s?°")
# Words that end a phrase open, before the value they lead to.
_OPEN_END = re.compile(r"(?:^|\s)(?:le|la|les|de|du|des|der|die|das|den|dem|von|vom|of|per|to|"
                       r"the|by|with|for|für|pour|para|por|con|di|da|del|al|au|aux|am|im|op|"
                       r"van|na|do|od|på|av|af|til|till|an|et|and|und|zum|zur|bis|until|"
                       r"before|avant|hasta|até|entro|tot|vor)$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{3,}")
_INSTRUCTION = re.compile(
    r"^(?:see|keep|store|use|do|handle|protect|attach|read|refer|consult|avoid|shake|remove|"
    r"open|close|return|contact|call|visit|scan|apply|properly|rx only|only|nur|bitte|"
    r"vor|nicht|ne pas|conserver|tenere|mantener|bewaren|förvara)\b", re.IGNORECASE)
# "MUELLER, ANNA K", "HALL, M", "KOWALCZYK Zofia" (the surname in capitals first).
_SURNAME_FIRST = re.compile(r"^[A-ZÀ-Ý][\wÀ-ÿ'-]+,\s*[A-ZÀ-Ý](?:[\wÀ-ÿ'-]+|\.?)"
                            r"(?:\s+[A-Z]\.?|\s+[A-ZÀ-Ý][a-zß-ÿ'-]+){0,2}$|"
                            r"^[A-ZÀ-Ý]{2}[A-ZÀ-Ý'-]*(?:\s[A-ZÀ-Ý]{2}[A-ZÀ-Ý'-]*)?"
                            r"\s[A-ZÀ-Ý][a-zß-ÿ'-]+(?:\s[A-ZÀ-Ý][a-zß-ÿ'-]+)?$")
_MADE_IN = re.compile(r"^(?:made in|product of|hergestellt in|fabriqué (?:en|au)|prodotto in|"
                      r"fabbricato in|fabricado e[nm]|hecho en|feito em|gemaakt in|"
                      r"fremstillet i|tillverkad i|produsert i|wyprodukowano w|"
                      r"vyrobeno v|vyrobené v|fabricat în)\s+[^\W\d_][^,;]{1,30}$", re.IGNORECASE)
# (the place is a few words: "Wyprodukowano w Chinach dla ..., ..." is a notice)


def is_goods_label(decisions: list[Decision]) -> bool:
    """No address caption and no carrier's data (a validated parcel number, a sort
    code, a service); and where an uncaptioned block reads like an
    address, at least two signs of goods (a lot, an expiry date, a price, a GTIN...):
    that block is then the maker's own address, printed on every label. With no
    address found at all, two pieces of a parcel's data (a parcel number, a weight,
    a reference...) and nothing of goods say it is a parcel whose blocks were missed."""
    parties = goods_signs = 0
    parcel_signs: set[str] = set()  # distinct values: a number and its barcode count once
    for d in decisions:
        if not d.source.is_barcode and shapes.address_role(d.text) in ("ship_to", "ship_from"):
            return False
        if d.reason == "service line: part of the layout" or shapes.is_caption(d.text) \
                and shapes.caption_name(d.text)[0] == "service" \
                and not shapes.is_product_caption(d.text):
            return False  # a carrier's service ("SERVICE: EXPRESS 9AM"; "Product" may be
            # the goods')
        if not d.variable or not d.name:
            continue
        if d.name in _SHIPMENT and d.name_certainty >= 0.85:
            return False
        parties += bool(PARTY.match(d.name))
        goods_signs += d.name in _GOODS or d.source.symbology in _RETAIL_SYMBOLS
        if d.name in _PARCEL_SIGNS:
            parcel_signs.add(d.value or "")
    if parties == 0:  # no address found: a parcel's data with nothing of goods says parcel
        return goods_signs > 0 or len(parcel_signs) < 2
    return goods_signs >= 2


def refine(decisions: list[Decision]) -> None:
    """Read a label of goods as one: descriptions, prices, identifiers, locations."""
    if not decisions or not is_goods_label(decisions):
        return
    headed = _headed_blocks(decisions)
    for d in decisions:
        if d.variable and d.name and PARTY.match(d.name) \
                and not (d.name.startswith("ship_to_") and d.prefix_len) \
                and _party(d) not in headed:
            # (a recipient after its caption, "Empfänger: ...", is no maker's address)
            _owners_address(d)
            if made_in(d.text):
                mark_variable(d, "where the goods are made", 0.7, leading_spaces(d),
                              ("country_of_origin", 0.7))
        elif d.variable and d.prefix_len and not d.source.is_barcode \
                and d.reason.startswith("value after caption") \
                and (d.name in _MAKERS or d.name_certainty < 0.6
                     and COMPANY.search(d.value or "") is not None) \
                and _postal_part(d.value or "") \
                or d.variable and d.prefix_len and d.name_certainty < 0.6 \
                and _ends_with_phone(d.value or ""):
            # "Gyártja: Tisza-Paprika Kft., 6728 Szeged, ...": who made or sells the
            # goods, with their address: the label's owner, printed on every label; so
            # is an address and its phone after a caption unknown ("地址：... 电话：...")
            _owners_address(d)
    for d in decisions:
        split = raw_caption_split(d.source) if d.reason.startswith("product line") else None
        if split is not None:  # "Product: Motor Assembly" names the goods, no service
            mark_variable(d, "the goods after their caption", 0.7, split, ("description", 0.7))
    _prices(decisions)
    _identifiers(decisions)
    zones(decisions)
    _people(decisions)
    _descriptions(decisions)
    _specimens(decisions)
    _tests(decisions)
    _doses(decisions)
    _contents(decisions)


# How to take a medicine: how often, with what and for how long (the form alone,
# "28 cápsulas", is the pack's content).
_DOSE = re.compile(r"\b(?:t[äa]glich|daily|a day|per day|par jour|al d[ií]a|al giorno|dziennie|"
                   r"denn[ěe]|einnehmen|take|give|apply|by mouth|once|twice|"
                   r"mahlzeit\w*|ayunas|desayuno|durante \d+ (?:d[ií]as|semanas|meses)|"
                   r"for \d+ (?:days|weeks)|pendant \d+ (?:jours|semaines)|"
                   r"f[üu]r \d+ (?:tage|wochen))\b", re.IGNORECASE)


# How much of the goods a pack holds: a number and a unit of volume or count, with a
# word or two ("Flacon 32 ml", "52 delen / 52 pieces", "Inhalt: ca. 25 Korn").
_CONTENT = re.compile(r"\d+(?:[.,]\d+)?\s?(?:ml|cl|dl|l|pcs|pieces|pz|pezzi|stuks|delen|stück|"
                      r"st\.|szt\.?|ks|kpl|stk|buc|db|kom|vnt|gab|tk|adet|doses|dosen|"
                      r"tablets|tabletten|capsules|kapseln|"
                      r"korn|körner|seeds|graines|semillas|sachets|beutel|rolls|rollen)\b",
                      re.IGNORECASE)


# A count of things, led by its number: "50 000 boabe", "ca. 25 Korn", "4 film + 1 CD",
# "20 x 10 syringes (200 doses)", "3 Rx in bag". (Not a time, "18 mois d'affinage", nor a
# measure, "12 kg": the goods' age and weight have names of their own.)
# (Three digits at most, or grouped by thousands: "14 Larchwood Close" and "69002 Lyon"
# are addresses.)
_COUNT = r"(?:(?:ca|approx|env|cca|ok|około|circa)\.?\s*|~\s*)?\d{1,3}(?:[ \u00a0.]\d{3})*"
_WORD_OF_THINGS = r"[^\W\d_]+(?:['’.-][^\W\d_]+)*\.?"
_THINGS = (r"(?!(?:days?|dage|tage?n?|dn[íi]|jours?|d[íi]as?|giorni|weeks?|wochen|semaines?|"
           r"semanas?|months?|monate?n?|mois|meses|mesi|years?|jahre?n?|ans?|años|anos|anni|"
           r"hours?|stunden?|heures?|horas?|ore|min\w*|h|s|k?g|mg|lbs?|oz|[mcd]?l|[mck]?m|in|"
           rf"ft)(?:[²³]|\b)){_WORD_OF_THINGS}(?:\s+{_WORD_OF_THINGS}){{0,2}}")
_ITEMS = rf"{_COUNT}\s*(?:[x×]\s*{_COUNT}\s*)?\s{_THINGS}"
_COUNTED = re.compile(rf"{_ITEMS}(?:\s*[+,/]\s*{_ITEMS})*(?:\s*\({_ITEMS}\))?", re.IGNORECASE)


def _contents(decisions: list[Decision]) -> None:
    """A short line guessed to name the goods that says how much the pack holds is
    its quantity."""
    for d in decisions:
        text = d.text.strip()
        if d.variable and d.name == "description" and d.name_certainty <= 0.5 \
                and _CONTENT.search(text) and len(_WORD.findall(text)) <= 3 \
                and not _named_before_size(text):
            d.name, d.name_certainty = "quantity", 0.5


def _named_before_size(text: str) -> bool:
    """Two names, each capitalised, lead the line before its size ("Obsthof Mostviertel
    · 0,75 l", "Prairie d'Argoat - 6 x 1 L"): the maker's or the brand's name with the
    pack's size, the goods' description; one word ("Flacon 32 ml") only says the pack."""
    lead = _WORD.findall(re.split(r"\d", text, maxsplit=1)[0])
    return len(lead) >= 2 and all(word[0].isupper() for word in lead)


def counted_contents(decisions: list[Decision]) -> None:
    """On a label of goods, a line that counts things ("Contents: 20 x 10 syringes (200
    doses)", "Inhalt: ca. 25 Korn", "Sets: 6 trays, 14 pouches") is how many the pack
    holds, its quantity, whether its caption names the goods or is unknown: what the
    pack holds is printed as the goods' name. (Once the captions have named their
    values.)"""
    for d in decisions:
        value = (d.value or "").strip()
        guessed = d.name in ("description", "text", "field") \
            or d.name is not None and not shapes.is_vocabulary_name(d.name)
        if not d.variable or not d.name or not guessed or d.source.is_barcode \
                or not _COUNTED.fullmatch(value):
            continue
        # What is counted is written small ("3 Rx in bag", "ca. 25 Korn" if about):
        # "412 Azul marinho" is a colour, "14 Larchwood Close" a street.
        thing = re.search(r"[^\W\d_]+", value)
        if thing and thing.group()[0].isupper() and len(thing.group()) > 2 \
                and not re.match(r"\D", value):
            continue
        d.name, d.name_certainty = "quantity", min(d.name_certainty, 0.6)


def _doses(decisions: list[Decision]) -> None:
    """On a pharmacy's label, a line that says how to take the medicine ("3x täglich
    1 Kapsel", "Durante 8 semanas") is its dosage instructions, not the goods' name."""
    words = _printed_words(decisions)
    if _PHARMACY.search(words) is None:
        return
    for d in decisions:
        text = d.text.strip()
        if d.source.is_barcode or not _DOSE.search(text) or len(text.split()) > 14:
            continue
        if d.variable and d.name == "description" and d.name_certainty <= 0.5:
            d.name, d.name_certainty = "dosage_instructions", 0.55
        elif not d.variable and not shapes.reads_as_caption(text):
            mark_variable(d, "how to take a medicine", 0.6, leading_spaces(d),
                          ("dosage_instructions", 0.55))


# What a sample was taken into: a tube by its additive or cap colour, or the specimen
# itself ("LAV 4mL", "Serum-Gel 7,5 ml", "EDTA K3", "Urine (midstream)", "Citrat 3,2 %").
_TUBE = re.compile(r"\b(?:k[23]?-?edta|edta(?:-?k[23])?|lav(?:ender)?|sst|serum|plasma|"
                   r"citra(?:te?|to)|heparin[ae]?|li-?hep|naf|fluorid[e]?|urin[ae]?|harn|orina|"
                   r"swab|abstrich|tampone|hisopo|csf|liquor|whole blood|vollblut|sangue intero|"
                   r"gold top|red top|purple top|green top|blue top|grey top|gray top)\b",
                   re.IGNORECASE)


def _specimens(decisions: list[Decision]) -> None:
    """The tube or kind of a sample on a label of a patient's sample: a short line
    that says what the sample is in, guessed as the goods' name or captioned "Type"."""
    if not _patient_record(decisions) and _heading_name(decisions) != "specimen_id":
        return
    for d in decisions:
        if d.source.is_barcode or not _TUBE.search(d.text) or len(d.text.split()) > 5:
            continue
        guessed = d.variable and (d.name in ("description", "type", "material")
                                  and d.name_certainty <= 0.6 or d.name in ("text", "field"))
        if guessed:
            d.name, d.name_certainty = "specimen_type", 0.6
        elif not d.variable and not shapes.reads_as_caption(d.text):
            mark_variable(d, "the tube or kind of a patient's sample", 0.6, leading_spaces(d),
                          ("specimen_type", 0.6))


# The common abbreviations of laboratory tests a sample's label leads its order with
# ("CBC W/DIFF", "NFS", "FBC", "U&E").
_TEST_CODE = re.compile(r"(?:cbc|fbc|nfs|bmp|cmp|crp|tsh|hba1c|inr|pt/inr|aptt|ptt|esr|bsg|"
                        r"vsg|u&e|lft|lfts|psa|bnp|ua)\b", re.IGNORECASE)
# One test in a list: a word or two, such as a code in capitals ("CRP", "fT4", "VS").
_TEST_ITEM = re.compile(r"[^\W\d_][\w/+-]*(?: [\w/+-]+)?")


def _tests(decisions: list[Decision]) -> None:
    """On the label of a sample, a line of tests only guessed as the goods' name is
    the tests ordered: several after commas, one of them a code in capitals ("KC,
    CRP, TSH, fT4", "Hemograma, VS, PCR", "EEW, viscositeit"), or a line led by a
    common test's abbreviation ("CBC W/DIFF", "NFS VS CRP")."""
    if not any(d.variable and d.name == "specimen_id" for d in decisions):
        return
    for d in decisions:
        if d.source.is_barcode or not d.variable or d.name != "description" \
                or d.name_certainty > 0.55:
            continue
        items = [item.strip() for item in (d.value or "").split(",")]
        listed = 2 <= len(items) <= 8 and all(_TEST_ITEM.fullmatch(i) for i in items) \
            and any(re.fullmatch(r"[a-z]?[A-Z][A-Z\d]{1,4}", i) for i in items)
        if listed or _TEST_CODE.match(d.value or ""):
            d.name, d.name_certainty = "test", 0.6  # (as the glossary names "Tests:")


def _prices(decisions: list[Decision]) -> None:
    for d in decisions:
        if d.variable and d.name == "value" and d.name_certainty < 0.85:
            d.name = "price"
        elif d.variable and d.name == "piece_count" and re.fullmatch(r"\d[\d,.' ]*", d.value or ""):
            d.name = "quantity"  # "PCS" over "208" on a bundle of goods: how many, no parcel
            # count ("1 of 3")
        elif d.variable and d.name == "routing_code" and shapes.is_country(d.value or ""):
            d.name, d.name_certainty = "country_of_origin", 0.7  # "Origin: Italy"
        elif d.variable and d.name == "reference" and d.prefix_len \
                and re.fullmatch(r"\s*r[ée]f\.?\s*:?\s*", d.source.raw[:d.prefix_len],
                                 re.IGNORECASE):
            # "Ref. HR-DC-050", "Réf. 4711" on goods: the article's reference (not a
            # "Referenz-Nr.", a reference number, nor "Ref./Lote", the batch's)
            d.name, d.name_certainty = "part_number", 0.6


# Words anywhere on a label that say what its one unnamed identifier is.
_CONTEXT = (
    # (a biobank's aliquot or a frozen vial of cells is a sample too; Dutch "monster"
    # ends its compounds: "bodemmonster", "bloedmonster")
    # (and who took it, or when: "Muestreó", "Sampled by", "Probenahme", "Prélevé le")
    (re.compile(r"\b(?:specimen|sample|probe|échantillon|campione|muestra|biobank|aliquot|"
                r"aliq|cryo\w*|vials?|cell line|\w+monster|monsternemer|sampled|sampling|"
                r"muestre[oó]|probenahme|prélèvement|prélevée?|prelievo|prelevat[oa]|"
                r"campionamento|amostragem|colhida|pobrano|pobranie|odběr)\b", re.I),
     "specimen_id"),
    (re.compile(r"\b(?:asset|property of|inventory|inventar|eigentum|do not remove|"
                r"report loss|if found|cespite|inventario|inventaris|inwentarz\w*)\b|資産|资产",
                re.I),
     "asset_number"),
    (re.compile(r"\b(?:serial|seriennummer|s/n)\b", re.I), "serial_number"),
)
# Whose property a thing is, as returnable crates, trolleys and tools say it ("Property
# of", "Własność Agrofrukt", "Propriété de", "Eigendom van", "Tillhör"): an asset's label.
_OWNED = re.compile(r"\b(?:property of|eigentum|własność|propriété d[eu']|proprietà d[ie]\w*|"
                    r"propiedad de|propriedade d[aeo]s?|eigendom van|vlastnictví|majetek|"
                    r"tillhör|tilhører|omaisuutta|tulajdona)\b", re.I)
_LOCATION = re.compile(r"^(?:RM|ROOM|BAY|ROW|AISLE|RACK|SHELF|BIN|LEVEL|BLDG|BUILDING|DOCK|"
                       r"REGAL|FACH|GANG|PLATZ|FLOOR|WARD|BED|PISO|PLANTA|ENFERMARIA|QUARTO|"
                       r"CAMA|SALA|ETAGE|STOCKWERK|ZIMMER|BETT|STATION|ÉTAGE|CHAMBRE|LIT|"
                       r"PIANO|REPARTO|STANZA|LETTO|PIĘTRO|ŁÓŻKO|AFDELING|KAMER)"
                       r"\b\.?\s*\S.*$", re.IGNORECASE)
_ALCOHOL = re.compile(r"^\d{1,2}(?:[.,]\d{1,2})?\s?%\s?(?:vol\.?|abv|alc\.?(?:/vol\.?)?)$", re.I)
_COMPOSITION = re.compile(r"^\d{1,3}\s?%\s+[^\W\d_].*$")


def _printed_words(decisions: list[Decision]) -> str:
    """All the label's printed text but its barcodes', in one string to search."""
    return " ".join(d.text for d in decisions if not d.source.is_barcode)


def _patient_record(decisions: list[Decision]) -> bool:
    """The label carries a patient's record number or birth date."""
    return any(d.variable and d.name in ("patient_id", "date_of_birth") for d in decisions)


def patients_samples(decisions: list[Decision]) -> None:
    """A barcode only its shape named a parcel's number, and its printed form, on a label
    found a patient's only late (by a birth date of the last century, "F  12/07/1961"),
    is the number of the patient's sample, as where the record was seen first."""
    if _patient_record(decisions) and _sample_label(decisions):
        rename_shaped_codes(decisions, {"tracking_number"}, "specimen_id")


def owned_assets(decisions: list[Decision]) -> None:
    """A barcode only its shape named, and its printed form, on a label that says whose
    property the thing is, is the thing's asset number, on a crate sent from one party to
    another too ("Własność Agrofrukt" under "Nr skrzyni" and its Code 128), where the
    parties are named with no address. (A parcel's label "property of carrier" is the
    label's own: a parcel goes to an address.)"""
    if _OWNED.search(_printed_words(decisions)) is not None and not any(
            d.variable and re.match(r"ship_to_(?:address|postal|city)", d.name or "")
            for d in decisions):
        rename_shaped_codes(decisions, _PARCEL_NAMES, "asset_number")


# A returnable tote's or crate's word, printed as a caption of its own ("TOTE" over "2 of
# 4", "BAC", "Wanne", "Kiste", "Krat", "Skrzynka"): a wholesaler's tote to a pharmacy or
# a shop, and a crate of a pick, carry such a label, its barcode the tote's own.
_TOTE = re.compile(r"(?:tote|bac|wanne|kiste|krat|skrzynka|přepravka|prepravka|bakke|"
                   r"cassetta|cubeta|rekesz)(?:[ -]?(?:nr|no|n°|id|#))?\.?\s*:?", re.I)


def totes(decisions: list[Decision]) -> None:
    """A barcode only its shape named, and its printed form, on a label that names a
    tote or a crate in a caption of its own ("TOTE" over "2 of 4", "BAC" over "3 / 5"),
    is the tote's id: the order, the route and the pharmacy have captions of their own,
    and a tote is sent again and again, its code the same."""
    if not any(not d.variable and not d.source.is_barcode and _TOTE.fullmatch(d.text.strip())
               for d in decisions):
        return
    for code in decisions:
        if code.source.is_barcode and code.variable and code.name_certainty < 0.85 \
                and code.name in {*_PARCEL_NAMES, "barcode_data"} \
                and not _captioned_over(decisions, code):
            rename_shaped_codes([d for d in decisions if d.value == code.value], {code.name},
                                 "tote_id")


def _captioned_over(decisions: list[Decision], code: Decision) -> bool:
    """A caption the vocabulary knows is printed over barcode ``code`` ("Lieferschein-Nr."
    over its bars, a little to their left): it names the code, whatever the label holds."""
    return any(not c.variable and not c.source.is_barcode
               and 0 < code.source.ry - c.source.ry <= 2 * max(c.source.font_height, 12)
               and abs(code.source.rx - c.source.rx) <= 48
               and shapes.caption_name(c.text)[1] >= 0.85 for c in decisions)


# Words of a label an instrument or a gauge carries once it is calibrated or verified
# ("CALIBRATED", "TARATO", "Kalibriert", "Étalonné", "Control metrológico").
_CALIBRATION = re.compile(r"\b(?:calibrat\w*|kalibr\w*|tarat[oaiu]\w*|[ée]talonn\w*|"
                          r"calibrad[oa]s?|calibra[çc][ãa]o|metrol[oó]g\w*)", re.I)
# Names a code may have from a guess or a caption that is no identifier's.
_INSTRUMENT_GUESSES = frozenset({"part_number", "text", "field", "delivery_instructions",
                                 *_PARCEL_NAMES})


def calibrated_instruments(decisions: list[Decision]) -> None:
    """On the label of a calibrated instrument or gauge, which says when it is due again,
    a code only guessed or named by a caption unknown ("Cod.", "Instr. ID", the heading
    "CONTROL METROLÓGICO") is the instrument's asset number, its bars too; its serial
    number has a caption of its own ("Matricola", "S/N")."""
    if _CALIBRATION.search(_printed_words(decisions)) is None \
            or not any(d.variable and d.name in ("due_date", "expiry_date") for d in decisions):
        return
    for d in decisions:
        value = (d.value or "").strip()
        if d.variable and d.name and d.name_certainty <= 0.85 and _inventory_code(value) \
                and (d.name in _INSTRUMENT_GUESSES and d.name_certainty <= 0.6
                     or not shapes.is_vocabulary_name(d.name) and not d.name.endswith("_data")
                     or d.name == "delivery_instructions"):
            d.name, d.name_certainty = "asset_number", 0.6


def _inventory_code(value: str) -> bool:
    """A code an owner numbers its instruments or bottles by: one word of letters and
    digits, led by letters ("TW-0447", "MIS-0418", "CT-H7-025.000", "CHM-004417")."""
    return re.fullmatch(r"[A-Z]{1,5}[-/ ]?[A-Z0-9][\w./-]*\d[\w./-]*", value) is not None


# A ticket for a thing left to be collected again (at a dry cleaner's, a repairer's, a
# left-luggage desk): a word of when it was left, and one of when it is collected.
_LEFT = re.compile(r"\b(?:entrada|dep|d[ée]pos[ée]e?s?|depositat[oa]|deposit\w*|deposited|"
                   r"abgegeben|angenommen|received|recibido|entregado|ricevuto|"
                   r"przyj[eę]to|přijato)\b", re.I)
_COLLECTED = re.compile(r"\b(?:recoger|recogida|pr[eê]t|ritiro|retrait|abhol\w*|pick ?up|"
                        r"collect\w*|ready|listo|pronto|klaar|ophalen|odbi[oó]r|"
                        r"vyzvednut[ií])\b", re.I)


def claim_tickets(decisions: list[Decision]) -> None:
    """On a ticket for a thing left to be collected (a dry cleaner's, a repairer's, a
    left-luggage desk's: "Entrada ... Recoger", "Déposé le ... Prêt le", "Depositato ...
    Ritiro"), with no carrier's data, the number a caption unknown or "Ticket" names,
    or its shape alone, is the ticket's number, its copies on the stub and in bars too."""
    words = _printed_words(decisions)
    if _LEFT.search(words) is None or _COLLECTED.search(words) is None \
            or any(d.variable and d.name in _SHIPMENT and d.name_certainty >= 0.85
                   for d in decisions):
        return
    for d in decisions:
        name = d.name or ""
        if d.variable and d.name_certainty <= 0.85 and not name.endswith("_data") \
                and (name == "reference" or not shapes.is_vocabulary_name(name)) \
                and re.fullmatch(r"(?:[A-Z]{1,3}-?)?\d[\d-]{2,10}", (d.value or "").strip()):
            d.name, d.name_certainty = "ticket_number", 0.6


# A school's or a laboratory's own name on a label ("University of Leicester - School of
# Chemistry", "Universidad de Zaragoza - Dpto. Química").
_ACADEMIC = re.compile(r"\b(?:universit\w*|universidad|hochschule|college|school|escuela|"
                       r"schule|école|scuola|facult\w*|fakult\w*|institut\w*|instituto|"
                       r"istituto|dpto|department|departamento|dipartimento)\b", re.I)
# Names a code of a container may have from its print or shape alone.
_CONTAINER_GUESSES = frozenset({"part_number", "serial_number", "tracking_number", "text",
                                "field", "reference", "routing_code"})


def chemicals_in_stock(decisions: list[Decision]) -> None:
    """A code only its print or shape named ("CHM-004417" printed large, "ZGZ-R-0045812"
    in a DataMatrix) on a chemical's hazard label that a school or a laboratory prints
    for its own bottle is the number of the bottle in its chemicals' inventory, an asset
    number: the maker's numbers have captions of their own ("Cat. No.", "Lot")."""
    hazard = any(d.variable and d.name in ("hazard_statements", "precautionary_statements")
                 for d in decisions)
    if not hazard or _ACADEMIC.search(_printed_words(decisions)) is None:
        return
    for d in decisions:
        value = (d.value or "").strip()
        if d.variable and d.name in _CONTAINER_GUESSES and d.name_certainty <= 0.6 \
                and not (d.prefix_len and not d.source.is_barcode) \
                and _inventory_code(value):  # (a QR code's "QA," is no caption)
            d.name, d.name_certainty = "asset_number", 0.6


# The captions of a seat and of its row on a ticket to a seated event.
_SEAT = re.compile(r"(?:seat|posto|platz|sitz|place|asiento|butaca|lugar|miejsce|stoel|"
                   r"plads|plats|sæde|sede|sedadlo|hely)\W*", re.I)
_ROW = re.compile(r"(?:row|fila|reihe|rang|rangée|rij|rząd|rzad|række|rad|řada|rada|sor)\W*",
                  re.I)


def admission_tickets(decisions: list[Decision]) -> None:
    """A barcode only its shape named, and its printed form, on a ticket that captions a
    seat and its row ("FILA" and "POSTO", "Row" and "Seat", "Reihe" and "Platz") is the
    ticket's number: one seat at one performance, scanned at the door."""
    captions = [d.text.strip() for d in decisions if not d.variable and not d.source.is_barcode]
    if not any(_SEAT.fullmatch(c) for c in captions) \
            or not any(_ROW.fullmatch(c) for c in captions):
        return
    # (a barcode named by its symbology alone is the ticket's where its number is printed
    # under it; a QR code's data alone may hold more than the number)
    printed = {d.name for d in decisions if d.reason == "printed form of barcode data"}
    guesses = {*_PARCEL_NAMES, "serial_number",
               *(name for name in printed if name and name.endswith("_data"))}
    rename_shaped_codes(decisions, guesses, "ticket_number")


# A hospital's unit on its patients' labels: a ward's word and its code ("St. 7B",
# "St. INT-3", "Afd. B2", "Station 4B") or a medical specialty ("Kardiologisk Afd. B2",
# "UF 2216 Cardio", "SERVIÇO DE MEDICINA INTERNA B", "Fizik Tedavi ve Rehabilitasyon
# Pol.").
_WARD = re.compile(
    r"\b(?:st|station|ward|afd|avd|abt|oddz|stat)\.?\s?(?=[A-Z]{0,4}-?\d)[A-Z]{0,4}-?\d|"
    r"\b(?:cardio|kardio|chirurg|cirug|surg|ortop|orthop|pediatr|p[äa]diatr|neurolog|onkol|"
    r"oncol|gyn|geriatr|intern[ae]|innere|rehabilit|urolog|nefrol|nephrol|gastroent|"
    r"pneumo|pulmo|dermat|psychiatr|psiquiatr|traumat|unfallchir)\w*", re.IGNORECASE)
# A patient's bed, by its word and number, alone or after the room's ("Letto 12",
# "Stue 4, seng 2", "Bett 3"); and the names only a guess from its place gave it.
_BED = re.compile(r"(?:^|,\s?)(?:bed|bett|letto|cama|seng|säng|lit|łóżko|lůžko|leito|vuode)"
                  r"\.?\s?\d{1,3}[A-Z]?$", re.IGNORECASE)
_BED_GUESSES = frozenset({"location", "department", "description", "text", "room"})
# A hospital's own name, its heading, is no unit of it.
_HOSPITAL = re.compile(r"hospital|hôpital|ospedal|spital|szpital|sjukhus|sygehus|klinik|"
                       r"clinic|clínic|klinikum|universit|medical center|hastane|nemocnic",
                       re.IGNORECASE)


def patients_wards(decisions: list[Decision]) -> None:
    """On a patient's label, a short line that names the hospital's unit by a ward's
    word and code or a medical specialty is the patient's department, where nothing
    or only a guess named it; the hospital's name is its heading. A bed by its word
    and number is the patient's bed, no unit or place of goods."""
    if not _patient_record(decisions):
        return
    for d in decisions:
        text = d.text.strip()
        if d.variable and not d.source.is_barcode and _BED.search(text) and ":" not in text \
                and len(text.split()) <= 4 and d.name in _BED_GUESSES:
            d.name, d.name_certainty = "bed", 0.6  # "Letto 12", "Stue 4, seng 2"
            continue
        if d.source.is_barcode or ":" in text or len(text.split()) > 6 \
                or d.variable and (d.name not in ("description", "text", "field")
                                   or d.name_certainty > 0.5) \
                or not _WARD.search(text) or _HOSPITAL.search(text):
            continue
        if not d.variable:
            mark_variable(d, "a unit of the hospital on a patient's label", 0.6,
                          leading_spaces(d))
        d.name, d.name_certainty = "department", 0.6


# A caption of the patient's allergies, one word alone ("ALLERGY", "ALLERGIE", "Alergia").
_ALLERGY_CAPTION = re.compile(r"(?:allerg|alerg)\w*\s*:?", re.IGNORECASE)


def patients_allergies(decisions: list[Decision]) -> None:
    """On a patient's band or bed label, the line under the caption of allergies
    ("ALLERGIE" over "Penicillin, Latex", "ALERGIA" over "penicylina, jod") is the
    patient's allergies, no name or goods' words; more lines in capitals under one in
    capitals ("PENICILLIN", "LATEX") go on with it, a sentence ("Non rimuovere il
    braccialetto", "Se journal for detaljer") or a captioned value does not."""
    if not _patient_record(decisions):
        return
    for caption in decisions:
        if caption.variable or caption.source.is_barcode \
                or not _ALLERGY_CAPTION.fullmatch(caption.text.strip()):
            continue
        last = caption
        while (line := line_under(decisions, last, 20,
                                  max(2.2 * last.source.font_height, 30),
                                  lambda o: bool(o.text))) is not None:
            text = line.text.strip()
            if ":" in text or len(text.split()) > 6 or line.variable \
                    and line.name_certainty >= 0.85 or last is not caption \
                    and not (text.isupper() and last.text.isupper()):
                break
            if not line.variable:
                mark_variable(line, "a patient's allergies under their caption", 0.6,
                              leading_spaces(line))
            line.name, line.name_certainty = "allergies", 0.6
            last = line


# Words of a sample's label beside the patient's record: its tube, or the laboratory
# that tests it ("Kem lab", "Lab. SPZOZ Kielce", "Zentrallabor", "Hémato").
_LABORATORY = re.compile(r"\b(?:lab|labo|labor|\w*laborat\w*|zentrallabor|kemi|chemie|"
                         r"h[ée]mato\w*|hematolog\w*|microbiolog\w*|mikrobiolog\w*|"
                         r"patolog\w*|patholog\w*|histolog\w*)\b", re.IGNORECASE)


# Words of a patient's label that is no sample's: a pharmacy's, a radiology's (a band's
# are its allergies, _ALLERGY; not its ward or room: a tube names them too).
_NO_SAMPLE = re.compile(r"\b(?:\w*pharm\w*|apothe\w*|apotek\w*|farmac\w*|ljekarn\w*|"
                        r"\w*radiolog\w*|r[oö]ntgen\w*|x-?ray|film|dose|dosage|tablets?)\b",
                        re.IGNORECASE)


def _sample_label(decisions: list[Decision]) -> bool:
    """A patient's label that is a sample's: its tube or laboratory is named, or no
    word says it is a pharmacy's, a radiology's or a patient's band (a small label
    with the patient, the record and a code is a tube's)."""
    words = _printed_words(decisions)
    return _TUBE.search(words) is not None or _LABORATORY.search(words) is not None \
        or _CONTEXT[0][0].search(words) is not None \
        or _NO_SAMPLE.search(words) is None and _ALLERGY.search(words) is None


# An allergy, as a patient's band or bed label warns of it.
_ALLERGY = re.compile(r"\b(?:allerg\w*|alerg\w*)", re.IGNORECASE)


def _heading_name(decisions: list[Decision]) -> str | None:
    if _patient_record(decisions):
        if _sample_label(decisions):
            return "specimen_id"  # a tube or slide of a patient's: its code is the specimen's
        if _ALLERGY.search(_printed_words(decisions)):
            return "patient_id"  # a patient's band or bed, with the patient's allergies
    texts = [d for d in decisions if not d.source.is_barcode and d.text]
    top = min((d.source.ry for d in texts), default=0)
    for d in texts:
        text = d.text.strip()
        if d.source.ry > top + 2 * max(d.source.font_height, 20):
            continue  # a heading is printed across the top, not among the captions
        if d.variable or not text or ":" in text \
                or any(c.isdigit() for c in text) or len(text.split()) > 3:
            continue
        name, certainty = shapes.caption_name(text)
        if certainty >= 0.85 and name in _IDENTIFIERS:
            return name
    words = _printed_words(decisions)
    return next((name for pattern, name in _CONTEXT if pattern.search(words)), None)


def _identifiers(decisions: list[Decision]) -> None:
    heading = _heading_name(decisions)
    for d in decisions:
        if not d.variable or not d.name or d.name_certainty >= 0.85 \
                or d.prefix_len and not d.source.is_barcode:
            continue
        generic = d.name in _PARCEL_NAMES or d.source.is_barcode and d.name_certainty <= 0.55
        digits = re.sub(r"\s", "", d.value or "")  # "0 37 60123 45678 4"
        if generic and digits.isdigit() and len(digits) in (8, 12, 13, 14) \
                and recognise.gs1_valid(digits):
            d.name, d.name_certainty = "gtin", 0.7  # a GTIN in a Code 128
            continue
        worded = d.reason == "contains a number" and d.name_certainty <= 0.3 \
            and d.name not in ("text", "field")  # "Ticket 0187": named by its word
        if (d.name in ("text", "field") or worded) and (
                _LAYOUT_WORDS.search(d.text) or _DEGREES.search(d.text) is not None
                or _postal_part(d.text) and not worded):
            d.variable, d.value, d.name = False, None, None  # "EST. 1987", "10-15 °C"
            d.reason, d.certainty = "layout text on a label of goods", 0.6
            continue
        if (d.name in ("text", "field") or worded and not shapes.is_vocabulary_name(d.name)) \
                and len(_WORD.findall(d.value or "")) >= 2:
            # "Ducati 1299 Panigale", "Fluvacta Tetra 2026/2027": a name, no caption's word
            d.name, d.name_certainty = "description", 0.5
            continue
        if not generic or len((d.value or "").split()) > 2 and not digits.isdigit() \
                or "://" in (d.value or ""):
            continue  # words, or a web address: not an identifier ("26 1125 0417" is one)
        led = _led_by_abbreviation(d.value or "")
        if led is not None:
            d.name, d.name_certainty = led, 0.6  # "NDC 55111-0467-01": the code its
            # abbreviation names, whatever the label is about
        elif heading is not None:
            d.name, d.name_certainty = heading, 0.6
        elif d.source.font_height >= _LARGE and not d.source.is_barcode:
            d.name, d.name_certainty = "location", 0.5  # "B-14-03-2" across a rack label
        elif d.name == "tracking_number" and shapes.is_tracking(d.value or ""):
            # A long code on goods is the item's own number, not a parcel's.
            d.name, d.name_certainty = "serial_number", 0.4
        elif d.name in _PARCEL_NAMES:
            d.name_certainty = min(d.name_certainty, 0.4)  # a code of unknown kind
    # A large short code on goods is no sort code: a bin's place when it reads as one
    # ("A-01", "B-14-03"), else most often the article's number ("AP-40812-02", "K417").
    for d in decisions:
        if d.variable and d.name == "routing_code" and d.reason == "short code in a large font":
            place = re.fullmatch(r"[A-Z]{1,2}-?\d{1,3}(?:-\d{1,3})*", (d.value or "").strip())
            d.name, d.name_certainty = ("location", 0.55) if place else ("part_number", 0.45)


# A zone's caption: on a parcel the sort zone, on goods a zone of the store or the plant.
_ZONE_CAPTION = re.compile(r"(?:zone|zona|zóna|zon|sone|tsoon)\W*", re.IGNORECASE)


# The caption a value was named from, over or before it ("value of caption 'Zona'").
_NAMED_BY = re.compile(r"(?:value (?:of|after) caption|in the column of) '(.+)'")


def zones(decisions: list[Decision]) -> None:
    """"Zona B" on a pick label, "Zone" over "Picking", is the warehouse's zone, no
    carrier's sort code: only a parcel is sorted by zone."""
    for d in decisions:
        value = d.value or ""
        if not d.variable or d.name != "routing_code" or not value:
            continue
        named_by = _NAMED_BY.match(d.reason)
        caption = d.text[:len(d.text) - len(value)] if d.prefix_len \
            and d.text.endswith(value) else named_by.group(1) if named_by else ""
        if any(_ZONE_CAPTION.fullmatch(half.strip()) for half in caption.split("/")):
            d.name, d.name_certainty = "zone", 0.6


# A word for a room, an aisle or a shelf inside a building, in the languages of the
# labels, with its number right after it ("Raum 0.14", "Zi. 412-2", "Rm 5W-518-A",
# "ch.412", "Allée 4", "Lab 2.114"); a chemin ("ch. des Vignes") has words, a German
# batch ("CH 26-4471") no full stop, and a level alone is a rack's or a component's.
_PLACE_IN_BUILDING = re.compile(
    r"(?<![\w.])(?:room|rm|raum|zimmer|zi|chambre|(?-i:ch)\.|chbre|salle|sala|stanza|"
    r"habitaci[oó]n|hab|quarto|kamer|rum|huone|pok[oó]j|pok|m[ií]stnost|szoba|lab|aisle|"
    r"all[ée]e|gang|pasillo|corsia|corredor|rayon|regal|[ée]tag[eè]re|shelf|estante|"
    r"scaffale|hylla|hylde|hylle|stelling|fach)"
    r"\.?\s?(?=[A-Z]?\d)(?![\d.,]+\s?%)", re.IGNORECASE)
# A name a guess may have given such a line that still holds: the unit of an
# organisation it belongs to ("Oddział: Kardiologia, sala 12", "KST 4120-310 · Raum
# 02.114"), unless the place's own word leads the line ("Rayon 12 - Élément 04").
_UNITS = frozenset({"department", "cost_center", "ward", "class"})
_PLACE_SURE = 0.65


def places_in_buildings(decisions: list[Decision]) -> None:
    """A short line that names a room, an aisle or a shelf by its word and number
    ("Station 4B · Zi. 412-2", "Q-02 Allée 4", "Rayon 12 - Élément 04 - Niv. 2") is a
    place inside a building, its location, where only a guess named it: no party's
    address line, no sort code, no goods' description."""
    for d in decisions:
        value = d.value or d.text
        place = _PLACE_IN_BUILDING.search(value) if len(value) <= 40 else None
        if place is None or not d.variable or d.source.is_barcode \
                or d.name_certainty > _PLACE_SURE or PARTY.match(d.name or "") \
                or d.name in _UNITS and place.start() > 0:
            continue
        d.name, d.name_certainty = "location", 0.6


# A bin's lowest and highest stock, the word in the field or as its caption ("MIN 4",
# "Max" over "20 szt.", "Mín.: 12"), in pieces or no unit: no weight or degrees.
_LEVEL = r"(?P<level>min|max)(?:i|imum|imal)?\.?:?"
_LEVEL_IN_FIELD = re.compile(rf"{_LEVEL}\s?\d{{1,5}}(?:{recognise.STOCK_UNIT})?", re.IGNORECASE)
_LEVEL_CAPTION = re.compile(_LEVEL, re.IGNORECASE)
_STOCK_COUNT = re.compile(rf"\d{{1,5}}(?:{recognise.STOCK_UNIT})?", re.IGNORECASE)


def stock_levels(decisions: list[Decision]) -> None:
    """A bin's or a shelf's minimum and maximum stock, each printed apart ("MIN 4" and
    "MAX 24", or "Min" over "6 szt." and "Max" over "20 szt."): the two together say
    they are the levels that start a refill, not a quantity or the goods' words."""
    levels: dict[str, Decision] = {}
    for d in decisions:
        if not d.variable or d.source.is_barcode:
            continue
        value = _folded(d.text.strip())
        found = _LEVEL_IN_FIELD.fullmatch(value)
        if found is None and _STOCK_COUNT.fullmatch(value):
            found = next((m for c in decisions if not c.variable and not c.source.is_barcode
                          and (above(c.source, d.source) or beside(c.source, d.source))
                          and (m := _LEVEL_CAPTION.fullmatch(_folded(c.text.strip())))), None)
        if found is not None:
            levels.setdefault(found.group("level").lower(), d)
    if len(levels) == 2:
        for level, d in levels.items():
            d.name, d.name_certainty = f"{level}_quantity", 0.6


def _folded(text: str) -> str:
    """``text`` with the accents of "Mín." and "Máx." off."""
    return text.replace("í", "i").replace("á", "a").replace("Í", "I").replace("Á", "A")


# A range of one small measure, perhaps after its class: "77-88 mm", "63 à 73 g",
# "3 (80-100 g)" (the grades of fruit and eggs by their diameter or weight).
_RANGE_OF_SIZE = re.compile(r"(?:\d{1,2}\s?\()?\d{1,3}(?:[.,]\d)?\s?(?:-|–|à|a|to|bis|tot|al)\s?"
                            r"\d{1,3}(?:[.,]\d)?\s?(?:mm|cm|g)\)?", re.IGNORECASE)
# Names a range may have from its digits or its unit alone.
_RANGE_GUESSES = frozenset({"text", "field", "dimensions", "weight", "description", "quantity"})


def graded_sizes(decisions: list[Decision]) -> None:
    """A range of millimetres or grams ("77-88 mm", "63 à 73 g", "3 (80-100 g)") is
    the size goods are graded to, their calibre, on their box or in an exporter's
    carton to its consignee: no weight of the pack, no dimensions of a parcel."""
    for d in decisions:
        if d.variable and d.name in _RANGE_GUESSES \
                and _RANGE_OF_SIZE.fullmatch((d.value or "").strip()):
            d.name, d.name_certainty = "size", 0.6


# Captions of one part of a place in a rack, printed over that part alone ("AISLE" over
# "14", "BAY" over "07", "POS" over "2"): the part, not the whole location.
_RACK_PARTS = {**dict.fromkeys(["aisle", "gang", "pasillo", "allée", "allee", "corsia",
                                "corredor", "alejka"], "aisle"),
               **dict.fromkeys(["bay", "travée", "travee"], "bay"),
               **dict.fromkeys(["level", "niveau", "ebene", "nivel", "livello", "poziom"],
                               "level"),
               **dict.fromkeys(["pos", "position", "posición", "posicion", "posizione"],
                               "position")}
# Names a part of a rack's place may have from its shape or caption alone.
_PLACE_GUESSES = frozenset({"location", "line_number", "level", "routing_code"})


def rack_parts(decisions: list[Decision]) -> None:
    """Short codes under captions of two or more parts of a rack's place ("AISLE" over
    "14", "BAY" over "07") are those parts (run once the columns' captions have named
    their values); a "Pos." alone numbers the lines of a list."""
    parts = [(d, part) for d in decisions if (part := _rack_part(decisions, d)) is not None]
    if len({part for _, part in parts}) < 2:
        return
    for d, part in parts:
        d.name, d.name_certainty = part, 0.6


def _rack_part(decisions: list[Decision], d: Decision) -> str | None:
    value = (d.value or "").strip()
    if not d.variable or d.prefix_len or d.name not in _PLACE_GUESSES \
            or not re.fullmatch(r"[A-Z0-9]{1,3}", value):
        return None
    caption = next((c for c in decisions if not c.variable and not c.source.is_barcode
                    and abs(c.source.rx - d.source.rx) <= 24
                    and 0 < d.source.ry - c.source.ry <= 3 * c.source.font_height), None)
    return _RACK_PARTS.get(caption.text.strip().rstrip(":.").lower()) if caption else None


def _led_by_abbreviation(text: str) -> str | None:
    """The name a known abbreviation in capitals gives the code after it ("NDC
    55111-0467-01", "UDI-DI 08051234567892"), if any."""
    led = re.fullmatch(r"([A-Z][A-Z-]{1,6}[A-Z])\s+(\S*\d\S*)", text.strip())
    if led is None:
        return None
    name, sure = shapes.caption_name(led.group(1))
    return name if sure >= 0.6 and name not in ("field", "service", "form_version") else None


def _people(decisions: list[Decision]) -> None:
    """"MUELLER, ANNA K" on a label with a patient's record number or birth date, or on
    a pharmacy's label (a name written surname first, with its comma, is how pharmacies
    and hospitals file their patients), and the doctor: on a pharmacy's label the one
    who prescribed ("Dr Samuel Okafor MRCVS", "Medic: Dr. Andrei Popescu"), on a
    patient's band or bed the physician in charge ("Dr. med. T. Albers")."""
    record = _patient_record(decisions)
    words = _printed_words(decisions)
    pharmacy = _PHARMACY.search(words) is not None
    if not record and not pharmacy:
        return
    for d in decisions:
        text = d.text.strip()
        if d.variable and d.name == "doctor" and not d.source.is_barcode:
            d.name = "prescriber" if pharmacy else "physician" if record else d.name
            continue  # "Medic:" on a pharmacy's label, "Médico assistente:" on a band's
        if d.source.is_barcode or d.variable and (d.name_certainty > 0.5 or "caption" in d.reason):
            continue  # (a caption, "Owner:", knows better)
        if record and not d.variable and _PRIORITY.fullmatch(text):
            mark_variable(d, "the priority of a patient's sample", 0.6, leading_spaces(d),
                          ("priority", 0.6))
            continue
        if pharmacy and d.variable and d.name_certainty <= 0.3 and _DRUG.fullmatch(text):
            d.name, d.name_certainty = "description", 0.5  # not named by its first word
        elif pharmacy and _DOCTOR.fullmatch(text):
            d.variable = False
            mark_variable(d, "the prescriber on a pharmacy's label", 0.6, leading_spaces(d),
                          ("prescriber", 0.6))
        elif record and _DOCTOR.fullmatch(text.replace(",", "")) \
                and not shapes.has_digits(text, 1):
            d.variable = False  # ("Dr. med. T. Albers", "Dr. PATEL, ANIKA" on a band)
            mark_variable(d, "the doctor on a patient's label", 0.6, leading_spaces(d),
                          ("physician", 0.6))
        elif (record or pharmacy and "," in text) and _SURNAME_FIRST.fullmatch(text) \
                and not _OWNER.search(text) \
                and not COMPANY.search(text) \
                and not re.search(r"\b(?:service|centre|center)\b", text, re.I):
            d.variable = False
            mark_variable(d, "a person's name beside a patient record", 0.7, leading_spaces(d),
                          ("patient_name", 0.7))
        elif record and not d.variable and _NAMED_PERSON.fullmatch(text) \
                and not _PHARMACY.search(text) and _on_patients_line(decisions, d):
            mark_variable(d, "a person's name on the line of a patient's record", 0.7,
                          leading_spaces(d), ("patient_name", 0.7))


def _on_patients_line(decisions: list[Decision], d: Decision) -> bool:
    """``d`` shares its line with the patient's birth date ("Herr Beat Zürcher" ...
    "geb. 14.03.1951"), or follows a caption that asks for a name ("Nome")."""
    return any(
        (o.variable and o.name == "date_of_birth" and (beside(d.source, o.source)
                                                      or beside(o.source, d.source))
         or not o.variable and shapes.words_only(o.text) and beside(o.source, d.source)
         and shapes.caption_name(o.text)[0] in ("name", "patient_name"))
        for o in decisions if o is not d and not o.source.is_barcode)


# A medicine and its strength: "Vancomycin 1,250 mg", "Amoxicillin 500mg".
_DRUG = re.compile(r"[^\W\d_][\w-]*(?: [^\W\d_][\w-]*){0,3} \d+(?:[.,]\d+)*\s?"
                   r"(?i:mg|mcg|µg|g|ml|iu|ie)")
# A person in given names and surname, each with a capital, a salutation before them
# ("Herr Beat Zürcher", "Ingrid Solheim", "Maria da Conceição Ferreira Lopes").
_NAMED_PERSON = re.compile(
    r"(?:(?i:herr|frau|mr|mrs|ms|mme|m|sr|sra|sig|pan|pani|hr|fr)\.?\s+)?"
    r"[A-ZÀ-Ý][a-zß-ÿ'-]+(?:\s+(?:(?:da|de|do|dos|das|del|di|van|von|der|den|la|le)\s+)?"
    r"[A-ZÀ-Ý][a-zß-ÿ'-]+){1,4}")
# How urgent a patient's sample or order is, as a word alone.
_PRIORITY = re.compile(r"stat|cito|notfall|eilig|urgent|urgente|urgence|pilne|spoed|asap|"
                       r"routine|normal|akut", re.IGNORECASE)
# Words of a pharmacy's or a dispensary's label.
_PHARMACY = re.compile(r"\b(?:rx|pharmacy|pharmacie|apotheke|farmacia|farmácia|apotek|apteka|"
                       r"lékárna|dispensed|dispensing|prescription|prescribed|rezept|verordnet|"
                       r"receta|ordonnance|ricetta)\b", re.I)
# A doctor by title and name: "Dr Samuel Okafor MRCVS", "Dr. med. L. Wagner".
_DOCTOR = re.compile(r"(?:dr|dra|doc|prof)\.?\s+(?:med\.\s+)?[^\W\d_][\w.'-]*(?:\s+[\w.'-]+){0,3}",
                     re.IGNORECASE)


def _descriptions(decisions: list[Decision]) -> None:
    texts = [d for d in decisions if not d.source.is_barcode and d.text]
    upright = [d for d in texts if d.source.orientation == "N"] or texts  # (not a side strip)
    top = min(upright, key=lambda d: (d.source.ry, d.source.rx), default=None)
    subtitle = _subtitle(texts, top) if top is not None and top.text.isupper() \
        and not top.variable else None
    for d in decisions:
        text = d.text.strip()
        if d.variable or d.source.is_barcode or d.reason.startswith(("the maker's own",
                                                                     "caption")):
            continue
        if _LOCATION.fullmatch(text) and any(c.isdigit() for c in text) \
                and len(text.split()) <= 8 and ". " not in text and not text.endswith(":"):
            mark_variable(d, "a room, bay or shelf", 0.6, leading_spaces(d), ("location", 0.6))
            continue
        if _ALCOHOL.fullmatch(text):
            mark_variable(d, "strength of a drink", 0.6, leading_spaces(d), ("abv", 0.6))
            continue
        if _COMPOSITION.fullmatch(text):
            whole = re.match(r"100\s?%", text) is not None  # "100% Merino Wool": one material
            mark_variable(d, "what the goods are made of", 0.6, leading_spaces(d),
                          ("material" if whole else "composition", 0.6))  # "97% CO 3% EA"
            continue
        if not _description_like(text) or _heads_a_value(texts, d) \
                or _heads_a_barcode(decisions, d):
            continue
        if d is top and text.isupper() or d is subtitle:
            continue  # the owner's name or the form's title across the top, and the
            # smaller line right under such a title ("Weaving mill - Prato, Italia")
        offer = _offer(text)
        if offer is not None:
            mark_variable(d, "the price's offer", 0.6, leading_spaces(d), (offer, 0.6))
            continue
        if made_in(text):  # ("MADE IN VIETNAM" on a product's own box: classify leaves
            # a case's marking in capitals static, but not on such a box)
            mark_variable(d, "where the goods are made", 0.6, leading_spaces(d),
                          ("country_of_origin", 0.6))
            continue
        mark_variable(d, "a line of words on a label of goods", 0.55, leading_spaces(d),
                      ("description", 0.5))


# What a price tag's offer saves ("Save 40%", "-25 %", "Sparen Sie 30%") and the
# offers of several for a price ("Any 3 for £10.00", "3 for 2", "2 für 5 €").
_DISCOUNT = re.compile(r"(?:save|you save|spare|sparen(?: sie)?|économisez|risparmi|ahorra|"
                       r"bespaar|spar|oszczędzasz)\s+(?:up to\s+|bis zu\s+)?\d{1,2}\s?%|"
                       r"-\s?\d{1,2}\s?%", re.IGNORECASE)
_MULTIBUY = re.compile(r"(?:any\s+|buy\s+)?\d\s+(?:for|für|pour|per|por|voor|för)\s+"
                       r"(?:\d|[£$€]\s?\d).{0,10}", re.IGNORECASE)


def _offer(text: str) -> str | None:
    """The name of a price tag's offer, or None."""
    if _DISCOUNT.fullmatch(text):
        return "discount"
    return "promotion" if _MULTIBUY.fullmatch(text) else None


def _heads_a_value(texts: list[Decision], d: Decision) -> bool:
    """A few small words right above a value with digits printed larger, or a short
    code printed far larger: a caption ("Rated voltage" over "0,6/1 kV", "DOCK DOOR"
    over "D-07", "VG / PG" over "II"); a caption in two languages, one of them known,
    counts the words of each ("ADR Klasse / Class")."""
    s = d.source
    halves = d.text.split(" / ")
    few = len(d.text.split()) <= 3 or len(halves) == 2 and shapes.few_words(d.text, 3) \
        and any(shapes.caption_name(half)[1] >= 0.6 for half in halves)
    return few and any(
        (0 < o.source.ry - s.ry <= 2 * max(s.font_height, 12) and abs(o.source.rx - s.rx) <= 24
         or beside(s, o.source) and shapes.words_only(d.text))
        and o.source.font_height > s.font_height and (
            shapes.has_digits(o.text, 1)
            or o.source.font_height >= 1.8 * s.font_height and len(o.text.strip()) <= 4)
        for o in texts if o is not d)


def _heads_a_barcode(decisions: list[Decision], d: Decision) -> bool:
    """One to three words right above a barcode, flush with it: its caption ("IMEI 1",
    "WLAN MAC" over their Code 128s)."""
    s = d.source
    return len(d.text.split()) <= 3 and any(
        o.source.is_barcode and 0 < o.source.ry - s.ry <= 2 * max(s.font_height, 12)
        and abs(o.source.rx - s.rx) <= 24 for o in decisions)


def _subtitle(texts: list[Decision], top: Decision) -> Decision | None:
    """The smaller line printed right under a title in capitals: the maker's tagline."""
    t = top.source
    below = [d for d in texts if d is not top and 0 < d.source.ry - t.ry <= 2.5 * t.font_height
             and abs(d.source.rx - t.rx) <= 40 and d.source.font_height <= 0.7 * t.font_height]
    return min(below, key=lambda d: d.source.ry, default=None)


def _description_like(text: str) -> bool:
    """A product's name or description line: a few words, not a caption, a title,
    a sentence, a brand in capitals or handling text."""
    words = text.split()
    if not words or len(words) > 7 or len(text) < 4 or not shapes.has_letters(text):
        return False
    if _INSTRUCTION.match(text):
        return False  # "See circular of information", "Keep frozen": instructions
    if text.endswith((":", ".", "!", ";", "#", "n°", "Nr", "No")) or ". " in text \
            or "___" in text or _DEGREES.search(text) is not None or shapes.is_web(text) \
            or _postal_part(text) or shapes.caption_name(text)[1] >= 0.7 \
            or _OPEN_END.search(text):
        return False  # a caption of the vocabulary, or words that lead into a value
        # ("À consommer de préférence avant le")
    if shapes.reads_as_caption(text) or _LAYOUT_WORDS.search(text) or _OWNER.search(text):
        return False
    if bilingual_caption(text):
        return False
    return not (len(words) == 1 and (text.isupper() or text.isalpha()))


def _party(d: Decision) -> str:
    """The party prefix of a decision's name ("ship_to_"), or ""."""
    match = PARTY.match(d.name or "")
    return match.group(0) if match else ""


def _headed_blocks(decisions: list[Decision]) -> set[str]:
    """The parties (their name's prefix) whose uncaptioned block starts right under a
    caption of words ("Baustelle:" and its value), or with one ("An Lohnbearbeiter",
    which this leaves static): an address the label is sent to, not its maker's."""
    tops: dict[str, Decision] = {}
    for d in decisions:
        role = _party(d) if d.variable and not d.source.is_barcode and not d.prefix_len else ""
        if role and (role not in tops or d.source.ry < tops[role].source.ry):
            tops[role] = d
    headed = set()
    for role, top in tops.items():
        t = top.source
        above = [o for o in decisions if o is not top and not o.source.is_barcode and o.text
                 and 0 < t.ry - o.source.ry <= 2.2 * max(t.font_height, 12)
                 and abs(o.source.rx - t.rx) <= 40 and not PARTY.match(o.name or "")]
        line = max(above, key=lambda o: o.source.ry, default=None)
        words = top.text.split()
        if len(words) in (2, 3) and shapes.address_role(words[0] + ":") \
                and shapes.words_only(top.text):
            headed.add(role)  # its first line a caption too: "An Lohnbearbeiter"
            top.variable, top.value, top.prefix_len, top.name = False, None, 0, None
            top.reason, top.certainty = "caption of a party's block", 0.7
        elif line is not None and (line.text.strip().endswith(":") or "caption" in line.reason
                                 or shapes.address_role(line.text.split()[0] + ":")):
            headed.add(role)
    return headed


def _owners_address(d: Decision) -> None:
    """``d`` is the address of whoever owns the label: static, printed on every one."""
    d.variable, d.value, d.prefix_len, d.name = False, None, 0, None
    d.reason, d.certainty = "the maker's own address on a label of goods", 0.6


# Who made, packed, imported or sells the goods.
_MAKERS = frozenset({"manufacturer", "distributor", "importer", "packer", "producer", "maker",
                     "brand_owner"})


def _postal_part(text: str) -> bool:
    """A line that is, or holds between commas or dashes, a postcode and its town: the
    owner's address on a label of goods ("Via Roma 48, 36012 Asiago (VI) - IT 05 123
    CE"), not a description."""
    return any(shapes.is_postal_line(part.strip())
               for part in re.split(r"\s[-–·]\s|,", text) + [text])


def _ends_with_phone(text: str) -> bool:
    """Words ending in a phone number with its caption: a contact's line."""
    return any(recognise.starts_with_phone(text[word.start():])
               for word in re.finditer(r"(?<=\s)\S", text))


def bilingual_caption(text: str) -> bool:
    """Words printed in two languages, one half a caption or a place of making in
    English ("ADR Klasse / Class", "Gemaakt in Polen / Made in Poland"): layout."""
    halves = [half.strip() for half in text.split(" / ")]
    return len(halves) == 2 and all(halves) and shapes.words_only(text) and any(
        shapes.caption_name(half)[1] >= 0.7 or made_in(half) for half in halves)


def made_in(text: str) -> bool:
    """"Made in Portugal", "Product of Italy": where the goods come from."""
    return bool(_MADE_IN.fullmatch(text.strip()))
