"""The operator's test bench: a Kubernetes API (kmock) on a localhost port, the
real operator, and the real API server and render worker, all on their own
threads with their own event loops, so tests drive them from plain sync code.

Kopf runs in a thread of its own (``Operator``), never in a test's event loop:
when it stops, it cancels every task started after it. The benchmark in
benchmarks/operator_latency.py uses the same bench (``python -m
tests.operator.harness DIR`` serves the emulated cluster as a process).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import kmock
import kubernetes
import redis
import yaml
from aiohttp import web
from aiohttp.test_utils import RawTestServer

from labelrender.api import ApiConfig, create_app
from labelrender.operator import operate
from labelrender.store import create_key, create_tenant
from labelrender.store.objects import ObjectStore
from labelrender.store.settings import Settings
from labelrender.worker import Consumer, JobHandler, Sandbox
from tests.fixtures.sandbox import SESSION_LIMITS
from tests.operator.crds import load_crds
from tests.operator.emulator import ApiServer

T = TypeVar("T")
GROUP, VERSION = "labelrender.io", "v1"


class Loop:
    """An event loop on a daemon thread; ``run`` a coroutine on it from sync code."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


class BigBodies(RawTestServer):
    """aiohttp's test server taking request bodies up to the API server's 3 MiB
    (aiohttp's default is 1 MiB: too small for a LabelTemplate over its cap)."""

    async def _make_runner(self, debug: bool = True, **kwargs: Any) -> web.ServerRunner:
        def request(*parts: Any) -> web.BaseRequest:
            return web.BaseRequest(*parts, self._loop, client_max_size=3 * 1024 * 1024)

        server = web.Server(self._handler, loop=self._loop, debug=debug,
                            request_factory=request, **kwargs)
        return web.ServerRunner(server, debug=debug, **kwargs)


class Kube:
    """The kubernetes client on an API server's URL, as a GitOps tool or a user
    would use it."""

    def __init__(self, url: str) -> None:
        self.url = url
        client = kubernetes.client.ApiClient(kubernetes.client.Configuration(host=url))
        self.custom = kubernetes.client.CustomObjectsApi(client)
        self.core = kubernetes.client.CoreV1Api(client)

    def apply(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Create ``obj``, or merge-patch its spec when it exists (kubectl apply)."""
        plural, namespace, name = where(obj)
        if self.find(plural, name, namespace) is None:
            if namespace is None:
                created: dict[str, Any] = self.custom.create_cluster_custom_object(
                    GROUP, VERSION, plural, obj)
                return created
            return dict(self.custom.create_namespaced_custom_object(
                GROUP, VERSION, namespace, plural, obj))
        return self.patch(plural, name, {"spec": obj["spec"]}, namespace)

    def patch(self, plural: str, name: str, change: Any, namespace: str | None = "default"
              ) -> dict[str, Any]:
        if namespace is None:
            return dict(self.custom.patch_cluster_custom_object(GROUP, VERSION, plural, name,
                                                                change))
        return dict(self.custom.patch_namespaced_custom_object(GROUP, VERSION, namespace,
                                                               plural, name, change))

    def get(self, plural: str, name: str, namespace: str | None = "default") -> dict[str, Any]:
        if namespace is None:
            return dict(self.custom.get_cluster_custom_object(GROUP, VERSION, plural, name))
        return dict(self.custom.get_namespaced_custom_object(GROUP, VERSION, namespace,
                                                             plural, name))

    def find(self, plural: str, name: str, namespace: str | None = "default"
             ) -> dict[str, Any] | None:
        try:
            return self.get(plural, name, namespace)
        except kubernetes.client.ApiException as exc:
            if exc.status == 404:
                return None
            raise

    def find_cluster(self, group: str, plural: str, name: str) -> dict[str, Any] | None:
        """A cluster-scoped object of any group (v1), or None."""
        try:
            return dict(self.custom.get_cluster_custom_object(group, VERSION, plural, name))
        except kubernetes.client.ApiException as exc:
            if exc.status == 404:
                return None
            raise

    def delete(self, plural: str, name: str, namespace: str | None = "default") -> None:
        if namespace is None:
            self.custom.delete_cluster_custom_object(GROUP, VERSION, plural, name)
        else:
            self.custom.delete_namespaced_custom_object(GROUP, VERSION, namespace, plural, name)

    @property
    def cluster_id(self) -> str:
        """The cluster's default name in owner records: kube-system's uid."""
        return str(self.core.read_namespace("kube-system").metadata.uid)

    def events(self, name: str) -> list[dict[str, Any]]:
        """The Events about the object ``name`` (any namespace), oldest first."""
        found = self.core.list_event_for_all_namespaces().items
        return [{"type": e.type, "reason": e.reason, "message": e.message}
                for e in found if e.involved_object.name == name]


class Cluster(Kube):
    """kmock's emulator (tests/operator/emulator.py) serving our CRDs over HTTP on
    a thread of its own, a kubeconfig for it in ``tmp``, and a client."""

    def __init__(self, tmp: Path) -> None:
        self._loop = Loop("kmock")
        self.server = ApiServer()
        for crd in load_crds().values():
            self.server.declare(crd)
        self._http = kmock.Server(self.server, host="127.0.0.1", server_cls=BigBodies)
        self._loop.run(self._start())
        super().__init__(f"http://127.0.0.1:{self._http.port}")
        self.kubeconfig = tmp / "kubeconfig.yaml"
        self.kubeconfig.write_text(yaml.safe_dump(kubeconfig(self.url)))

    async def _start(self) -> None:
        await self.server.__aenter__()
        await self._http.__aenter__()

    async def _stop(self) -> None:
        await self._http.__aexit__(None, None, None)
        await self.server.__aexit__(None, None, None)

    def close(self) -> None:
        self._loop.run(self._stop())
        self._loop.close()


def kubeconfig(url: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Config", "current-context": "emulator",
            "clusters": [{"name": "emulator", "cluster": {"server": url}}],
            "users": [{"name": "tester", "user": {"token": "emulator-accepts-anything"}}],
            "contexts": [{"name": "emulator", "context": {
                "cluster": "emulator", "user": "tester", "namespace": "default"}}]}


def where(obj: dict[str, Any]) -> tuple[str, str | None, str]:
    """(plural, namespace, name) of one of our resources."""
    plural = {"LabelTemplate": "labeltemplates", "Plan": "plans"}[obj["kind"]]
    meta = obj["metadata"]
    namespace = meta.get("namespace", "default") if obj["kind"] == "LabelTemplate" else None
    return plural, namespace, meta["name"]


class Operator:
    """``labelrender.operator.operate`` on a thread, until ``stop``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._stop = threading.Event()
        self._ready = threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="operator", daemon=True)
        self._thread.start()
        if not self._ready.wait(30) or self.error is not None:
            raise RuntimeError(f"the operator did not start: {self.error!r}")

    def _run(self) -> None:
        try:
            asyncio.run(operate(self.settings, stop_flag=self._stop, ready_flag=self._ready))
        except BaseException as exc:  # reported by the test that waits on it
            self.error = exc
            self._ready.set()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the operator did not stop"


