"""The API's contract as an OpenAPI 3.1 document, built from the code.

``operations.OPERATIONS`` lists every operation (add a route there);
``document.build_document`` turns it, the handlers' pydantic models and
their route policies into the document; ``serve`` answers
``GET /v1/openapi.json`` and ``/docs``. ``python -m labelrender.api.openapi
docs/openapi.json`` regenerates the repo's copy.
"""

from labelrender.api.openapi.serve import add_routes, document_bytes

__all__ = ["add_routes", "document_bytes"]
