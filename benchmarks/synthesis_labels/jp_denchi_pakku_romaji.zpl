^XA
^CI28
^PW560
^LL400
^LH0,0
^FO20,16^A0N,38,34^FDHIKARI DENKI^FS
^FO20,58^A0N,18,16^FDAlkaline kandenchi - Alkaline batteries^FS
^FO20,84^GB520,3,3^FS
^FO20,98^A0N,50,44^FDTAN-3 (AA) LR6^FS
^FO360,98^A0N,50,44^FD8-hon^FS
^FO20,156^A0N,22,20^FDDenatsu / Voltage: 1.5 V^FS
^FO20,184^A0N,22,20^FDShiyo suisho kigen / Use by: 2036-11^FS
^FO20,212^A0N,22,20^FDSeizo bango / Lot: 6K21B^FS
^FO20,240^A0N,22,20^FDHinban / Part no.: HD-LR6-8P^FS
^FO40,276^BY2,3^BEN,70,Y,N^FD490123456789^FS
^FO320,276^A0N,18,16^FDChui: juden shinai de kudasai.^FS
^FO320,298^A0N,18,16^FDDo not recharge.^FS
^FO320,320^A0N,18,16^FDHi ni irenai de kudasai.^FS
^FO320,342^A0N,18,16^FDDo not dispose of in fire.^FS
^FO20,372^A0N,16,14^FDHikari Denki K.K., Osaka-shi Kita-ku Umeda 2-4-9 - Made in Japan^FS
^XZ
