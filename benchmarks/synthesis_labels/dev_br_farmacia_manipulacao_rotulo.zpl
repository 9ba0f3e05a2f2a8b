^XA
^CI28
^PW812
^LL406
^LH0,0
^FO10,10^GB792,386,2^FS
^FO24,20^A0N,30,28^FDBotica Flor de Lis Manipulação^FS
^FO24,52^A0N,16,16^FDR. Padre Chagas, 318 · Moinhos de Vento · Porto Alegre/RS · CEP 90570-080 · (51) 3332-4107^FS
^FO24,70^A0N,16,16^FDCNPJ 12.486.331/0001-09 · Farm. Resp.: Dra. Helena Kuhn · CRF-RS 11.472^FS
^FO10,90^GB792,0,2^FS
^FO24,100^A0N,20,18^FDPaciente:^FS
^FO120,96^A0N,28,26^FDMariana Schmitt Bortolini^FS
^FO24,130^A0N,20,18^FDPrescritor:^FS
^FO120,128^A0N,22,20^FDDr. Rafael Nunes Costa · CRM-RS 28.904^FS
^FO590,96^GB196,62,62^FS
^FO590,110^FB196,1,0,C,0^A0N,36,32^FR^FDUSO EXTERNO^FS
^FO10,164^GB792,0,1^FS
^FO24,174^ADN,18,10^FDMinoxidil.................... 5%^FS
^FO24,196^ADN,18,10^FDFinasterida.................. 0,1%^FS
^FO24,218^ADN,18,10^FDÁcido retinoico.............. 0,025%^FS
^FO24,240^ADN,18,10^FDLoção capilar hidroalcoólica q.s.p. 60 mL^FS
^FO24,270^FB540,2,2,L,0^A0N,22,20^FDAplicar 1 mL no couro cabeludo à noite, com o cabelo seco. Não enxaguar.^FS
^FO10,322^GB792,0,1^FS
^FO24,332^A0N,20,18^FDReq. nº 58213-1^FS
^FO200,332^A0N,20,18^FDManip.: 24/11/2026^FS
^FO380,332^A0N,20,18^FDVal.: 24/01/2027^FS
^FO24,360^A0N,16,16^FDConservar em temperatura ambiente, ao abrigo da luz. Agite antes de usar.^FS
^FO580,178^BY2,2^BCN,70,N,N,N^FD582131^FS
^FO580,252^A0N,22,20^FD582131^FS
^FO580,280^A0N,20,18^FDFr. 60 mL · R$ 148,90^FS
^XZ
