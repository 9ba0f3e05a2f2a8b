^XA
^CI28
^PW609
^LL1218
^LH0,0
^FO0,0^GB609,150,150^FS
^FO40,20^A0N,60,56^FR^FDFARA / DANGER^FS
^FO40,90^A0N,36,32^FR^FDLÅST - LOCKED OUT^FS
^FO30,170^A0N,26,24^FDFår ej manövreras eller tas bort^FS
^FO30,200^A0N,22,20^FDDo not operate or remove this tag^FS
^FO30,240^GB549,2,2^FS
^FO30,252^A0N,20,18^FDUtrustning / Equipment^FS
^FO30,276^A0N,36,32^FDPress 4 - Schuler 630 t^FS
^FO30,318^A0N,26,24^FDMaskin-ID: SKB-PR04-0630^FS
^FO30,360^A0N,20,18^FDEnergikälla / Energy source^FS
^FO30,384^A0N,28,26^FDEl 400 V + Hydraulik 210 bar^FS
^FO30,420^A0N,26,24^FDFrånskiljare: Q12 i ställverk S3^FS
^FO30,462^GB549,2,2^FS
^FO30,474^A0N,20,18^FDLåst av / Locked out by^FS
^FO30,498^A0N,40,36^FDJohan Lindqvist^FS
^FO30,544^A0N,26,24^FDAnst.nr 10482  Lås nr 27^FS
^FO30,580^A0N,20,18^FDAvdelning / Department^FS
^FO30,604^A0N,28,26^FDUnderhåll mekanik^FS
^FO30,644^A0N,20,18^FDTelefon / Phone^FS
^FO30,668^A0N,28,26^FD070-418 22 95^FS
^FO30,712^GB549,2,2^FS
^FO30,724^A0N,20,18^FDOrsak / Reason^FS
^FO30,748^A0N,26,24^FDByte av ventilblock, AO 26-07731^FS
^FO30,792^A0N,20,18^FDDatum och tid / Date and time^FS
^FO30,816^A0N,28,26^FD2026-11-25 kl. 21:40^FS
^FO30,860^A0N,20,18^FDBeräknad klar / Expected end^FS
^FO30,884^A0N,28,26^FD2026-11-26 kl. 06:00^FS
^FO100,940^BY2^BCN,100,Y,N,N^FDLOTO-26-1193^FS
^FO30,1100^A0N,20,18^FDEndast den som låst får ta bort låset.^FS
^FO30,1130^A0N,18,16^FDOnly the person who applied the lock may remove it.^FS
^XZ
