"""The API with the real render worker (``labelrender.worker``), end to end:
refusals, cache hits and warnings."""

from __future__ import annotations

from collections.abc import Callable

from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer


async def test_render_invalid_and_cached_through_the_worker(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    answers = []
    for body in ({"zpl": SIMPLE_ZPL}, {"zpl": SIMPLE_ZPL}, {"zpl": "no label here"}):
        async with api.session.post(api.url("/v1/labels"), json=body,
                                    headers=caller.headers) as resp:
            answers.append((resp.status, await resp.json()))
    (s1, first), (s2, second), (s3, bad) = answers
    assert (s1, s2, s3) == (200, 200, 422)
    assert first["cached"] is False and second["cached"] is True
    assert second["url"] == first["url"]
    assert bad["errors"][0]["kind"] == "InvalidZpl"
    async with api.session.get(first["url"]) as png:
        assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")


async def test_engine_warnings_come_back_on_the_cache_hit(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    body = {"zpl": "^XA^FO50,50^A0N,40,40^FDHello^FS^XQ^XZ"}  # ^XQ: unknown, ignored
    answers = []
    for _ in range(2):
        async with api.session.post(api.url("/v1/labels"), json=body,
                                    headers=caller.headers) as resp:
            answers.append(await resp.json())
    first, second = answers
    assert (first["cached"], second["cached"]) == (False, True)
    assert any("^XQ" in warning for warning in first["warnings"])
    assert second["warnings"] == first["warnings"]
