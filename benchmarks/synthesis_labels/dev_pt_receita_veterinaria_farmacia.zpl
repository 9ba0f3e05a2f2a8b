^XA
^CI28
^PW812
^LL609
^LH0,0
^FO20,14^A0N,34,32^FDClínica Veterinária Quinta do Lumiar^FS
^FO20,52^A0N,20,19^FDAlameda das Linhas de Torres 182, 1750-146 Lisboa  ·  Tel. 217 590 334^FS
^FO20,78^GB772,0,3^FS
^FO20,92^A0N,22,21^FDReceita n.º^FS
^FO140,88^A0N,30,28^FDRV-2026-018734^FS
^FO540,92^A0N,22,21^FDData^FS
^FO600,88^A0N,30,28^FD26/11/2026^FS
^FO20,132^A0N,22,21^FDAnimal^FS
^FO20,156^A0N,34,32^FDTobias^FS
^FO220,132^A0N,22,21^FDEspécie / raça^FS
^FO220,158^A0N,28,26^FDCanino · Labrador Retriever^FS
^FO620,132^A0N,22,21^FDPeso^FS
^FO620,158^A0N,28,26^FD28,4 kg^FS
^FO20,200^A0N,24,22^FDTutor: Marta Figueiredo Sousa^FS
^FO20,236^GB772,58,58^FS
^FO34,250^A0N,32,30^FR^FDMeloxicam 1,5 mg/ml suspensão oral – frasco 32 ml^FS
^FO20,304^A0N,20,19^FDPosologia^FS
^FO20,330^FB772,3,4,L,0^A0N,28,26^FDAdministrar 5,6 ml (0,2 ml/kg) uma vez por dia, com a refeição, durante 10 dias. Agitar antes de usar.^FS
^FO20,430^A0N,22,21^FDQtd.: 1 frasco^FS
^FO240,430^A0N,22,21^FDLote: MX25117^FS
^FO470,430^A0N,22,21^FDVal.: 08/2027^FS
^FO20,462^GB772,0,2^FS
^FO20,474^A0N,22,21^FDMédica Veterinária: Dra. Inês Carvalho^FS
^FO20,502^A0N,22,21^FDCédula OMV n.º 7421^FS
^FO410,472^BY2,2^B3N,N,50,Y,N^FDRV2026018734^FS
^FO20,548^GB772,0,2^FS
^FO20,562^A0N,22,21^FDUSO VETERINÁRIO  ·  Manter fora do alcance e da vista das crianças^FS
^XZ
