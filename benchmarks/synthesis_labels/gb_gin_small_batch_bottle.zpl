^XA
^CI28
^PW480
^LL560
^LH0,0
^FO20,20^A0N,38,34^FDHOLLOWAY HILL^FS
^FO20,62^A0N,20,18^FDDistillery - London^FS
^FO20,90^GB440,3,3^FS
^FO20,104^A0N,30,28^FDNavy Strength Gin^FS
^FO20,142^A0N,22,20^FDBotanicals: juniper, coriander, bergamot, rock samphire^FS
^FO20,176^A0N,22,20^FDBatch No. 37^FS
^FO250,176^A0N,22,20^FDBottle 214 of 600^FS
^FO20,206^A0N,22,20^FDDistilled: 14/10/2026^FS
^FO20,236^A0N,22,20^FDStill: Agnes^FS
^FO20,266^A0N,22,20^FDBottled by: R. Okafor^FS
^FO20,310^A0N,34,30^FD57% vol^FS
^FO300,310^A0N,34,30^FD70cl e^FS
^FO120,360^BY2,3^BEN,70,Y,N^FD500012345678^FS
^FO20,460^A0N,16,14^FDDistilled and bottled by Holloway Hill Distillery Ltd, 9 Arch Yard, London N7 9QJ^FS
^FO20,482^A0N,16,14^FDPlease drink responsibly. drinkaware.co.uk^FS
^FO20,504^A0N,16,14^FDNot suitable when pregnant. Contains no allergens.^FS
^XZ
