^XA
^CI28
^PW800
^LL600
^LH0,0
^FO16,14^A0N,28,26^FDPOCZTA POLSKA^FS
^FO16,46^A0N,20,18^FDDEKLARACJA CELNA / DÉCLARATION EN DOUANE^FS
^FO620,12^GB164,56,56^FS
^FO642,22^A0N,40,36^FR^FDCN 22^FS
^FO16,76^GB768,2,2^FS
^FO16,84^A0N,16,14^FDPrezent / Cadeau^FS
^FO200,84^A0N,16,14^FDDokumenty / Documents^FS
^FO400,84^A0N,16,14^FDPróbka handlowa / Échantillon^FS
^FO620,84^A0N,16,14^FDInne / Autre^FS
^FO16,106^A0N,22,20^FDX  Prezent / Cadeau^FS
^FO16,134^GB768,2,2^FS
^FO16,142^A0N,16,14^FDIlość i szczegółowy opis zawartości / Quantité et description détaillée du contenu^FS
^FO520,142^A0N,16,14^FDWaga (kg)^FS
^FO650,142^A0N,16,14^FDWartość^FS
^FO16,166^A0N,22,20^FD3 x Bombki choinkowe, szkło malowane^FS
^FO520,166^A0N,22,20^FD0,450^FS
^FO650,166^A0N,22,20^FD36,00 EUR^FS
^FO16,194^A0N,22,20^FD1 x Obrus lniany haftowany^FS
^FO520,194^A0N,22,20^FD0,380^FS
^FO650,194^A0N,22,20^FD28,00 EUR^FS
^FO16,228^A0N,16,14^FDTaryfa HS i kraj pochodzenia / N° tarifaire et pays d'origine^FS
^FO16,250^A0N,22,20^FD7013.99 / 6302.51   PL^FS
^FO16,282^A0N,16,14^FDWaga całkowita / Poids total^FS
^FO16,302^A0N,26,24^FD0,910 kg^FS
^FO400,282^A0N,16,14^FDWartość całkowita / Valeur totale^FS
^FO400,302^A0N,26,24^FD64,00 EUR^FS
^FO16,340^GB768,2,2^FS
^FO16,348^A0N,16,14^FDAdresat / Destinataire^FS
^FO16,368^A0N,24,22^FDAgnieszka Nowak-Berthier^FS
^FO16,394^A0N,22,20^FD8 rue des Tanneurs^FS
^FO16,418^A0N,22,20^FD67000 Strasbourg^FS
^FO16,442^A0N,24,22^FDFRANCE^FS
^FO440,350^BY2^BCN,90,N,N,N^FDLY306718226PL^FS
^FO480,446^A0N,24,22^FDLY 306 718 226 PL^FS
^FO16,480^A0N,14,12^FDPoświadczam, że dane podane w niniejszej deklaracji są prawidłowe i że przesyłka nie zawiera^FS
^FO16,496^A0N,14,12^FDprzedmiotów niebezpiecznych zabronionych przepisami pocztowymi.^FS
^FO16,526^A0N,20,18^FDData i podpis nadawcy: 23.11.2026  Halina Wróbel^FS
^FO16,572^A0N,14,12^FDCN 22 - Poczta Polska S.A.^FS
^XZ
