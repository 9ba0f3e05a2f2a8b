^XA
^CI28
^PW480
^LL640
^LH0,0
^FO20,16^A0N,30,28^FDTISZA-PAPRIKA^FS
^FO20,50^A0N,18,16^FDHagyományos szegedi őrlemény^FS
^FO20,76^GB440,3,3^FS
^FO20,90^A0N,34,30^FDSzegedi Fűszerpaprika-őrlemény^FS
^FO20,130^A0N,26,24^FDédes csemege^FS
^FO20,166^A0N,18,16^FDOltalom alatt álló eredetmegjelölés (OEM)^FS
^FO20,196^A0N,20,18^FDÖsszetevők: 100% őrölt fűszerpaprika^FS
^FO20,222^A0N,20,18^FDASTA színérték: 120^FS
^FO20,248^A0N,20,18^FDSzármazási ország: Magyarország^FS
^FO20,284^A0N,20,18^FDNettó tömeg:^FS
^FO170,278^A0N,32,30^FD100 g^FS
^FO20,326^A0N,20,18^FDMinőségét megőrzi:^FS
^FO210,322^A0N,26,24^FD2027.11.30.^FS
^FO20,362^A0N,20,18^FDTételszám:^FS
^FO150,358^A0N,26,24^FDSZ2611-07^FS
^FO20,400^A0N,18,16^FDTárolás: száraz, hűvös helyen, fénytől védve.^FS
^FO20,424^A0N,18,16^FDBontás után jól záródó edényben tárolandó.^FS
^FO100,460^BY2,3^BEN,80,Y,N^FD599876543210^FS
^FO20,578^A0N,16,14^FDGyártja: Tisza-Paprika Kft., 6728 Szeged, Kenyérgyári út 9.^FS
^FO20,600^A0N,16,14^FDtiszapaprika.hu^FS
^XZ
