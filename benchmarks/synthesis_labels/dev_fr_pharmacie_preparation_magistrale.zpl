^XA
^CI28
^PW812
^LL406
^LH0,0
^CF0,20,18
^FO14,12^A0N,28,26^FDPHARMACIE DU MARCHÉ^FS
^FO14,42^FDH. Martin, pharmacien titulaire - 5 place du Marché, 35000 Rennes - 02 99 30 12 45^FS
^FO14,66^GB784,0,2^FS
^FO14,76^A0N,22,20^FDPRÉPARATION MAGISTRALE^FS
^FO480,76^A0N,22,20^FDN° ordonnancier : 26-004512^FS
^FO14,104^FB560,2,2,L,0^A0N,30,28^FDVaseline salicylée à 10 % (acide salicylique 10 g, vaseline officinale qsp 100 g)^FS
^FO590,104^A0N,20,18^FDQuantité^FS
^FO590,128^A0N,34,32^FD100 g^FS
^FO14,176^FDPatient^FS
^FO110,172^A0N,30,28^FDMme Sophie GARNIER^FS
^FO480,176^FDPrescrit par : Dr Antoine ROUX^FS
^FO14,212^GB784,0,1^FS
^FO14,222^FB620,3,4,L,0^A0N,26,24^FDAppliquer une fine couche matin et soir sur les lésions pendant 15 jours. Ne pas appliquer sur le visage.^FS
^FO14,318^FDPréparé le^FS
^FO14,340^A0N,28,26^FD25/11/2026^FS
^FO190,318^FDÀ utiliser avant le^FS
^FO190,340^A0N,28,26^FD25/02/2027^FS
^FO400,318^FDPrix^FS
^FO400,340^A0N,28,26^FD14,80 €^FS
^FO660,212^GB138,44,44^FS
^FO668,222^A0N,26,22^FR^FDUSAGE EXT.^FS
^FO676,272^BXN,5,200^FD26-004512;GARNIER S;20261125^FS
^FO14,380^A0N,18,16^FDTenir hors de la portée des enfants. Conserver à température ambiante.^FS
^XZ
