^XA
^CI28
^PW812
^LL406
^LH0,0
^FO20,16^GB240,52,52^FS
^FO34,26^A0N,36,32^FR^FDKRONWALD^FS
^FO280,20^A0N,20,18^FDOriginal-Ersatzteil · Genuine spare part · Pièce d'origine^FS
^FO280,44^A0N,18,16^FDKronwald Antriebstechnik GmbH · D-73430 Aalen^FS
^FO20,84^GB772,2,2^FS
^FO20,96^A0N,22,20^FDTeile-Nr. / Part no. / Réf.^FS
^FO20,122^A0N,48,44^FDKW-6204-2RS-C3^FS
^FO20,176^BY2,3^BCN,48,N,N,N^FDKW-6204-2RS-C3^FS
^FO20,236^A0N,24,22^FDRillenkugellager 20x47x14, beidseitig abgedichtet^FS
^FO20,264^A0N,24,22^FDDeep groove ball bearing 20x47x14, sealed both sides^FS
^FO20,292^A0N,24,22^FDRoulement à billes 20x47x14, étanche deux côtés^FS
^FO560,96^A0N,22,20^FDMenge / Qty / Qté^FS
^FO560,122^A0N,48,44^FD10 ST^FS
^FO20,330^A0N,20,18^FDCharge: 2645-118^FS
^FO20,354^A0N,20,18^FDMade in Germany^FS
^FO20,378^A0N,16,14^FDersetzt / replaces / remplace: KW-6204-2RS^FS
^FO540,250^BY2,3^BEN,70,Y,N^FD401234500031^FS
^XZ
