^XA
^CI28
^PW609
^LL406
^LH0,0
^FO16,12^A0N,26,24^FDThe Corner Kitchen^FS
^FO400,14^A0N,18,16^FDFreshly made today^FS
^FO16,44^GB578,2,2^FS
^FO16,54^A0N,38,34^FDChicken, Bacon & Avocado Club^FS
^FO16,96^A0N,22,20^FDon malted brown bloomer^FS
^FO16,128^A0N,18,16^FDINGREDIENTS:^FS
^FO140,128^A0N,18,16^FDMalted brown bread (WHEAT flour, water, malted BARLEY flakes,^FS
^FO16,148^A0N,18,16^FDyeast, salt, SOYA flour), roast chicken (28%), smoked bacon (12%) (pork, salt,^FS
^FO16,168^A0N,18,16^FDpreservative: sodium nitrite), avocado (10%), mayonnaise (rapeseed oil, water,^FS
^FO16,188^A0N,18,16^FDEGG yolk, spirit vinegar, MUSTARD seed), baby leaf spinach, tomato, black pepper.^FS
^FO16,216^GB578,44,2^FS
^FO26,228^A0N,20,18^FDALLERGENS: WHEAT (GLUTEN), BARLEY (GLUTEN), SOYA, EGG, MUSTARD^FS
^FO16,270^A0N,18,16^FDFor allergens see ingredients in CAPITALS.^FS
^FO16,290^A0N,18,16^FDMay contain: sesame, milk.^FS
^FO16,318^A0N,18,16^FDEnergy per pack: 2381 kJ / 568 kcal^FS
^FO16,344^A0N,18,16^FDUse by:^FS
^FO90,340^A0N,26,24^FD26 NOV^FS
^FO200,344^A0N,18,16^FDKeep refrigerated below 5°C^FS
^FO16,372^A0N,18,16^FDPLU 3107^FS
^FO400,300^BY2,3^BEN,60,Y,N^FD501234631070^FS
^FO480,266^A0N,30,28^FD£5.45^FS
^XZ
