^XA
^CI28
^PW609
^LL406
^LH0,0
^CF0,20,18
^FO14,10^A0N,22,20^FDFjellvegen Apotek · Storgata 21, 2815 Gjøvik · tlf. 61 13 45 80^FS
^FO14,36^GB581,0,2^FS
^FO14,46^A0N,32,30^FDIngrid Solheim^FS
^FO400,52^FDf. 12.04.1951^FS
^FO14,86^A0N,28,26^FDMetformin Mylan 500 mg tabletter^FS
^FO470,90^FD100 stk^FS
^FO14,122^GB581,72,2^FS
^FO24,130^FB560,2,4,L,0^A0N,28,26^FD1 tablett 2 ganger daglig til måltid. Mot diabetes.^FS
^FO14,206^FDLege: Henrik Aasen^FS
^FO330,206^FDUtlevert 25.11.2026^FS
^FO14,234^FDReseptnr. 26-0417-3^FS
^FO330,234^FDVarenr. 019784^FS
^FO14,262^FDFarm.: TB^FS
^FO330,262^FDPakning 1 av 3^FS
^FO14,296^BY2,3^BCN,60,N,N,N^FD2604173^FS
^FO300,300^GB295,60,2^FS
^FO310,310^FB275,2,0,C,0^A0N,20,18^FDOppbevares utilgjengelig for barn.\&Les pakningsvedlegget.^FS
^FO14,376^A0N,18,16^FDLegemidlet er utlevert etter resept og er personlig.^FS
^XZ
