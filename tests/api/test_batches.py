"""Batch renders end to end: POST /v1/labels/batches, the driver, the PDF, GET
(real HTTP, Redis, the render consumer)."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import subprocess
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest
import redis
import zxingcpp
from PIL import Image

from labelrender.store import consume, get_plan, keys
from labelrender.store.events import BATCH_COMPLETED, LabelRendered
from labelrender.store.objects import FilesystemStore
from labelrender.worker.retention import RetentionSweeper
from tests.api.conftest import Api, Caller, RenderConsumer
from tests.api.test_labels import labels_used
from tests.api.test_templates import call
from tests.fixtures.ocr import needs_tesseract, ocr_text, words

BODY = ("^XA^PW600^LL300^FO20,20^A0N,40,40^FN1^FS^FO20,80^A0N,40,40^FN2^FS"
        "^FO20,150^BY2^BCN,80,N,N,N^FN3^FS^XZ")
DRAFT = {"body": BODY, "field_map": {"name": 1, "city": 2, "code": 3},
         "values": {"name": "Ada", "city": "Oslo", "code": "C0001"}, "name": "Shipping",
         "width_dots": 600, "height_dots": 300, "source_dpi": 203}
CITIES = ("OSLO", "LIMA", "ROME", "BERN", "KIEV", "BAKU")
PDFTOPPM = shutil.which("pdftoppm")
WAIT_S = 120.0  # a guard against a batch that never finishes, not a speed check


def row(n: int) -> dict[str, str]:
    return {"name": f"ROW{n}", "city": CITIES[n % len(CITIES)], "code": f"C{n:05d}"}


def csv_of(rows: list[dict[str, str]]) -> bytes:
    lines = ["name,city,code"] + [f"{r['name']},{r['city']},{r['code']}" for r in rows]
    return ("\n".join(lines) + "\n").encode()


async def commit(api: Api, caller: Caller, template_id: str = "tpl_batch") -> None:
    status, payload = await call(api, caller, "POST", f"/v1/templates/{template_id}", DRAFT)
    assert status == 201, payload


async def post_batch(api: Api, caller: Caller, *, body: Any = None, csv: bytes | None = None,
                     query: str = "template_id=tpl_batch", headers: dict[str, str] | None = None
                     ) -> tuple[int, dict[str, Any]]:
    if csv is not None:
        url, data, kind = api.url(f"/v1/labels/batches?{query}"), csv, "text/csv"
    else:
        url, data, kind = api.url("/v1/labels/batches"), json.dumps(body).encode(), \
            "application/json"
    all_headers = {**caller.headers, "Content-Type": kind, **(headers or {})}
    async with api.session.post(url, data=data, headers=all_headers) as resp:
        return resp.status, await resp.json()


async def get_batch(api: Api, caller: Caller, batch_id: str) -> tuple[int, dict[str, Any]]:
    async with api.session.get(api.url(f"/v1/labels/batches/{batch_id}"),
                               headers=caller.headers) as resp:
        return resp.status, await resp.json()


async def finished(api: Api, caller: Caller, batch_id: str) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while True:
        status, body = await get_batch(api, caller, batch_id)
        assert status == 200, body
        if body["state"] == "completed":
            return body
        assert asyncio.get_running_loop().time() < deadline, body
        await asyncio.sleep(0.1)


async def download(api: Api, url: str) -> bytes:
    async with api.session.get(url) as resp:
        assert resp.status == 200, await resp.text()
        return await resp.read()


def pdf_pages(pdf: bytes, tmp_path: Path, pages: list[int]) -> list[bytes]:
    """PNGs of the PDF's 1-based ``pages`` at 203 dpi (pdftoppm)."""
    assert PDFTOPPM is not None
    source = tmp_path / "batch.pdf"
    source.write_bytes(pdf)
    out = []
    for page in pages:
        prefix = tmp_path / f"page{page}"
        subprocess.run([PDFTOPPM, "-png", "-r", "203", "-f", str(page), "-l", str(page),
                        "-singlefile", str(source), str(prefix)], check=True, timeout=60)
        out.append(prefix.with_suffix(".png").read_bytes())
    return out


