"""The studio at /studio, end to end: a live ``labelrender serve`` and headless
Chromium. Screenshots of the main states go to a temporary folder, or to the
folder ``LABELRENDER_STUDIO_SCREENSHOTS`` names: ``python -m
tests.api.studio_screenshots`` refreshes the docs' copies in docs/studio/."""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.browser import (
    WIDE,
    Service,
    browser,
    page,
    pro_key,
    serious_violations,
    service,
)
from tests.fixtures.images import encoded, logo, png_declaring

__all__ = ["browser", "page", "pro_key", "service"]

ROOT = Path(__file__).resolve().parents[2]
SHOTS_FOLDER = "LABELRENDER_STUDIO_SCREENSHOTS"
CARRIER = ROOT / "tests" / "synth" / "data" / "ups.zpl"
NARROW = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: never into the tree unless asked to."""
    folder = os.environ.get(SHOTS_FOLDER)
    return Path(folder) if folder else tmp_path_factory.mktemp("studio")


def sign_in(page: Any, key: str) -> None:
    page.goto("/studio")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    page.locator("#app").wait_for(state="visible")


def render_requests(page: Any) -> list[str]:
    """Every raw render the page asks for, as it asks."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.post_data or "")
            if request.url.endswith("/v1/labels") and request.method == "POST" else None)
    return seen


def assert_accessible(page: Any) -> None:
    found = serious_violations(page)
    assert not found, "\n".join(found)


def assert_fits(page: Any, width: int) -> None:
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    wide = page.evaluate("""width => [...document.querySelectorAll('body *')]
        .filter(node => node.getBoundingClientRect().right > width)
        .map(node => `${node.tagName}#${node.id}.${node.className}`)""", width)
    assert scroll <= width, f"the page is {scroll} px wide in a {width} px window: {wide}"


# -- the files ----------------------------------------------------------------------

@pytest.mark.parametrize(("path", "status", "content_type"), [
    ("/studio", 200, "text/html"),
    ("/studio/", 200, "text/html"),
    ("/studio/studio.js", 200, "text/javascript"),
    ("/studio/studio.css", 200, "text/css"),
    ("/studio/index.html", 404, "application/json"),
    ("/studio/..%2Fstudio.py", 404, "application/json"),
    ("/studio/nothing.js", 404, "application/json"),
], ids=lambda value: str(value))
def test_the_studio_files_need_no_key(service: Service, path: str, status: int,
                                      content_type: str) -> None:
    try:
        with urllib.request.urlopen(service.base + path, timeout=30) as response:
            got, headers = response.status, response.headers
    except urllib.error.HTTPError as exc:
        got, headers = exc.code, exc.headers
    assert (got, headers.get_content_type()) == (status, content_type)
    if status == 200:
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"


# -- sign-in -------------------------------------------------------------------------

@pytest.mark.parametrize(("key", "signed_in", "message"), [
    ("", False, "Enter an API key."),
    ("svc_live_" + "0" * 64, False, "That key is not valid or has been revoked."),
    (None, True, ""),
], ids=["empty", "unknown key", "demo key"])
def test_sign_in_keeps_the_key_in_session_storage_only(
        page: Any, service: Service, key: str | None, signed_in: bool, message: str) -> None:
    page.goto("/studio")
    assert_accessible(page)
    page.get_by_label("API key").fill(service.demo_key if key is None else key)
    page.get_by_label("API key").press("Enter")
    if signed_in:
        page.locator("#app").wait_for(state="visible")
        stored = page.evaluate("() => [sessionStorage.length, localStorage.length,"
                               " document.cookie, Object.values(sessionStorage)]")
        assert stored == [1, 0, "", [service.demo_key]]
        assert page.locator("#usage-labels-text").inner_text().endswith("of 50")
        page.reload()  # the tab remembers it; a new tab would not
        page.locator("#app").wait_for(state="visible")
    else:
        page.locator("#sign-in-error").filter(has_text=message).wait_for()
        assert page.locator("#app").is_hidden()
        assert page.evaluate("() => sessionStorage.length") == 0


