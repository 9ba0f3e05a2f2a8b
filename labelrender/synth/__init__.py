"""labelrender.synth: legacy ZPL -> template draft, and template bodies -> ZPL.

``fill`` places values into a body's ``^FN`` placeholders. This package may use
``labelrender.zpl``; the engine never imports from here.
"""