def barcode_of(png: bytes) -> str:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert found, "no barcode on the page"
    return str(found[0].text)


def page_count(pdf: bytes) -> int:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return len(document.pages)


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) is not installed")
@needs_tesseract
async def test_csv_batch_pdf_in_row_order_then_repeat_is_cached_and_free(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, tmp_path: Path,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    rows = [row(n) for n in range(1, 25)]
    status, created = await post_batch(api, caller, csv=csv_of(rows), query="template_id="
                                       "tpl_batch&zip=true")
    assert status == 202, created
    assert created["state"] == "queued" and created["rows"] == 24
    done = await finished(api, caller, created["batch_id"])
    assert done["counts"] == {"done": 24, "rendered": 24, "cached": 0, "failed": 0,
                              "pending": 0}
    assert done["progress"] == 1 and done["errors"] == []
    assert labels_used(redis_db, caller) == 24
    pdf = await download(api, done["pdf_url"])
    assert page_count(pdf) == 24
    sampled = [1, 2, 7, 13, 24]
    pages = pdf_pages(pdf, tmp_path, sampled)
    for number, png in zip(sampled, pages, strict=True):
        expected = rows[number - 1]
        assert barcode_of(png) == expected["code"]
    for number, png in zip(sampled[:2], pages[:2], strict=True):
        assert {rows[number - 1]["name"], rows[number - 1]["city"]} <= words(ocr_text(png))
    with zipfile.ZipFile(io.BytesIO(await download(api, done["zip_url"]))) as archive:
        names = archive.namelist()
        assert names == [f"row-{n:05d}.png" for n in range(1, 25)]
        assert barcode_of(archive.read("row-00005.png")) == rows[4]["code"]

    status, again = await post_batch(api, caller, csv=csv_of(rows))
    assert status == 202, again
    repeat = await finished(api, caller, again["batch_id"])
    assert repeat["counts"]["cached"] == 24 and repeat["counts"]["rendered"] == 0
    assert labels_used(redis_db, caller) == 24  # nothing billed the second time
    assert page_count(await download(api, repeat["pdf_url"])) == 24
    # The same labels on the same rows: the same stored PDF, not built again.
    assert repeat["pdf_url"].split("?")[0] == done["pdf_url"].split("?")[0]


async def test_bad_rows_fail_alone(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    bad = {4, 11, 20, 33, 50}
    rows: list[dict[str, Any]] = []
    for n in range(1, 51):
        values: dict[str, Any] = row(n)
        if n == 4:
            del values["city"]  # missing
        elif n == 11:
            values["colour"] = "red"  # not a field of the template
        elif n == 20:
            values["code"] = 20  # not a string
        elif n in (33, 50):
            del values["name"]
        rows.append(values)
    status, created = await post_batch(api, caller, body={"template_id": "tpl_batch",
                                                          "rows": rows})
    assert status == 202, created
    done = await finished(api, caller, created["batch_id"])
    assert done["counts"]["done"] == 45 and done["counts"]["failed"] == 5
    assert [(e["row"], e["kind"], e["field"]) for e in done["errors"]] == [
        (4, "MissingField", "city"), (11, "UnknownField", "colour"),
        (20, "InvalidField", "code"), (33, "MissingField", "name"),
        (50, "MissingField", "name")]
    assert sorted(e["row"] for e in done["errors"]) == sorted(bad)
    assert labels_used(redis_db, caller) == 45
    assert page_count(await download(api, done["pdf_url"])) == 45


async def test_short_csv_rows_fail_with_the_missing_field(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    data = b"name,city,code\nANN,OSLO,C1\nBOB,LIMA\nCY,ROME,C3,extra\n"
    status, created = await post_batch(api, caller, csv=data)
    assert status == 202, created
    done = await finished(api, caller, created["batch_id"])
    assert [(e["row"], e["kind"], e["field"]) for e in done["errors"]] == [
        (2, "MissingField", "code"), (3, "UnknownField", "column 4")]
    assert done["counts"]["done"] == 1


@pytest.mark.parametrize(("kind", "data", "query", "status", "error_kind"), [
    ("csv", b"", "template_id=tpl_batch", 400, "InvalidCsv"),
    ("csv", b"name,,code\nA,B,C\n", "template_id=tpl_batch", 400, "InvalidCsv"),
    ("csv", b"name,city,code\n", "template_id=tpl_batch", 422, "MissingRows"),
    ("csv", b"name,city,code\n\xff\xfe,x,y\n", "template_id=tpl_batch", 400, "InvalidCsv"),
    ("csv", b'name,city,code\n"unterminated,x,y\n', "template_id=tpl_batch", 400,
     "InvalidCsv"),
    ("csv", b"name,city\nA,B\n", "template_id=tpl_batch", 422, "MissingField"),
    ("csv", b"name,city,code,zone\nA,B,C,D\n", "template_id=tpl_batch", 422, "UnknownField"),
    ("csv", b"name,city,code\nA,B,C\n", "template_id=tpl_nope", 404, "TemplateNotFound"),
    ("csv", b"name,city,code\nA,B,C\n", "template_id=tpl_batch&template_version=9", 404,
     "TemplateNotFound"),
    ("csv", b"name,city,code\nA,B,C\n", "", 422, "MissingTemplateId"),
    ("csv", b"name,city,code\nA,B,C\n", "template_id=tpl_batch&target_dpi=5000", 400,
     "InvalidDpi"),
    ("csv", b"name,city,code\nA,B,C\n", "template_id=tpl_batch&colour=red", 400,
     "UnknownField"),
    ("csv", b"name,city,code\n" + b"A,B,C\n" * 10_001, "template_id=tpl_batch", 413,
     "TooManyRows"),
    ("json", {"template_id": "tpl_batch", "rows": [row(1)] * 10_001}, "", 413, "TooManyRows"),
    ("json", {"template_id": "tpl_batch", "rows": []}, "", 422, "MissingRows"),
    ("json", {"template_id": "tpl_batch", "rows": ["A,B,C"]}, "", 422, "InvalidRows"),
    ("json", {"template_id": "tpl_batch", "rows": "A,B,C"}, "", 422, "InvalidRows"),
    ("json", {"rows": [row(1)]}, "", 422, "MissingTemplateId"),
    ("json", {"template_id": "tpl_batch", "rows": [row(1)], "zip": "yes"}, "", 422,
     "InvalidZip"),
])
async def test_creation_errors(api: Api, make_caller: Callable[..., Caller], kind: str,
                               data: Any, query: str, status: int, error_kind: str) -> None:
    caller = make_caller()
    await commit(api, caller)
    if kind == "csv":
        got, body = await post_batch(api, caller, csv=data, query=query)
    else:
        got, body = await post_batch(api, caller, body=data)
    assert (got, body["error"]["kind"]) == (status, error_kind), body


async def test_other_requests_refused(api: Api, make_caller: Callable[..., Caller]) -> None:
    caller, other = make_caller(), make_caller()
    await commit(api, caller)
    async with api.session.post(api.url("/v1/labels/batches?template_id=tpl_batch"),
                                data=b"name,city,code\nA,B,C\n", headers=caller.headers) as resp:
        assert resp.status == 202  # what curl --data-binary sends is read as CSV
    status, created = await post_batch(api, caller, body={"template_id": "tpl_batch",
                                                          "rows": [row(1)]})
    assert status == 202
    assert (await get_batch(api, other, created["batch_id"]))[0] == 404
    for batch_id in ("bat_" + "a" * 26, "nope"):
        status, body = await get_batch(api, caller, batch_id)
        assert (status, body["error"]["kind"]) == (404, "BatchNotFound")
    status, body = await post_batch(api, caller, body={"template_id": "tpl_batch",
                                                       "rows": [row(1)]},
                                    headers={"X-Page-Size": "Tabloid"})
    assert (status, body["error"]["kind"]) == (400, "InvalidPageSize")


async def test_idempotency_key_gives_the_same_batch(
    api: Api, make_caller: Callable[..., Caller], redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    body = {"template_id": "tpl_batch", "rows": [row(1), row(2)]}
    headers = {"Idempotency-Key": "wave-1"}
    first = await post_batch(api, caller, body=body, headers=headers)
    second = await post_batch(api, caller, body=body, headers=headers)
    assert first[0] == second[0] == 202
    assert first[1]["batch_id"] == second[1]["batch_id"]
    assert len(list(redis_db.scan_iter(keys.batch(caller.tenant_id, "*") + ":rows"))) == 1


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) is not installed")
async def test_sheets_follow_the_page_headers(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    status, created = await post_batch(
        api, caller, body={"template_id": "tpl_batch", "rows": [row(n) for n in range(1, 8)]},
        headers={"X-Page-Size": "A4", "X-Page-Layout": "2x3"})
    assert status == 202, created
    done = await finished(api, caller, created["batch_id"])
    with pikepdf.open(io.BytesIO(await download(api, done["pdf_url"]))) as document:
        assert len(document.pages) == 2  # 6 labels on the first sheet, 1 on the second
        box = [float(v) for v in document.pages[0].MediaBox]
        assert round(box[2]) == 595 and round(box[3]) == 842  # A4 in points


async def test_batch_completed_event_only_for_batches(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller()
    await commit(api, caller)
    status, created = await post_batch(api, caller, body={"template_id": "tpl_batch",
                                                          "rows": [row(1), row(2)]})
    assert status == 202
    await finished(api, caller, created["batch_id"])
    events = [LabelRendered.from_fields(fields)
              for _, fields in redis_db.xrange(keys.event_stream(keys.group(caller.tenant_id)))]
    mine = [event for event in events if event.tenant_id == caller.tenant_id]
    assert [event.topic for event in mine] == [BATCH_COMPLETED]  # rows emit no label.rendered
    assert mine[0].batch is not None and mine[0].batch["batch_id"] == created["batch_id"]
    assert mine[0].batch["done"] == 2


async def test_retention_purges_the_batch_files_with_the_labels(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis, object_store: FilesystemStore,
) -> None:
    caller = make_caller()  # Pro: 90 days
    await commit(api, caller)
    status, created = await post_batch(api, caller, body={
        "template_id": "tpl_batch", "rows": [row(1), row(2)], "zip": True})
    assert status == 202, created
    done = await finished(api, caller, created["batch_id"])
    later = time.time() + 91 * 86400
    assert RetentionSweeper(redis_db, object_store, clock=lambda: later).sweep_once() == 4
    for url in (done["pdf_url"], done["zip_url"]):
        async with api.session.get(url) as resp:
            assert resp.status == 404


async def test_quota_is_checked_per_row(
    api: Api, make_caller: Callable[..., Caller], render_worker: RenderConsumer,
    redis_db: redis.Redis,
) -> None:
    caller = make_caller("sandbox")  # 50 labels a month, no overages, 1 render in flight
    await commit(api, caller)
    consume(redis_db, caller.tenant_id, "labels", get_plan(redis_db, "sandbox"),
            overages=False, now=time.time(), count=47)
    status, created = await post_batch(api, caller, body={
        "template_id": "tpl_batch", "rows": [row(n) for n in range(1, 6)]})
    assert status == 202, created
    done = await finished(api, caller, created["batch_id"])
    assert done["counts"]["done"] == 3 and done["counts"]["failed"] == 2
    assert [(e["row"], e["kind"]) for e in done["errors"]] == [(4, "QuotaExceeded"),
                                                               (5, "QuotaExceeded")]
    assert labels_used(redis_db, caller, "sandbox") == 50
    assert page_count(await download(api, done["pdf_url"])) == 3