def test_the_page_loads_nothing_from_elsewhere(page: Any, service: Service) -> None:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    sign_in(page, service.demo_key)
    assert urls and all(url.startswith(service.base) for url in urls), urls


# -- the editor --------------------------------------------------------------------

def test_typing_zpl_changes_the_preview(page: Any, pro_key: str, shots: Path) -> None:
    sign_in(page, pro_key)
    editor = page.get_by_label("ZPL", exact=True)
    editor.press_sequentially("^XA^FO40,40^A0N,60^FDHello studio^FS^FO700,40^GB200,20,4^FS^XZ",
                             delay=10)
    image = page.locator("#editor-preview img")
    image.wait_for()
    first = image.get_attribute("src")
    editor.press("End")
    for _ in range(3):
        editor.press("ArrowLeft")
    editor.press_sequentially("^FO40,140^BY3^BCN,100^FD12345678^FS", delay=10)
    page.wait_for_function(f"() => document.querySelector('#editor-preview img').src !== "
                           f"{first!r}")
    page.get_by_label("Show field boxes").check()
    page.locator("#editor-preview .box").nth(1).wait_for()
    assert page.locator("#editor-preview .box").count() == 3
    assert page.locator("#warning-count").inner_text() == "1"
    page.locator("#editor-status").filter(has_text="Rendered").wait_for()
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / "editor.png", full_page=True)
    assert_accessible(page)


# Before the faulty command: 2-, 3- and 4-byte UTF-8 characters, so byte offsets
# and the textarea's UTF-16 indices differ.
WARNED = "^XA^CI28^FO20,20^A0N,30^FDÄ€😀 ok^FS^FO10,10^GB900,10,3^FS^XZ"


def test_clicking_a_warning_selects_its_command(page: Any, pro_key: str) -> None:
    sign_in(page, pro_key)
    page.get_by_label("ZPL", exact=True).fill(WARNED)
    warning = page.locator("#warnings button").first
    warning.wait_for()
    assert "^GB" in warning.inner_text()
    warning.click()
    selected = page.evaluate("() => { const a = document.querySelector('#zpl');"
                             " return [a.value.slice(a.selectionStart, a.selectionEnd),"
                             " document.activeElement.id]; }")
    assert selected == ["^GB900,10,3", "zpl"]


def test_an_error_at_a_byte_is_listed_and_selects_its_command(page: Any,
                                                             pro_key: str) -> None:
    sign_in(page, pro_key)
    page.get_by_label("ZPL", exact=True).fill("^XA^FO10,10^GB32000,32000,5^FS^XZ")
    page.locator("#editor-status").filter(has_text="Not rendered").wait_for()
    page.locator("#warnings button").filter(has_text="megapixel").click()
    assert page.evaluate("() => { const a = document.querySelector('#zpl');"
                         " return a.value.slice(a.selectionStart, a.selectionEnd); }"
                         ) == "^GB32000,32000,5"


def test_a_429_shows_the_rate_limit_and_retry_after(page: Any, service: Service) -> None:
    key = service.tenant_key("sandbox", "studio-limited")
    sign_in(page, key)
    statuses = [service.post("/v1/labels", key, {"zpl": f"^XA^FO9,9^GB{n},9,9^FS^XZ"})
                for n in range(10, 21)]
    assert statuses[-1] == 429, statuses
    page.get_by_label("ZPL", exact=True).fill("^XA^FO20,20^A0N,40^FDLimited^FS^XZ")
    status = page.locator("#editor-status")
    status.filter(has_text="Rate limited (429)").wait_for()
    assert re.search(r"Retry-After [\d.]+ s", status.inner_text())
    rate_state = page.locator("#rate-state")
    assert re.search(r"Rate limited: 10 requests a minute used up\. Retry-After \d+ s",
                     rate_state.inner_text())
    assert_accessible(page)
    # Once Retry-After has passed, the latest text renders without another keystroke.
    status.filter(has_text="Rendered").wait_for(timeout=30_000)
    page.locator("#editor-preview img").wait_for()
    assert "Rate limited" not in rate_state.inner_text()


