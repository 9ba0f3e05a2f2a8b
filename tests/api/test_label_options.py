"""POST /v1/labels's optional fields (size, index, rotation, format, fields), the file
answer on Accept, and field boxes on both render endpoints, cache hits included."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from labelrender.api.body import canonical_json
from tests.api.conftest import Api, Caller, RenderConsumer
from tests.api.test_from_data import VALUES, commit, from_data

THREE = "".join(f"^XA^FO20,20^A0N,40,40^FN{n}^FDLabel {n}^FS^XZ" for n in (1, 2, 3))


async def render(api: Api, caller: Caller, body: dict[str, Any], **headers: str
                 ) -> tuple[int, dict[str, str], bytes]:
    async with api.session.post(api.url("/v1/labels"), json=body,
                                headers={**caller.headers, **headers}) as resp:
        return resp.status, dict(resp.headers), await resp.read()


async def labels_used(api: Api, caller: Caller) -> int:
    async with api.session.get(api.url("/v1/usage"), headers=caller.headers) as resp:
        return int((await resp.json())["labels"]["used"])


async def test_a_body_without_the_new_fields_hashes_as_before(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    caller = make_caller()
    _, _, data = await render(api, caller, {"zpl": THREE})
    expected = hashlib.sha256(canonical_json({
        "tenant": caller.tenant_id, "zpl": THREE, "source_dpi": 203, "target_dpi": 203,
        "threshold": False, "font_profile": None})).hexdigest()
    assert json.loads(data)["content_hash"] == expected


@pytest.mark.parametrize("option", [
    {"width_dots": 400, "height_dots": 300}, {"label_index": 1}, {"rotation": 90},
    {"format": "pdf"}, {"format": "pdf", "label_index": 0},
])
async def test_every_option_that_changes_the_output_changes_the_hash(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
        option: dict[str, Any]) -> None:
    caller = make_caller()
    _, _, plain = await render(api, caller, {"zpl": THREE})
    code, _, changed = await render(api, caller, {"zpl": THREE, **option})
    assert code == 200
    assert json.loads(changed)["content_hash"] != json.loads(plain)["content_hash"]
    # ... and "fields" does not: it changes no pixel.
    _, _, boxed = await render(api, caller, {"zpl": THREE, "fields": True})
    assert json.loads(boxed)["content_hash"] == json.loads(plain)["content_hash"]


# (body, Accept, status, content type, check)
ANSWERS: list[tuple[dict[str, Any], str | None, int, str, Any]] = [
    ({"zpl": THREE}, None, 200, "application/json", None),
    ({"zpl": THREE}, "image/png", 200, "image/png", (812, 1218)),
    ({"zpl": THREE, "width_dots": 400, "height_dots": 300, "rotation": 270}, "image/png", 200,
     "image/png", (300, 400)),
    ({"zpl": THREE, "label_index": 2}, "image/png", 200, "image/png", (812, 1218)),
    ({"zpl": THREE}, "application/pdf", 200, "application/pdf", 3),
    ({"zpl": THREE, "format": "pdf", "label_index": 1}, "application/pdf", 200,
     "application/pdf", 1),
    ({"zpl": THREE, "format": "pdf"}, "image/png", 406, "application/json", "NotAcceptable"),
    ({"zpl": THREE}, "text/html", 406, "application/json", "NotAcceptable"),
    ({"zpl": THREE, "width_dots": 400}, None, 400, "application/json", "InvalidLabelSize"),
    ({"zpl": THREE, "rotation": 45}, None, 400, "application/json", "InvalidRotation"),
    ({"zpl": THREE, "format": "gif"}, None, 400, "application/json", "InvalidFormat"),
    ({"zpl": THREE, "label_index": -1}, None, 400, "application/json", "InvalidLabelIndex"),
    ({"zpl": THREE, "format": "pdf", "fields": True}, None, 400, "application/json",
     "InvalidFields"),
    ({"zpl": THREE, "label_index": 3}, None, 400, "application/json", "InvalidLabelIndex"),
]


@pytest.mark.parametrize(("body", "accept", "status", "content_type", "check"), ANSWERS)
async def test_answers(api: Api, make_caller: Callable[..., Caller],
                       render_worker: RenderConsumer, body: dict[str, Any], accept: str | None,
                       status: int, content_type: str, check: Any) -> None:
    headers = {"Accept": accept} if accept else {}
    code, answer_headers, data = await render(api, make_caller(), body, **headers)
    assert code == status, data[:300]
    assert answer_headers["Content-Type"].split(";")[0] == content_type
    if content_type == "image/png":
        assert Image.open(io.BytesIO(data)).size == check
        assert answer_headers["X-Total-Count"] == "3"
    elif content_type == "application/pdf":
        assert data.startswith(b"%PDF-") and data.count(b"/Type /Page\n") in (0, check)
    elif isinstance(check, str):
        assert json.loads(data)["error"]["kind"] == check
    else:
        assert json.loads(data)["label_count"] == 3


async def test_field_boxes_on_a_cache_hit_are_free(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    """A label stored without its boxes renders again when they are asked for, unbilled;
    later hits have them."""
    caller = make_caller()
    _, _, first = await render(api, caller, {"zpl": THREE})
    assert "fields" not in json.loads(first)
    _, _, boxed = await render(api, caller, {"zpl": THREE, "fields": True})
    _, _, hit = await render(api, caller, {"zpl": THREE, "fields": True})
    boxes = json.loads(boxed)["fields"]
    assert boxes == json.loads(hit)["fields"]
    assert json.loads(hit)["cached"] is True
    assert [(b["command"], b["fn"]) for b in boxes] == [("^FD", 1)]
    assert set(boxes[0]) == {"offset", "command", "fn", "x", "y", "width", "height"}
    assert THREE[boxes[0]["offset"]:].startswith("^FDLabel 1")
    assert await labels_used(api, caller) == 1
    assert len(render_worker.rendered) == 2  # the first render, then the one for its boxes


async def test_template_render_with_field_boxes(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    caller = make_caller()
    await commit(api, caller)
    status, answer = await from_data(api, caller, {"template_id": "tpl_ship", "fields": VALUES,
                                                   "field_boxes": True})
    assert status == 200, answer
    assert {box["fn"] for box in answer["field_boxes"]} >= {1, 2}
    status, again = await from_data(api, caller, {"template_id": "tpl_ship", "fields": VALUES,
                                                  "field_boxes": True})
    assert again["cached"] is True and again["field_boxes"] == answer["field_boxes"]
    status, plain = await from_data(api, caller, {"template_id": "tpl_ship", "fields": VALUES})
    assert "field_boxes" not in plain


async def test_idempotent_file_answer_replays_the_bytes(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer) -> None:
    caller = make_caller()
    answers = [await render(api, caller, {"zpl": THREE}, Accept="image/png",
                            **{"Idempotency-Key": "png-1"}) for _ in range(2)]
    (c1, h1, d1), (c2, h2, d2) = answers
    assert (c1, c2) == (200, 200) and d1 == d2 and d1.startswith(b"\x89PNG")
    assert h2.get("Idempotency-Replay") == "true" and h2["Content-Type"] == "image/png"
