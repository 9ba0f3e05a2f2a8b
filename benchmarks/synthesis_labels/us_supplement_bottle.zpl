^XA
^CI28
^PW812
^LL406
^LH0,0
^FO16,12^A0N,22,20^FDNORTHWIND NUTRITION^FS
^FO16,38^A0N,36,32^FDVitamin D3 5000 IU^FS
^FO16,78^A0N,22,20^FDImmune & Bone Support^FS
^FO16,106^A0N,26,24^FD120 Softgels^FS
^FO16,138^A0N,18,16^FDDietary Supplement^FS
^FO34,168^BY2^BUN,70,Y,N^FD85004312716^FS
^FO16,270^A0N,18,16^FDLOT 26K1187^FS
^FO16,292^A0N,18,16^FDEXP 10/2028^FS
^FO16,316^FB250,4,0,L^A0N,14,12^FD*These statements have not been evaluated by the Food and Drug Administration. This product is not intended to diagnose, treat, cure, or prevent any disease.^FS
^FO290,10^GB506,386,2^FS
^FO302,18^A0N,28,26^FDSupplement Facts^FS
^FO302,50^A0N,18,16^FDServing Size 1 Softgel^FS
^FO302,72^A0N,18,16^FDServings Per Container 120^FS
^FO302,94^GB482,6,6^FS
^FO302,104^A0N,16,14^FDAmount Per Serving^FS
^FO680,104^A0N,16,14^FD% Daily Value^FS
^FO302,126^GB482,2,2^FS
^FO302,134^A0N,18,16^FDVitamin D3 (as cholecalciferol) 125 mcg (5,000 IU)^FS
^FO720,156^A0N,18,16^FD625%^FS
^FO302,180^GB482,6,6^FS
^FO302,192^FB482,3,2,L^A0N,16,14^FDOther ingredients: extra virgin olive oil, softgel (bovine gelatin, glycerin, purified water).^FS
^FO302,252^FB482,3,2,L^A0N,16,14^FDSuggested use: Take one softgel daily with a meal, or as directed by your healthcare practitioner.^FS
^FO302,312^A0N,16,14^FDStore in a cool, dry place. Keep out of reach of children.^FS
^FO302,338^A0N,16,14^FDDistributed by Northwind Nutrition LLC, Boise, ID 83702^FS
^FO302,360^A0N,16,14^FDMade in USA with global ingredients^FS
^XZ
