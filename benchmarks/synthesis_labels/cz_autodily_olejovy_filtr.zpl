^XA
^CI28
^PW800
^LL400
^LH0,0
^FO24,16^A0N,40,36^FDMOTOFILTR^FS
^FO460,22^A0N,20,18^FDAutodíly - Auto parts^FS
^FO24,62^GB752,3,3^FS
^FO24,76^A0N,30,28^FDOlejový filtr / Oil filter^FS
^FO24,116^A0N,56,50^FDMF 712/4^FS
^FO24,182^A0N,22,20^FDŠkoda Octavia III 1.6/2.0 TDI, VW Golf VII 2.0 TDI, Audi A3 8V 2.0 TDI^FS
^FO24,210^A0N,22,20^FDOE: 03N115562B, 03N115466A^FS
^FO24,238^A0N,22,20^FDRozměry / Size: Ø 71 x 141 mm^FS
^FO24,266^A0N,22,20^FDMnožství / Qty: 1 ks^FS
^FO24,294^A0N,22,20^FDŠarže / Batch: 2644-B17^FS
^FO500,216^BY2,3^BEN,70,Y,N^FD859876543210^FS
^FO24,340^A0N,18,16^FDMotofiltr a.s., Průmyslová 2070, 252 50 Vestec - Vyrobeno v ČR^FS
^FO24,364^A0N,18,16^FDMontáž dle pokynů výrobce vozidla. Fit as per the vehicle maker's instructions.^FS
^XZ
