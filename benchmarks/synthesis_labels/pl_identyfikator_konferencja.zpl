^XA
^CI28
^PW812
^LL1218
^LH0,0
^FO40,40^A0N,32,30^FDFORUM LOGISTYKI I TRANSPORTU 2026^FS
^FO40,80^A0N,24,22^FDPoznań, 25-26 listopada 2026 / MTP, Pawilon 15^FS
^FO0,130^GB812,4,4^FS
^FO40,220^A0N,110,96^FDMałgorzata^FS
^FO40,340^A0N,70,62^FDWiśniewska-Kozłowska^FS
^FO40,450^A0N,40,36^FDKierownik ds. Optymalizacji Magazynów^FS
^FO40,510^A0N,44,40^FDRaben Logistics Polska Sp. z o.o.^FS
^FO0,620^GB812,120,120^FS
^FO40,650^A0N,70,62^FR^FDPRELEGENT^FS
^FO40,790^A0N,28,26^FDSesja B2: Automatyzacja kompletacji, 26.11 godz. 11:30^FS
^FO40,840^A0N,28,26^FDObiad: TAK (wegetariański)^FS
^FO40,880^A0N,28,26^FDDostęp: Sala A, Sala B, Strefa VIP^FS
^FO560,920^BQN,2,6^FDQA,FLT26-P-00318^FS
^FO40,960^A0N,26,24^FDNr uczestnika^FS
^FO40,996^A0N,40,36^FDFLT26-P-00318^FS
^FO40,1140^A0N,22,20^FDIdentyfikator imienny - prosimy nosić w widocznym miejscu^FS
^XZ
