^XA
^CI28
^PW480
^LL600
^LH0,0
^FO16,14^A0N,20,18^FDThe Copper Kettle Deli - Harrogate^FS
^FO16,44^FB448,2,2,L^A0N,34,30^FDCoronation Chicken & Watercress on Malted Bloomer^FS
^FO16,120^GB448,2,2^FS
^FO16,130^A0N,18,16^FDINGREDIENTS:^FS
^FO16,152^FB448,8,2,L^A0N,18,16^FDMalted bloomer bread (WHEAT flour, water, malted BARLEY flakes, rye flour, salt, yeast), roast chicken breast (38%), mayonnaise (rapeseed oil, water, pasteurised free range EGG yolk, spirit vinegar, MUSTARD flour, sugar, salt), mango chutney (sugar, mango, vinegar), curry powder (coriander, turmeric, cumin, fenugreek, chilli, CELERY seed), sultanas, watercress, black pepper.^FS
^FO16,284^GB448,44,44^FS
^FO24,294^A0N,24,22^FR^FDAllergens: wheat, barley, egg, mustard, celery^FS
^FO16,340^A0N,18,16^FDMay contain: sesame, nuts^FS
^FO16,374^A0N,18,16^FDUse by^FS
^FO16,394^A0N,30,28^FDWED 26 NOV^FS
^FO176,374^A0N,18,16^FDEnergy per pack^FS
^FO176,394^A0N,30,28^FD512 kcal^FS
^FO16,450^A0N,18,16^FDKeep refrigerated below 5°C. Eat on day of purchase.^FS
^FO16,484^BY2,2^BCN,70,N,N,N^FD0457-261126^FS
^FO340,380^A0N,50,44^FD£5.45^FS
^FO16,568^A0N,16,14^FDBatch 0457-261126^FS
^XZ
