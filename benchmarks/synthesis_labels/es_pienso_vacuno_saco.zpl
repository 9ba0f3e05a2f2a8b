^XA
^CI28
^PW800
^LL960
^LH0,0
^FO30,20^A0N,46,42^FDNUTRIGAN IBÉRICA^FS
^FO30,70^A0N,20,18^FDPiensos compuestos desde 1978^FS
^FO30,100^GB740,3,3^FS
^FO30,116^A0N,26,24^FDPIENSO COMPUESTO COMPLEMENTARIO^FS
^FO30,148^A0N,40,36^FDVacuno Cebo Terneros 3^FS
^FO30,194^A0N,22,20^FDPara terneros de cebo de 180 a 350 kg de peso vivo^FS
^FO30,234^A0N,22,20^FDComponentes analíticos:^FS
^FO50,262^A0N,20,18^FDProteína bruta 16,0 % - Grasa bruta 3,5 % - Fibra bruta 7,2 %^FS
^FO50,288^A0N,20,18^FDCeniza bruta 6,8 % - Calcio 0,90 % - Fósforo 0,45 % - Sodio 0,30 %^FS
^FO30,322^A0N,20,18^FB740,2,0,L^FDComposición: maíz, cebada, harina de soja, salvado de trigo, carbonato cálcico, cloruro sódico^FS
^FO30,376^A0N,20,18^FDAditivos por kg: Vitamina A 9.000 UI, Vitamina D3 1.800 UI, Vitamina E 25 mg^FS
^FO30,410^A0N,20,18^FDModo de empleo: a voluntad, con agua limpia y forraje a disposición.^FS
^FO30,456^A0N,24,22^FDPeso neto:^FS
^FO200,446^A0N,46,42^FD40 kg^FS
^FO30,510^A0N,22,20^FDLote: V26314B^FS
^FO30,540^A0N,22,20^FDFecha de fabricación: 10/11/2026^FS
^FO30,570^A0N,22,20^FDConsumir preferentemente antes de: 10/02/2027^FS
^FO30,600^A0N,22,20^FDPresentación: granulado 4 mm^FS
^FO440,456^BY2,3^BEN,90,Y,N^FD843601234567^FS
^FO30,650^A0N,20,18^FDN.º de autorización / registro: αES37274000012^FS
^FO30,676^A0N,20,18^FDConservar en lugar fresco y seco, protegido de roedores.^FS
^FO30,716^A0N,18,16^FDNutrigan Ibérica S.L. - Ctra. de Ledesma km 6, 37187 Salamanca^FS
^XZ
