^XA
^CI28
^PW800
^LL1000
^LH0,0
^FO30,24^A0N,48,44^FDAGRIVAL^FS
^FO30,76^A0N,22,20^FDNutrition des cultures depuis 1962^FS
^FO30,108^GB740,4,4^FS
^FO30,124^A0N,26,24^FDENGRAIS CE^FS
^FO30,156^A0N,24,22^FDEngrais NPK 15-15-15 avec soufre (SO3)^FS
^FO30,190^A0N,40,36^FDAgrival Céréales Start^FS
^FO30,236^A0N,22,20^FDGranulés - pour grandes cultures et prairies^FS
^FO30,276^A0N,22,20^FDTeneurs garanties (% en masse) :^FS
^FO50,306^A0N,22,20^FD15 % azote (N) total dont 6 % N nitrique, 9 % N ammoniacal^FS
^FO50,334^A0N,22,20^FD15 % anhydride phosphorique (P2O5) soluble citrate neutre et eau^FS
^FO50,362^A0N,22,20^FD15 % oxyde de potassium (K2O) soluble dans l'eau^FS
^FO50,390^A0N,22,20^FD8 % anhydride sulfurique (SO3) soluble dans l'eau^FS
^FO30,430^A0N,22,20^FDDose conseillée : 200 à 400 kg/ha selon analyse de sol^FS
^FO30,476^A0N,26,24^FDMasse nette :^FS
^FO220,466^A0N,48,44^FD600 kg^FS
^FO30,536^A0N,22,20^FDN° de lot : A26-3147^FS
^FO30,566^A0N,22,20^FDFabriqué le : 09/11/2026^FS
^FO30,596^A0N,22,20^FDBig bag n° 0412^FS
^FO430,476^BY2,3^BEN,90,Y,N^FD376012345123^FS
^FO30,640^A0N,20,18^FDStocker à l'abri de l'humidité et de la chaleur. Ne pas gerber plus de 2 big bags.^FS
^FO30,666^A0N,20,18^FDTenir hors de portée des enfants. Ne pas déverser dans les cours d'eau.^FS
^FO30,710^A0N,18,16^FDAgrival SAS - ZI du Port, 44600 Saint-Nazaire - France^FS
^FO30,734^A0N,18,16^FDwww.agrival.fr - Tél. 02 40 17 55 00^FS
^XZ
