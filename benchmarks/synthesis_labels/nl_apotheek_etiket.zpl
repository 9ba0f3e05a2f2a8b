^XA
^CI28
^PW560
^LL320
^LH0,0
^FO12,10^A0N,22,20^FDApotheek De Wilgenhof^FS
^FO12,34^A0N,16,14^FDWilgenlaan 12, 3452 AB Utrecht · 030-6623918^FS
^FO12,54^GB536,2,2^FS
^FO12,62^A0N,22,20^FDDhr. J.P. (Jeroen) van Dijk^FS
^FO360,62^A0N,18,16^FDgeb. 12-04-1961^FS
^FO12,90^A0N,28,26^FDMetformine 500 mg^FS
^FO12,120^A0N,18,16^FDtablet met verlengde afgifte · 90 stuks^FS
^FO12,146^A0N,24,22^FD2 maal per dag 1 tablet^FS
^FO12,174^A0N,22,20^FDtijdens of direct na het eten innemen^FS
^FO12,206^A0N,18,16^FDVoorschrijver: H.M. Bakker, huisarts^FS
^FO12,230^A0N,18,16^FDAfgeleverd: 25-11-2026^FS
^FO300,230^A0N,18,16^FDReceptnr. 2611-07734^FS
^FO12,254^A0N,18,16^FDLabelnr. 38815522  Apr: MvdB^FS
^FO410,244^BQN,2,3^FDQA,2611-07734/38815522^FS
^FO12,290^A0N,16,14^FDBuiten bereik van kinderen bewaren. Lees de bijsluiter.^FS
^XZ
