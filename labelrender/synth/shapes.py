"""What a piece of label text looks like: captions, address roles and data shapes.

The word lists are the captions carriers print in the languages of the corpus
(English, German, French, Dutch, Italian, Spanish, Polish, Nordic, Turkish).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Address captions and the role they give the block below or beside them, in the
# languages carriers print (English, German, French, Italian, Spanish, Portuguese,
# Dutch, Swedish, Danish, Norwegian, Finnish, Polish, Czech, Hungarian, Turkish).
ADDRESS_ROLES = {
    **dict.fromkeys(
        ["TO", "SHIP TO", "SHIP-TO", "DELIVER TO", "DELIVERY TO", "DELIVERY ADDRESS",
         "RECIPIENT", "RECEIVER", "CONSIGNEE", "EMPFANGER", "EMPFÄNGER", "LIEFERADRESSE",
         "DESTINATAIRE", "DESTINATARIO", "GEADRESSEERDE", "ONTVANGER", "ODBIORCA",
         "ADRES DORĘCZENIA", "MOTTAKER", "MOTTAGARE", "MODTAGER", "TILL", "VASTAANOTTAJA",
         "ALICI", "ALICI ADRESI", "ALICI ADRESİ", "AAN", "TIL", "DESTINATION", "PŘÍJEMCE",
         "CÍMZETT", "LEVERANSADRESS", "LEVERINGSADRESSE", "DESTINATÁRIO", "A L'ATTENTION DE"],
        "ship_to"),
    **dict.fromkeys(
        ["FROM", "SHIP FROM", "SENDER", "SHIPPER", "ABSENDER", "EXPEDITEUR", "EXPÉDITEUR",
         "MITTENTE", "REMITENTE", "AFZENDER", "NADAWCA", "AVSENDER", "AVSÄNDARE", "AFSENDER",
         "FRÅN", "FRAN", "FRA", "LÄHETTÄJÄ", "ODESÍLATEL", "FELADÓ", "GONDERICI", "GÖNDERICI",
         "GÖNDERİCİ", "RETURN TO", "RETURN ADDRESS", "IF UNDELIVERED RETURN TO", "RETOUR",
         "REMETENTE", "RETURADRESSE", "RETURADRESS"],
        "ship_from"),
    **dict.fromkeys(["MARK FOR", "MARK-FOR", "STORE"], "mark_for"),
    **dict.fromkeys(["BILL TO", "BILL-TO", "SOLD TO", "RECHNUNGSADRESSE"], "bill_to"),
}

# Short words that are captions only with a colon ("DE:"), not as plain text.
_COLON_ROLES = {"FOR": "mark_for", "A": "ship_to", "AN": "ship_to", "PARA": "ship_to",
                "DE": "ship_from", "DA": "ship_from", "VON": "ship_from", "VAN": "ship_from",
                "OD": "ship_from", "DO": "ship_to"}


def _words(name: str, *captions: str) -> dict[str, str]:
    return dict.fromkeys(captions, name)


# Caption words (lower case, as ``caption_name`` spells them) -> the field name they
# give the value next to them: one concept per line, in the carriers' languages.
CAPTION_NAMES = {
    **_words("phone", "tel", "tel no", "phone", "phone #", "telephone", "tlf", "tlm",
             "telemóvel", "telemovel", "telefon",
             "telefone", "telefono", "teléfono", "téléphone", "mobile", "mob", "cell", "gsm",
             "tfn", "puh", "handy", "mobil", "telefonnummer", "phone number"),
    **_words("email", "email", "e mail", "mail"),
    **_words("contact", "contact", "kontakt", "attn", "att", "contact name", "ansprechpartner",
             "referente", "kontaktperson"),
    **_words("reference", "ref", "ref #", "ref no", "ref nr", "reference", "reference #",
             "reference no", "referenz", "referenznr", "referenznummer", "referentie",
             "référence", "reference client", "riferimento", "rif", "referencia", "referência",
             "referens", "referanse", "reference nr", "ref code", "customer ref",
             "customer reference", "your ref", "our ref", "order ref", "senders ref",
             "receivers ref", "sender ref", "shipper ref", "kundreferens", "sändningsref",
             "sandningsref", "ihre referenz", "kundenreferenz", "numer referencyjny",
             "kenmerk", "uw kenmerk", "ons kenmerk", "var symbol", "variabilní symbol",
             "variabilni symbol"),
    **_words("tracking_number", "tracking", "tracking #", "tracking no", "tracking number",
             "tracking id", "track id", "trk", "trk #", "awb", "awb #", "air waybill",
             "waybill", "waybill #", "track & trace", "track and trace", "sendungsnr",
             "sendungsnummer", "sendungs nr", "sendungs id", "sendung", "shipment", "shipment #",
             "shipment no",
             "shipment id", "shipment number", "shp #", "sändnings id", "sandnings id",
             "sändningsnummer", "forsendelsesnummer", "zending", "zendingnummer",
             "numéro de colis", "numero de colis", "n colis", "numero spedizione",
             "lettera di vettura", "número de envío", "numero de envio", "envio", "envío",
             "numer przesyłki", "numer paczki", "parcel no", "parcel number", "parcel id",
             "consignment", "consignment no", "consignment number", "pro", "pro #",
             "pro number", "pro no", "kollinummer", "paketnummer", "packet id", "lv",
             "sendingsnr", "sendingsnummer", "sändningsnr", "forsendelsesnr", "article id",
             "código de rastreo", "codigo de rastreo", "rastreo", "número de guía",
             "numero de guia", "guía", "guia", "n de suivi", "numéro de suivi",
             "sledovací číslo", "numero di tracking"),
    **_words("sscc", "sscc", "kolli id", "nve", "sscc no"),
    **_words("weight", "wt", "wgt", "weight", "gewicht", "poids", "peso", "waga", "vekt",
             "vikt", "vægt", "paino", "masa", "hmotnost", "súly", "ağırlık", "act wgt",
             "actwgt", "ship wt", "shp wt", "gross weight", "net weight", "weight kg",
             "weight lbs", "peso kg", "poids kg", "kg", "lbs"),
    **_words("dimensions", "dims", "dim", "dwt", "dimensions", "dimmed", "size", "maße", "masse",
             "dimensioni", "dimensiones", "afmetingen", "mått", "wymiary"),
    **_words("date", "date", "datum", "data", "fecha", "dato", "päivämäärä", "tarih",
             "datum zásilky", "dátum"),
    **_words("ship_date", "ship date", "shipping date", "shipment date", "avs datum",
             "avsändningsdatum", "versanddatum", "versanddat", "date d expédition",
             "data spedizione", "fecha de envío", "verzenddatum", "date of mailing",
             "pickup date", "data nadania"),
    **_words("print_date", "print date", "printed", "utskriftsdatum", "druckdatum",
             "data generowania", "date d impression", "data di stampa"),
    **_words("delivery_date", "delivery date", "deliver by", "estimated delivery", "eta",
             "expected delivery", "expected delivery date", "scheduled delivery",
             "voraussichtliche zustellung", "livraison prévue", "consegna prevista",
             "lieferdatum", "leveransdatum", "leveransedato", "data consegna",
             "date de livraison", "fecha de entrega", "afleverdatum", "bezorgdatum",
             "leverdatum", "zustelldatum", "doručení", "data doręczenia"),
    **_words("expiry_date", "expiry", "expiry date", "expires", "exp", "best before", "bbd",
             "mhd", "use by", "termin ważności", "termin waznosci", "à consommer avant"),
    **_words("piece_count", "collo", "colli", "pcs", "pieces", "piece", "item", "parcel",
             "kolli", "anzahl", "paczka", "paczki", "pakke", "pakker", "packages", "pkg",
             "pkgs", "items", "pieza", "piezas", "pezzi", "colis", "carton", "cartons", "box",
             "packstück", "packstücke", "paket", "package", "bultos", "bulto", "stuks", "szt",
             "sztuk",
             "paquetes", "paquets", "pacchi", "colli nr", "kolli nr", "nombre de colis",
             "antal kolli", "number of pieces", "no of pieces", "pieces count"),
    **_words("quantity", "qty", "quantity", "count", "menge", "quantité", "quantità", "cantidad",
             "aantal", "antal", "ilość"),
    **_words("account_number", "account", "account no", "account #", "account number",
             "acct", "acct no", "abrechnungsnr", "abrechnungsnummer", "billing account",
             "numero de compte", "konto", "kontonummer", "cad"),
    **_words("customer_number", "customer", "customer no", "customer #", "customer number",
             "cust no", "kundennummer", "kundennr", "kundenr", "kundnummer", "kundnr", "knr",
             "kundenummer", "numéro client", "codice cliente", "número de cliente",
             "klantnummer", "numer klienta"),
    **_words("order_number", "order", "order no", "order #", "order number", "ordre",
             "bestellung", "bestellnr", "bestellnummer", "commande", "n commande", "ordine",
             "pedido", "ordernummer", "ordernr", "zamówienie", "order id", "auftrag",
             "auftragsnr", "auftragsnummer", "numero de commande", "numéro de commande",
             "numero ordine", "número de pedido", "numer zamówienia", "sales order", "so", "so #",
             "so no"),
    **_words("purchase_order", "po", "po #", "p o", "purchase order", "p o #", "po no"),
    **_words("reference", "delivery note", "delivery no", "lieferschein", "lieferscheinnr",
             "bon de livraison", "albarán", "albaran", "bolla", "ddt", "följesedel",
             "pakbon", "shipper reference"),
    **_words("ship_date", "shipped", "shipped on", "dispatch date", "date of dispatch",
             "date d envoi", "fecha envío", "data di spedizione", "versandt am"),
    **_words("invoice", "inv", "invoice", "invoice no", "rechnung", "rechnungsnr",
             "facture", "fattura", "factura", "faktura"),
    **_words("department", "dept", "department", "abteilung"),
    **_words("description", "desc", "description", "content", "contents", "contenu",
             "inhalt", "contenuto", "contenido", "inhoud", "innehåll", "indhold", "innhold",
             "zawartość", "zawartosc", "artikelinfo", "goods", "article", "articles",
             "warenbeschreibung", "opis"),
    **_words("service", "service", "serwis", "tjänst", "dienst", "servizio", "servicio",
             "produkt", "product", "service level"),
    **_words("routing_code", "depot", "route", "routing", "routing code", "leitcode",
             "sort", "sort code", "hub", "sortierung", "tournee", "zone", "rejon", "sort area",
             "area", "zona", "destination", "dest", "origin", "orig", "sector", "tour",
             "tournée", "route code", "gateway", "facility", "station", "terminal",
             "sorteercode", "sorteer code", "sortiercode", "sortcode", "depo", "trasa",
             "depo trasa", "filiale", "filial", "sortering", "sorteringskod", "origen",
             "destino", "ruta", "rota", "percurso"),
    **_words("insurance", "insurance", "ubezpieczenie", "versicherung", "assurance",
             "assicurazione", "seguro", "insured value"),
    **_words("cod_amount", "cod", "c o d", "nachnahme", "contre remboursement",
             "contrassegno", "contra reembolso", "rembours", "pobranie", "efterkrav",
             "dobírka", "dobirka", "cash on delivery", "kwota pobrania", "rembours bedrag"),
    **_words("value", "value", "wert", "valeur", "valore", "valor", "waarde", "värde",
             "customs value", "declared value"),
    **_words("bill_of_lading", "b l", "b l #", "b l no", "bill of lading", "bol"),
    **_words("lot_number", "lot", "lot no", "batch", "batch no", "charge", "lotto", "lote"),
    **_words("pin", "pin", "pin code", "pincode", "code pin"),
    **_words("order_type", "order type"),
    **_words("delivery_instructions", "delivery instructions", "delivery instr", "instructions",
             "instr", "safe place", "safe drop", "leave at", "instructie", "instruction",
             "zustellhinweis", "lieferhinweis", "instructions de livraison", "istruzioni",
             "instrucciones", "leveransinstruktion", "transportinstruktion", "wskazówki"),
    **_words("remarks", "note", "notes", "remarks", "remark", "comment", "comments",
             "bemerkung", "hinweis", "remarque", "nota", "note di consegna", "observaciones",
             "opmerking", "anmärkning", "uwagi", "opis uwagi", "bemærkning", "merknad"),
    **_words("permit_number", "permit", "permit no", "permit #"),
    # Product, inventory, asset and lab labels.
    **_words("part_number", "part", "part no", "part #", "part number", "p n", "pn",
             "item no", "item #", "item number", "art no", "art nr", "artikel nr",
             "artikelnummer", "artikel", "article no", "article number", "artikelnr",
             "teilenummer", "teile nr", "sachnummer", "mat nr", "materialnummer",
             "référence article", "ref article", "codice articolo", "cod art", "art",
             "articolo",
             "referencia artículo", "numer katalogowy",
             "indeks", "mpn", "mfr part", "mfr pn", "mfg part", "mfg pn", "manufacturer part",
             "manufacturer part #", "cpn", "customer part", "customer pn", "model", "model no"),
    **_words("sku", "sku", "sku #", "sku no", "product code", "prod code", "item code",
             "stock code", "stock no"),
    **_words("serial_number", "serial", "serial no", "serial #", "serial number", "s n", "sn",
             "seriennummer", "serien nr", "ser nr", "numéro de série", "n de série",
             "no de série", "numero di serie", "matricola", "número de serie", "serienummer",
             "numer seryjny", "nr seryjny"),
    **_words("lot_number", "lot #", "lot number", "batch #", "batch number", "charge nr",
             "chargennummer", "chargen nr", "ch b", "numéro de lot", "n de lot", "no lot",
             "partij", "partijnummer", "parti", "partia", "numer partii", "lote n",
             "número de lote", "numero di lotto", "nr partii", "partii", "šarže",
             "číslo šarže", "eräkoodi", "erä"),
    **_words("expiry_date", "exp date", "expiration", "expiration date", "use before",
             "best by", "best before end", "verfallsdatum", "verfall", "verwendbar bis",
             "haltbar bis", "dluo", "dlc", "ddm", "date limite", "scadenza", "da consumarsi",
             "caducidad", "fecha de caducidad", "consumir preferentemente", "houdbaar tot",
             "tht", "bäst före", "bast fore", "bedst før", "bedst for", "holdbar til",
             "data ważności", "ważne do", "waz do", "use by date", "discard after",
             "najlepiej spożyć przed", "spożyć przed", "należy spożyć do",
             "da consumarsi preferibilmente entro", "da consumarsi entro",
             "à consommer de préférence avant", "consumir preferentemente antes de",
             "mindestens haltbar bis", "ten minste houdbaar tot", "spotřebujte do",
             "minimální trvanlivost do"),
    **_words("manufacture_date", "mfg", "mfg date", "mfd", "manufactured", "date of manufacture",
             "manufacturing date", "production date", "prod date", "produced", "herstelldatum",
             "herstellungsdatum", "produktionsdatum", "hergestellt", "date de fabrication",
             "fabriqué le", "data di produzione", "data produzione", "fecha de fabricación",
             "fecha fabricacion", "productiedatum", "tillverkningsdatum", "data produkcji",
             "packed", "packed on", "pack date", "date packed", "abgepackt am", "emballé le"),
    **_words("price", "price", "our price", "sale price", "retail price", "preis", "vk preis",
             "prix", "prix ttc", "prezzo", "precio", "pvp", "prijs", "pris", "cena"),
    **_words("unit_price", "unit price", "price per", "grundpreis", "prix au kilo",
             "prix unitaire", "prezzo al kg", "precio por kg", "kilopreis", "jämförpris",
             "cena jednostkowa"),
    **_words("location", "location", "loc", "bin", "bin location", "bin loc", "shelf",
             "aisle", "rack", "slot", "storage location", "stock location", "lagerplatz",
             "lagerort", "stellplatz", "regal", "emplacement", "ubicación", "ubicacion",
             "ubicazione", "locatie", "lokalizacja", "lagerplats", "plats", "hylla"),
    **_words("asset_number", "asset", "asset no", "asset #", "asset tag", "asset id",
             "asset number", "inventory no", "inventory #", "inventar nr", "inventarnummer",
             "inv nr", "anlagennummer", "equipment id", "equipment no", "equipment #"),
    **_words("patient_name", "patient", "patient name", "name of patient", "patientenname"),
    **_words("patient_id", "mrn", "mr #", "mr no", "patient id", "medical record",
             "medical record no", "pid", "hospital no", "nhs no", "nhs number"),
    **_words("date_of_birth", "dob", "d o b", "date of birth", "birth date", "born",
             "geburtsdatum", "geb", "date de naissance", "data di nascita",
             "fecha de nacimiento"),
    **_words("specimen_id", "specimen", "specimen id", "specimen #", "sample id", "sample no",
             "sample #", "accession", "accession no", "accession #", "probe nr", "probennummer"),
    **_words("gtin", "gtin", "ean", "ean code", "upc", "upc code", "ean 13", "barcode no"),
    **_words("date_code", "d c", "date code"),
    **_words("manufacturer", "mfr", "manufacturer", "hersteller", "fabricant", "produttore",
             "fabricante"),
    **_words("vendor", "vendor", "supplier", "lieferant", "fournisseur", "fornitore",
             "proveedor", "leverancier", "leverantör", "dostawca"),
    **_words("material", "material", "materiál", "matériau", "materiale", "materiaal"),
    **_words("size", "size", "größe", "grosse", "taille", "taglia", "talla", "maat",
             "storlek", "rozmiar"),
    **_words("color", "color", "colour", "farbe", "couleur", "colore", "kleur", "färg",
             "kolor"),
    **_words("style", "style", "style no", "style #", "modell"),
    **_words("work_order", "wo", "wo #", "w o", "w o #", "work order", "work order no",
             "fertigungsauftrag", "fa nr", "ordre de fabrication"),
    **_words("un_number", "un", "un no", "un number", "un nr"),
    **_words("tariff_number", "hs code", "hs tariff", "hs tariff number", "tariff code",
             "tariff number", "hs", "customs tariff", "zolltarifnummer", "code sh",
             "código sh", "taric"),
    **_words("country_of_origin", "country of origin", "origin country", "coo",
             "kraj pochodzenia", "herkunftsland", "ursprungsland", "pays d origine",
             "paese di origine", "país de origen", "land van herkomst", "oprindelsesland"),
    **_words("quantity", "net content", "net contents", "net qty", "contenu net",
             "contenance", "confezione", "nettoinhalt", "füllmenge", "contenido neto",
             "zawartość netto", "netto inhoud", "pack size", "pack", "packung"),
    **_words("rma_number", "rma", "rma #", "rma no", "rma number", "return authorization",
             "return authorisation", "return auth", "ra #", "ra no", "retourennummer",
             "numéro de retour", "numero di reso", "número de devolución"),
    **_words("reason_code", "reason", "reason code", "return reason", "retourengrund",
             "motif de retour", "motivo del reso", "motivo de devolución"),
    # The label form's own version ("VER: 01.06"): part of the layout, never data.
    **_words("form_version", "ver", "version", "rev", "revision", "label version",
             "form version", "layout"),
}


def _caption_key(text: str) -> str:
    return snake(text.strip().rstrip(":").strip()).replace("_number", " #").replace("_", " ")



# Country names as address blocks print them, in English and their own language,
# and ISO 3166 codes; "HU - Magyarország" and "United States (USA)" forms too.
COUNTRIES = frozenset("""
UNITED STATES|USA|US|UNITED STATES OF AMERICA|CANADA|CA|MEXICO|MÉXICO|MX|UNITED KINGDOM|UK|
GB|GREAT BRITAIN|ENGLAND|SCOTLAND|WALES|IRELAND|IE|ÉIRE|GERMANY|DEUTSCHLAND|DE|FRANCE|FR|
ITALY|ITALIA|IT|SPAIN|ESPAÑA|ESPANA|ES|PORTUGAL|PT|NETHERLANDS|NEDERLAND|THE NETHERLANDS|NL|
BELGIUM|BELGIQUE|BELGIË|BELGIE|BE|LUXEMBOURG|LU|SWITZERLAND|SCHWEIZ|SUISSE|SVIZZERA|CH|
AUSTRIA|ÖSTERREICH|OSTERREICH|AT|SWEDEN|SVERIGE|SE|NORWAY|NORGE|NO|DENMARK|DANMARK|DK|
FINLAND|SUOMI|FI|ICELAND|ÍSLAND|IS|POLAND|POLSKA|PL|CZECH REPUBLIC|CZECHIA|ČESKO|CESKO|
ČESKÁ REPUBLIKA|CZ|SLOVAKIA|SLOVENSKO|SK|HUNGARY|MAGYARORSZÁG|MAGYARORSZAG|HU|SLOVENIA|
SLOVENIJA|SI|CROATIA|HRVATSKA|HR|ROMANIA|ROMÂNIA|RO|BULGARIA|БЪЛГАРИЯ|BG|GREECE|ΕΛΛΆΔΑ|GR|
TURKEY|TÜRKIYE|TÜRKİYE|TURKIYE|TR|ESTONIA|EESTI|EE|LATVIA|LATVIJA|LV|LITHUANIA|LIETUVA|LT|
AUSTRALIA|AU|NEW ZEALAND|NZ|JAPAN|JP|CHINA|CN|INDIA|IN|BRAZIL|BRASIL|BR|SOUTH AFRICA|ZA
""".replace("\n", "").split("|"))


@lru_cache(maxsize=8192)
def is_country(text: str) -> bool:
    """A country line: a name or code of COUNTRIES, alone or as "HU - Magyarország"
    or "United States (USA)"."""
    key = re.sub(r"\s+", " ", text.strip().upper().strip("()"))
    named = re.fullmatch(r"(.+) ([A-Z]{2,3})", key)  # "UNITED STATES US"
    if named and named.group(1) in COUNTRIES and named.group(2) in COUNTRIES:
        return True
    parts = [key] + [p.strip(" ()") for p in re.split(r" - |\(|\)", key) if p.strip(" ()")]
    return bool(key) and len(key) <= 40 and all(p in COUNTRIES for p in parts[1:] or parts)


_MONTHS = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*"
DATE = re.compile(
    rf"\b(?:\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|"
    rf"\d{{1,2}} ?{_MONTHS} ?\d{{2,4}})\b", re.IGNORECASE)
WEIGHT = re.compile(r"\b\d+(?:[.,]\d+)? ?(?:KGS?|LBS?|G|OZ)\b", re.IGNORECASE)
PHONE = re.compile(r"(?:\+|\b00)\d[\d ()/-]{6,}\d|\(\d{2,4}\) ?\d[\d -]{5,}\d")
PIECES = re.compile(r"^\d+\s*(?:OF|/|VON|DE|VAN|Z|AV|AF)\s*\d+$", re.IGNORECASE)
# Postal codes of the corpus countries: US ZIP(+4), 4-5 digit European (also with
# the country's prefix: "D-12345", "H-3437", "CH-8000", "DK-2500"), Polish,
# Swedish/Czech spaced, Dutch, British and Canadian.
POSTAL = re.compile(
    r"\b(?:(?:[A-Z]{1,3}-)?(?:\d{5}(?:-\d{4})?|\d{4})|\d{2}-\d{3}|(?:S-)?\d{3} \d{2}|"
    r"\d{4} ?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d)\b")
_WORD = re.compile(r"[^\W\d_]{2,}")
_CAPTION_HEAD = re.compile(r"^\s*[^\W\d_][^\d:]{0,30}?(?:\d{1,2})?\s*$")
_SNAKE = re.compile(r"[^a-z0-9]+")


def snake(text: str) -> str:
    """``SHIP DATE`` -> ``ship_date``; accents kept only as plain letters."""
    plain = text.lower().replace("#", " number ").replace("&", " and ")
    plain = unicodedata.normalize("NFKD", plain.replace("ø", "o").replace("ł", "l"))
    plain = plain.encode("ascii", "ignore").decode()
    return _SNAKE.sub("_", plain).strip("_")


def caption_key(text: str) -> str:
    """A caption as the lookup tables spell it: upper case, no colon or dots."""
    return re.sub(r"\s+", " ", text.strip().rstrip(":").strip().replace(".", "")).upper()


@lru_cache(maxsize=8192)
def address_role(text: str) -> str | None:
    """The role an address caption gives, also for bilingual "TO / A:" captions."""
    colon = text.strip().endswith(":")
    # "FROM (CUSTOMER)", "SHIP TO (CONSIGNEE)": the role word before a gloss
    key = re.sub(r"\s*\([^()]{1,20}\)$", "", caption_key(text)) or caption_key(text)
    for part in key.split("/"):
        key = part.strip()
        if colon and key in _COLON_ROLES:
            return _COLON_ROLES[key]
        if key in ADDRESS_ROLES:
            return ADDRESS_ROLES[key]
        words = key.split()
        if 2 <= len(words) <= 4:  # "USPS DELIVER TO": a role phrase after a brand
            for n in (3, 2):
                tail = " ".join(words[-n:])
                if len(words) > n and tail in ADDRESS_ROLES and " " in tail:
                    return ADDRESS_ROLES[tail]
    return None


@lru_cache(maxsize=8192)
def is_caption(text: str) -> bool:
    """Static caption text: "SHIP TO:", "TRK#", "TO", a few words ending in a colon."""
    stripped = text.strip()
    if not stripped or any(c.isdigit() for c in stripped):
        return False
    if address_role(stripped) is not None:
        return True
    words = stripped.split()
    return len(words) <= 5 and (stripped.endswith(":") or stripped.endswith("#"))


# A caption without a colon before its value: "PRO NUMBER 123456789", "B/L NO 4711".
# Address lines that read like one ("Skrytka pocztowa nr 100", "Suite No 5") are not.
_NUMBER_CAPTION = re.compile(
    r"^(?!(?:P\.? ?O\.? BOX|BOX|POSTFACH|SKRYTKA|BO[IÎ]TE POSTALE|APARTADO|CASELLA POSTALE|"
    r"POSTBUS|POSTBOKS|BOX|SUITE|STE|APT|APARTMENT|UNIT|FLAT|FLOOR|BLDG|BUILDING|PSC|"
    r"LOCAL|PISO|NUM[EÉ]RO|HAUS|HAUSNR)\b)"
    r"([^\W\d_][^\d:]{0,24}?\s(?:NUMBER|NO\.?|NR\.?|#))\s+(?=\S*\d)", re.IGNORECASE)


@lru_cache(maxsize=8192)
def caption_split(text: str) -> int | None:
    """Where the value starts in "Caption: value" text, or None."""
    colon = text.find(":")
    if colon < 0:
        match = _NUMBER_CAPTION.match(text)
        return match.end() if match and len(text.split()) <= 6 else None
    if not _CAPTION_HEAD.match(text[:colon]) or len(text[:colon].split()) > 4:
        return None
    rest = text[colon + 1 :]
    if not rest.strip() or rest.startswith("//") or (rest[:1].isdigit()
                                                     and text[colon - 1 : colon].isdigit()):
        return None  # nothing after it, a URL, or a time of day such as 22:00
    if len(rest.split()) >= 5 and not any(c.isdigit() for c in rest):
        return None  # prose after a heading ("TOBACCO: FEDERAL LAW REQUIRES ...")
    return colon + 1 + (len(rest) - len(rest.lstrip()))


@lru_cache(maxsize=8192)
def caption_name(caption: str) -> tuple[str, float]:
    """The field name a caption gives the value next to it, and how sure that is: a
    caption of the vocabulary is sure, an unknown one only names the field."""
    # "BEST BEFORE (dd.mm.yy)": the gloss in brackets says how, not what
    key = _caption_key(re.sub(r"\s*\([^()]*\)\s*(?=:?\s*$)", "", caption) or caption)
    tries = [key, key.replace(" #", ""), key.replace(" #", " number")]
    # "BATCH/LOT", "Poids / Weight": either half of a two-part caption, as sure
    halves = caption.split("/")
    if len(halves) == 2 and all(_caption_key(half) for half in halves):
        tries += [_caption_key(half) for half in halves]
    short = re.sub(r"(?:\s(?:no|nr|#|number|id|\d+))+$", "", re.sub(r"(?<=[a-z])\d$", "", key))
    words = short.split(" ") if short else [""]
    tries.append(short)
    sure = len(tries)
    # Then parts of a longer caption: "Termin ważności etykiety" holds "termin ważności".
    tries += [words[-1], words[0], " ".join(words[:2]), " ".join(words[-2:])]
    names = _names()
    for i, attempt in enumerate(tries):
        if attempt in names:
            name = names[attempt]
            if name == "piece_count" and re.search(r"\bid$", key):
                return "tracking_number", 0.7  # "Piece ID", "Paket-ID": an identifier
            return name, 0.85 if i < sure else 0.7
    last = short.split(" ")[-1] if short else ""
    if last.endswith("ref") or last.endswith("reference") or any(
            w in ("ref", "réf", "rif", "ref a") or w.startswith(("referen", "référen", "riferim"))
            for w in short.split(" ")):
        return "reference", 0.7  # "AltRef", "Kundenref", "Ref.ª cliente"
    return _numbered(snake(caption)) or "field", 0.45


def _numbered(name: str) -> str:
    """An unknown caption's name, numbers spelled one way: ``part_no`` -> ``part_number``."""
    return re.sub(r"_(?:no|nr|nbr|num|n)$", "_number", name)


