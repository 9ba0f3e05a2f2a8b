^XA
^CI28
^PW800
^LL800
^LH0,0
^FO30,24^A0N,44,40^FDSAUBERFIX PROFI^FS
^FO30,72^A0N,20,18^FDReinigungssysteme für Gewerbe und Haushalt^FS
^FO30,104^GB740,3,3^FS
^FO30,120^A0N,40,36^FDKraftreiniger Zitrus^FS
^FO30,166^A0N,24,22^FDFettlösendes Konzentrat für Küche und Werkstatt^FS
^FO560,120^A0N,56,50^FD5 L^FS
^FO30,210^A0N,22,20^FDArt.-Nr. SF-KR-0500^FS
^FO30,240^A0N,22,20^FDDosierung: 50 ml auf 10 L Wasser^FS
^FO30,284^GB110,110,3^FS
^FO50,320^A0N,28,24^FDGHS05^FS
^FO160,290^A0N,34,30^FDGEFAHR^FS
^FO160,332^A0N,20,18^FB600,2,0,L^FDH314 Verursacht schwere Verätzungen der Haut und schwere Augenschäden.^FS
^FO30,410^A0N,18,16^FDP280 Schutzhandschuhe/Augenschutz tragen.^FS
^FO30,434^A0N,18,16^FDP301+P330+P331 BEI VERSCHLUCKEN: Mund ausspülen. KEIN Erbrechen herbeiführen.^FS
^FO30,458^A0N,18,16^FDP305+P351+P338 BEI KONTAKT MIT DEN AUGEN: Einige Minuten lang behutsam mit Wasser spülen.^FS
^FO30,482^A0N,18,16^FDEnthält: Natriumhydroxid, Alkylpolyglucosid^FS
^FO30,516^A0N,18,16^FDInhaltsstoffe: 5-15 % nichtionische Tenside, < 5 % Phosphonate, Duftstoffe (Limonene)^FS
^FO30,560^A0N,22,20^FDCharge: 26K1187^FS
^FO30,590^A0N,22,20^FDHerstelldatum: 18.11.2026^FS
^FO30,620^A0N,22,20^FDMindestens haltbar bis: 11/2028^FS
^FO440,560^BY3,3^BEN,100,Y,N^FD401234567801^FS
^FO30,700^A0N,18,16^FDSauberfix Chemie GmbH, Industriestraße 14, 33334 Gütersloh^FS
^FO30,724^A0N,18,16^FDGiftnotruf: +49 551 19240 | Nur für den gewerblichen Gebrauch^FS
^XZ
