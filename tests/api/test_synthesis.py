"""POST /v1/templates/synthesize and its jobs, over real HTTP with real Redis.

Every row of the spec's synthesis error table has a case here; the job runner
is the worker's own ``SynthesisRunner``, driven one pass at a time.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
from aiohttp import web

from labelrender.api import ApiConfig, create_app
from labelrender.api.synthesis import ENGINE
from labelrender.store import consume, create_key, get_plan, read_usage, revoke_key
from labelrender.synth.engine import (
    EngineUnavailable,
    SynthesisRequest,
    SynthesisResult,
    make_engine,
)
from labelrender.worker.sandbox import Sandbox
from labelrender.worker.synthesis import SynthesisRunner
from tests.api.conftest import Api, Caller, StartApi

LABEL = (Path(__file__).parents[1] / "synth" / "data" / "royalmail.zpl").read_text("utf-8")
SMALL = ("^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP TO:^FS^FO30,60^A0N,50,50^FDGRACE HOPPER^FS"
         "^FO30,120^A0N,40,40^FDARLINGTON VA 22201^FS"
         "^FO30,220^BCN,100,Y,N,N^FD1Z999AA10123456784^FS^XZ")
PATH = "/v1/templates/synthesize"
JOBS = PATH + "/jobs"
MakeCaller = Callable[..., Caller]


async def send(api: Api, method: str, path: str, caller: Caller | None = None,
               body: Any = None, raw: bytes | None = None,
               headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], Any]:
    all_headers = {**(caller.headers if caller else {}), **(headers or {})}
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    if data is not None:
        all_headers.setdefault("Content-Type", "application/json")
    async with api.session.request(method, api.url(path), data=data,
                                   headers=all_headers) as resp:
        return resp.status, await resp.json(), resp.headers


def syntheses_used(r: redis.Redis, caller: Caller, plan: str = "pro") -> int:
    return read_usage(r, caller.tenant_id, get_plan(r, plan), now=time.time())["syntheses"].used


def assert_error(status: int, body: dict[str, Any], expected_status: int, kind: str) -> None:
    """DECISIONS.md "Error bodies": both envelopes on the synthesis endpoints."""
    assert status == expected_status, body
    assert body["error"]["kind"] == kind
    assert body["error"]["type"] and body["error"]["message"]
    assert "param" in body["error"]
    assert body["status"] == "error"
    assert body["errors"] == [{"kind": kind, "message": body["error"]["message"]}]


async def test_synthesize_returns_a_draft_and_counts_one_unit(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    status, body, headers = await send(api, "POST", PATH, caller, {
        "input_zpl": LABEL, "target_scope": "tenant", "target_tenant_id": caller.tenant_id,
        "hint_template_id": "tpl_royal_mail", "hint_field_names": ["recipient_name"]})
    assert status == 200, body
    assert (body["status"], body["scope"], body["tenant_id"]) == ("ok", "tenant", caller.tenant_id)
    assert body["template_id"] == "tpl_royal_mail"
    draft = body["draft"]
    assert draft["name"] == "royal_mail"
    assert draft["values"]["recipient_name"] == "John Smith"
    assert set(draft["values"]) == set(draft["field_map"])
    assert f"^FN{draft['field_map']['recipient_name']}^FS" in draft["body"]
    assert (draft["width_dots"], draft["height_dots"], draft["source_dpi"]) == (812, 1218, 203)
    assert 0 <= body["confidence_score"] <= 1
    assert body["low_confidence"] is (body["confidence_score"] < 0.7)
    assert set(body["field_confidence"]) == set(draft["field_map"])
    assert all(0 <= c <= 1 for c in body["field_confidence"].values())
    assert set(body["confidence_components"]) >= {
        "parse_coverage", "variable_certainty", "naming_certainty", "dimension_detection"}
    assert isinstance(body["warnings"], list)
    meta = body["_synthesis_meta"]
    assert meta["model"] == "labelrender-heuristic-1" and meta["schema_version"]
    assert meta["prompt_version"] and meta["request_id"] == headers["X-Request-Id"]
    assert headers["X-RateLimit-Limit"]
    assert syntheses_used(redis_db, caller) == 1


async def test_a_stored_format_with_its_recall_is_a_draft_not_a_422(
    api: Api, make_caller: MakeCaller,
) -> None:
    caller = make_caller("pro")
    stored = ("^XA^DFE:SAMPLE.ZPL^FS^FO30,40^ADN,36,20^FDShip to: ^FS"
              "^FO150,125^ADN,36,20^FN1^FS^FO70,480^BY4^B3N,,200^FN4^FS^XZ"
              "^XA^XFE:SAMPLE.ZPL^FN1^FDAcme Printing^FS^FN4^FD12345678^FS^XZ")
    status, body, _ = await send(api, "POST", PATH, caller, {"input_zpl": stored})
    assert status == 200, body
    draft = body["draft"]
    assert sorted(draft["field_map"].values()) == [1, 4]
    assert sorted(draft["values"].values()) == ["12345678", "Acme Printing"]


async def test_hard_to_read_input_is_200_with_a_low_score(
    api: Api, make_caller: MakeCaller,
) -> None:
    caller = make_caller("pro")
    status, body, _ = await send(api, "POST", PATH, caller,
                                 {"input_zpl": "^XA^QQ^ZZ1^FO0,0^GB300,10,10^FS^XZ"})
    assert status == 200, body
    assert body["low_confidence"] is True and body["confidence_score"] < 0.7
    assert body["warnings"]


BAD_BODIES = [
    pytest.param(b"{not json", 400, "InvalidJson", id="invalid-json"),
    pytest.param(b"[1, 2]", 400, "InvalidJson", id="not-an-object"),
    pytest.param({"input_zpl": SMALL, "zpl": "x"}, 400, "UnknownField", id="unknown-field"),
    pytest.param({}, 422, "InvalidInputZpl", id="input-missing"),
    pytest.param({"input_zpl": ""}, 422, "InvalidInputZpl", id="input-empty"),
    pytest.param({"input_zpl": "  \n "}, 422, "InvalidInputZpl", id="input-blank"),
    pytest.param({"input_zpl": 42}, 422, "InvalidInputZpl", id="input-not-text"),
    pytest.param({"input_zpl": "^XA" + "^FX" + "x" * 66_000 + "^XZ"}, 422, "InvalidInputZpl",
                 id="input-over-64kb"),
    pytest.param({"input_zpl": "just some text"}, 422, "InvalidInputZpl", id="unparseable"),
    pytest.param({"input_zpl": SMALL, "target_scope": "global"}, 422,
                 "InvalidScopeForTenantCall", id="global-scope"),
    pytest.param({"input_zpl": SMALL, "target_scope": "planet"}, 422, "InvalidScope",
                 id="unknown-scope"),
    pytest.param({"input_zpl": SMALL, "target_tenant_id": "acme"}, 422, "InvalidTenantId",
                 id="tenant-malformed"),
    pytest.param({"input_zpl": SMALL, "target_tenant_id": "tnt_" + "b" * 26}, 422,
                 "InvalidTenantId", id="tenant-not-the-keys"),
    pytest.param({"input_zpl": SMALL, "target_tenant_id": 7}, 422, "InvalidTenantId",
                 id="tenant-not-text"),
    pytest.param({"input_zpl": SMALL, "hint_field_names": "a"}, 422, "InvalidHint",
                 id="hints-not-a-list"),
    pytest.param(b"{\"input_zpl\": \"" + b"x" * 80_000 + b"\"}", 413, "PayloadTooLarge",
                 id="body-too-large"),
]


@pytest.mark.parametrize("path", [PATH, JOBS])
@pytest.mark.parametrize(("body", "status", "kind"), BAD_BODIES)
async def test_bad_requests_are_refused_and_not_billed(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis, path: str,
    body: Any, status: int, kind: str,
) -> None:
    caller = make_caller("pro")
    raw = body if isinstance(body, bytes) else None
    got, answer, _ = await send(api, "POST", path, caller, None if raw else body, raw=raw)
    assert_error(got, answer, status, kind)
    assert syntheses_used(redis_db, caller) == 0


async def test_input_over_a_render_limit_is_422_and_the_unit_given_back(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis,
) -> None:
    """It parses, so a unit is counted, but its canvas is over the engine's cap;
    as a job it fails in the worker instead (below)."""
    caller = make_caller("pro")
    status, body, _ = await send(api, "POST", PATH, caller,
                                 {"input_zpl": "^XA^PW32000^LL32000^FO1,1^FDx^FS^XZ"})
    assert_error(status, body, 422, "RenderTooComplex")
    assert "canvas" in body["error"]["message"]
    assert syntheses_used(redis_db, caller) == 0


@pytest.mark.parametrize("path", [PATH, JOBS, JOBS + "/job_0123"])
@pytest.mark.parametrize("auth", ["none", "malformed", "unknown", "revoked"])
async def test_bad_keys_are_401_pre_auth_unauthorized(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis, path: str, auth: str,
) -> None:
    caller = make_caller("pro")
    headers = {"none": {}, "malformed": {"Authorization": "Token abc"},
               "unknown": {"Authorization": "Bearer svc_live_" + "0" * 64},
               "revoked": caller.headers}[auth]
    if auth == "revoked":  # a tenant keeps one active key: make another first
        create_key(redis_db, caller.tenant_id, now=time.time(), label="spare")
        revoke_key(redis_db, caller.tenant_id, caller.key_prefix, now=time.time())
    method = "GET" if path.count("/") > 4 else "POST"
    status, body, resp_headers = await send(api, method, path, body={"input_zpl": SMALL},
                                            headers=headers)
    assert status == 401 and body["error"]["kind"] == "PRE_AUTH_UNAUTHORIZED"
    assert body["error"]["type"] == "authentication_error"
    if method == "POST":
        assert_error(status, body, 401, "PRE_AUTH_UNAUTHORIZED")
    assert resp_headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("path", [PATH, JOBS])
async def test_quota_gate_is_402_with_an_upgrade_url(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis, path: str,
) -> None:
    caller = make_caller("sandbox")
    plan = get_plan(redis_db, "sandbox")
    consume(redis_db, caller.tenant_id, "syntheses", plan, overages=False, now=time.time(),
            count=plan.syntheses_per_month)
    status, body, _ = await send(api, "POST", path, caller, {"input_zpl": SMALL})
    assert_error(status, body, 402, "QuotaExceeded")
    assert body["upgrade_url"].startswith("http")
    assert body["error"]["type"] == "invalid_request_error"
    assert syntheses_used(redis_db, caller, "sandbox") == plan.syntheses_per_month


async def test_paid_plan_with_overages_goes_past_the_allowance(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    plan = get_plan(redis_db, "pro")
    consume(redis_db, caller.tenant_id, "syntheses", plan, overages=True, now=time.time(),
            count=plan.syntheses_per_month)
    status, body, _ = await send(api, "POST", PATH, caller, {"input_zpl": SMALL})
    assert status == 200, body
    assert syntheses_used(redis_db, caller) == plan.syntheses_per_month + 1


class UnavailableUpstream:
    """An engine whose upstream is down: what the 502 row is about. It stands in
    for a remote model endpoint, which labelrender does not ship."""

    model = "remote-model-test"

    def synthesize(self, request: SynthesisRequest) -> SynthesisResult:
        raise EngineUnavailable("upstream answered 503")


@pytest.fixture
async def upstream_down_api(redis_db: redis.Redis, object_store: Any,
                            engine_sandbox: Sandbox) -> AsyncIterator[Api]:
    import aiohttp

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = replace(ApiConfig(public_base_url=base + "/v1", engine_sandbox=engine_sandbox),
                     retry_after_s=3.0)
    app = create_app(config, redis_db, object_store)
    app[ENGINE] = UnavailableUpstream()
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    async with aiohttp.ClientSession() as session:
        yield Api(base, session, config)
    await runner.cleanup()


async def test_upstream_unavailable_is_502_retriable_and_not_billed(
    upstream_down_api: Api, make_caller: MakeCaller, redis_db: redis.Redis,
) -> None:
    caller = make_caller("pro")
    status, body, headers = await send(upstream_down_api, "POST", PATH, caller,
                                       {"input_zpl": SMALL})
    assert_error(status, body, 502, "SynthesisUpstreamUnavailable")
    assert body["error"]["type"] == "api_error"
    assert headers["Retry-After"] == "3"
    assert syntheses_used(redis_db, caller) == 0


# --- jobs -----------------------------------------------------------------------------

@pytest.fixture
def runner(redis_db: redis.Redis, engine_sandbox: Sandbox) -> SynthesisRunner:
    """The worker's job runner on the session's engine processes, driven one
    pass at a time."""
    return SynthesisRunner(redis_db, make_engine("heuristic"), consumer="tests",
                           sandbox=engine_sandbox)


async def test_job_runs_to_the_synchronous_answer(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis, runner: SynthesisRunner,
) -> None:
    caller = make_caller("pro")
    request = {"input_zpl": SMALL, "hint_template_id": "tpl_walk"}
    status, created, headers = await send(api, "POST", JOBS, caller, request)
    assert status == 202 and created["state"] == "queued"
    assert created["job_id"].startswith("job_")
    assert syntheses_used(redis_db, caller) == 1
    status, queued, _ = await send(api, "GET", f"{JOBS}/{created['job_id']}", caller)
    assert status == 200
    assert (queued["state"], queued["finished_at"], queued["result"], queued["error"]) == (
        "queued", None, None, None)
    assert queued["created_at"].endswith("Z")

    assert runner.run_once() == 1
    status, done, _ = await send(api, "GET", f"{JOBS}/{created['job_id']}", caller)
    assert done["state"] == "succeeded" and done["finished_at"].endswith("Z")
    status, direct, _ = await send(api, "POST", PATH, caller, request)
    assert done["result"]["_synthesis_meta"]["request_id"] == headers["X-Request-Id"]
    for answer in (done["result"], direct):
        answer["_synthesis_meta"].pop("request_id")
    assert done["result"] == direct
    assert syntheses_used(redis_db, caller) == 2


async def test_a_job_survives_an_api_restart(
    start_api: StartApi, make_caller: MakeCaller, redis_db: redis.Redis,
    runner: SynthesisRunner,
) -> None:
    caller = make_caller("pro")
    first = await start_api()
    _, created, _ = await send(first, "POST", JOBS, caller, {"input_zpl": SMALL})
    restarted = await start_api()  # a new API process state on the same Redis
    status, seen, _ = await send(restarted, "GET", f"{JOBS}/{created['job_id']}", caller)
    assert status == 200 and seen["state"] == "queued"
    runner.run_once()
    _, done, _ = await send(restarted, "GET", f"{JOBS}/{created['job_id']}", caller)
    assert done["state"] == "succeeded"
    assert done["result"]["draft"]["values"]["ship_to_name"] == "GRACE HOPPER"


@pytest.mark.parametrize("whose", ["other-tenant", "unknown"])
async def test_someone_elses_or_an_unknown_job_is_404(
    api: Api, make_caller: MakeCaller, whose: str,
) -> None:
    owner, other = make_caller("pro"), make_caller("pro")
    _, created, _ = await send(api, "POST", JOBS, owner, {"input_zpl": SMALL})
    job_id = created["job_id"] if whose == "other-tenant" else "job_" + "0" * 24
    status, body, _ = await send(api, "GET", f"{JOBS}/{job_id}", other)
    assert status == 404 and body["error"]["kind"] == "SynthesisJobNotFound"
    assert body["error"]["type"] == "not_found_error"


async def test_a_failed_job_reports_why_and_gives_the_unit_back(
    api: Api, make_caller: MakeCaller, redis_db: redis.Redis, runner: SynthesisRunner,
) -> None:
    caller = make_caller("pro")
    # Parses, but its canvas is over the engine's cap: it fails in the worker.
    zpl = "^XA^PW32000^LL32000^FO1,1^A0N,30^FDREF 12345^FS^XZ"
    status, created, _ = await send(api, "POST", JOBS, caller, {"input_zpl": zpl})
    assert status == 202 and syntheses_used(redis_db, caller) == 1
    runner.run_once()
    _, failed, _ = await send(api, "GET", f"{JOBS}/{created['job_id']}", caller)
    assert failed["state"] == "failed" and failed["result"] is None
    assert failed["error"]["kind"] == "RenderTooComplex" and failed["error"]["message"]
    assert syntheses_used(redis_db, caller) == 0
