^XA
^CI28
^PW812
^LL1218
^LH0,0
^FO20,20^A0N,30,28^FDSTOCKAGE DE MASSE - ALLÉE AU SOL^FS
^FO20,64^GB772,4,4^FS
^FO20,80^A0N,24,22^FDEmplacement^FS
^FO20,110^A0N,240,150^FDM-07^FS
^FO20,360^A0N,28,26^FDZone M · Allée 07 · 6 palettes x 3 niveaux^FS
^FO20,400^FH^A0N,28,26^FDGerbage autoris_C3_A9 : 3 hauteurs (max 1 800 kg/pal.)^FS
^FO20,446^GB772,4,4^FS
^FO20,462^A0N,24,22^FDCode contrôle^FS
^FO20,492^A0N,90,80^FD58^FS
^FO300,462^A0N,24,22^FDFamille de stockage^FS
^FO300,492^A0N,44,40^FDBOISSONS - EAUX^FS
^FO300,546^A0N,26,24^FDRotation : FIFO par date d'entrée^FS
^FO120,620^BY4^BCN,260,N,N,N^FDM07-58^FS
^FO20,920^A0N,24,22^FDDernière mise à jour plan : 18/11/2026^FS
^FO20,956^A0N,24,22^FDSite : Entrepôt Lyon Corbas - bâtiment B^FS
^FO770,1000^A0R,24,22^FDPLAN-MASSE-V2^FS
^FO20,1140^A0N,22,20^FDScanner l'emplacement à chaque dépose. Ne pas masquer l'étiquette.^FS
^XZ
