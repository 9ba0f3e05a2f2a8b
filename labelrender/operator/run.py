"""Run the operator: Kopf with our handlers, plus the resync sweep.

``labelrender operator`` calls ``run_operator``; tests call ``operate`` in a
thread of their own with stop and ready flags. The operator serves every
namespace (a Plan is cluster-scoped). Replicas meet through Kopf peering;
only the one with the highest priority handles objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import json
import logging
import os
import random
import secrets
import socket
import threading
from typing import Any, cast

import kopf
import redis
from aiohttp import web
from prometheus_client import start_http_server
from redis.backoff import NoBackoff
from redis.retry import Retry

from labelrender.operator.checks import SandboxedCheck
from labelrender.operator.cluster import (
    Cluster,
    ClusterError,
    active_peer,
    connection_info,
    kube_configuration,
)
from labelrender.operator.context import Store
from labelrender.operator.events import COMPONENT, Events
from labelrender.operator.handlers import Tuning, register
from labelrender.operator.resync import sweep_forever
from labelrender.store.redis_conn import open_later
from labelrender.store.settings import Settings, build_object_store, connect_redis
from labelrender.worker.health import Probes, flag_set, probe_app, redis_answers, serve_probes
from labelrender.worker.sandbox import SandboxLimits

log = logging.getLogger(__name__)
ANNOTATIONS = "labelrender.io"  # Kopf's progress and last-handled spec live here
FINALIZER = "labelrender.io/operator"
REDIS_CONNECT_TIMEOUT_S = 5.0
REDIS_TIMEOUT_S = 10.0


def run_operator(settings: Settings) -> None:
    """Run until SIGINT or SIGTERM (Kopf handles both)."""
    asyncio.run(operate(settings))


async def operate(settings: Settings, *, stop_flag: threading.Event | None = None,
                  ready_flag: threading.Event | None = None) -> None:
    """The operator in the running event loop, until ``stop_flag`` (or a signal)."""
    cluster = Cluster(kube_configuration(settings))  # first: no cluster, nothing started
    cluster_id = settings.operator_cluster_id
    if cluster_id is None:
        cluster_id = await asyncio.to_thread(cluster.cluster_uid)
    log.info("operating for cluster %s", cluster_id)
    check = SandboxedCheck(SandboxLimits(settings.render_deadline_s, settings.render_memory_mb))
    try:
        await _operate(settings, cluster, Store(open_redis(settings),
                                                build_object_store(settings), check, cluster_id),
                       stop_flag, ready_flag)
    finally:
        check.close()


async def _operate(settings: Settings, cluster: Cluster, store: Store,
                   stop_flag: threading.Event | None, ready_flag: threading.Event | None
                   ) -> None:
    registry = kopf.OperatorRegistry()
    register(registry, store, Tuning(settings.operator_resync_interval_s,
                                     settings.operator_backoff_s,
                                     settings.operator_backoff_max_s), Events(cluster))

    def login(**_: Any) -> kopf.ConnectionInfo:
        return connection_info(kube_configuration(settings))  # afresh: tokens expire

    kopf.on.login(registry=registry)(login)
    peering = await _prepare_peering(settings, cluster)
    started = ready_flag if ready_flag is not None else threading.Event()
    probes = await _serve_probes(settings, store, started)
    if settings.operator_metrics_port is not None:
        start_http_server(settings.operator_metrics_port, addr=settings.host)
    identity = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
    config = kopf_settings(settings)

    async def leading() -> bool:
        if not peering:
            return True
        peers = await asyncio.to_thread(cluster.peers, config.peering.name)
        return active_peer(peers, identity, datetime.datetime.now(datetime.UTC))

    sweeper = asyncio.create_task(
        sweep_forever(store, cluster, settings.operator_resync_interval_s, leading))
    try:
        # Our identity, so that the sweep finds this replica in the peering object
        # (Kopf's Identity is a NewType of str it does not export).
        await kopf.operator(registry=registry, settings=config, identity=cast(Any, identity),
                            clusterwide=True, stop_flag=stop_flag, ready_flag=started)
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        if probes is not None:
            await probes.cleanup()


class DigestDiffBase(kopf.AnnotationsDiffBaseStorage):
    """Kopf's last handled state as the SHA-256 of the spec, not the spec.

    Kopf keeps the spec it last handled to tell a change from a repeat; as an
    annotation, a whole template body does not fit: the API server caps all of
    an object's annotations at 256 KiB, so every status patch of a LabelTemplate
    over about 128 KiB was refused. The handlers read the whole spec and only
    ask whether it changed, which a digest answers (and a spec of up to the
    CRD's 1 MiB keeps a 64-byte annotation)."""

    def build(self, *, body: kopf.Body, extra_fields: Any = None) -> Any:
        essence = dict(super().build(body=body, extra_fields=extra_fields))
        if "spec" in essence:
            canonical = json.dumps(essence["spec"], sort_keys=True, separators=(",", ":"))
            essence["spec"] = {"sha256": hashlib.sha256(canonical.encode()).hexdigest()}
        return essence


def kopf_settings(settings: Settings) -> kopf.OperatorSettings:
    """Kopf's settings: its state in our annotations (never in status, which is
    ours and schema-checked), our finalizer, and peering."""
    kopf_config = kopf.OperatorSettings()
    kopf_config.persistence.finalizer = FINALIZER
    kopf_config.persistence.progress_storage = kopf.AnnotationsProgressStorage(
        prefix=ANNOTATIONS)
    kopf_config.persistence.diffbase_storage = DigestDiffBase(
        prefix=ANNOTATIONS, key="last-handled-configuration")
    # Our Events are posted explicitly, one per outcome; Kopf's own progress
    # notes stay in the log unless they are warnings.
    kopf_config.posting.level = logging.WARNING
    kopf_config.posting.reporting_component = COMPONENT  # Events' "From"
    kopf_config.peering.name = settings.operator_peering_name
    kopf_config.peering.priority = (settings.operator_priority
                                    if settings.operator_priority is not None
                                    else random.randint(1, 2**31 - 1))
    kopf_config.peering.mandatory = settings.operator_peering == "mandatory"
    kopf_config.peering.standalone = settings.operator_peering == "standalone"
    kopf_config.peering.stealth = True
    return kopf_config


def open_redis(settings: Settings) -> redis.Redis:
    """The settings' Redis, without waiting for it to answer: while it cannot be
    reached, the objects say RedisUnavailable and the operator retries."""
    if not settings.redis_url:
        return connect_redis(settings)  # the embedded server, started here
    options: dict[str, Any] = {"socket_connect_timeout": REDIS_CONNECT_TIMEOUT_S,
                               "socket_timeout": REDIS_TIMEOUT_S}
    if settings.redis_cluster == "false":
        options["retry"] = Retry(NoBackoff(), 1)  # a cluster client retries on its own
    return open_later(settings.redis_url, settings.redis_cluster, **options)


async def _prepare_peering(settings: Settings, cluster: Cluster) -> bool:
    """Whether replicas peer (else this one works alone)."""
    if settings.operator_peering == "standalone":
        return False
    if await asyncio.to_thread(cluster.ensure_peering, settings.operator_peering_name):
        return True
    if settings.operator_peering == "mandatory":
        raise ClusterError("peering is mandatory but the ClusterKopfPeering CRD is not "
                           "installed (crds/kopf-peering.yaml)")
    log.warning("the ClusterKopfPeering CRD is not installed: running without peering, "
                "so run one replica only")
    return False


async def _serve_probes(settings: Settings, store: Store, started: threading.Event
                        ) -> web.AppRunner | None:
    """``/healthz``: the process answers; ``/readyz``: Kopf has started and
    Redis answers (on ``LABELRENDER_HEALTH_PORT``, if set)."""
    if settings.health_port is None:
        return None
    probes = Probes(ready=[flag_set(started, "the operator is starting"),
                           redis_answers(store.redis)])
    return await serve_probes(probe_app(probes), settings.host, settings.health_port)
