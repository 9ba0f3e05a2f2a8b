"""The OpenAPI document: valid 3.1, served as the repo keeps it, and in step
with the routes the app registers and the error kinds the code raises."""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from openapi_spec_validator import validate

from labelrender.api import ApiConfig, create_app
from labelrender.api.context import STATE
from labelrender.api.openapi import document_bytes
from labelrender.api.openapi.operations import OPERATIONS
from labelrender.store.objects import FilesystemStore
from labelrender.worker import Sandbox
from tests.api.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
REPO_COPY = ROOT / "docs" / "openapi.json"
REGENERATE = "python -m labelrender.api.openapi docs/openapi.json"
METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")


def served_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(document_bytes())
    return document


def documented_urls(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(method, documented path) -> a URL of it, each path parameter filled in
    with its example or a value of its type."""
    found = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            url = path
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    url = url.replace("{" + parameter["name"] + "}", sample_value(parameter))
            found[(method.upper(), path)] = url
    return found


def sample_value(parameter: dict[str, Any]) -> str:
    if "example" in parameter:
        return str(parameter["example"])
    return "1" if parameter["schema"].get("type") in ("integer", "number") else "x1"


def routed_operations(app: web.Application) -> set[tuple[str, str]]:
    """Every (method, route) the app registers; HEAD is the GET twin aiohttp adds."""
    return {(route.method, route.resource.canonical) for route in app.router.routes()
            if route.method != "HEAD" and route.resource is not None}


async def route_of(app: web.Application, method: str, url: str) -> web.UrlMappingMatchInfo:
    """What the app's own router does with a request for ``url``."""
    match = await app.router.resolve(make_mocked_request(method, url, app=app))
    assert isinstance(match, web.UrlMappingMatchInfo)
    return match


def test_the_document_is_valid_openapi_3_1() -> None:
    document = served_document()
    assert document["openapi"] == "3.1.0"
    validate(document)


async def test_the_repo_copy_is_what_the_server_serves_without_a_key(api: Api) -> None:
    async with api.session.get(api.url("/v1/openapi.json")) as response:
        assert response.status == 200
        assert response.content_type == "application/json"
        served = await response.read()
    assert served == REPO_COPY.read_bytes(), f"docs/openapi.json is stale: run {REGENERATE}"


@pytest.fixture
def app(redis_db: redis.Redis, object_store: FilesystemStore,
        engine_sandbox: Sandbox) -> Iterator[web.Application]:
    """The app as ``create_app`` builds it (not started: only its router is read)."""
    config = ApiConfig(public_base_url="http://127.0.0.1:8080/v1", engine_sandbox=engine_sandbox)
    built = create_app(config, redis_db, object_store)
    yield built
    built[STATE].executor.shutdown()


async def test_every_route_is_documented_and_every_operation_routed(
        api: Api, app: web.Application) -> None:
    """Both lists through the app's router: each documented operation, as a
    request, reaches its handler; each route is reached by one. Paths are
    compared as requests, so a route written with patterns (``{slash:/?}``,
    ``{key:[\\s\\S]+}``) is matched by its documented path as it is."""
    async with api.session.get(api.url("/v1/openapi.json")) as response:
        document = await response.json()
    handlers = {(op.method, op.path): op.handler for op in OPERATIONS}
    reached = set()
    for (method, path), url in documented_urls(document).items():
        match = await route_of(app, method, url)
        assert match.http_exception is None, \
            f"documented {method} {path} is not routed ({url}: {match.http_exception})"
        assert match.handler is handlers[(method, path)], f"{method} {path}: another handler"
        reached.add((method, match.route.resource.canonical))
    missing = routed_operations(app) - reached
    assert not missing, (
        f"routes missing from the OpenAPI document: {sorted(missing)}; add an Operation for "
        "each to labelrender/api/openapi/operations.py, then run " + REGENERATE)


def test_operation_ids_are_unique() -> None:
    ids = [operation.operation_id for operation in OPERATIONS]
    assert len(ids) == len(set(ids))


# Where kinds are named: the API tier, and the engine calls whose refusals it
# passes on as they are (synthesis and template checks).
# The API's modules, those of its resource packages (api/batches/) included; the
# document's own package only repeats the kinds.
KIND_SOURCES = [*sorted(path for path in (ROOT / "labelrender" / "api").rglob("*.py")
                        if "openapi" not in path.parts),
                ROOT / "labelrender" / "worker" / "engine_calls.py",
                ROOT / "labelrender" / "graphics" / "convert.py",
                ROOT / "labelrender" / "synth" / "template_checks.py"]
KIND = re.compile(r"^(?:[A-Z][a-z0-9]+){2,}$|^[A-Z]+(?:_[A-Z]+)+$|^Unauthorized$")
# Names in those files that look like kinds but are never an answer's kind,
# and why; everything else that looks like one must be documented.
NOT_ANSWERED = {
    "ApiConfig": "a class name in __all__",
    "InternalError": "a 500 is a bug, never documented",
    "MethodNotAllowed": "405: a method a path does not take (the document's description)",
    "ConcurrencyLimited": "a metrics label (the answer is RateLimitExceeded)",
    "RateLimited": "an error class (kind RateLimitExceeded)",
    "ASCII_COMPRESSED": "zebrafy's name of a ^GF compression",
    "InvalidOptions": "a worker reply the API answers as 502 RenderFailed",
    "InvalidRequest": "base-class default, always narrowed",
    "NotFound": "base-class default, always narrowed",
    "PermissionDenied": "base-class default, always narrowed",
    "InvalidTemplate": "base-class default, always narrowed",
}


def kinds_in_code() -> set[str]:
    """Every string constant in the kind sources that looks like a kind."""
    found: set[str] = set()
    for source in KIND_SOURCES:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and KIND.match(node.value):
                found.add(node.value)
    return found - set(NOT_ANSWERED)


def documented_kinds(document: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for item in document["paths"].values():
        for operation in item.values():
            for response in operation["responses"].values():
                for media in response.get("content", {}).values():
                    for part in media["schema"].get("allOf", []):
                        error = part.get("properties", {}).get("error", {})
                        found.update(error.get("properties", {}).get("kind", {}).get("enum", []))
    return found


def test_every_error_kind_the_code_raises_is_documented() -> None:
    in_code = kinds_in_code()
    assert {"QuotaExceeded", "MissingZpl", "FieldMapMismatch", "InvalidLimit"} <= in_code
    missing = in_code - documented_kinds(served_document())
    assert not missing, ("kinds the code answers with that no operation documents: add them "
                         "to the operation's errors in labelrender/api/openapi/operations.py")


def test_every_documented_kind_exists_in_the_code() -> None:
    assert documented_kinds(served_document()) - kinds_in_code() == set()


def test_request_bodies_are_the_handlers_models() -> None:
    """The document's request schemas are the models the handlers validate with."""
    from labelrender.api import keys, labels, synthesis, webhooks

    schemas = served_document()["components"]["schemas"]
    for model in (labels.RawRenderBody, synthesis.SynthesizeBody, keys.CreateKeyBody,
                  webhooks.UpsertBody):
        generated = model.model_json_schema()
        assert set(schemas[model.__name__]["properties"]) == set(generated["properties"])
        assert schemas[model.__name__].get("required", []) == generated.get("required", [])


def headers_read(module: object) -> set[str]:
    """The ``X-`` request headers a module reads: ``headers.get("X-...")``."""
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):  # type: ignore[arg-type]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and node.args \
                and isinstance(node.args[0], ast.Constant) \
                and str(node.args[0].value).startswith("X-"):
            found.add(str(node.args[0].value))
    return found


def test_every_request_header_a_handler_reads_is_documented() -> None:
    """The request headers are written by hand (``document.REQUEST_HEADERS``): each
    one the handler's module reads is a parameter of the operation."""
    document = served_document()
    for operation in OPERATIONS:
        read = headers_read(inspect.getmodule(operation.handler))
        documented = {parameter["name"] for parameter in
                      document["paths"][operation.path][operation.method.lower()]
                      .get("parameters", []) if parameter["in"] == "header"}
        assert read <= documented, (operation.operation_id, read - documented)


def test_the_documented_studio_files_are_the_ones_it_serves() -> None:
    from labelrender.api import studio

    parameter = served_document()["paths"]["/studio/{name}"]["get"]["parameters"][0]
    assert set(parameter["schema"]["enum"]) == set(studio.ASSETS)
