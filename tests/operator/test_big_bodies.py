"""Template bodies far over the API server's 256 KiB cap on annotations: Kopf's
record of the spec it handled is a digest, so a 600 KiB body gets its status
and renders; `kubectl apply` (client side), which copies the whole object into
an annotation, is refused at apply with the API server's message naming the cap.

The emulator enforces the cap as the API server does (tests/operator/emulator.py).
"""

from __future__ import annotations

import json
from typing import Any

import kubernetes
import pytest

from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import StartOperator
from tests.operator.emulator import ANNOTATIONS_CAP
from tests.operator.harness import Cluster, Service, ready

NAME = "shipping-4x6"
BODY_BYTES = 600 * 1024
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def big_template(padding: str = "x") -> dict[str, Any]:
    """The example, its body grown past 600 KiB by a ^FX comment (prints nothing)."""
    obj = example("LabelTemplate")
    body = obj["spec"]["body"]
    comment = "^FX" + padding * (BODY_BYTES - len(body)) + "^FS\n"
    obj["spec"]["body"] = body.replace("^XZ", comment + "^XZ")
    assert len(obj["spec"]["body"].encode()) > BODY_BYTES
    return obj


def annotations_size(obj: dict[str, Any]) -> int:
    return sum(len(k) + len(v) for k, v in (obj["metadata"].get("annotations") or {}).items())


def test_a_600_kib_body_is_served_end_to_end(
        cluster: Cluster, start_operator: StartOperator, service: Service,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="kopf")
    start_operator()
    cluster.apply(big_template())  # as kubectl create or apply --server-side send it
    wait_for(lambda: (ready(cluster.find("labeltemplates", NAME)) or {}).get("reason")
             == "Stored", what="the big template's status")
    stored = cluster.get("labeltemplates", NAME)
    assert stored["status"]["version"] == 1
    assert annotations_size(stored) < 1024  # Kopf's state is a digest, not the spec

    values = example("LabelTemplate")["spec"]["sampleValues"]
    code, label, _ = service.caller().call("POST", "/v1/labels/from-data",
                                           {"template_id": NAME, "fields": values})
    assert code == 200, label
    assert label["status"] == "ok" and label["template_version"] == 1

    cluster.apply(big_template("y"))  # every later change gets its status too
    wait_for(lambda: cluster.get("labeltemplates", NAME)["status"].get("version") == 2,
             what="version 2 of the big template")
    # Handled once each, never refused: Kopf's bookkeeping fits the object.
    kopf_lines = [r.getMessage() for r in caplog.records if r.name.startswith("kopf")]
    assert sum("Creation is processed" in line for line in kopf_lines) == 1
    assert sum("Updating is processed" in line for line in kopf_lines) == 1
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_client_side_apply_of_a_big_body_is_refused_naming_the_cap(cluster: Cluster) -> None:
    obj = big_template()
    obj["metadata"]["annotations"] = {LAST_APPLIED: json.dumps(obj)}  # what kubectl adds
    with pytest.raises(kubernetes.client.ApiException) as refused:
        cluster.custom.create_namespaced_custom_object("labelrender.io", "v1", "default",
                                                       "labeltemplates", obj)
    assert refused.value.status == 422
    message = json.loads(refused.value.body)["message"]
    assert message == ("metadata.annotations: Too long: must have at most "
                       f"{ANNOTATIONS_CAP} bytes")
    assert cluster.find("labeltemplates", NAME) is None
