"""Render workers: consume the render job stream, render with the engine,
store PNGs in object storage and reply to the waiting API call.

- ``render``: the job handler and the render process pool;
- ``consumer``: the stream consumer loop (claims, bounded work, graceful stop);
- ``run``: ``run_worker(settings)``, what ``labelrender worker`` runs.
"""

from labelrender.worker.consumer import Consumer, consumer_name, stop_on_signals
from labelrender.worker.render import JobHandler, RenderPool, render_in_process

__all__ = ["Consumer", "JobHandler", "RenderPool", "consumer_name", "render_in_process",
           "stop_on_signals"]
