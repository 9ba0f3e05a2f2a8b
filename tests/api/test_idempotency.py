"""``Idempotency-Key`` covers the whole request that shapes the answer, across the
render routes: the same request under a key is replayed, any other is 409
``IdempotencyKeyConflict`` (spec), so a replay never hands back another label."""

from __future__ import annotations

import json
from typing import Any

from tests.api.conftest import Api, Caller, RenderConsumer

HELLO = "^XA^FO50,50^A0N,50,50^FDHello^FS^XZ"
LABELARY = "/v1/printers/8dpmm/labels/4x6/0/"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON = {"Content-Type": "application/json"}
Request = tuple[str, str | bytes, dict[str, str]]  # path, body, headers


def labelary(path: str = LABELARY, body: str | bytes = HELLO, **headers: str) -> Request:
    return path, body, {**FORM, **headers}


def labels(body: dict[str, Any] | None = None, path: str = "/v1/labels",
           **headers: str) -> Request:
    return path, json.dumps(body or {"zpl": HELLO}), {**JSON, **headers}


# (what, first request, second request under the same key, replayed?)
TABLE: list[tuple[str, Request, Request, bool]] = [
    ("the same request", labelary(), labelary(), True),
    ("without the trailing slash", labelary(), labelary(LABELARY.rstrip("/")), True),
    ("another printer and size", labelary(),
     labelary("/v1/printers/12dpmm/labels/1x1/0/"), False),
    ("another size", labelary(), labelary("/v1/printers/8dpmm/labels/4x8/0/"), False),
    ("another label index", labelary(), labelary("/v1/printers/8dpmm/labels/4x6/1/"), False),
    ("no label index", labelary(), labelary("/v1/printers/8dpmm/labels/4x6/"), False),
    ("a query", labelary(), labelary(LABELARY + "?x=1"), False),
    ("another body", labelary(), labelary(body=HELLO.replace("Hello", "Other")), False),
    ("Accept: application/pdf", labelary(), labelary(Accept="application/pdf"), False),
    ("Accept: application/json", labelary(), labelary(Accept="application/json"), False),
    ("X-Rotation: 90", labelary(), labelary(**{"X-Rotation": "90"}), False),
    ("X-Quality: Bitonal", labelary(), labelary(**{"X-Quality": "Bitonal"}), False),
    ("X-Linter: On", labelary(), labelary(**{"X-Linter": "On"}), False),
    ("X-Page-Size: Letter", labelary(Accept="application/pdf"),
     labelary(Accept="application/pdf", **{"X-Page-Size": "Letter"}), False),
    ("X-Page-Layout: 2x1", labelary(Accept="application/pdf"),
     labelary(Accept="application/pdf", **{"X-Page-Layout": "2x1"}), False),
    ("the same ZPL as JSON", labelary(),
     (LABELARY, json.dumps({"zpl": HELLO}), JSON), False),
    ("POST /v1/labels, then the Labelary route", labels(),
     (LABELARY, json.dumps({"zpl": HELLO}), JSON), False),
    ("the Labelary route, then POST /v1/labels", labelary(), labels(), False),
    ("POST /v1/labels: the same body", labels(), labels(), True),
    ("POST /v1/labels: keys in another order", labels({"zpl": HELLO, "target_dpi": 203}),
     labels({"target_dpi": 203, "zpl": HELLO}), True),
    ("POST /v1/labels: another option", labels(), labels({"zpl": HELLO, "target_dpi": 300}),
     False),
    ("POST /v1/labels: another Accept", labels(), labels(Accept="image/png"), False),
]


async def send(api: Api, caller: Caller, request: Request, key: str
               ) -> tuple[int, dict[str, str], bytes]:
    path, body, headers = request
    sent = {**caller.headers, **headers, "Idempotency-Key": key}
    async with api.session.post(api.url(path), data=body, headers=sent) as resp:
        return resp.status, dict(resp.headers), await resp.read()


async def test_a_key_replays_only_the_same_request(
        api: Api, make_caller: Any, render_worker: RenderConsumer) -> None:
    caller = make_caller()
    outcomes = []
    for number, (what, first, second, replayed) in enumerate(TABLE):
        key = f"order-{number}"
        status, _, answer = await send(api, caller, first, key)
        assert status == 200, (what, answer[:300])
        again = await send(api, caller, second, key)
        if replayed:
            outcome = (again[0], again[1].get("Idempotency-Replay"), again[2] == answer)
            expected: tuple[Any, ...] = (200, "true", True)
        else:
            kind = json.loads(again[2])["error"]["kind"] if again[0] == 409 else None
            outcome, expected = (again[0], kind), (409, "IdempotencyKeyConflict")
        outcomes.append((what, outcome == expected, outcome))
    assert [row for row in outcomes if not row[1]] == []