def operator_settings(redis_url: str, data_dir: Path, cluster: Cluster, **extra: Any
                      ) -> Settings:
    """Short intervals, so a test sees a resync or a retry within seconds."""
    options: dict[str, Any] = {
        "redis_url": redis_url, "data_dir": data_dir, "kubeconfig": cluster.kubeconfig,
        "operator_resync_interval_s": 2.0, "operator_backoff_s": 0.2,
        "operator_backoff_max_s": 1.0, **extra}
    return Settings(**options)


@dataclass
class Caller:
    """A tenant's key, and plain HTTP calls to the API with it."""

    base: str
    secret: str

    def call(self, method: str, path: str, body: Any = None
             ) -> tuple[int, dict[str, Any], dict[str, str]]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.secret}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read()), dict(answer.headers)
        except urllib.error.HTTPError as answer:
            return answer.code, json.loads(answer.read()), dict(answer.headers)


class Service:
    """The real API (on a localhost port) and one real render worker."""

    def __init__(self, r: redis.Redis, objects: ObjectStore) -> None:
        self.redis = r
        self._loop = Loop("api")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        # One engine process serves the worker and the API's template checks.
        self._sandbox = Sandbox(1, SESSION_LIMITS)
        app = create_app(ApiConfig(public_base_url=self.base + "/v1", render_timeout_s=20,
                                   engine_sandbox=self._sandbox), r, objects)
        self._runner = web.AppRunner(app)
        self._loop.run(self._start(port))
        self._consumer = Consumer(r, JobHandler(r, objects, self._sandbox), name="operator-tests",
                                  read_ahead=2, claim_idle_ms=60_000, claim_interval_s=30,
                                  block_ms=100)
        self._worker = threading.Thread(target=self._consumer.run, daemon=True)
        self._worker.start()

    async def _start(self, port: int) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()

    def caller(self, plan: str = "pro") -> Caller:
        tenant = create_tenant(self.redis, "Operator Tests", plan, now=time.time())
        key = create_key(self.redis, tenant.tenant_id, now=time.time())
        return Caller(self.base, key.secret)

    def close(self) -> None:
        self._consumer.stop()
        self._worker.join(timeout=10)
        self._loop.run(self._runner.cleanup())
        self._sandbox.close()
        self._loop.close()




def ready(obj: dict[str, Any] | None) -> dict[str, Any] | None:
    """The Ready condition of ``obj`` (None when it has none yet)."""
    for condition in ((obj or {}).get("status") or {}).get("conditions") or ():
        if condition.get("type") == "Ready":
            return dict(condition)
    return None


def serve(tmp: Path) -> None:
    """Serve the emulated cluster until stdin closes (a process of its own, for
    the benchmark): prints its URL, writes ``tmp/kubeconfig.yaml``."""
    cluster = Cluster(tmp)
    print(cluster.url, flush=True)
    sys.stdin.read()
    cluster.close()


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
