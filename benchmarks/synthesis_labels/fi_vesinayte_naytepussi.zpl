^XA
^CI28
^PW812
^LL609
^LH0,0
^FO20,16^A0N,34,30^FDVESINÄYTE / VATTENPROV^FS
^FO520,20^A0N,22,20^FDSYKE Lab Oy, Oulu^FS
^FO0,60^GB812,3,3^FS
^FO20,74^A0N,22,20^FDNäytetunnus / Provnummer^FS
^FO20,100^A0N,48,44^FDW26-118342^FS
^FO560,74^BXN,5,200^FDW26-118342^FS
^FO20,162^A0N,22,20^FDNäytepaikka / Provplats^FS
^FO20,188^A0N,30,28^FDKiiminkijoki, Haukipudas silta^FS
^FO20,226^A0N,24,22^FDKoord. 65.1792 N 25.3521 E^FS
^FO20,264^A0N,22,20^FDNäytetyyppi: Pintavesi, 1 m syvyys^FS
^FO20,300^A0N,22,20^FDOtettu / Taget^FS
^FO200,296^A0N,30,28^FD24.11.2026 klo 09.45^FS
^FO20,340^A0N,22,20^FDNäytteenottaja / Provtagare^FS
^FO330,336^A0N,30,28^FDAnnika Heikkilä^FS
^FO20,380^A0N,22,20^FDTutkimukset: pH, sähkönjoht., kok-P, kok-N, TOC^FS
^FO20,414^A0N,22,20^FDSäilöntä: H2SO4, 2 x 500 ml^FS
^FO20,448^A0N,22,20^FDTilaaja: Pohjois-Pohjanmaan ELY-keskus^FS
^FO20,482^A0N,22,20^FDProjekti 4411-26 / Velvoitetarkkailu^FS
^FO0,520^GB812,3,3^FS
^FO20,534^A0N,22,20^FDKuljetus +4 °C, analysoitava 24 h kuluessa^FS
^FO20,566^A0N,20,18^FDTransport +4 °C, analyseras inom 24 h^FS
^XZ
