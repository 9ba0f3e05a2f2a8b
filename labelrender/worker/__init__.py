"""Render workers: consume the render job stream, render with the engine in a
sandbox, store PNGs in object storage and reply to the waiting API call.

- ``sandbox``: the supervised engine processes (deadline, memory ceiling,
  fair share between tenants);
- ``engine_calls``: what those processes run;
- ``render``: the job handler (render, store, settle the label unit, reply);
- ``consumer``: the stream consumer loop (read-ahead, claims, graceful stop);
- ``run``: ``run_worker(settings)``, what ``labelrender worker`` runs.
"""

from labelrender.worker.consumer import Consumer, consumer_name, stop_on_signals
from labelrender.worker.render import JobHandler
from labelrender.worker.sandbox import Sandbox, SandboxLimits

__all__ = ["Consumer", "JobHandler", "Sandbox", "SandboxLimits", "consumer_name",
           "stop_on_signals"]
