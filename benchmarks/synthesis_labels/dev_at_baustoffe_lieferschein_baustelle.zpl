^XA
^CI28
^PW812
^LL1218
^LH0,0
^CF0,46,42
^FO30,28^FDHINTERLEITNER^FS
^CF0,22,20
^FO30,78^FDBaustoffe · Fliesen · Holz   Wels · Ried · Vöcklabruck^FS
^FO560,28^GB222,72,3^FS
^FO574,38^FDLieferschein^FS
^FO574,64^A0N,30,28^FDLS 2611-38842^FS
^FO30,116^GB752,4,4^FS
^CF0,24,22
^FO30,134^FDKunde:^FS
^FO200,130^A0N,32,30^FDBauunternehmung Kogler & Söhne GmbH^FS
^FO30,176^FDBaustelle:^FS
^FO200,172^A0N,32,30^FDWohnanlage Urfahr, Bauteil B^FS
^FO200,208^A0N,32,30^FDHagenstraße 57^FS
^FO200,244^A0N,32,30^FD4040 Linz^FS
^FO30,292^FDPolier:^FS
^FO200,288^A0N,32,30^FDIng. Thomas Brandstätter^FS
^FO30,330^FDTelefon:^FS
^FO200,326^A0N,32,30^FD+43 664 318 27 90^FS
^FO30,368^FDKommission:^FS
^FO200,364^A0N,32,30^FDKOG-2026-117 / Rohbau 2.OG^FS
^FO30,416^GB752,2,2^FS
^FO30,430^GB752,54,54^FS
^FO44,442^A0N,32,30^FR^FDANLIEFERUNG  Fr 27.11.2026  07:00-09:00^FS
^FO30,500^FDArtikel^FS
^FO520,500^FDMenge^FS
^FO30,530^FB470,2,4,L^A0N,30,28^FDPlanziegel 25-38 Objekt Plan, 250 x 380 x 249 mm^FS
^FO520,530^A0N,40,38^FD60 Stk^FS
^FO30,604^BY2,3^B3N,N,70,Y,N^FD10025038^FS
^FO30,710^FDGewicht^FS
^FO30,738^A0N,36,34^FD1.140 kg^FS
^FO290,710^FDPalette^FS
^FO290,738^A0N,36,34^FD3 von 7^FS
^FO520,710^FDFahrzeug^FS
^FO520,738^A0N,36,34^FDLKW 12 Kran^FS
^FO30,800^GB752,2,2^FS
^FO30,822^BQN,2,6^FDQA,https://lieferung.hinterleitner.at/ls/2611-38842^FS
^FO260,830^FB510,5,6,L^A0N,24,22^FDEntladung mit LKW-Kran. Zufahrt und Abstellfläche müssen vom Kunden freigehalten werden. Paletten sind Pfandpaletten und werden bei der nächsten Lieferung gutgeschrieben.^FS
^FO260,990^FDÜbernommen (Name / Unterschrift):^FS
^FO260,1070^GB500,2,2^FS
^FO30,1110^A0N,20,18^FDHinterleitner Baustoffe GmbH · Salzburger Straße 204 · 4600 Wels · FN 84213 v · ATU 23456789^FS
^XZ
