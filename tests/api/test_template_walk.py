"""The issue's full walk, as the README's curl examples go, over real HTTP:
synthesize a carrier label, rename a field, commit, render new values (read
back with OCR), commit v2 and render again, render v1 explicitly, delete."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import redis

from labelrender.store import keys
from tests.api.conftest import Api, Caller, RenderConsumer
from tests.api.test_from_data import from_data
from tests.api.test_templates import call
from tests.fixtures.ocr import needs_tesseract, ocr_text, words

CARRIER_LABEL = (
    "^XA^PW812^LL406"
    "^FO30,20^A0N,30,30^FDSHIP TO:^FS"
    "^FO30,60^A0N,50,50^FDGRACE HOPPER^FS"
    "^FO30,120^A0N,40,40^FDARLINGTON VA 22201^FS"
    "^FO30,180^A0N,30,30^FDTRACKING #^FS"
    "^FO30,220^BCN,100,Y,N,N^FD1Z999AA10123456784^FS^XZ")
# New values by sample value: whatever names synthesis picks, these replace them.
NEW_VALUES = {"GRACE HOPPER": "ADA LOVELACE", "ARLINGTON VA 22201": "LONDON NW1 2DB",
              "1Z999AA10123456784": "1Z999AA10123456785"}


def renamed(synthesis: dict[str, Any], sample: str, new_name: str) -> dict[str, Any]:
    """Step 2: rename the field whose sample is ``sample`` in the draft."""
    response = copy.deepcopy(synthesis)
    draft = response["draft"]
    [old_name] = [name for name, value in draft["values"].items() if value == sample]
    draft["field_map"][new_name] = draft["field_map"].pop(old_name)
    draft["values"][new_name] = draft["values"].pop(old_name)
    return response


async def png_words(api: Api, url: str) -> set[str]:
    async with api.session.get(url) as resp:
        assert resp.status == 200
        return words(ocr_text(await resp.read()))


@needs_tesseract
async def test_synthesize_commit_render_version_delete(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    # 1. synthesize a carrier label
    status, synthesis = await call(api, caller, "POST", "/v1/templates/synthesize",
                                   {"input_zpl": CARRIER_LABEL})
    assert status == 200, synthesis
    # 2. rename a field
    response = renamed(synthesis, "GRACE HOPPER", "recipient")
    # 3. commit (the synthesis response as returned)
    status, v1 = await call(api, caller, "POST", "/v1/templates/tpl_carrier", response)
    assert (status, v1["version"]) == (201, 1), v1
    assert "recipient" in v1["field_names"]
    # 4. render with new values; the PNG shows them
    draft = response["draft"]
    fields = {name: NEW_VALUES.get(sample, sample) for name, sample in draft["values"].items()}
    body = {"template_id": "tpl_carrier", "fields": fields, "external_ref": "walk-1"}
    status, first = await from_data(api, caller, body)
    assert status == 200 and first["template_version"] == 1, first
    seen = await png_words(api, first["url"])
    assert {"ADA", "LOVELACE", "LONDON", "SHIP"} <= seen
    assert not {"GRACE", "HOPPER", "ARLINGTON"} & seen
    # 5. commit v2 and render again: a new hash
    v2_draft = {**draft, "body": draft["body"].replace("SHIP TO:", "DELIVER TO:")}
    status, v2 = await call(api, caller, "POST", "/v1/templates/tpl_carrier", v2_draft)
    assert (status, v2["version"]) == (201, 2), v2
    status, second = await from_data(api, caller, body)
    assert status == 200 and second["template_version"] == 2 and not second["cached"]
    assert second["content_hash"] != first["content_hash"]
    assert {"DELIVER", "LOVELACE"} <= await png_words(api, second["url"])
    # 6. render v1 explicitly: the first label again
    status, pinned = await from_data(api, caller, {**body, "template_version": 1})
    assert status == 200 and pinned["cached"] is True
    assert (pinned["content_hash"], pinned["url"]) == (first["content_hash"], first["url"])
    # 7. delete; the next render is 404, the rendered labels stay
    status, deleted = await call(api, caller, "DELETE", "/v1/templates/tpl_carrier")
    assert (status, deleted) == (200, {"status": "deleted", "template_id": "tpl_carrier"})
    status, gone = await from_data(api, caller, body)
    assert (status, gone["errors"][0]["kind"]) == (404, "TemplateNotFound")
    assert "LOVELACE" in await png_words(api, first["url"])
    # one label.rendered per render
    assert redis_db.xlen(keys.event_stream(keys.group(caller.tenant_id))) == 3
