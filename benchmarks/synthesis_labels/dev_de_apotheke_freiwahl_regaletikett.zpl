^XA
^CI28
^PW812
^LL304
^LH0,0
^CF0,22,20
^FO8,8^GB796,288,2^FS
^FO8,8^GB60,288,60^FS
^FWB
^FO22,40^A0,30,28^FR^FDRegal 4 · Fach B^FS
^FWN
^FO84,18^FDApotheke am Lindenplatz^FS
^FO84,48^A0N,36,32^FDXylovita Nasenspray 0,1 %^FS
^FO84,90^A0N,24,22^FDfür Erwachsene und Schulkinder^FS
^FO84,122^A0N,24,22^FD10 ml Dosierspray^FS
^FO84,160^FDPZN 18473621^FS
^FO84,186^BY2,3^B3N,N,60,N,N^FD-18473621^FS
^FO560,30^A0N,20,18^FDUVP 4,97 €^FS
^FO540,58^A0N,84,72^FD3,95 €^FS
^FO560,150^A0N,20,18^FDGrundpreis^FS
^FO560,174^A0N,24,22^FD39,50 € / 100 ml^FS
^FO84,256^A0N,16,14^FDZu Risiken und Nebenwirkungen lesen Sie die Packungsbeilage und fragen Sie Ihre Ärztin, Ihren Arzt oder in Ihrer Apotheke.^FS
^FO560,222^A0N,16,14^FDStand 24.11.2026^FS
^XZ
