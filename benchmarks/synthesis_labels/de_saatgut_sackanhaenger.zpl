^XA
^CI28
^PW600
^LL800
^LH0,0
^FO20,20^GB560,760,3^FS
^FO40,36^A0N,30,28^FDEU-Norm^FS
^FO300,36^A0N,30,28^FDDeutschland^FS
^FO40,76^A0N,18,16^FDAnerkennungsstelle: LTZ Augustenberg, Karlsruhe^FS
^FO40,100^GB520,2,2^FS
^FO40,114^A0N,18,16^FDArt^FS
^FO40,136^A0N,28,26^FDTriticum aestivum L. - Weichweizen^FS
^FO40,176^A0N,18,16^FDSorte^FS
^FO40,198^A0N,34,32^FDJulius^FS
^FO40,244^A0N,18,16^FDKategorie^FS
^FO40,266^A0N,24,22^FDZertifiziertes Saatgut, 1. Generation (Z1)^FS
^FO40,306^A0N,18,16^FDReferenznummer der Partie^FS
^FO40,328^A0N,28,26^FDDE 09-15-0412-26^FS
^FO40,372^A0N,18,16^FDMonat und Jahr der Probenahme^FS
^FO40,394^A0N,24,22^FD08/2026^FS
^FO300,372^A0N,18,16^FDAngegebenes Nettogewicht^FS
^FO300,394^A0N,24,22^FD500 kg^FS
^FO40,436^A0N,18,16^FDKeimfähigkeit^FS
^FO40,458^A0N,24,22^FD94 %^FS
^FO300,436^A0N,18,16^FDTausendkorngewicht^FS
^FO300,458^A0N,24,22^FD46,2 g^FS
^FO40,500^A0N,18,16^FDBehandelt mit:^FS
^FO40,522^A0N,24,22^FDCelest Gold (Difenoconazol, Fludioxonil)^FS
^FO40,556^A0N,16,14^FDGebeiztes Saatgut - nicht für Lebens- oder Futtermittel verwenden^FS
^FO40,590^BY2^BCN,80,N,N,N^FDDE0915041226^FS
^FO40,680^A0N,20,18^FDAnhänger Nr. 0004127^FS
^FO300,680^A0N,20,18^FDSack 7 / 40^FS
^FO40,716^A0N,16,14^FDAufbereiter: Saatzucht Hohenlohe GmbH, 74653 Künzelsau^FS
^XZ
