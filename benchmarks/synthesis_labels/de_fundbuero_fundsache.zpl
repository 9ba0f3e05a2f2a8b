^XA
^CI28
^PW600
^LL400
^LH0,0
^FO12,8^A0N,24,22^FDStadt Leipzig - Zentrales Fundbüro^FS
^FO12,36^A0N,16,14^FDPrager Straße 118 · 04317 Leipzig^FS
^FO12,56^GB576,2,2^FS
^FO12,64^A0N,18,16^FDFundsache Nr.^FS
^FO12,84^A0N,40,36^FDF-2026-11873^FS
^FO360,70^BY2^BCN,56,N,N,N^FDF202611873^FS
^FO12,134^A0N,18,16^FDGegenstand^FS
^FO12,154^A0N,26,24^FDRucksack, schwarz, Marke Deuter^FS
^FO12,184^A0N,20,18^FDInhalt: Laptop, Ladekabel, Schlüsselbund (3), Brotdose^FS
^FO12,216^A0N,18,16^FDFundort^FS
^FO12,236^A0N,22,20^FDStraßenbahn Linie 11, Haltestelle Markkleeberg-Ost^FS
^FO12,268^A0N,18,16^FDGefunden am^FS
^FO12,288^A0N,24,22^FD24.11.2026, 17:40^FS
^FO250,268^A0N,18,16^FDAbgegeben von^FS
^FO250,288^A0N,24,22^FDLVB Fahrdienst^FS
^FO12,322^A0N,18,16^FDLagerort^FS
^FO12,342^A0N,24,22^FDRegal C-14^FS
^FO250,322^A0N,18,16^FDAufbewahrung bis^FS
^FO250,342^A0N,24,22^FD24.05.2027^FS
^FO12,378^A0N,14,12^FDHerausgabe nur gegen Eigentumsnachweis und Ausweis. § 965 ff. BGB^FS
^XZ
