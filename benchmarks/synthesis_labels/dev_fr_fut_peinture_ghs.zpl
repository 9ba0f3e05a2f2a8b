^XA
^CI28
^PW812
^LL1218
^LH0,0
^FO24,24^A0N,44,40^FDPEINTURES VALMONT^FS
^FO24,72^A0N,20,20^FDZI des Forges · 12 rue Gustave Eiffel · 69200 Vénissieux · Tél. 04 78 70 12 40^FS
^FO20,104^GB772,0,3^FS
^FO24,118^ADN,18,10^FDDÉSIGNATION^FS
^FO24,142^FB764,2,4,L,0^A0N,44,40^FDVALTHANE 540 Primaire époxy 2K gris RAL 7035 - composant A^FS
^FO24,240^ADN,18,10^FDRÉFÉRENCE^FS
^FO24,262^A0N,34,32^FDVT540-7035-A^FS
^FO330,240^ADN,18,10^FDLOT^FS
^FO330,262^A0N,34,32^FD26-11-0824^FS
^FO580,240^ADN,18,10^FDFÛT N°^FS
^FO580,262^A0N,34,32^FD3 / 12^FS
^FO24,316^ADN,18,10^FDFABRIQUÉ LE^FS
^FO24,338^A0N,34,32^FD24/11/2026^FS
^FO330,316^ADN,18,10^FDÀ UTILISER AVANT^FS
^FO330,338^A0N,34,32^FD24/05/2028^FS
^FO580,316^ADN,18,10^FDCONTENU NET^FS
^FO580,338^A0N,34,32^FD200 L - 248 kg^FS
^FO20,390^GB772,0,3^FS
^FO40,410^GD60,60,4,B,R^FS
^FO100,410^GD60,60,4,B,L^FS
^FO40,470^GD60,60,4,B,L^FS
^FO100,470^GD60,60,4,B,R^FS
^FO82,456^GE36,50,14,B^FS
^FO70,494^GB60,6,6^FS
^FO180,410^GD60,60,4,B,R^FS
^FO240,410^GD60,60,4,B,L^FS
^FO180,470^GD60,60,4,B,L^FS
^FO240,470^GD60,60,4,B,R^FS
^FO226,436^A0N,70,40^FD!^FS
^FO330,420^A0N,64,60^FDDANGER^FS
^FO330,490^A0N,20,20^FDContient : bisphénol A-(épichlorhydrine), xylène^FS
^FO24,550^FB764,8,4,L,0^A0N,22,22^FDH226 Liquide et vapeurs inflammables.\&H315 Provoque une irritation cutanée.\&H317 Peut provoquer une allergie cutanée.\&H319 Provoque une sévère irritation des yeux.\&H336 Peut provoquer somnolence ou vertiges.\&H411 Toxique pour les organismes aquatiques, entraîne des effets néfastes à long terme.^FS
^FO24,760^FB764,8,4,L,0^A0N,20,20^FDP210 Tenir à l'écart de la chaleur, des surfaces chaudes, des étincelles, des flammes nues et de toute autre source d'inflammation. Ne pas fumer.\&P261 Éviter de respirer les vapeurs.\&P280 Porter des gants de protection/un équipement de protection des yeux.\&P303+P361+P353 EN CAS DE CONTACT AVEC LA PEAU (ou les cheveux) : enlever immédiatement tous les vêtements contaminés. Rincer la peau à l'eau.\&P501 Éliminer le contenu/récipient dans un centre de collecte agréé.^FS
^FO20,960^GB772,0,3^FS
^FO60,980^BY2,3^BCN,110,N,N,N,D^FD(01)03760123450128(10)26-11-0824(17)280524^FS
^FO60,1098^A0N,24,24^FD(01)03760123450128(10)26-11-0824(17)280524^FS
^FO24,1150^A0N,18,18^FDUN 1263 PEINTURES, 3, III - Emballage homologué UN 1A1/Y1.4/150. Urgence ORFILA : 01 45 42 59 59^FS
^XZ
