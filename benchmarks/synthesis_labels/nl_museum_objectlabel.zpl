^XA
^CI28
^PW609
^LL304
^LH0,0
^FO16,10^A0N,20,18^FDRijksmuseum Twenthe - Collectiebeheer^FS
^FO16,36^A0N,36,32^FDInv.nr. 2026.0114.03^FS
^FO16,80^A0N,24,22^FDTitel: Zilveren suikerpot met deksel^FS
^FO16,110^A0N,22,20^FDVervaardiger: J. Schiotling, Amsterdam, 1772^FS
^FO16,140^A0N,22,20^FDMateriaal: zilver, gedreven; h 14,2 cm^FS
^FO16,170^A0N,22,20^FDStandplaats: Depot 2, kast K14, plank 3^FS
^FO16,200^A0N,22,20^FDVerwerving: schenking fam. Ter Horst^FS
^FO16,230^A0N,20,18^FDConditie: goed, lichte aanslag^FS
^FO16,256^A0N,18,16^FDGecontroleerd 18-11-2026 door M. de Groot^FS
^FO470,170^BXN,4,200^FD2026.0114.03^FS
^FO16,282^A0N,16,14^FDNiet aanraken zonder handschoenen^FS
^XZ
