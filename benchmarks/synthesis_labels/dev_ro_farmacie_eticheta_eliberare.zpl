^XA
^CI28
^PW609
^LL406
^LH0,0
^CF0,20
^FO16,12^A0N,26,24^FDFarmacia Sfântul Pantelimon^FS
^FO16,42^FDStr. Mihai Viteazu 28, Cluj-Napoca · Tel. 0264 591 207^FS
^FO16,66^GB577,0,2^FS
^FO16,76^A0N,24,22^FDPacient: IONESCU MARIA^FS
^FO400,78^FD25.11.2026^FS
^FO16,108^A0N,34,30^FDAmoxicilină 500 mg, capsule^FS
^FO16,146^A0N,24,22^FDCant.: 21 caps.^FS
^FO240,146^A0N,24,22^FDLot: AMX2510B · Exp.: 08/2028^FS
^FO16,178^GB577,84,2^FS
^FO26,186^FB557,3,2,L,0^A0N,24,22^FDCâte 1 capsulă de 3 ori pe zi, la 8 ore, timp de 7 zile. Se administrează după masă.^FS
^FO16,274^ADN,18,10^FDMedic: Dr. Andrei Popescu^FS
^FO16,298^ADN,18,10^FDRețeta nr. CJ 4821/2026^FS
^FO16,322^ADN,18,10^FDFarmacist: Ioana Mureșan^FS
^FO350,272^BY1,2.5^B3N,N,50,Y,N^FDE0417725^FS
^FO16,360^A0N,18,16^FDA se păstra la temperatura camerei, ferit de lumină. A nu se lăsa la îndemâna copiilor.^FS
^XZ
