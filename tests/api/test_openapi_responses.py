"""Real answers hold the document's hand-written parts to the code: a walk
through every operation (successes and a table of errors) on a live server,
each answer checked strictly against the served document, its headers
against the documented ones, and every example against its schema.

``LABELRENDER_EXAMPLES_OUT=path`` writes the walk's answers there as JSON:
the document's examples (``labelrender/api/openapi/examples.py``) were taken
from such a run.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from labelrender.api.openapi.operations import OPERATIONS
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer, StartApi
from tests.api.openapi_check import Contract, pointer
from tests.fixtures.images import encoded, logo, png_declaring

LEGACY_ZPL = ("^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP TO:^FS^FO30,60^A0N,50,50"
              "^FDGRACE HOPPER^FS^FO30,130^A0N,40,40^FDARLINGTON VA 22201^FS"
              "^FO30,200^BCN,100,Y,N,N^FD1Z999AA10123456784^FS^XZ")
OUR_HEADERS = ("X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining",
               "X-RateLimit-Reset", "Retry-After", "WWW-Authenticate", "Idempotency-Replay",
               "Cache-Control", "Content-Security-Policy", "X-Content-Hash", "X-Cached",
               "X-Total-Count", "X-Warnings")


@dataclass
class Seen:
    method: str
    path: str  # the documented path
    status: int
    content_type: str
    body: Any
    headers: dict[str, str]


@dataclass
class Walk:
    api: Api
    caller: Caller
    contract: Contract
    seen: list[Seen] = field(default_factory=list)

    async def call(self, method: str, path: str, url: str | None = None, *,
                   body: Any = None, raw: bytes | None = None, key: bool = True,
                   headers: dict[str, str] | None = None, status: int | None = None) -> Any:
        sent = dict(self.caller.headers if key else {})
        sent.update(headers or {})
        data: Any = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        target = url if url and url.startswith("http") else self.api.url(url or path)
        async with self.api.session.request(method, target, data=data,
                                            headers=sent) as response:
            payload = await response.read()
            content_type = response.headers.get("Content-Type", "").split(";")[0]
            parsed = json.loads(payload) if content_type == "application/json" else None
            self.seen.append(Seen(method, path, response.status, content_type, parsed,
                                  dict(response.headers)))
            if status is not None:
                assert response.status == status, (method, url or path, parsed)
            return parsed


@pytest.fixture
async def walk(start_api: StartApi, make_caller: Callable[..., Caller],
               render_worker: RenderConsumer) -> Walk:
    api = await start_api(webhook_allow_networks=("127.0.0.0/8",),
                          webhook_resolver=lambda host, port: ["127.0.0.1"])
    return Walk(api, make_caller("scale"), Contract())


async def successes(w: Walk) -> None:
    """Every operation once, the way an integrator goes through them."""
    raw = await w.call("POST", "/v1/labels", body={"zpl": SIMPLE_ZPL}, status=200)
    for _ in range(2):
        await w.call("POST", "/v1/labels", body={"zpl": SIMPLE_ZPL, "threshold": True},
                     headers={"Idempotency-Key": "order-1234"}, status=200)
    await w.call("GET", "/v1/files/{key}", raw["url"], key=False, status=200)
    synthesized = await w.call("POST", "/v1/templates/synthesize",
                               body={"input_zpl": LEGACY_ZPL,
                                     "hint_template_id": "tpl_shipping"}, status=200)
    job = await w.call("POST", "/v1/templates/synthesize/jobs",
                       body={"input_zpl": LEGACY_ZPL}, status=202)
    await w.call("GET", "/v1/templates/synthesize/jobs/{job_id}",
                 f"/v1/templates/synthesize/jobs/{job['job_id']}", status=200)
    await w.call("POST", "/v1/templates/{template_id}", "/v1/templates/tpl_shipping",
                 body=synthesized, status=201)
    fields = dict(synthesized["draft"]["values"])
    rendered = await w.call("POST", "/v1/labels/from-data", status=200, body={
        "template_id": "tpl_shipping", "fields": fields, "external_ref": "order-1234"})
    await batch_walk(w, fields)
    await w.call("GET", "/v1/labels", status=200)
    await w.call("GET", "/v1/labels", f"/v1/labels?content_hash={rendered['content_hash']}",
                 status=200)
    await w.call("GET", "/v1/templates", status=200)
    await w.call("GET", "/v1/whoami", status=200)
    await w.call("GET", "/v1/usage", status=200)
    created = await w.call("POST", "/v1/keys", body={"label": "ci"}, status=201)
    await w.call("GET", "/v1/keys", status=200)
    await w.call("DELETE", "/v1/keys/{prefix}", f"/v1/keys/{created['key_prefix']}",
                 status=200)
    await webhook_walk(w)
    await file_walk(w)
    await graphics_walk(w)
    await w.call("DELETE", "/v1/templates/{template_id}", "/v1/templates/tpl_shipping",
                 status=200)
    for path in ("/", "/healthz", "/readyz", "/metrics", "/v1/openapi.json", "/docs",
                 "/docs/redoc.standalone.js", "/studio", "/studio/"):
        await w.call("GET", path, key=False, status=200)
    for name in ("studio.js", "studio.css"):
        await w.call("GET", "/studio/{name}", f"/studio/{name}", key=False, status=200)


async def batch_walk(w: Walk, fields: dict[str, str]) -> None:
    """A batch from JSON (one good row, one bad) followed until completed, and one from CSV."""
    created = await w.call("POST", "/v1/labels/batches", status=202, body={
        "template_id": "tpl_shipping", "rows": [fields, {}], "zip": True})
    path, url = "/v1/labels/batches/{batch_id}", f"/v1/labels/batches/{created['batch_id']}"
    for _ in range(600):
        if (await w.call("GET", path, url, status=200))["state"] == "completed":
            break
        await asyncio.sleep(0.1)
    header = ",".join(fields)
    values = ",".join(f'"{value}"' for value in fields.values())
    await w.call("POST", "/v1/labels/batches", "/v1/labels/batches?template_id=tpl_shipping",
                 raw=f"{header}\n{values}\n".encode(), headers={"Content-Type": "text/csv"},
                 status=202)


async def webhook_walk(w: Walk) -> None:
    one = "/v1/webhooks/warehouse-1"
    hook = {"url": "https://receiver.test/hooks", "topics": ["label.rendered",
                                                             "batch.completed"]}
    await w.call("POST", "/v1/webhooks/{webhook_id}", one, body=hook, status=201)
    await w.call("POST", "/v1/webhooks/{webhook_id}", one, body=hook, status=200)
    await w.call("GET", "/v1/webhooks", status=200)
    await w.call("GET", "/v1/webhooks/{webhook_id}", one, status=200)
    await w.call("POST", "/v1/webhooks/{webhook_id}/test", one + "/test", status=202)
    await w.call("GET", "/v1/webhooks/{webhook_id}/deliveries", one + "/deliveries",
                 status=200)
    await w.call("DELETE", "/v1/webhooks/{webhook_id}", one, status=200)


LABELARY = "/v1/printers/{dpmm}dpmm/labels/{width}x{height}/"


async def file_walk(w: Walk) -> None:
    """File answers: POST /v1/labels by Accept, and the Labelary route (raw ZPL
    in, PNG, PDF or JSON out)."""
    for accept in ("image/png", "application/pdf"):
        await w.call("POST", "/v1/labels", body={"zpl": SIMPLE_ZPL},
                     headers={"Accept": accept}, status=200)
    zpl = SIMPLE_ZPL.encode()
    url = "/v1/printers/8dpmm/labels/2x1/"
    await w.call("POST", LABELARY, url, raw=zpl, status=200,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    await w.call("POST", LABELARY, url, raw=zpl, status=200,
                 headers={"Accept": "application/json", "X-Linter": "On"})
    await w.call("POST", LABELARY + "{index}/", url + "0/", raw=zpl, status=200,
                 headers={"Accept": "application/pdf", "X-Page-Size": "A4"})
    for path, url_of, headers, status, kind in LABELARY_ERRORS:
        answer = await w.call("POST", path, url_of, raw=zpl, headers=headers, status=status)
        assert answer["error"]["kind"] == kind, (url_of, answer)


async def graphics_walk(w: Walk) -> None:
    """An image into ZPL (the default answer and JSON), and a bomb refused."""
    png = encoded(logo(), "PNG")
    await w.call("POST", "/v1/graphics", raw=png, status=200,
                 headers={"Content-Type": "image/png"})
    await w.call("POST", "/v1/graphics", "/v1/graphics?compression=Z64&output=field", raw=png,
                 status=200, headers={"Content-Type": "image/png", "Accept": "application/json"})
    answer = await w.call("POST", "/v1/graphics", raw=png_declaring(100_000, 100_000),
                          status=413, headers={"Content-Type": "image/png"})
    assert answer["error"]["kind"] == "ImageTooManyPixels"


# (documented path, url, headers, status, kind) on the Labelary route
LABELARY_ERRORS = [
    (LABELARY, "/v1/printers/7dpmm/labels/2x1/", {}, 400, "InvalidDpmm"),
    (LABELARY, "/v1/printers/8dpmm/labels/0x1/", {}, 400, "InvalidLabelSize"),
    (LABELARY, "/v1/printers/8dpmm/labels/2x1/", {"X-Rotation": "45"}, 400,
     "InvalidRotation"),
    (LABELARY, "/v1/printers/8dpmm/labels/2x1/", {"Accept": "text/html"}, 406,
     "NotAcceptable"),
    (LABELARY + "{index}/", "/v1/printers/8dpmm/labels/2x1/x/", {}, 400,
     "InvalidLabelIndex"),
    # Found by contract fuzzing: this kind was missing from the route's 400s.
    (LABELARY, "/v1/printers/8dpmm/labels/2x1/", {"Idempotency-Key": "k" * 256}, 400,
     "InvalidIdempotencyKey"),
]


# (method, documented path, url, body, headers, key, status, kind)
ERRORS: list[tuple[str, str, str, Any, dict[str, str], bool, int, str]] = [
    ("POST", "/v1/labels", "/v1/labels", {"zpl": SIMPLE_ZPL}, {}, False, 401, "Unauthorized"),
    ("POST", "/v1/labels", "/v1/labels", b"{", {"Content-Type": "application/json"}, True,
     400, "InvalidJson"),
    ("POST", "/v1/labels", "/v1/labels", {"zpl": SIMPLE_ZPL, "dpi": 3}, {}, True, 400,
     "UnknownField"),
    ("POST", "/v1/labels", "/v1/labels", b"zpl", {"Content-Type": "text/plain"}, True, 415,
     "UnsupportedMediaType"),
    ("POST", "/v1/labels", "/v1/labels", {"zpl": " "}, {}, True, 422, "MissingZpl"),
    ("POST", "/v1/labels", "/v1/labels", {"zpl": SIMPLE_ZPL, "target_dpi": 1200}, {}, True,
     403, "DpiNotPermitted"),
    ("POST", "/v1/labels", "/v1/labels", {"zpl": SIMPLE_ZPL, "target_dpi": 7},
     {"Idempotency-Key": "order-1234"}, True, 409, "IdempotencyKeyConflict"),
    ("POST", "/v1/labels/from-data", "/v1/labels/from-data",
     {"template_id": "nope", "fields": {}}, {}, True, 404, "TemplateNotFound"),
    ("POST", "/v1/labels/batches", "/v1/labels/batches", {"template_id": "nope",
     "rows": [{}]}, {}, True, 404, "TemplateNotFound"),
    ("POST", "/v1/labels/batches", "/v1/labels/batches?template_id=nope", b"\n",
     {"Content-Type": "text/csv"}, True, 400, "InvalidCsv"),
    ("GET", "/v1/labels/batches/{batch_id}", "/v1/labels/batches/bat_x", None, {}, True, 404,
     "BatchNotFound"),
    ("POST", "/v1/templates/synthesize", "/v1/templates/synthesize", {"input_zpl": "x"},
     {}, False, 401, "PRE_AUTH_UNAUTHORIZED"),
    ("POST", "/v1/templates/synthesize", "/v1/templates/synthesize",
     {"input_zpl": LEGACY_ZPL, "target_scope": "global"}, {}, True, 422,
     "InvalidScopeForTenantCall"),
    ("GET", "/v1/templates/synthesize/jobs/{job_id}", "/v1/templates/synthesize/jobs/job_x",
     None, {}, True, 404, "SynthesisJobNotFound"),
    ("POST", "/v1/templates/{template_id}", "/v1/templates/.dot", {"body": "^XA^XZ",
     "field_map": {}}, {}, True, 422, "InvalidTemplateId"),
    ("DELETE", "/v1/templates/{template_id}", "/v1/templates/nope", None, {}, True, 404,
     "TemplateNotFound"),
    ("GET", "/v1/templates", "/v1/templates?scope=planet", None, {}, True, 400,
     "InvalidScope"),
    ("GET", "/v1/labels", "/v1/labels?limit=0", None, {}, True, 400, "InvalidLimit"),
    # Found by contract fuzzing: this 400 was missing from the document.
    ("GET", "/v1/labels", "/v1/labels?colour=red", None, {}, True, 400, "UnknownField"),
    ("GET", "/v1/labels", "/v1/labels?content_hash=" + "0" * 64, None, {}, True, 404,
     "LabelNotFound"),
    ("DELETE", "/v1/keys/{prefix}", "/v1/keys/00000000", None, {}, True, 404, "KeyNotFound"),
    ("POST", "/v1/keys", "/v1/keys", {"label": "x" * 65}, {}, True, 422, "InvalidLabel"),
    ("GET", "/v1/webhooks/{webhook_id}", "/v1/webhooks/nope", None, {}, True, 404,
     "WebhookNotFound"),
    ("POST", "/v1/webhooks/{webhook_id}", "/v1/webhooks/-bad", {"url": "https://x.test/"},
     {}, True, 422, "InvalidWebhookId"),
    ("POST", "/v1/webhooks/{webhook_id}", "/v1/webhooks/hook",
     {"url": "http://receiver.test/"}, {}, True, 422, "WebhookTargetRejected"),
    ("GET", "/v1/files/{key}", "/v1/files/tenants/x/labels/y.png?exp=1&sig=00", None, {},
     False, 403, "SignedUrlRejected"),
    ("GET", "/v1/whoami", "/v1/whoami", None, {"Authorization": "Bearer svc_live_00"}, False,
     401, "Unauthorized"),
    ("GET", "/studio/{name}", "/studio/app.js", None, {}, False, 404, "RouteNotFound"),
]


async def errors(w: Walk) -> None:
    for method, path, url, body, headers, key, status, kind in ERRORS:
        raw = body if isinstance(body, bytes) else None
        answer = await w.call(method, path, url, body=None if raw else body, raw=raw,
                              headers=headers, key=key, status=status)
        assert answer["error"]["kind"] == kind, (url, answer)


async def test_every_answer_of_a_walk_is_what_the_document_promises(walk: Walk) -> None:
    await successes(walk)
    await errors(walk)
    for seen in walk.seen:
        where = f"{seen.method} {seen.path} {seen.status}"
        documented = walk.contract.response(seen.method, seen.path, seen.status)
        assert seen.content_type in {c.split(";")[0] for c in documented["content"]}, where
        if seen.body is not None:
            walk.contract.check(seen.method, seen.path, seen.status, seen.body)
        check_headers(documented, seen, where)
    covered = {(seen.method, seen.path) for seen in walk.seen if seen.status < 300}
    assert covered == {(op.method, op.path) for op in OPERATIONS}
    out = os.environ.get("LABELRENDER_EXAMPLES_OUT")
    if out:
        with open(out, "w") as handle:
            json.dump([seen.__dict__ for seen in walk.seen], handle, indent=1, default=str)


def check_headers(documented: dict[str, Any], seen: Seen, where: str) -> None:
    """Our headers on the answer are documented on it; the required ones are sent."""
    names = {name.lower() for name in documented.get("headers", {})}
    for name in OUR_HEADERS:
        if name in seen.headers:
            assert name.lower() in names, f"{where}: {name} is sent but not documented"
    for name, header in documented.get("headers", {}).items():
        if header.get("required"):
            assert name in seen.headers, f"{where}: required {name} missing"


def test_every_example_is_valid_for_its_schema() -> None:
    contract = Contract()
    checked = 0
    for path, item in contract.document["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body and "example" in body:
                contract.check_at(pointer("paths", path, method, "requestBody", "content",
                                          "application/json", "schema"), body["example"])
                checked += 1
            for status, response in operation["responses"].items():
                for media_type, media in response.get("content", {}).items():
                    if "example" in media:
                        contract.check_at(pointer("paths", path, method, "responses", status,
                                                  "content", media_type, "schema"),
                                          media["example"])
                        checked += 1
    hook = contract.document["webhooks"]["label.rendered"]["post"]["requestBody"]
    contract.check_at(pointer("webhooks", "label.rendered", "post", "requestBody", "content",
                              "application/json", "schema"),
                      hook["content"]["application/json"]["example"])
    assert checked >= len(OPERATIONS)
