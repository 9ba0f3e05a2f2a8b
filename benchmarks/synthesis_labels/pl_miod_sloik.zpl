^XA
^CI28
^PW720
^LL400
^LH0,0
^FO20,14^A0N,40,36^FDPASIEKA ZŁOTY UL^FS
^FO20,58^A0N,18,16^FDtradycja pszczelarska od 1978 roku^FS
^FO20,84^GB680,2,2^FS
^FO20,96^A0N,38,34^FDMiód wielokwiatowy^FS
^FO20,138^A0N,24,22^FDnektarowy, nierafinowany^FS
^FO20,174^A0N,22,20^FDMasa netto: 400 g^FS
^FO20,202^A0N,22,20^FDNr partii: 0325/11^FS
^FO20,230^A0N,22,20^FDNajlepiej spożyć przed: 30.11.2028^FS
^FO20,258^A0N,22,20^FDKraj pochodzenia: Polska^FS
^FO430,174^BY2,3^BEN,80,Y,N^FD590123456789^FS
^FO20,296^A0N,18,16^FDPrzechowywać w suchym i chłodnym miejscu. Miód może ulec^FS
^FO20,318^A0N,18,16^FDnaturalnej krystalizacji. Nie podawać dzieciom poniżej 1 roku.^FS
^FO20,350^A0N,16,14^FDPasieka Złoty Ul, ul. Lipowa 7, 34-300 Żywiec  WNI 24170502^FS
^XZ
