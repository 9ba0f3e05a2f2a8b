^XA
^CI28
^PW560
^LL560
^LH0,0
^FO20,16^A0N,36,32^FDSHIZUOKA CHAEN^FS
^FO20,56^A0N,18,16^FDKakegawa no ocha - Since 1923^FS
^FO20,82^GB520,3,3^FS
^FO20,96^A0N,20,18^FDMeisho / Name:^FS
^FO200,92^A0N,30,28^FDFukamushi Sencha Jo^FS
^FO20,136^A0N,20,18^FDGenryomei / Ingredients:^FS
^FO260,136^A0N,20,18^FDryokucha (Shizuoka-ken san)^FS
^FO20,166^A0N,20,18^FDNaiyoryo / Net weight:^FS
^FO260,160^A0N,30,28^FD100 g^FS
^FO20,200^A0N,20,18^FDShomi kigen / Best before:^FS
^FO260,196^A0N,26,24^FD2027.11.20^FS
^FO20,234^A0N,20,18^FDSeizo bango / Lot:^FS
^FO260,230^A0N,26,24^FDK-2611-3^FS
^FO20,268^A0N,20,18^FDChatsumi / Harvest:^FS
^FO260,264^A0N,26,24^FDIchibancha 2026^FS
^FO20,304^A0N,18,16^FDIrekata: 80 do C no oyu 200 ml ni 5 g, 60 byo.^FS
^FO20,334^A0N,18,16^FDHozon hoho: koon tashitsu wo sake, iko ni ki wo tsukete kudasai.^FS
^FO140,366^BY2,3^BEN,70,Y,N^FD490555123456^FS
^FO20,470^A0N,18,16^FDKakaku: 1,620 en (zeikomi)^FS
^FO20,500^A0N,16,14^FDSeizosha: Shizuoka Chaen K.K., Shizuoka-ken Kakegawa-shi Nishimachi 5-8^FS
^XZ