_NAMES_BY_KEY: dict[str, str] = {}


def _names() -> dict[str, str]:
    if not _NAMES_BY_KEY:
        _NAMES_BY_KEY.update({_caption_key(k): v for k, v in CAPTION_NAMES.items()})
    return _NAMES_BY_KEY


@lru_cache(maxsize=8192)
def is_known_caption(text: str) -> bool:
    """Caption text of the vocabulary: "Weight:", "Phone", "Sendungsnr.", "Ref1:" ..."""
    words = re.sub(r"(?<=[^\W\d_])\s?\d(?=\s*:?\s*$)", "", text)  # "Ref1:", "Ref 2:"
    return bool(words.strip()) and not any(c.isdigit() for c in words) and \
        caption_name(text)[1] >= 0.85 and len(text.split()) <= 4


def compact(text: str) -> str:
    return re.sub(r"[\s()]", "", text)


def is_sscc(text: str) -> bool:
    digits = compact(text)
    return digits.isdigit() and (len(digits) == 18 or (len(digits) == 20
                                                       and digits.startswith("00")))


def is_tracking(text: str) -> bool:
    """A long code of letters and digits: a tracking or parcel number."""
    code = compact(text).replace("-", "")
    wordy = any(len(word) >= 4 and word.isalpha() for word in text.split())
    return (len(code) >= 10 and code.isalnum() and sum(c.isdigit() for c in code) >= 6
            and len(text.split()) <= 8 and not wordy)


