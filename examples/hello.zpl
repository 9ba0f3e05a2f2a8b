^XA
^FX A 4 x 6 in label at 203 dpi (8 dpmm): a line of text and a Code 128 barcode.
^FO50,50^A0N,50,50^FDHello from labelrender^FS
^FO50,130^BY3^BCN,100,Y,N,N^FD12345678^FS
^FO50,300^GB700,3,3^FS
^XZ
