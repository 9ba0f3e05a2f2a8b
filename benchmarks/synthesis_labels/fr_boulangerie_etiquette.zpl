^XA
^CI28
^PW480
^LL480
^LH0,0
^FO12,8^A0N,24,22^FDMaison Lefèvre^FS
^FO12,34^A0N,16,14^FDArtisan boulanger - 12 rue Nationale, 37000 Tours^FS
^FO12,54^GB456,2,2^FS
^FO12,62^A0N,32,30^FDPain aux noix et raisins^FS
^FO12,98^A0N,20,18^FDlevain naturel, cuit sur sole^FS
^FO12,126^A0N,16,14^FDIngrédients : farine de BLÉ T80, eau, NOIX 12 %, raisins secs 10 %,^FS
^FO12,144^A0N,16,14^FDlevain de SEIGLE, sel de Guérande, levure.^FS
^FO12,166^A0N,16,14^FDPeut contenir des traces de SÉSAME et de LAIT.^FS
^FO12,194^A0N,16,14^FDFabriqué le^FS
^FO12,212^A0N,24,22^FD26/11/2026^FS
^FO200,194^A0N,16,14^FDÀ consommer de préférence avant le^FS
^FO200,212^A0N,24,22^FD29/11/2026^FS
^FO12,250^GB456,2,2^FS
^FO12,258^A0N,16,14^FDPoids net^FS
^FO12,276^A0N,30,28^FD400 g^FS
^FO150,258^A0N,16,14^FDPrix au kg^FS
^FO150,276^A0N,30,28^FD12,25 €^FS
^FO310,258^A0N,16,14^FDPrix^FS
^FO310,272^A0N,44,40^FD4,90 €^FS
^FO30,330^BY2,3^B8N,60,Y,N^FD02015347^FS
^FO250,336^A0N,16,14^FDLot 3301-B^FS
^FO250,360^A0N,16,14^FDÀ conserver dans un endroit^FS
^FO250,378^A0N,16,14^FDsec, à l'abri de la chaleur.^FS
^FO12,450^A0N,14,12^FDSIRET 812 334 120 00018^FS
^XZ
