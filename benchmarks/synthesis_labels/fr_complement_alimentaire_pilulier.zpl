^XA
^CI28
^PW600
^LL520
^LH0,0
^FO20,16^A0N,36,32^FDLABORATOIRE VERDANCE^FS
^FO20,56^A0N,18,16^FDCompléments alimentaires - Fabriqué en France^FS
^FO20,82^GB560,3,3^FS
^FO20,96^A0N,32,28^FDMagnésium Marin B6^FS
^FO20,134^A0N,22,20^FDFatigue et stress^FS
^FO400,96^A0N,34,30^FD60 gélules^FS
^FO20,172^A0N,18,16^FDPour 2 gélules : magnésium 300 mg (80 % VNR), vitamine B6 1,4 mg (100 % VNR)^FS
^FO20,198^A0N,20,18^FB560,2,0,L^FDConseil d'utilisation : 2 gélules par jour au cours du repas avec un grand verre d'eau.^FS
^FO20,250^A0N,20,18^FB560,2,0,L^FDNe pas dépasser la dose journalière recommandée. Ne se substitue pas à une alimentation variée et équilibrée.^FS
^FO20,300^A0N,20,18^FDTenir hors de portée des jeunes enfants.^FS
^FO20,336^A0N,22,20^FDLot : VD26B118^FS
^FO20,364^A0N,20,17^FDÀ consommer de préférence avant fin : 09/2028^FS
^FO20,392^A0N,22,20^FDPoids net : 42 g^FS
^FO400,330^BY2,3^BEN,70,Y,N^FD376098765432^FS
^FO20,440^A0N,16,14^FDLaboratoire Verdance SAS, 8 allée des Tilleuls, 26000 Valence - France^FS
^FO20,462^A0N,16,14^FDTA 1290 - www.verdance.fr^FS
^XZ
