^XA
^CI28
^PW812
^LL406
^LH0,0
^FO20,14^A0N,24,22^FDVersBord maaltijdbox^FS
^FO560,14^A0N,22,20^FDWeek 48 · 2026^FS
^FO20,44^GB772,2,2^FS
^FO20,54^GB70,70,70^FS
^FO34,62^A0N,56,50^FR^FD7^FS
^FO106,56^A0N,32,30^FDRomige kippenpasta met spinazie^FS
^FO106,92^A0N,22,20^FDen zongedroogde tomaat · 2 personen · 30 min^FS
^FO20,136^A0N,18,16^FDInhoud zakje^FS
^FO20,158^A0N,20,18^FDPenne 250 g, kipfilet 240 g, babyspinazie 100 g, kookroom 125 ml,^FS
^FO20,182^A0N,20,18^FDzongedroogde tomaten 40 g, Parmezaanse kaas 30 g, knoflook 1 teen^FS
^FO20,214^A0N,18,16^FDAllergenen: gluten (tarwe), melk, ei^FS
^FO20,246^GB772,2,2^FS
^FO20,256^A0N,18,16^FDTHT^FS
^FO20,278^A0N,28,26^FD01-12-2026^FS
^FO230,256^A0N,18,16^FDLot^FS
^FO230,278^A0N,28,26^FDMB48-07-0312^FS
^FO470,256^A0N,18,16^FDBox^FS
^FO470,278^A0N,28,26^FDNL-4418207^FS
^FO20,318^A0N,18,16^FDBewaren tussen 0 en 4 °C. Kip altijd goed doorbakken.^FS
^FO560,310^BY2,3^BEN,60,Y,N^FD8712859012340^FS
^FO20,376^A0N,14,12^FDVersBord B.V. · Amersfoort · versbord.nl^FS
^XZ
