^XA
^CI28
^PW800
^LL600
^LH0,0
^FO30,20^A0N,42,38^FDKLEINE BOUWERS^FS
^FO30,66^A0N,20,18^FDSpeelgoed van Hollandse bodem - Toys from Holland^FS
^FO30,96^GB740,3,3^FS
^FO30,110^A0N,34,30^FDHouten Treinset Havenstad^FS
^FO30,150^A0N,24,22^FDWooden train set Harbour Town^FS
^FO30,186^A0N,22,20^FD52 delen / 52 pieces^FS
^FO30,216^A0N,22,20^FDArtikel / Item: KB-2241-HS^FS
^FO30,246^A0N,22,20^FDLeeftijd / Age: 3+^FS
^FO30,276^A0N,22,20^FDBatch: 2611-NL-07^FS
^FO30,306^A0N,22,20^FDKleur / Colour: naturel/multicolour^FS
^FO30,346^GB90,90,3^FS
^FO44,370^A0N,40,36^FDCE^FS
^FO140,346^A0N,20,18^FDLET OP! Niet geschikt voor kinderen jonger dan 36 maanden.^FS
^FO140,370^A0N,20,18^FDBevat kleine onderdelen. Verstikkingsgevaar.^FS
^FO140,398^A0N,20,18^FDWARNING! Not suitable for children under 3 years.^FS
^FO140,422^A0N,20,18^FDSmall parts. Choking hazard.^FS
^FO480,186^BY2,3^BEN,90,Y,N^FD871234567890^FS
^FO560,20^A0N,40,36^FD€ 39,95^FS
^FO30,470^A0N,18,16^FDBewaar deze gegevens voor toekomstig gebruik. Keep for future reference.^FS
^FO30,500^A0N,18,16^FDKleine Bouwers B.V., Nijverheidsweg 21, 3771 ME Barneveld, Nederland^FS
^FO30,524^A0N,18,16^FDGemaakt in Polen / Made in Poland^FS
^XZ
