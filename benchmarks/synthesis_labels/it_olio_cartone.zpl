^XA
^CI28
^PW800
^LL480
^LH0,0
^FO20,16^A0N,44,40^FDFRANTOIO COLLE VERDE^FS
^FO20,62^A0N,20,18^FDdal 1962 · Spoleto (PG)^FS
^FO20,90^GB760,3,3^FS
^FO20,104^A0N,38,34^FDOlio Extra Vergine di Oliva^FS
^FO20,146^A0N,26,24^FDMonocultivar Moraiolo - Umbria DOP^FS
^FO20,180^A0N,18,16^FDOlio d'oliva di categoria superiore ottenuto direttamente dalle olive^FS
^FO20,200^A0N,18,16^FDe unicamente mediante procedimenti meccanici.^FS
^FO20,232^A0N,24,22^FDConfezione: 6 x 750 ml^FS
^FO20,262^A0N,24,22^FDPeso lordo: 8,4 kg^FS
^FO20,292^A0N,24,22^FDLotto: L25308^FS
^FO20,322^A0N,24,22^FDCampagna di raccolta 2025/2026^FS
^FO420,232^A0N,20,18^FDDa consumarsi preferibilmente entro^FS
^FO420,256^A0N,30,28^FD30/06/2027^FS
^FO420,296^A0N,20,18^FDCod. art. EVO-MOR-075^FS
^FO20,360^BY3,3^BCN,80,N,N,N^FD>;>80118001234567894^FS
^FO20,446^A0N,22,20^FD(01) 18001234567894^FS
^FO520,330^A0N,18,16^FDConservare al riparo^FS
^FO520,350^A0N,18,16^FDdalla luce e da fonti di calore.^FS
^FO520,380^A0N,18,16^FDQUESTO LATO IN ALTO^FS
^XZ
