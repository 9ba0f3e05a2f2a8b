"""The document's ``label.rendered`` webhook is what the dispatcher sends: the
body ``worker.delivery`` builds validates strictly against the documented
schema, and its headers against the documented header parameters."""

from __future__ import annotations

import json
import re
import time

import pytest

from labelrender.store.events import LabelRendered, new_event_id
from labelrender.worker import delivery
from tests.api.openapi_check import Contract, pointer

HASH = "ab" * 32


@pytest.mark.parametrize(("test", "external_ref", "cached"), [
    (False, "order-1234", False),
    (False, None, True),
    (True, "sample", False),
])
def test_a_delivery_is_the_documented_webhook(test: bool, external_ref: str | None,
                                               cached: bool) -> None:
    now = time.time()
    event = LabelRendered(
        event_id=new_event_id(now), tenant_id="tnt_" + "a" * 26, content_hash=HASH,
        object_key=f"tenants/x/labels/{HASH}.png", template_id="tpl_shipping",
        template_version=3, external_ref=external_ref, cached=cached, created_at=now,
        test=test)
    body = delivery.payload(event, "https://files.example.com/label.png?sig=1", now)
    contract = Contract()
    contract.check_at(pointer("webhooks", "label.rendered", "post", "requestBody", "content",
                              "application/json", "schema"), json.loads(body))

    sent = delivery.headers(event, "whsec_secret", int(now), body)
    documented = contract.document["webhooks"]["label.rendered"]["post"]["parameters"]
    for parameter in documented:
        assert parameter["in"] == "header" and parameter["required"]
        value = sent[parameter["name"]]
        schema = parameter["schema"]
        if "pattern" in schema:
            assert re.search(schema["pattern"], value), (parameter["name"], value)
        if "enum" in schema:
            assert value in schema["enum"]
    assert sent["Content-Type"] == "application/json"