def test_typing_a_line_at_normal_speed_costs_at_most_three_renders(
        page: Any, service: Service) -> None:
    """40 characters at about 60 words a minute (200 ms a key) on a Sandbox key."""
    sign_in(page, service.tenant_key("sandbox", "studio-typist"))
    sent = render_requests(page)
    editor = page.get_by_label("ZPL", exact=True)
    line = "^XA^FO50,50^A0N,40^FDTyped slowly^FS^XZ!"
    assert len(line) == 40
    editor.press_sequentially(line, delay=200)
    page.locator("#editor-status").filter(has_text=re.compile("Rendered|Not rendered")).wait_for()
    page.wait_for_timeout(2000)
    assert 1 <= len(sent) <= 3, sent
    assert "Rate limited" not in page.locator("#rate-state").inner_text()


# -- synthesis, review, commit, render -------------------------------------------------

def review_the_carrier(page: Any, key: str) -> Any:
    """Signed in with ``key``, the carrier label synthesized: its field boxes on
    the review preview, drawn once the preview image has loaded."""
    sign_in(page, key)
    page.get_by_role("button", name="Synthesize and review").click()
    page.get_by_label("Legacy ZPL").fill(CARRIER.read_text(encoding="utf-8"))
    page.get_by_role("button", name="Synthesize", exact=True).click()
    page.locator("#review-status").filter(has_text="field boxes outlined").wait_for()
    boxes = page.locator("#review-preview .box")
    boxes.first.wait_for()
    return boxes


def test_synthesize_review_rename_commit_and_render(page: Any, service: Service,
                                                   pro_key: str, shots: Path) -> None:
    boxes = review_the_carrier(page, pro_key)
    assert boxes.count() >= 3
    assert re.fullmatch(r"\d\.\d\d of 1", page.locator("#confidence").inner_text())
    assert "round trip" in page.locator("#components").inner_text()
    name = page.get_by_role("textbox", name=re.compile("^Name of field")).and_(
        page.locator("[value=ship_to_name]"))
    fn = name.get_attribute("data-fn")
    name.fill("consignee")
    name.press("Tab")  # to its sample: the field's box stands out
    tag = page.locator(f"#review-preview .box[data-fn='{fn}'] span").first
    assert tag.inner_text() == f"consignee · ^FN{fn} · TEST RECEIVER"
    assert page.locator(f"#review-preview .box.active[data-fn='{fn}']").count() >= 1
    assert_fits(page, WIDE["width"])
    page.get_by_label("Commit as template id").fill("studio_ups")
    page.screenshot(path=shots / "review.png", full_page=True)
    assert_accessible(page)
    page.get_by_role("button", name="Commit", exact=True).click()
    page.locator("#commit-status").filter(has_text="Committed studio_ups version 1").wait_for()
    assert "consignee" in page.locator("#commit-status").inner_text()
    # (the renamed field is gone; the receiver's second name line is another field)
    assert not re.search(r"\bship_to_name\b", page.locator("#commit-status").inner_text())
    page.locator("#history li").first.wait_for()
    assert page.locator("#history li").first.inner_text() == "version 1 (latest)"
    page.get_by_role("textbox", name=re.compile("^Sample value of field")).and_(
        page.locator("[value='20 FEB 2024']")).fill("21 FEB 2024")
    page.get_by_role("button", name="Commit", exact=True).click()
    page.locator("#commit-status").filter(has_text="Committed studio_ups version 2").wait_for()
    page.locator("#history li").filter(has_text="version 2 (latest)").wait_for()
    assert page.locator("#history li").all_inner_texts()[:2] == ["version 2 (latest)",
                                                                 "version 1"]

    service.admin("template", "apply", "-f", str(ROOT / "examples" / "label-template.yaml"))
    page.get_by_role("button", name="Templates and render").click()
    page.locator("#template-rows tr").nth(1).wait_for()
    listed = [row.split("\t")[:2] for row in page.locator("#template-rows tr").all_inner_texts()]
    assert ["studio_ups", "tenant"] in listed and ["carrier-std", "global"] in listed
    page.get_by_role("button", name="Use template studio_ups").click()
    page.get_by_label("Version", exact=True).select_option("1")
    assert page.get_by_label("consignee", exact=True).input_value() != ""
    page.get_by_label("consignee", exact=True).fill("GRACE HOPPER")
    page.get_by_role("button", name="Render from data").click()
    page.locator("#render-status").filter(has_text="Rendered studio_ups version 1").wait_for()
    page.locator("#render-preview img").wait_for()
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#render-hash").inner_text())
    assert page.locator("#render-cached").inner_text() == "false"
    page.wait_for_function("() => document.querySelector('#render-preview img').naturalWidth > 0")
    page.screenshot(path=shots / "render.png", full_page=True)
    assert_accessible(page)
    page.get_by_role("button", name="Render from data").click()
    page.locator("#render-cached").filter(has_text="true").wait_for()


