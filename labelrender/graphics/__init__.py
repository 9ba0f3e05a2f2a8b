"""labelrender.graphics: images and PDF pages into ZPL graphic fields (``^GF``).

    from labelrender.graphics import GraphicOptions, convert_graphic
    answer = convert_graphic(open("logo.png", "rb").read(), GraphicOptions(width=300))
    # a Converted (answer.zpl, answer.width, ...) or a Refusal (answer.kind, answer.message)

The inverse of the engine: nothing here knows about HTTP or storage, so the API
(``POST /v1/graphics``, run in the engine sandbox) and the command line
(``labelrender graphic``) share it, limits included.
"""

from labelrender.graphics.convert import (
    COMPRESSIONS,
    DEFAULT_LIMITS,
    OUTPUTS,
    Converted,
    GraphicLimits,
    GraphicOptions,
    Refusal,
    convert_graphic,
)

__all__ = ["COMPRESSIONS", "DEFAULT_LIMITS", "OUTPUTS", "Converted", "GraphicLimits",
           "GraphicOptions", "Refusal", "convert_graphic"]
