"""GET /v1/files/{key}: the filesystem store's signed URLs (DECISIONS.md "Signed URLs")."""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest

from labelrender.store.objects import FilesystemStore
from tests.api.conftest import SIMPLE_ZPL, Api, Caller, RenderConsumer, StartApi


async def rendered_url(api: Api, caller: Caller) -> str:
    async with api.session.post(api.url("/v1/labels"), json={"zpl": SIMPLE_ZPL},
                                headers=caller.headers) as resp:
        assert resp.status == 200
        return str((await resp.json())["url"])


async def test_url_window_is_stable_and_long_enough(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    url = await rendered_url(api, make_caller())
    exp = int(parse_qs(urlsplit(url).query)["exp"][0])
    assert time.time() + 3600 <= exp <= time.time() + 86400 + 3600 + 5


@pytest.mark.parametrize("tamper", [
    lambda url: url.replace("sig=", "sig=0"),
    lambda url: url[:-1] + ("0" if url[-1] != "0" else "1"),
    lambda url: url.replace("exp=", "exp=9"),
    lambda url: url.replace(".png", "x.png"),
    lambda url: url.split("?")[0],
])
async def test_tampered_url_is_403(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    tamper: Callable[[str], str],
) -> None:
    url = await rendered_url(api, make_caller())
    async with api.session.get(tamper(url)) as resp:
        assert resp.status == 403
        assert (await resp.json())["error"]["type"] == "permission_error"


async def test_expired_url_is_403(
    start_api: StartApi, make_caller: Callable[..., Caller],
    render_worker: RenderConsumer,
) -> None:
    clock = {"now": time.time()}
    api = await start_api(clock=lambda: clock["now"])
    url = await rendered_url(api, make_caller())
    async with api.session.get(url) as resp:
        assert resp.status == 200
    clock["now"] += 3 * 86400
    async with api.session.get(url) as resp:
        assert resp.status == 403


async def test_deleted_object_is_404(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    object_store: FilesystemStore,
) -> None:
    url = await rendered_url(api, make_caller())
    object_store.delete(urlsplit(url).path.removeprefix("/v1/files/"))
    async with api.session.get(url) as resp:
        assert resp.status == 404
        assert (await resp.json())["error"]["type"] == "not_found_error"


async def test_purged_label_renders_fresh(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    object_store: FilesystemStore,
) -> None:
    caller = make_caller()
    url = await rendered_url(api, caller)
    object_store.delete(urlsplit(url).path.removeprefix("/v1/files/"))
    async with api.session.post(api.url("/v1/labels"), json={"zpl": SIMPLE_ZPL},
                                headers=caller.headers) as resp:
        assert (await resp.json())["cached"] is False
    assert len(render_worker.rendered) == 2


# Found by contract fuzzing: a key holding a line break did not match the
# route (``.+`` stops at a newline) and was 404 RouteNotFound, a kind this
# operation does not document. Every key reaches the handler.
@pytest.mark.parametrize(("path", "status", "kind"), [
    ("/v1/files/a%0A", 404, "FileNotFound"),
    ("/v1/files/%0Aa.png?exp=1&sig=00", 403, "SignedUrlRejected"),
    ("/v1/files/tenants/x/labels/y.png%0A", 404, "FileNotFound"),
])
async def test_any_key_reaches_the_file_handler(api: Api, path: str, status: int,
                                                kind: str) -> None:
    async with api.session.get(api.url(path)) as resp:
        assert resp.status == status
        assert (await resp.json())["error"]["kind"] == kind


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
async def test_other_methods_on_a_file_url_are_405(
        api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
        method: str) -> None:
    """The URL needs no key, so a wrong method is 405 (with Allow), not 401."""
    url = await rendered_url(api, make_caller())
    async with api.session.request(method, url) as resp:
        assert resp.status == 405
        assert (await resp.json())["error"]["kind"] == "MethodNotAllowed"
        assert "GET" in resp.headers.get("Allow", "")
