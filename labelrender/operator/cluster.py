"""The Kubernetes API the operator talks to: one configuration, from the
settings, for Kopf's connection and for the resync's listings.

``kubeconfig`` set: that file (and ``operator_context``, else its current
context). Unset: the pod's service account when running in a cluster, else
``~/.kube/config``, as kubectl would find them.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import kopf
import kubernetes  # type: ignore[import-untyped]  # no type hints shipped
import urllib3

from labelrender.operator.resources import GROUP, LABEL_TEMPLATES, PLANS, VERSION
from labelrender.store.settings import Settings

log = logging.getLogger(__name__)
PEERING_GROUP, PEERING_VERSION, PEERINGS = "kopf.dev", "v1", "clusterkopfpeerings"
DEFAULT_KUBECONFIG = Path("~/.kube/config")
REQUEST_TIMEOUT_S = 30


class ClusterError(RuntimeError):
    """The Kubernetes API could not be reached or refused a call."""


def kube_configuration(settings: Settings) -> Any:
    """A ``kubernetes.client.Configuration`` for the cluster the settings name."""
    config = kubernetes.client.Configuration()
    if settings.kubeconfig is None:
        try:
            kubernetes.config.load_incluster_config(client_configuration=config)
            return config
        except kubernetes.config.ConfigException:
            pass
    path = (settings.kubeconfig or DEFAULT_KUBECONFIG).expanduser()
    try:
        kubernetes.config.load_kube_config(config_file=str(path),
                                           context=settings.operator_context,
                                           client_configuration=config, persist_config=False)
    except (kubernetes.config.ConfigException, OSError) as exc:
        raise ClusterError(f"no cluster to run against: not in a cluster, and {path}: "
                           f"{exc}") from exc
    return config


def connection_info(config: Any) -> kopf.ConnectionInfo:
    """Kopf's credentials from the client configuration (token, client
    certificate or basic auth, and the server's CA)."""
    header = (config.get_api_key_with_prefix("BearerToken")
              or config.get_api_key_with_prefix("authorization"))
    scheme, _, token = (header or "").rpartition(" ")
    return kopf.ConnectionInfo(
        server=config.host, ca_path=config.ssl_ca_cert, insecure=not config.verify_ssl,
        username=config.username or None, password=config.password or None,
        scheme=scheme or None, token=token or None, certificate_path=config.cert_file,
        private_key_path=config.key_file)


class Cluster:
    """The few calls the operator makes besides Kopf's own (blocking: run them
    in a thread)."""

    def __init__(self, config: Any) -> None:
        client = kubernetes.client.ApiClient(config)
        self._objects = kubernetes.client.CustomObjectsApi(client)
        self._core = kubernetes.client.CoreV1Api(client)

    def label_templates(self) -> list[dict[str, Any]]:
        """Every LabelTemplate in every namespace."""
        return self._list(GROUP, VERSION, LABEL_TEMPLATES)

    def plans(self) -> list[dict[str, Any]]:
        return self._list(GROUP, VERSION, PLANS)

    def cluster_uid(self) -> str:
        """The uid of the kube-system namespace: one per cluster, kept for its life."""
        try:
            namespace = self._core.read_namespace("kube-system", _request_timeout=REQUEST_TIMEOUT_S)
        except (kubernetes.client.ApiException, OSError, urllib3.exceptions.HTTPError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise ClusterError(f"cannot read the kube-system namespace to name this cluster "
                               f"({reason}): allow get on namespaces/kube-system, or set "
                               "LABELRENDER_OPERATOR_CLUSTER_ID") from exc
        return str(namespace.metadata.uid)

    def peers(self, name: str) -> dict[str, Any]:
        """The status of the ClusterKopfPeering ``name``: each replica's identity,
        priority, lastseen and lifetime."""
        try:
            found = self._objects.get_cluster_custom_object(
                PEERING_GROUP, PEERING_VERSION, PEERINGS, name, _request_timeout=REQUEST_TIMEOUT_S)
        except (kubernetes.client.ApiException, OSError, urllib3.exceptions.HTTPError) as exc:
            raise ClusterError(f"cannot read ClusterKopfPeering {name}: {exc}") from exc
        return dict(found.get("status") or {})

    def post_event(self, namespace: str, event: dict[str, Any]) -> None:
        """Create an Event; a refusal is logged (an Event is never worth a retry)."""
        try:
            self._core.create_namespaced_event(namespace, event,
                                               _request_timeout=REQUEST_TIMEOUT_S)
        except (kubernetes.client.ApiException, OSError, urllib3.exceptions.HTTPError) as exc:
            log.warning("cannot post an Event about %s %s: %s",
                        event["involvedObject"].get("kind"), event["involvedObject"].get("name"),
                        getattr(exc, "reason", None) or exc)

    def ensure_peering(self, name: str) -> bool:
        """Create the ClusterKopfPeering object replicas meet in, if missing;
        False when its CRD is not installed (no peering possible)."""
        body = {"apiVersion": f"{PEERING_GROUP}/{PEERING_VERSION}",
                "kind": "ClusterKopfPeering", "metadata": {"name": name}}
        try:
            self._objects.create_cluster_custom_object(
                PEERING_GROUP, PEERING_VERSION, PEERINGS, body,
                _request_timeout=REQUEST_TIMEOUT_S)
        except kubernetes.client.ApiException as exc:
            if exc.status == 404:
                return False
            if exc.status == 403:  # the CRD exists; the object may have been made for us
                log.warning("not allowed to create ClusterKopfPeering %s: create it, or allow "
                            "create on clusterkopfpeerings; replicas do not peer without it",
                            name)
            elif exc.status != 409:  # 409: it exists already
                raise ClusterError(f"cannot create ClusterKopfPeering {name}: {exc}") from exc
        except (OSError, urllib3.exceptions.HTTPError) as exc:
            raise ClusterError(f"the Kubernetes API is unreachable: {exc}") from exc
        return True

    def _list(self, group: str, version: str, plural: str) -> list[dict[str, Any]]:
        try:
            answer = self._objects.list_cluster_custom_object(
                group, version, plural, _request_timeout=REQUEST_TIMEOUT_S)
        except (kubernetes.client.ApiException, OSError, urllib3.exceptions.HTTPError) as exc:
            raise ClusterError(f"cannot list {plural}: {exc}") from exc
        return list(answer.get("items", []))


def active_peer(peers: Mapping[str, Any], identity: str, now: datetime.datetime) -> bool:
    """Whether ``identity`` is the replica Kopf peering lets work: it is listed,
    and no other live replica has a priority as high (Kopf pauses a replica
    for a higher one, and every replica of an equal one)."""
    mine = peers.get(identity)
    if not isinstance(mine, Mapping):
        return False
    priority = int(mine.get("priority", 0))
    for peer, info in peers.items():
        if peer != identity and isinstance(info, Mapping) and _alive(info, now) and int(
                info.get("priority", 0)) >= priority:
            return False
    return True


def _alive(info: Mapping[str, Any], now: datetime.datetime) -> bool:
    """As Kopf reads a peer: without ``lastseen`` it counts as just seen."""
    if info.get("lastseen") is None:
        return True
    try:
        seen = datetime.datetime.fromisoformat(str(info.get("lastseen")))
    except ValueError:
        return False
    if seen.tzinfo is None:
        seen = seen.replace(tzinfo=datetime.UTC)
    return seen + datetime.timedelta(seconds=int(info.get("lifetime", 60))) > now
