^XA
^CI28
^PW609
^LL406
^LH0,0
^FO10,10^A0N,22,20^FDLDA 56 - Laboratoire Départemental d'Analyses^FS
^FO10,36^A0N,18,16^FDContrôle sanitaire des eaux - Prélèvement^FS
^FO10,58^GB540,0,2^FS
^FO10,68^ADN,18,10^FDECHANTILLON^FS
^FO150,62^A0N,40,36^FDE26-04481^FS
^FO10,110^A0N,20,18^FDPoint de prélèvement^FS
^FO10,132^A0N,26,24^FDStation de pompage Les Aulnes - robinet sortie^FS
^FO10,164^A0N,22,20^FDCommune : Ploërmel (56800)^FS
^FO10,192^A0N,22,20^FDPrélevé le 25/11/2026 à 09:42^FS
^FO330,192^A0N,22,20^FDT° : 6,2 °C^FS
^FO10,218^A0N,22,20^FDPréleveur : T. Le Gall^FS
^FO10,244^A0N,22,20^FDFlacon : 500 mL stérile + thiosulfate^FS
^FO10,270^GB540,40,40^FS
^FO18,278^A0N,26,24^FR^FDBACT : E. coli, entérocoques, coliformes^FS
^FO40,318^BY2,3^BCN,50,Y,N,N^FDE2604481^FS
^FO330,330^A0N,18,16^FDConserver à 5 °C ± 3 °C^FS
^FO330,352^A0N,18,16^FDAcheminement sous 8 h^FS
^FO566,60^A0R,34,30^FDE26-04481^FS
^XZ
