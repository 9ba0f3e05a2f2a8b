"""A Kubernetes API for the operator tests: kmock's emulator over real HTTP, with
what Kopf and kubectl need of a real API server and kmock 0.8 lacks.

kmock keeps objects and serves list, watch, get, create, patch and delete,
but it sets no ``uid``, ``resourceVersion``, ``generation`` or
``creationTimestamp`` (Kopf's finalizer patch tests the resourceVersion and
waits to see it in the watch stream), ignores ``generateName`` (Events use
it), leaves ``metadata.namespace`` out when the URL names it, and treats a
status subresource like the object. Writes are done here instead, with those
rules; reads stay kmock's, plus the Table answers ``kubectl get`` asks for
(the CRD's printer columns). Test support, not product code; it does not
validate objects against the schema (``crds.schema_errors`` does, in tests).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
import secrets
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import attrs
import jsonpatch
import kmock
from aiohttp import web
from kmock._internal import apps, dicts, enums, k8s, rendering

from tests.operator.crds import Crd

_WRITES = (enums.action.CREATE, enums.action.UPDATE, enums.action.DELETE)
_VERBS = {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}
ANNOTATIONS_CAP = 256 * 1024  # bytes of all annotations of one object
_NAMESPACES = kmock.resource("", "v1", "namespaces")
_NAMESPACE_PATH = re.compile(r"/api/v1/namespaces/([a-z0-9-]+)")
_JSONPATH = re.compile(r'\.([A-Za-z0-9_-]+)|\[\?\(@\.([A-Za-z0-9_]+)=="([^"]*)"\)\]')


@attrs.define(kw_only=True)
class ApiServer(kmock.KubernetesEmulator):
    """The emulator; ``declare(crd)`` serves a custom resource kind."""

    _columns: dict[Any, list[dict[str, Any]]] = attrs.field(factory=dict, init=False)
    _revision: int = attrs.field(default=0, init=False)  # the last resourceVersion given
    _serving: list[Any] = attrs.field(factory=list, init=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        with warnings.catch_warnings():  # kmock 0.8 reads its bundle with a deprecated call
            warnings.simplefilter("ignore", DeprecationWarning)
            self.resources.load_bundled()  # without the core kinds' discovery Kopf waits forever
        for namespace in ("default", "kube-system"):  # kube-system's uid names the cluster
            self.objects[_NAMESPACES, None, namespace] = {
                "apiVersion": "v1", "kind": "Namespace", "metadata": self._new_meta(namespace)}

    def declare(self, crd: Crd) -> None:
        names, version = crd.names, crd.version
        resource = kmock.resource(crd.group, version["name"], crd.plural)
        self.resources[resource] = kmock.ResourceInfo(
            kind=crd.kind, singular=names.get("singular"), namespaced=crd.namespaced,
            verbs=_VERBS, shortnames=names.get("shortNames", []),
            categories=names.get("categories", []),
            subresources=set(version.get("subresources", {})))
        self._columns[resource] = list(version.get("additionalPrinterColumns", []))

    def __iter__(self) -> Iterator[rendering.Request]:
        """The requests kmock matches a new request against: only those being
        served (kmock keeps every request ever made, and searching them all made
        each request slower than the one before: 14 ms to 177 ms in 1,800)."""
        yield from self._serving

    async def _handle(self, request: rendering.Request) -> Any:
        self._serving.append(request)
        try:
            return await self._serve(request)
        finally:
            self._serving.remove(request)

    # Writes -----------------------------------------------------------------

    async def _serve(self, request: rendering.Request) -> Any:
        if (found := _NAMESPACE_PATH.fullmatch(request.url.path)) and request.method == "GET":
            return self._namespace(found.group(1))
        if request.resource is not None and request.action == enums.action.WATCH:
            return await self._watch(request)
        if request.resource is None or request.action not in _WRITES:
            return await super()._handle(request)
        async with self._lock:
            released = await self._write(request)
        try:  # the answer: kmock's fallbacks read the object as written
            answer = await apps.RawHandler._handle(self, request)
            if request.action == enums.action.CREATE and answer.status == 200:
                answer.set_status(201)  # clients read a create's answer only on 201
            return answer
        finally:
            if released is not None:  # deleted once its last finalizer went
                async with self._lock:
                    await self._forget(request.resource, released)

    def _namespace(self, name: str) -> web.Response:
        """GET /api/v1/namespaces/NAME (kmock reads the path as a namespace prefix)."""
        for (resource, _, found), obj in self.objects.items():
            if str(resource) == str(_NAMESPACES) and found == name and not obj.deleted:
                return web.json_response(obj.raw)
        return web.json_response({"apiVersion": "v1", "kind": "Status", "status": "Failure",
                                  "reason": "NotFound", "code": 404,
                                  "message": f'namespaces "{name}" not found'}, status=404)

    async def _write(self, request: rendering.Request) -> tuple[Any, ...] | None:
        if request.action == enums.action.CREATE:
            await self._create(request)
            return None
        key = (request.resource, request.namespace, request.name)
        if key not in self.objects or self.objects[key].deleted:
            raise k8s.KubernetesObjectNotFoundError()
        if request.action == enums.action.DELETE:
            return await self._delete(request.resource, key)
        return await self._patch(request, key)

    async def _create(self, request: rendering.Request) -> None:
        body = request.data  # changed in place: kmock's create answer reads it back
        meta = body.setdefault("metadata", {})
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + secrets.token_hex(3)
        if request.namespace:
            meta["namespace"] = request.namespace
        meta.update(self._new_meta(meta["name"]))
        _check_annotations(meta)
        if "status" in self._subresources(request.resource):
            body.pop("status", None)  # a create never sets the status subresource
        key = (request.resource, meta.get("namespace"), meta["name"])
        if key in self.objects and not self.objects[key].deleted:
            raise k8s.KubernetesObjectConflictError()
        if key in self.objects:
            self.objects[key].create(body)
        else:
            self.objects[key] = body
        await self._publish(request.resource, "ADDED", body)

    async def _patch(self, request: rendering.Request, key: tuple[Any, ...]
                     ) -> tuple[Any, ...] | None:
        current = self.objects[key].raw
        change = self._scoped(request, request.data)
        sent_version = (change.get("metadata") or {}).get("resourceVersion") if isinstance(
            change, Mapping) else None
        if sent_version not in (None, current["metadata"].get("resourceVersion")):
            raise k8s.KubernetesError(409, "Conflict", "the object has been modified")
        try:
            patched = dict(dicts.patch_dict(current, change))
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
            raise k8s.KubernetesError(422, "Invalid", str(exc)) from exc
        if patched == current:
            return None
        meta = patched["metadata"] = dict(patched["metadata"])
        _check_annotations(meta)
        meta["resourceVersion"] = self._next_revision()
        if {k: v for k, v in patched.items() if k not in ("metadata", "status")} != {
                k: v for k, v in current.items() if k not in ("metadata", "status")}:
            meta["generation"] = int(meta.get("generation", 1)) + 1
        self.objects[key].history.append(patched)
        await self._publish(request.resource, "MODIFIED", patched)
        return key if meta.get("deletionTimestamp") and not meta.get("finalizers") else None

    async def _delete(self, resource: Any, key: tuple[Any, ...]) -> tuple[Any, ...] | None:
        obj = self.objects[key]
        meta = obj.raw["metadata"]
        if meta.get("deletionTimestamp"):
            return None
        if meta.get("finalizers"):  # marked; gone once the finalizers are removed
            marked = {**obj.raw, "metadata": {**meta, "deletionTimestamp": _now(),
                                              "resourceVersion": self._next_revision()}}
            obj.history.append(marked)
            await self._publish(resource, "MODIFIED", marked)
            return None
        return key

    async def _forget(self, resource: Any, key: tuple[Any, ...]) -> None:
        obj = self.objects[key]
        last = {**obj.raw, "metadata": {**obj.raw["metadata"],
                                        "resourceVersion": self._next_revision()}}
        obj.delete()
        await self._publish(resource, "DELETED", last)

    def _scoped(self, request: rendering.Request, change: Any) -> Any:
        """With a status subresource, a patch of the object leaves the status
        alone and a patch of ``/status`` changes nothing else."""
        if not isinstance(change, Mapping) or "status" not in self._subresources(
                request.resource):
            return change
        if request.subresource == "status":
            return {"status": change.get("status")}
        return {k: v for k, v in change.items() if k != "status"}

    async def _publish(self, resource: Any, kind: str, body: Mapping[str, Any]) -> None:
        await self._buses[resource].put({"type": kind, "object": dict(body)})

    def _subresources(self, resource: Any) -> set[str]:
        return set(self.resources[resource].subresources) if resource in self.resources else set()

    def _next_revision(self) -> str:
        self._revision += 1
        return str(self._revision)

    def _new_meta(self, name: str) -> dict[str, Any]:
        return {"name": name, "uid": str(uuid.uuid4()), "creationTimestamp": _now(),
                "resourceVersion": self._next_revision(), "generation": 1}

    # Reads ------------------------------------------------------------------

    async def _watch(self, request: rendering.Request) -> web.StreamResponse:
        """A watch as JSON lines with the API server's content type (kmock's is
        application/octet-stream, which kubectl refuses to read)."""
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request._raw_request)
        with contextlib.suppress(ConnectionError):
            async for event in self._changes(request):
                await response.write(json.dumps(event).encode() + b"\n")
        return response

    async def _changes(self, request: rendering.Request) -> AsyncIterator[Any]:
        """Changes after the ``resourceVersion`` the client listed at, as a real
        API server sends them (kmock sends every object again, and Kopf then
        handles a stale copy after its own patch)."""
        since_text = request.params.get("resourceVersion") or "0"
        since = int(since_text) if since_text.isdigit() else 0
        bus = self._buses[request.resource]
        async with self._lock:
            mark = await bus.mark()
            newer = [obj.raw for key, obj in self.objects.items()
                     if _selects(request, key) and not obj.deleted
                     and int(obj.raw["metadata"].get("resourceVersion", 0)) > since]
        try:
            for body in newer:
                yield {"type": "ADDED", "object": body}
            async for event in bus.stream(since=mark):
                meta = event["object"]["metadata"]
                if _selects(request, (request.resource, meta.get("namespace"),
                                      meta.get("name"))):
                    yield event
        finally:
            await bus.unmark(mark)

    # Tables for kubectl get -------------------------------------------------

    async def _serve_list(self, request: rendering.Request) -> Any:
        listed_at = str(self._revision)  # a watch from here sees every later write
        answer = await super()._serve_list(request)
        answer["metadata"]["resourceVersion"] = listed_at
        resource = request.resource
        answer["apiVersion"] = f"{resource.group}/{resource.version}".lstrip("/")
        answer["kind"] = f"{self.resources[resource].kind}List"  # kubectl delete --wait reads it
        wanted = _field_selector(request.params.get("fieldSelector", ""))
        answer["items"] = [item for item in answer["items"]
                           if all(_field(item, path) == value for path, value in wanted)]
        if _wants_table(request):
            return self._table(request.resource, answer["items"])
        return answer

    async def _serve_fetch(self, request: rendering.Request) -> Any:
        answer = await super()._serve_fetch(request)
        return self._table(request.resource, [answer]) if _wants_table(request) else answer

    def _table(self, resource: Any, items: list[dict[str, Any]]) -> dict[str, Any]:
        """A ``meta.k8s.io/v1`` Table: the name, then the printer columns."""
        columns = self._columns.get(resource, [])
        definitions = [{"name": "Name", "type": "string", "format": "name", "priority": 0,
                        "description": "the object's name"}] + [
            {"name": c["name"], "type": c["type"], "format": c.get("format", ""),
             "priority": c.get("priority", 0), "description": c.get("description", "")}
            for c in columns]
        rows = [{"cells": [item["metadata"]["name"]] + [_cell(item, c) for c in columns],
                 "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                            "metadata": item["metadata"]}} for item in items]
        return {"kind": "Table", "apiVersion": "meta.k8s.io/v1",
                "metadata": {"resourceVersion": str(self._revision)},
                "columnDefinitions": definitions, "rows": rows}

    async def _serve_version(self, request: rendering.Request) -> Any:
        """Discovery as a real API server gives it: a subresource (``plans/status``)
        has no short names or categories, else ``kubectl get CATEGORY`` trips on it."""
        answer = await super()._serve_version(request)
        for entry in answer["resources"]:
            if "/" in entry["name"]:
                entry["shortNames"], entry["categories"] = [], []
        return answer

    async def _render_error(self, exc: Exception) -> Any:
        if isinstance(exc, jsonpatch.JsonPatchException):
            exc = k8s.KubernetesError(422, "Invalid", str(exc))
        return await super()._render_error(exc)


def _check_annotations(meta: Mapping[str, Any]) -> None:
    """The API server's cap on all of an object's annotations together (keys and
    values), with its message (apimachinery ValidateAnnotationsSize)."""
    size = sum(len(key) + len(str(value)) for key, value in (meta.get("annotations") or {}
                                                             ).items())
    if size > ANNOTATIONS_CAP:
        raise k8s.KubernetesError(422, "Invalid", f"metadata.annotations: Too long: must have "
                                                  f"at most {ANNOTATIONS_CAP} bytes")


def _selects(request: rendering.Request, key: tuple[Any, ...]) -> bool:
    resource, namespace, name = key
    return bool(resource == request.resource
                and request.namespace in (None, namespace) and request.name in (None, name))


def _field_selector(text: str) -> list[tuple[str, str]]:
    """``involvedObject.name=x,involvedObject.kind=y`` (equality only, as kubectl
    describe asks for an object's Events)."""
    pairs = [part.partition("=") for part in text.split(",") if "=" in part]
    return [(path, value.removeprefix("=")) for path, _, value in pairs]


def _field(item: Mapping[str, Any], path: str) -> str:
    value: Any = item
    for key in path.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return "" if value is None else str(value)


def _wants_table(request: rendering.Request) -> bool:
    return "as=Table" in request.headers.get("Accept", "")


def _cell(item: Mapping[str, Any], column: Mapping[str, Any]) -> Any:
    """One printer column's value (the JSONPath forms CRDs use here)."""
    values: list[Any] = [item]
    for field, key, wanted in _JSONPATH.findall(column["jsonPath"]):
        found: list[Any] = []
        for value in values:
            if field and isinstance(value, Mapping) and field in value:
                found.append(value[field])
            elif key and isinstance(value, list):
                found += [v for v in value if isinstance(v, Mapping) and v.get(key) == wanted]
        values = found
    if not values:
        return None
    if column["type"] == "date":
        return _age(str(values[0]))
    return values[0] if len(values) == 1 else ",".join(map(str, values))


def _age(timestamp: str) -> str:
    """As the API server prints a date column: ``42s``, ``3m10s``, ``25m``, ``5h``..."""
    then = datetime.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    seconds = int((datetime.datetime.now(datetime.UTC) - then).total_seconds())
    if seconds < 120:
        return f"{max(seconds, 0)}s"
    minutes = seconds // 60
    if minutes < 10:
        return f"{minutes}m{seconds % 60}s" if seconds % 60 else f"{minutes}m"
    if minutes < 180:
        return f"{minutes}m"
    hours = minutes // 60
    return f"{hours}h" if hours < 48 else f"{hours // 24}d"


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