def test_field_boxes_show_each_fields_confidence(page: Any, pro_key: str) -> None:
    boxes = review_the_carrier(page, pro_key)
    figures = page.locator("#review-preview .box .conf")
    assert figures.count() == boxes.count() >= 3
    unsure_seen = sure_seen = False
    for i in range(boxes.count()):
        box = boxes.nth(i)
        confidence = float(box.get_attribute("data-confidence") or "nan")
        assert re.fullmatch(r"[01]\.\d\d", box.locator(".conf").inner_text())
        unsure = "unsure" in (box.get_attribute("class") or "")
        assert unsure is (confidence < 0.7)
        unsure_seen, sure_seen = unsure_seen or unsure, sure_seen or not unsure
    assert sure_seen
    # The dashed boxes are the fields the warnings list as names to review.
    review = [w for w in page.locator("#synth-warnings li").all_inner_texts()
              if w.startswith("names to review: ")]
    assert bool(review) is unsure_seen
    assert_accessible(page)


def test_a_draft_with_nothing_variable_is_flagged_low_confidence(page: Any,
                                                                 pro_key: str) -> None:
    sign_in(page, pro_key)
    page.get_by_role("button", name="Synthesize and review").click()
    page.get_by_label("Legacy ZPL").fill("^XA^FO20,20^GB200,100,4^FS^XZ")
    page.get_by_role("button", name="Synthesize", exact=True).click()
    page.locator("#review").wait_for(state="visible")
    flag = page.locator("#low-confidence")
    flag.wait_for(state="visible")
    assert flag.inner_text() == "Low confidence: check every field"
    assert float(page.locator("#confidence").inner_text().split()[0]) < 0.7
    assert page.locator("#synth-warnings li").count() >= 1
    assert_accessible(page)


# -- layout and keyboard ---------------------------------------------------------------

@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["1280px", "390px"])
def test_every_section_fits_the_window(browser: Any, service: Service, pro_key: str,
                                       viewport: dict[str, int], shots: Path) -> None:
    context = browser.new_context(viewport=viewport, base_url=service.base)
    page = context.new_page()
    try:
        sign_in(page, pro_key)
        page.get_by_label("ZPL", exact=True).fill("^XA^FO20,20^A0N,40^FDNarrow^FS^XZ")
        page.locator("#editor-preview img").wait_for()
        assert_fits(page, viewport["width"])
        for tab in ("Synthesize and review", "Templates and render"):
            page.get_by_role("button", name=tab).click()
            assert_fits(page, viewport["width"])
        page.get_by_role("button", name="Synthesize and review").click()
        page.get_by_label("Legacy ZPL").fill(CARRIER.read_text(encoding="utf-8"))
        page.get_by_role("button", name="Synthesize", exact=True).click()
        page.locator("#review-status").filter(has_text="field boxes outlined").wait_for()
        assert_fits(page, viewport["width"])
        if viewport is NARROW:
            page.screenshot(path=shots / "review-390px.png", full_page=True)
            page.get_by_role("button", name="Editor").click()
            page.screenshot(path=shots / "editor-390px.png", full_page=True)
    finally:
        context.close()


