^XA
^CI28
^PW609
^LL406
^LH0,0
^FO0,0^GB609,60,60^FS
^FO16,12^A0N,40,36^FR^FDVISITATORE^FS
^FO330,20^A0N,24,22^FR^FDCantiere MI-0241^FS
^FO16,72^A0N,20,18^FDNuovo polo scolastico, via Padova 118, Milano^FS
^FO16,104^A0N,40,36^FDGiulia Bernasconi^FS
^FO16,150^A0N,22,20^FDDitta: Studio Tecnico Ferrario & Associati^FS
^FO16,180^A0N,22,20^FDRef. interno: ing. L. Cattaneo (DL)^FS
^FO16,210^A0N,22,20^FDIngresso: 25/11/2026 ore 08:35^FS
^FO16,240^A0N,22,20^FDValido fino alle 17:00 del 25/11/2026^FS
^FO16,270^A0N,22,20^FDDPI consegnati: casco, gilet AV, scarpe S3^FS
^FO16,300^A0N,22,20^FDDoc. CI AY 4418273^FS
^FO450,200^BQN,2,4^FDQA,V-MI0241-261125-017^FS
^FO430,370^A0N,18,16^FDV-MI0241-261125-017^FS
^FO16,340^A0N,18,16^FDAccompagnamento obbligatorio.^FS
^FO16,364^A0N,18,16^FDRestituire il pass all'uscita.^FS
^XZ
