"""``/docs`` in a real browser: Debian's Chromium, headless, driven by
Playwright, renders the reference from ``/v1/openapi.json`` with every
operation and the webhook on the page, and loads nothing from anywhere but
the service itself."""

from __future__ import annotations

import importlib
import json
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.api.conftest import Api

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--no-first-run",
                  "--disable-component-update", "--disable-sync", "--disable-quic"]

# CI installs both (.ci/run, the test extra): there, a missing one fails.
if not os.environ.get("CI"):
    pytest.importorskip("playwright.async_api", reason="needs playwright (PyPI)")
async_api = importlib.import_module("playwright.async_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                reason="needs Debian's chromium (apt-get install chromium)")


async def test_docs_render_every_operation_from_this_origin_only(
        api: Api, tmp_path: Path) -> None:
    async with api.session.get(api.url("/v1/openapi.json")) as response:
        document = json.loads(await response.read())
    operations = {op["operationId"]: op["summary"] for item in document["paths"].values()
                  for op in item.values()}
    origin = urlsplit(api.base).netloc
    requested: list[str] = []
    answered: list[str] = []
    refused: dict[str, str | None] = {}
    async with async_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_FLAGS)
        try:
            page = await browser.new_page()
            page.on("request", lambda request: requested.append(request.url))
            page.on("response", lambda response: answered.append(response.url))
            page.on("requestfailed",
                    lambda request: refused.update({request.url: request.failure}))
            response = await page.goto(api.url("/docs"), wait_until="networkidle")
            assert response is not None and response.status == 200
            await page.wait_for_selector('[id$="operation/createLabel"]', timeout=30_000)
            found = await page.evaluate(
                """ids => ids.filter(id => document.querySelector(
                       `[id$="operation/${id}"]`) !== null)""", sorted(operations))
            text = await page.inner_text("body")
            await page.screenshot(path=str(tmp_path / "docs.png"))
        finally:
            await browser.close()
    assert sorted(found) == sorted(operations), set(operations) - set(found)
    for summary in operations.values():
        assert summary in text, summary
    assert "label.rendered" in text  # the webhook
    # Redoc's own badge points at its CDN: the page's Content-Security-Policy
    # refuses it in the browser, so nothing off this origin is ever fetched.
    elsewhere = [url for url in requested if urlsplit(url).netloc != origin
                 and not url.startswith(("data:", "blob:"))]
    assert all(url in refused and "csp" in str(refused[url]) for url in elsewhere), refused
    assert answered and all(urlsplit(url.removeprefix("blob:")).netloc == origin
                            for url in answered), answered
