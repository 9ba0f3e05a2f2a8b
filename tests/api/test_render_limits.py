"""Hostile input on every door that runs the engine, over real HTTP with the real
worker: each is answered with a 4xx and a kind within 5 s, never billed, never
stored, and the service answers the next request as usual.

The labels are the reproducers of the hardening issue: a 36-byte label that
needs a gigabyte canvas, eight such text blocks with 32 KB each, a block with
overflowing sizes at a high dpi, and a font size the engine cannot make.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from labelrender.store import get_plan, read_usage, templates
from labelrender.store import jobs as render_jobs
from labelrender.store.objects import FilesystemStore
from labelrender.store.templates import Draft
from labelrender.worker.sandbox import Sandbox, SandboxLimits
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer, slow_zpl, start_worker

GIGABYTE_BLOCK = "^XA^FO0,0^TBN,32000,32000^FDx^FS^XZ"
EIGHT_BLOCKS = "^XA" + "^FO0,0^TBN,32000,32000^A0N,20^FD{}^FS".format("w " * 16000) * 8 + "^XZ"
OVERFLOWING_BLOCK = "^XA^FO0,0^TBN,2147483648,9999999999994^FDx^FS^XZ"
HUGE_FONT = "^XA^FO10,10^A1N,0,65535^FDx^FS^XZ"
THREE_BLOCKS = "^XA" + "^FO0,0^TBN,30000,30000^A0N,30^FD{}^FS".format("word " * 2000) * 3 + "^XZ"
TOO_COMPLEX = ("RenderTooComplex",)
ANSWER_WITHIN_S = 5.0  # the hardening issue's bound, end to end


async def post(api: Api, caller: Caller, path: str, body: dict[str, Any]
               ) -> tuple[int, dict[str, Any]]:
    async with api.session.post(api.url(path), data=json.dumps(body).encode(),
                                headers={**caller.headers,
                                         "Content-Type": "application/json"}) as resp:
        return resp.status, await resp.json()


def usage(r: redis.Redis, caller: Caller) -> tuple[int, int]:
    used = read_usage(r, caller.tenant_id, get_plan(r, "pro"), now=time.time())
    return used["labels"].used, used["syntheses"].used


def stored_labels(root: Path) -> list[Path]:
    return list((root / "tenants").rglob("*.png")) if (root / "tenants").exists() else []


def committed_unchecked(r: redis.Redis, store: FilesystemStore, tenant_id: str,
                        body: str) -> None:
    """A template whose body was never checked (committed before the limits, or
    an operator's): only its renders can refuse it."""
    draft = Draft(body=body, field_map={"text": 1}, values={"text": "x"})
    templates.commit(r, store, tenant_id, "tpl_hostile", draft,
                     hashlib.sha256(body.encode()).hexdigest(), now=time.time())


@pytest.mark.parametrize(("door", "zpl", "options", "kinds"), [
    pytest.param("labels", GIGABYTE_BLOCK, {}, TOO_COMPLEX, id="labels-gigabyte-block"),
    pytest.param("labels", EIGHT_BLOCKS, {}, TOO_COMPLEX, id="labels-eight-blocks"),
    pytest.param("labels", OVERFLOWING_BLOCK, {"source_dpi": 100, "target_dpi": 300},
                 TOO_COMPLEX, id="labels-overflowing-block-300dpi"),
    pytest.param("labels", THREE_BLOCKS, {}, TOO_COMPLEX, id="labels-three-blocks"),
    pytest.param("labels", HUGE_FONT, {"source_dpi": 203, "target_dpi": 300}, TOO_COMPLEX,
                 id="labels-huge-font-300dpi"),
    pytest.param("from-data", "^XA^FO0,0^TBN,32000,32000^FN1^FS^XZ", {}, TOO_COMPLEX,
                 id="from-data-gigabyte-block"),
    pytest.param("synthesize", GIGABYTE_BLOCK, {}, TOO_COMPLEX, id="synthesize-gigabyte-block"),
    pytest.param("synthesize", EIGHT_BLOCKS[:60_000] + "^FS^XZ", {}, TOO_COMPLEX,
                 id="synthesize-60kb-of-blocks"),
    pytest.param("commit", GIGABYTE_BLOCK, {}, TOO_COMPLEX, id="commit-gigabyte-block"),
])
async def test_hostile_input_is_a_quick_final_4xx(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore, tmp_path: Path,
    door: str, zpl: str, options: dict[str, Any], kinds: tuple[str, ...],
) -> None:
    caller = make_caller("pro")
    if door == "labels":
        path, body = "/v1/labels", {"zpl": zpl, **options}
    elif door == "from-data":
        committed_unchecked(redis_db, object_store, caller.tenant_id, zpl)
        path, body = "/v1/labels/from-data", {"template_id": "tpl_hostile",
                                              "fields": {"text": "x"}}
    elif door == "synthesize":
        path, body = "/v1/templates/synthesize", {"input_zpl": zpl}
    else:
        path, body = "/v1/templates/tpl_hostile", {"body": zpl, "field_map": {}}
    started = time.monotonic()
    status, payload = await post(api, caller, path, body)
    elapsed = time.monotonic() - started
    assert status == 422, payload
    assert payload["error"]["kind"] in kinds, payload
    assert elapsed < ANSWER_WITHIN_S
    assert usage(redis_db, caller) == (0, 0)  # neither a label nor a synthesis billed
    assert stored_labels(tmp_path / "objects") == []
    assert render_jobs.backlog(redis_db) == 0  # final: nothing left to deliver again
    status, payload = await post(api, caller, "/v1/labels", {"zpl": SIMPLE_ZPL})
    assert status == 200, payload  # and the service goes on as usual


async def test_hostile_syntheses_and_commits_at_once_are_each_a_quick_422(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    """The issue's concurrent reproducers: 8 syntheses of 30 KB of ^TB fields at
    once, then 4 commits of one such body at once; each a 422 within the bound."""
    caller = make_caller("pro")
    body = EIGHT_BLOCKS[:30_000] + "^FS^XZ"
    for path, payload, count in (
            ("/v1/templates/synthesize", {"input_zpl": body}, 8),
            ("/v1/templates/tpl_hostile", {"body": body, "field_map": {}}, 4)):
        started = time.monotonic()
        answers = await asyncio.gather(*(post(api, caller, path, payload)
                                         for _ in range(count)))
        elapsed = time.monotonic() - started
        assert [(status, answer["error"]["kind"]) for status, answer in answers] == \
            [(422, "RenderTooComplex")] * count
        assert elapsed < ANSWER_WITHIN_S
    assert usage(redis_db, caller) == (0, 0)


async def test_a_render_past_its_time_is_answered_422(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
    object_store: FilesystemStore,
) -> None:
    """A render that runs past its time is answered 422 naming the limit, never
    billed, and the next label renders. The engine stops itself at its budget
    (half a second under a 1 s deadline) and the sandbox kills the process at
    the deadline if it did not (that backstop: tests/worker/test_sandbox.py)."""
    sandbox = Sandbox(1, SandboxLimits(deadline_s=1.0))
    worker = start_worker(redis_db, object_store, sandbox)
    try:
        caller = make_caller("pro")
        status, payload = await post(api, caller, "/v1/labels",
                                     {"zpl": slow_zpl("deadline", fields=150)})
        assert status == 422, payload
        assert payload["error"]["kind"] == "RenderTooComplex"
        assert payload["limit"] == "time"
        assert usage(redis_db, caller) == (0, 0)
        status, _ = await post(api, caller, "/v1/labels", {"zpl": SIMPLE_ZPL})
        assert status == 200
    finally:
        worker.stop()
        sandbox.close()


async def test_too_many_engine_calls_at_once_are_503(
    start_api: Callable[..., Any], make_caller: Callable[..., Caller],
) -> None:
    """Synthesis and template checks wait for the API's engine processes in a
    bounded queue: past it the answer is 503 at once, never a growing backlog."""
    api = await start_api(engine_processes=1, engine_queue=0)
    caller = make_caller("pro")
    slow = slow_zpl("busy", fields=60)
    answers = await asyncio.gather(*(
        post(api, caller, "/v1/templates/synthesize", {"input_zpl": slow}) for _ in range(3)))
    statuses = sorted(status for status, _ in answers)
    assert statuses[0] == 200 and 503 in statuses
    assert all(payload["error"]["kind"] == "AgentOverloaded"
               for status, payload in answers if status == 503)
