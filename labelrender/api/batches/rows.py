"""A batch request's body: the options and the rows, from JSON or from CSV.

JSON: ``{"template_id": ..., "rows": [{field: value, ...}, ...], ...}``. CSV
(``Content-Type: text/csv``): a header row naming the fields, then one row per
label; the options are query parameters of the same names. Each row is
checked against the template when it renders, so a bad row is that row's
error, not the batch's; a CSV header that names a field the template does not
have, or misses one it has, would fail every row and is refused at once.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from labelrender.api import errors
from labelrender.api.body import parse_object
from labelrender.store.batches import MAX_ROWS


class BatchOptions(BaseModel):
    """What every row of the batch shares."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    template_id: str = Field(min_length=1, description="A committed tenant or global template")
    template_version: int | None = Field(default=None, ge=1,
                                         description="Default: the latest version, pinned "
                                                     "when the batch is accepted")
    target_dpi: int | None = Field(default=None, ge=1, le=1200,
                                   description="Default: the template's source DPI")
    threshold: bool = Field(False, description="true: hard black and white")
    zip: bool = Field(False, description="true: also a ZIP of the labels' PNGs")


class BatchBody(BatchOptions):
    """The JSON body: the options and the rows."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    rows: list[dict[str, Any]] = Field(
        json_schema_extra={"maxItems": MAX_ROWS,
                           "items": {"type": "object",
                                     "additionalProperties": {"type": "string"}}},
        description=f"1 to {MAX_ROWS} objects of field values, one label each, in order")


class BatchQuery(BaseModel):
    """The options of a CSV body, as query parameters (a JSON body carries them
    itself and takes no query parameters)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    template_id: str | None = Field(default=None, min_length=1,
                                    description="CSV bodies: required")
    template_version: int | None = Field(default=None, ge=1)
    target_dpi: int | None = Field(default=None, ge=1, le=1200)
    threshold: bool = False
    zip: bool = False


@dataclass(frozen=True)
class BatchRequest:
    options: BatchOptions
    rows: list[dict[str, Any]]
    csv_header: list[str] | None = None  # the CSV's field names, checked up front


def parse_json_batch(raw: bytes, query: dict[str, str]) -> BatchRequest:
    if query:
        name = sorted(query)[0]
        raise errors.UnknownField(f"unrecognized query parameter {name!r}: with a JSON body "
                                  "the options go in the body", param=name)
    payload = parse_object(raw)
    rows = payload.get("rows")
    if isinstance(rows, list):
        check_row_count(len(rows))
    try:
        body = BatchBody.model_validate(payload)
    except ValidationError as exc:
        raise _first_error(exc) from exc
    options = BatchOptions.model_validate(body.model_dump(exclude={"rows"}))
    return BatchRequest(options, [dict(row) for row in body.rows])


def parse_csv_batch(raw: bytes, query: dict[str, str]) -> BatchRequest:
    try:
        options = BatchOptions.model_validate(query)
    except ValidationError as exc:
        raise _first_error(exc) from exc
    header, rows = read_csv(raw)
    return BatchRequest(options, rows, header)


def read_csv(raw: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    """The header's field names and each data row as {name: value}. A short row
    lacks the last fields (their row fails with MissingField); a long row's
    extra values are named ``column N`` (UnknownField)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _invalid_csv(f"the CSV is not UTF-8 (byte {exc.start})") from exc
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        lines = [line for line in reader if line]
    except csv.Error as exc:
        raise _invalid_csv(f"the CSV cannot be read at line {reader.line_num}: {exc}") from exc
    if not lines:
        raise _invalid_csv("the CSV is empty: send a header row naming the fields, then rows")
    header = [name.strip() for name in lines[0]]
    if any(not name for name in header) or len(set(header)) != len(header):
        raise _invalid_csv("the CSV header must name each column once, none empty")
    check_row_count(len(lines) - 1)
    rows = []
    for values in lines[1:]:
        row = dict(zip(header, values, strict=False))
        row.update({f"column {n + 1}": value for n, value in enumerate(values)
                    if n >= len(header)})
        rows.append(row)
    return header, rows


def check_row_count(count: int) -> None:
    if count > MAX_ROWS:
        raise errors.PayloadTooLarge(f"a batch holds at most {MAX_ROWS} rows; got {count}",
                                     param="rows", kind="TooManyRows")
    if count == 0:
        raise errors.ValidationFailed("a batch needs at least one row", param="rows",
                                      kind="MissingRows")


def _invalid_csv(message: str) -> errors.ApiError:
    return errors.InvalidRequest(message, param="rows", kind="InvalidCsv")


_MESSAGES = {
    "template_id": ("MissingTemplateId", "template_id is required and must be a string"),
    "template_version": ("InvalidTemplateVersion", "template_version must be an integer >= 1"),
    "threshold": ("InvalidThreshold", "threshold must be true or false"),
    "zip": ("InvalidZip", "zip must be true or false"),
    "rows": ("InvalidRows", "rows must be a list of objects of field values"),
}


def _first_error(exc: ValidationError) -> errors.ApiError:
    detail = exc.errors()[0]
    name = str(detail["loc"][0]) if detail["loc"] else ""
    if detail["type"] == "extra_forbidden":
        return errors.UnknownField(f"unrecognized field {name!r}", param=name)
    if name == "target_dpi":
        return errors.InvalidDpi("target_dpi must be an integer from 1 to 1200", param=name)
    kind, message = _MESSAGES.get(name, ("ValidationFailed", detail["msg"]))
    return errors.ValidationFailed(message, param=name or None, kind=kind)
