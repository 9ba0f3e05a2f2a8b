^XA
^CI28
^PW609
^LL406
^LH0,0
^FO14,10^A0N,24,22^FDClinique Vétérinaire du Bocage^FS
^FO14,36^A0N,16,14^FD3 rue des Forges, 61100 Flers - 02 33 65 18 90^FS
^FO0,56^GB609,2,2^FS
^FO14,66^A0N,20,18^FDAnimal :^FS
^FO110,62^A0N,26,24^FDPRALINE (chienne, Border Collie, 18,4 kg)^FS
^FO14,98^A0N,20,18^FDPropriétaire : M. et Mme GUÉRIN^FS
^FO14,128^A0N,26,24^FDMELOXIVET 1,5 mg/ml susp. buvable^FS
^FO14,160^A0N,22,20^FDFlacon 32 ml^FS
^FO220,160^A0N,22,20^FDLot 4K1187  Exp. 09/2028^FS
^FO14,192^A0N,20,18^FDPosologie :^FS
^FO14,216^A0N,26,24^FD2,5 ml une fois par jour dans la ration^FS
^FO14,250^A0N,22,20^FDDurée : 10 jours^FS
^FO14,282^A0N,20,18^FDDélivré le 25/11/2026 par Dr C. Marchand^FS
^FO14,310^A0N,20,18^FDOrdonnance n° 26-3391^FS
^FO470,280^BXN,3,200^FD26-3391/4K1187^FS
^FO0,344^GB609,2,2^FS
^FO14,354^A0N,18,16^FDUSAGE VÉTÉRINAIRE - Respecter la prescription.^FS
^FO14,378^A0N,16,14^FDTenir hors de portée des enfants.^FS
^XZ
