"""The Kubernetes operator: ``LabelTemplate`` and ``Plan`` custom resources,
reconciled by Kopf into the Redis the API and workers read.

- ``resources``: the specs as the CRDs in crds/ define them.
- ``templates``, ``plans``: one reconcile and one finalizer delete per kind.
- ``checks``: the template check (the one every door shares).
- ``status``: outcomes as cert-manager style status conditions.
- ``handlers``: Kopf registration; ``resync``: removing what deleted objects
  left (only this cluster's, only on the active replica); ``cluster``: the
  Kubernetes API; ``events``: Events where kubectl finds them; ``metrics``:
  the Prometheus metrics; ``run``: the process.
"""

from labelrender.operator.run import operate, run_operator

__all__ = ["operate", "run_operator"]
