"""``labelrender operator``: the Kubernetes operator, against ``REDIS_URL`` and ``S3_*``.

It reconciles ``LabelTemplate`` and ``Plan`` custom resources (crds/) into the
Redis and object storage the API and workers use, with the same settings.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from labelrender.cli.common import TierUnavailable, run_service, shared_redis_settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("operator", help="run the Kubernetes operator (LabelTemplate and "
                                        "Plan resources; against REDIS_URL, S3_*)")
    p.add_argument("--kubeconfig", type=Path, default=None,
                   help="kubeconfig file (LABELRENDER_KUBECONFIG or KUBECONFIG; unset: "
                        "in-cluster service account, else ~/.kube/config)")
    p.add_argument("--context", default=None,
                   help="kubeconfig context (LABELRENDER_OPERATOR_CONTEXT)")
    p.set_defaults(run=operator_command)


def operator_command(args: argparse.Namespace) -> int:
    def operator() -> None:
        settings = shared_redis_settings("operator", kubeconfig=args.kubeconfig,
                                         operator_context=args.context)
        try:
            from labelrender.operator.cluster import ClusterError
            from labelrender.operator.run import run_operator
        except ImportError as exc:
            raise TierUnavailable(f"the operator is not available: {exc}") from exc
        try:
            run_operator(settings)
        except ClusterError as exc:
            raise TierUnavailable(str(exc)) from exc

    return run_service("operator", operator)
