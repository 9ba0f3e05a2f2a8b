^XA
^CI28
^PW640
^LL320
^LH0,0
^FO14,10^A0N,30,28^FDAmoxicillin 500 mg Hartkapseln^FS
^FO14,44^A0N,22,20^FDN1  20 Stück^FS
^FO14,76^A0N,26,24^FD3x täglich 1 Kapsel, alle 8 Stunden^FS
^FO14,106^A0N,26,24^FDzu den Mahlzeiten einnehmen^FS
^FO14,140^A0N,22,20^FDBis zum Ende der Packung einnehmen.^FS
^FO14,176^A0N,24,22^FDFür: Schneider, Katharina^FS
^FO14,206^A0N,22,20^FDVerordnet von Dr. med. L. Wagner^FS
^FO380,176^A0N,22,20^FD24.11.2026^FS
^FO380,206^A0N,22,20^FDRx 884201^FS
^FO14,240^GB612,2,2^FS
^FO14,250^A0N,22,20^FDLöwen-Apotheke^FS
^FO14,276^A0N,20,18^FDMarktplatz 7, 79098 Freiburg  Tel. 0761 285 340^FS
^FO380,250^A0N,20,18^FDArzneimittel für Kinder^FS
^FO380,272^A0N,20,18^FDunzugänglich aufbewahren^FS
^XZ
