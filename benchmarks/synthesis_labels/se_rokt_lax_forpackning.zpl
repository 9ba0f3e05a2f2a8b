^XA
^CI28
^PW812
^LL406
^LH0,0
^FO20,14^A0N,30,28^FDBOHUS RÖKERI^FS
^FO20,48^A0N,18,16^FDsedan 1952 · Smögen^FS
^FO20,74^GB480,2,2^FS
^FO20,84^A0N,40,36^FDKallrökt lax^FS
^FO20,126^A0N,24,22^FDskivad, med dill och citron^FS
^FO20,160^A0N,18,16^FDIngredienser: lax* (Salmo salar) 95%, salt, socker, dill 1%,^FS
^FO20,180^A0N,18,16^FDcitronskal. *Odlad i Norge.^FS
^FO20,206^A0N,18,16^FDNäringsvärde per 100 g: Energi 850 kJ / 204 kcal, Fett 13 g,^FS
^FO20,226^A0N,18,16^FDvarav mättat fett 2,5 g, Kolhydrat 1,0 g, Protein 21 g, Salt 3,0 g^FS
^FO20,256^A0N,18,16^FDFörpackad i skyddande atmosfär. Förvaras vid högst +4 °C.^FS
^FO20,276^A0N,18,16^FDÖppnad förpackning förbrukas inom 2 dagar.^FS
^FO20,306^A0N,16,14^FDBohus Rökeri AB, Hamnen 4, 450 43 Smögen · Ursprung: Sverige^FS
^FO20,330^A0N,22,20^FDBatch: 26329-2^FS
^FO540,20^A0N,20,18^FDNettovikt^FS
^FO540,42^A0N,40,36^FD200 g^FS
^FO540,96^A0N,20,18^FDBäst före^FS
^FO540,118^A0N,34,32^FD2026-12-09^FS
^FO540,168^A0N,20,18^FDJämförpris 449,50 kr/kg^FS
^FO560,210^BY2,3^BEN,70,Y,N^FD731234500212^FS
^FO530,330^GE150,64,2^FS
^FO572,342^A0N,16,14^FDSE^FS
^FO556,358^A0N,16,14^FD14218^FS
^FO572,374^A0N,16,14^FDEG^FS
^XZ
