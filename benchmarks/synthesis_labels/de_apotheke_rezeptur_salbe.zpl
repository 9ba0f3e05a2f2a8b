^XA
^CI28
^PW812
^LL406
^LH0,0
^FO16,10^A0N,26,24^FDLöwen-Apotheke^FS
^FO16,38^A0N,18,16^FDApothekerin Dr. S. Brandt, Marktstr. 7, 79098 Freiburg, Tel. 0761 28 44 10^FS
^FO0,62^GB812,2,2^FS
^FO16,72^A0N,20,18^FDRezepturarzneimittel^FS
^FO16,98^A0N,30,28^FDTriamcinolonacetonid 0,1 % in Basiscreme DAC^FS
^FO16,136^A0N,22,20^FDInhalt: 50 g Creme^FS
^FO230,136^A0N,20,17^FDBestandteile: Triamcinolonacetonid 0,05 g, Basiscreme DAC ad 50,0 g^FS
^FO16,170^A0N,22,20^FDFür:^FS
^FO70,166^A0N,28,26^FDHerrn Tobias Wendling^FS
^FO16,204^A0N,22,20^FDAnwendung:^FS
^FO150,200^A0N,26,24^FD2x täglich dünn auf die betroffenen Stellen auftragen^FS
^FO16,240^A0N,22,20^FDHergestellt am^FS
^FO180,236^A0N,26,24^FD25.11.2026^FS
^FO360,240^A0N,22,20^FDVerwendbar bis^FS
^FO530,236^A0N,26,24^FD25.05.2027^FS
^FO16,274^A0N,22,20^FDHerst.-Nr. R-2611-0193^FS
^FO360,274^A0N,22,20^FDArzt: Dr. med. K. Yilmaz^FS
^FO16,306^A0N,22,20^FDNicht über 25 °C lagern. Für Kinder unzugänglich aufbewahren.^FS
^FO640,320^BXN,3,200^FDR-2611-0193^FS
^FO16,340^A0N,18,16^FDNur zur äußerlichen Anwendung^FS
^XZ
