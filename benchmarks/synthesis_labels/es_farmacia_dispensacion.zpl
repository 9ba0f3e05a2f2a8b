^XA
^CI28
^PW640
^LL320
^LH0,0
^FO14,10^A0N,24,22^FDFarmacia Ldo. Gómez Arrieta^FS
^FO14,36^A0N,16,14^FDC/ Mayor 58 · 46001 Valencia · Tel. 963 51 27 84^FS
^FO14,56^GB612,2,2^FS
^FO14,64^A0N,30,28^FDOMEPRAZOL CINFA 20 mg^FS
^FO14,96^A0N,20,18^FDcápsulas duras gastrorresistentes, 28 cápsulas^FS
^FO14,124^A0N,18,16^FDPosología:^FS
^FO120,122^A0N,24,22^FD1 cápsula en ayunas, 30 min antes del desayuno^FS
^FO120,150^A0N,22,20^FDDurante 8 semanas^FS
^FO14,182^A0N,18,16^FDPaciente:^FS
^FO120,180^A0N,24,22^FDMaría Dolores Sanchis Ferrer^FS
^FO14,212^A0N,18,16^FDMédico:^FS
^FO120,210^A0N,22,20^FDDra. Inés Part Molina (col. 46/23817)^FS
^FO14,240^A0N,18,16^FDFecha de dispensación: 25/11/2026^FS
^FO360,240^A0N,18,16^FDN.º receta: 4600 2261 8830^FS
^FO14,266^A0N,18,16^FDCN 651612.3^FS
^FO430,262^BY2^BCN,40,N,N,N^FD651612^FS
^FO14,294^A0N,16,14^FDMantener fuera de la vista y del alcance de los niños.^FS
^XZ
