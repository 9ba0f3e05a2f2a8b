^XA
^CI28
^PW812
^LL609
^LH0,0
^FO16,14^AFN,26,13^FDBOULANGERIE VANDENBROUCKE - BAKKERIJ^FS
^FO16,44^A0N,20,18^FDRue de la Victoire 88, 1060 Saint-Gilles / Overwinningsstraat 88, 1060 Sint-Gillis^FS
^FO16,70^GB780,0,2^FS
^FO16,80^A0N,40,36^FDSpeculoos artisanaux à la cassonade^FS
^FO16,122^A0N,30,28^FDAmbachtelijke speculoos met kandijsuiker^FS
^FO16,162^FB380,6,2,L,0^A0N,19,17^FDIngrédients : farine de FROMENT, cassonade (36 %), BEURRE, sucre candi, ŒUFS, épices (cannelle, girofle, muscade), poudre à lever, sel. Peut contenir des traces de SOJA et de FRUITS À COQUE.^FS
^FO410,162^FB380,6,2,L,0^A0N,19,17^FDIngrediënten: TARWEbloem, kandijsuiker (36 %), BOTER, kandij, EIEREN, specerijen (kaneel, kruidnagel, nootmuskaat), bakpoeder, zout. Kan sporen van SOJA en NOTEN bevatten.^FS
^FO16,294^GB780,44,44^FS
^FO28,304^A0N,26,24^FR^FDAllergènes / Allergenen : GLUTEN - LAIT/MELK - ŒUFS/EIEREN^FS
^FO16,352^A0N,20,18^FDÀ consommer de préférence avant le / Ten minste houdbaar tot^FS
^FO16,376^A0N,36,34^FD15/01/2027^FS
^FO600,352^A0N,20,18^FDLot / Partij^FS
^FO600,376^A0N,36,34^FDL26-328-2^FS
^FO16,424^A0N,18,16^FDÀ conserver au sec, à l'abri de la chaleur. / Droog en koel bewaren.^FS
^FO16,452^GB780,0,2^FS
^FO16,464^A0N,20,18^FDPoids net / Nettogewicht^FS
^FO16,488^A0N,44,40^FD400 g^FS
^FO250,464^A0N,20,18^FDPrix au kg / Prijs per kg^FS
^FO250,488^A0N,44,40^FD22,38 €/kg^FS
^FO16,546^A0N,20,18^FDPrix / Prijs^FS
^FO130,540^A0N,50,46^FD8,95 €^FS
^FO540,462^BY2,3^BEN,90,Y,N^FD541234500321^FS
^XZ
