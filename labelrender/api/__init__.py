"""The public HTTP API (aiohttp): ``create_app(config, redis_client, object_store)``.

Handlers parse and validate, call one service function, and shape the
response; the service functions call ``labelrender.store``. Redis and object
storage calls are synchronous, so they run on the app's thread pool and never
block the event loop.
"""

from labelrender.api.app import create_app
from labelrender.api.config import ApiConfig

__all__ = ["ApiConfig", "create_app"]
