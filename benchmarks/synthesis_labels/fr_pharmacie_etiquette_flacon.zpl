^XA
^CI28
^PW560
^LL320
^FO10,8^A0N,22,20^FDPharmacie des Tilleuls^FS
^FO10,32^A0N,16,14^FD12 place du Marché, 69003 Lyon - 04 78 60 21 44^FS
^FO0,54^GB560,2,2^FS
^FO10,64^A0N,26,24^FDMme LEROUX Claire^FS
^FO380,66^A0N,20,18^FDle 25/11/2026^FS
^FO10,98^A0N,24,22^FDAMOXICILLINE 250 mg/5 mL^FS
^FO10,124^A0N,20,18^FDpoudre pour suspension buvable, flacon 60 mL^FS
^FO10,156^A0N,20,18^FDPosologie :^FS
^FO120,152^A0N,26,24^FD5 mL matin, midi et soir^FS
^FO10,184^A0N,24,22^FDpendant 7 jours^FS
^FO10,216^A0N,20,18^FDQté : 2 flacons^FS
^FO250,216^A0N,20,18^FDDr N. BENSAÏD^FS
^FO10,242^A0N,20,18^FDOrd. n° 261125-0047^FS
^FO250,242^A0N,20,18^FDA conserver au réfrigérateur^FS
^FO480,110^BXN,3,200^FD261125-0047^FS
^FO0,276^GB560,2,2^FS
^FO10,286^A0N,18,16^FDAgiter avant emploi. Ne pas laisser à la portée des enfants.^FS
^XZ
