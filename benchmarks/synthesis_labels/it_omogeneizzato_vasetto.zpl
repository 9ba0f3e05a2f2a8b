^XA
^CI28
^PW560
^LL480
^LH0,0
^FO20,16^A0N,34,30^FDPICCOLO ORTO^FS
^FO330,20^A0N,18,16^FDAlimenti per l'infanzia^FS
^FO20,56^GB520,3,3^FS
^FO20,70^A0N,30,28^FDOmogeneizzato Mela e Pera^FS
^FO20,106^A0N,22,20^FDDal 4° mese compiuto^FS
^FO20,136^A0N,20,18^FDIngredienti: mela* 60%, pera* 39%, vitamina C. *Biologico^FS
^FO20,162^A0N,20,18^FDSenza zuccheri aggiunti (contiene naturalmente zuccheri)^FS
^FO20,196^A0N,22,20^FDPeso netto: 2 x 80 g^FS
^FO20,226^A0N,22,20^FDDa consumarsi preferibilmente entro il: 31/05/2028^FS
^FO20,256^A0N,22,20^FDLotto: PO26319A^FS
^FO20,290^A0N,18,16^FDAvvertenza: il latte materno è l'alimento ideale per il lattante.^FS
^FO20,312^A0N,18,16^FDUna volta aperto conservare in frigorifero e consumare entro 48 ore.^FS
^FO20,334^A0N,18,16^FDIT-BIO-006 - Agricoltura UE^FS
^FO290,360^BY2,3^BEN,60,Y,N^FD800456789012^FS
^FO20,370^A0N,16,14^FDPiccolo Orto S.r.l.^FS
^FO20,390^A0N,16,14^FDVia Emilia Est 112^FS
^FO20,410^A0N,16,14^FD41121 Modena (MO)^FS
^XZ
