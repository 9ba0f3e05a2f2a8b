^XA
^CI28
^PW800
^LL900
^LH0,0
^FO30,24^A0N,50,46^FDFJELLBAKK PET NUTRITION^FS
^FO30,90^A0N,40,36^FDAdult Large Breed^FS
^FO30,136^A0N,32,30^FDSalmon & Brown Rice^FS
^FO30,176^A0N,24,22^FDComplete dry food for adult dogs over 25 kg^FS
^FO30,214^GB740,2,2^FS
^FO30,230^A0N,24,22^FDCOMPOSITION^FS
^FO30,260^FB740,4,2,L^A0N,22,20^FDSalmon meal (26%), brown rice (20%), fresh salmon (12%), oats, chicken fat, dried beet pulp, fish oil (3%), pea protein, brewer's yeast, minerals, glucosamine (1,000 mg/kg), chondroitin (700 mg/kg).^FS
^FO30,370^A0N,24,22^FDANALYTICAL CONSTITUENTS^FS
^FO30,400^A0N,22,20^FDProtein 26%, fat content 14%, crude ash 7.5%, crude fibres 2.8%, moisture 9%.^FS
^FO30,440^A0N,24,22^FDADDITIVES (per kg)^FS
^FO30,470^A0N,22,20^FDVitamin A 18,000 IU, vitamin D3 1,600 IU, vitamin E 400 mg, zinc 120 mg.^FS
^FO30,520^GB740,2,2^FS
^FO30,540^A0N,24,22^FDNet weight^FS^FO30,570^A0N,60,56^FD12 kg^FS
^FO330,540^A0N,24,22^FDBest before / Lot^FS
^FO330,570^A0N,32,30^FD14.05.2028^FS
^FO330,608^A0N,28,26^FDL 26133 F2 0918^FS
^FO30,670^A0N,22,20^FDFeeding guide: 25 kg - 330 g, 35 kg - 420 g, 45 kg - 500 g per day.^FS
^FO30,700^A0N,22,20^FDAlways provide fresh drinking water.^FS
^FO460,740^BY3,3^BEN,110,Y,N^FD871234500012^FS
^FO30,760^A0N,20,18^FDFjellbakk AS, Industrivegen 12^FS
^FO30,786^A0N,20,18^FD2069 Jessheim, Norway^FS
^FO30,812^A0N,20,18^FDApproval no. NO 0234 PF^FS
^XZ