@lru_cache(maxsize=8192)
def is_postal_line(text: str) -> bool:
    """A line with a postal code and a place name, such as "1015 CS Amsterdam"."""
    return bool(POSTAL.search(text.upper())) and bool(_WORD.search(text)) \
        and len(text.split()) <= 6


_TIMES = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b24/7\b|\b\d{1,2} ?[AP]M\b", re.IGNORECASE)


def has_digits(text: str, count: int) -> bool:
    return sum(c.isdigit() for c in text) >= count


def data_digits(text: str, count: int) -> bool:
    """At least ``count`` digits outside times of day ("BY 10:30 AM", "24/7"), which
    describe a service, not a shipment."""
    return has_digits(_TIMES.sub("", text), count)


def has_letters(text: str) -> bool:
    return bool(_WORD.search(text))


def words_only(text: str) -> bool:
    return not any(c.isdigit() for c in text)


@lru_cache(maxsize=8192)
def shape_name(text: str) -> tuple[str, float] | None:
    """A name from what the data looks like, with how sure it is."""
    if _TIMES.fullmatch(text.strip()):
        return None
    if is_sscc(text):  # with its "(00)" sure; 18 digits alone may be a parcel number
        return "sscc", 0.85 if len(compact(text)) == 20 or "(00)" in text else 0.6
    if PIECES.match(text.strip()):
        return "piece_count", 0.8
    if WEIGHT.fullmatch(text.strip()):
        return "weight", 0.85
    if DATE.fullmatch(text.strip()):
        return "date", 0.85
    if PHONE.fullmatch(text.strip()):
        return "phone", 0.65
    if is_tracking(text):
        return "tracking_number", 0.7
    if POSTAL.fullmatch(text.strip().upper()):
        return "postal_code", 0.7
    return None