def test_the_keyboard_reaches_sign_in_with_a_visible_focus(page: Any,
                                                          service: Service) -> None:
    page.goto("/studio")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => [document.activeElement.id,"
                            " getComputedStyle(document.activeElement).outlineStyle]")
    assert focused == ["api-key", "solid"]
    page.keyboard.type(service.demo_key)
    page.keyboard.press("Enter")
    page.locator("#app").wait_for(state="visible")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.tagName") != "BODY"


# -- images dropped on the editor ---------------------------------------------------

def drop_file(page: Any, data: bytes, name: str, mime: str) -> None:
    """What a browser does when a file is dropped on the ZPL editor."""
    page.evaluate("""([b64, name, mime]) => {
        const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, {type: mime}));
        document.querySelector('#zpl').dispatchEvent(new DragEvent('drop',
            {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }""", [base64.b64encode(data).decode(), name, mime])


@pytest.mark.parametrize(("before", "origin"), [
    ("^XA^FO50,60", ""),  # after the user's own ^FO: the field alone
    ("^XA", "^FO0,0"),
])
def test_an_image_dropped_on_the_editor_is_inserted_at_the_cursor(
        page: Any, pro_key: str, before: str, origin: str) -> None:
    sign_in(page, pro_key)
    editor = page.get_by_label("ZPL", exact=True)
    editor.fill(before + "^XZ")
    page.evaluate(f"() => document.querySelector('#zpl').setSelectionRange({len(before)}, "
                  f"{len(before)})")
    drop_file(page, encoded(logo(), "PNG"), "logo.png", "image/png")
    page.locator("#editor-status").filter(has_text="Inserted logo.png: 203 x 101 dots").wait_for()
    text = editor.input_value()
    assert text.startswith(before + origin + "^GFA,") and ":Z64:" in text
    assert text.endswith("^FS^XZ")
    page.locator("#editor-status").filter(has_text="Rendered").wait_for()


def test_a_bomb_dropped_on_the_editor_is_refused_in_one_line(page: Any, pro_key: str) -> None:
    sign_in(page, pro_key)
    page.get_by_label("ZPL", exact=True).fill("^XA^XZ")
    drop_file(page, png_declaring(100_000, 100_000), "bomb.png", "image/png")
    page.locator("#editor-status").filter(has_text="bomb.png not converted").wait_for()
    assert "ImageTooManyPixels" in page.locator("#editor-status").inner_text()
    assert page.get_by_label("ZPL", exact=True).input_value() == "^XA^XZ"


def test_a_csv_batch_shows_progress_row_errors_and_its_pdf(page: Any, service: Service,
                                                           pro_key: str) -> None:
    body = json.dumps({"body": "^XA^PW400^LL200^FO20,20^A0N,40,40^FN1^FS"
                               "^FO20,100^A0N,30,30^FN2^FS^XZ",
                       "field_map": {"name": 1, "city": 2}}).encode()
    commit = urllib.request.Request(
        service.base + "/v1/templates/studio_batch", data=body, method="POST",
        headers={"Authorization": f"Bearer {pro_key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(commit, timeout=60) as response:
        assert response.status == 201
    sign_in(page, pro_key)
    page.get_by_role("button", name="Batch", exact=True).click()
    page.get_by_label("Template", exact=True).select_option("studio_batch")
    rows = b"name,city\nAda,Oslo\nAlan\nGrace,Lima\n"  # row 2 lacks its city
    page.get_by_label(re.compile("^CSV file")).set_input_files(
        {"name": "wave.csv", "mimeType": "text/csv", "buffer": rows})
    page.get_by_role("button", name="Start batch").click()
    page.get_by_role("link", name="Download PDF").wait_for()
    assert "completed, 3 of 3 rows" in page.locator("#batch-status").inner_text()
    assert page.locator("#batch-errors li").all_inner_texts() == [
        "Row 2: MissingField (city): missing values for fields: city"]
    with urllib.request.urlopen(page.get_by_role("link", name="Download PDF")
                                .get_attribute("href"), timeout=30) as response:
        assert response.read().startswith(b"%PDF")
    assert_fits(page, WIDE["width"])
    assert_accessible(page)
