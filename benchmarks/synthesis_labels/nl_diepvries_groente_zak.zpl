^XA
^CI28
^PW600
^LL640
^LH0,0
^FO20,18^A0N,38,34^FDPOLDERVERS^FS
^FO20,58^A0N,18,16^FDDiepvriesgroenten uit Flevoland^FS
^FO20,84^GB560,3,3^FS
^FO20,98^A0N,32,28^FDSperziebonen fijn gesneden^FS
^FO20,136^A0N,22,20^FDHaricots verts coupés fins^FS
^FO20,176^A0N,22,20^FDIngrediënten: sperziebonen (100%).^FS
^FO20,204^A0N,22,20^FDBereiding: 6-8 min. koken in water met zout.^FS
^FO20,244^A0N,24,22^FDNetto:^FS
^FO120,236^A0N,40,36^FD750 g^FS
^FO20,292^A0N,22,20^FDTen minste houdbaar tot einde:^FS
^FO330,286^A0N,30,28^FD10-2028^FS
^FO20,326^A0N,22,20^FDPartij / Lot: PV2631-14^FS
^FO20,354^A0N,22,20^FDIngevroren op: 12-11-2026^FS
^FO20,392^A0N,20,18^FDBewaren bij -18 °C of kouder. Na ontdooien niet opnieuw invriezen.^FS
^FO20,416^A0N,20,18^FDIn vriesvak (3 sterren) tot de THT-datum, 2 sterren 1 maand, 1 ster 1 week.^FS
^FO100,456^BY2,3^BEN,80,Y,N^FD871234598765^FS
^FO20,580^A0N,16,14^FDPoldervers B.V., Kreekweg 40, 8256 SK Biddinghuizen - NL 1234 EG^FS
^XZ
