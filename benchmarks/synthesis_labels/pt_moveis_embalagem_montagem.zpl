^XA
^CI28
^PW800
^LL600
^LH0,0
^FO30,20^A0N,40,36^FDCASA LUSA MÓVEIS^FS
^FO560,20^A0N,20,18^FDMóveis para montar^FS
^FO30,66^GB740,3,3^FS
^FO30,80^A0N,36,32^FDRoupeiro 3 portas BRAGA^FS
^FO30,122^A0N,22,20^FDWardrobe 3 doors - 150 x 58 x 200 cm^FS
^FO30,160^A0N,22,20^FDArtigo:^FS
^FO140,154^A0N,32,28^FD403.271.55^FS
^FO30,200^A0N,22,20^FDCor / Colour: Carvalho natural / Branco^FS
^FO560,90^GB210,140,4^FS
^FO590,100^A0N,22,20^FDVolume^FS
^FO590,130^A0N,80,70^FD2/3^FS
^FO30,232^A0N,22,20^FDPeças: 18 - Ferragens: saco B^FS
^FO30,264^A0N,22,20^FDPeso / Weight: 41,5 kg^FS
^FO30,296^A0N,22,20^FDDimensões da caixa: 204 x 62 x 12 cm^FS
^FO30,328^A0N,22,20^FDLote de fabrico: 2645-07^FS
^FO30,370^BY2,3^BCN,80,Y,N,N^FD40327155-2-3^FS
^FO470,370^BY2,3^BEN,80,Y,N^FD560123456789^FS
^FO30,490^A0N,20,18^FDATENÇÃO: Montagem por 2 pessoas. Fixar à parede com o kit incluído.^FS
^FO30,516^A0N,20,18^FDNão empilhar mais de 6 caixas. Manter em local seco.^FS
^FO30,546^A0N,18,16^FDCasa Lusa Móveis, Lda. - Zona Industrial de Paredes, 4580-000 Paredes, Portugal^FS
^XZ
