"""labelrender.synth: legacy ZPL -> template draft, and template bodies -> ZPL.

``engine`` is the interface (``make_engine`` picks one by name), ``heuristic``
the offline rule-based engine (``classify`` reads the layout, ``recognise``
validates values, ``naming`` makes one placeholder per field, ``stored`` reads
``^DF``/``^XF`` stored formats), and ``fill`` places values into a body's ``^FN``
placeholders. This package may use ``labelrender.zpl``; the engine never
imports from here.
"""
