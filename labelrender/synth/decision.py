"""A decision about one field: variable or static, its value, name and certainty."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .source import SourceField, printed_bytes, sample_value


@dataclass
class Decision:
    source: SourceField
    text: str  # the printed text (decoded), stripped
    variable: bool = False
    prefix_len: int = 0  # length of the raw static part kept in the body
    value: str | None = None
    certainty: float = 0.6
    reason: str = "words only"
    name: str | None = None
    name_certainty: float = 0.0


def printed(source: SourceField) -> str:
    value = sample_value(source, source.raw)
    return (value if value is not None else printed_bytes(source, source.raw)).strip()


def mark_variable(d: Decision, reason: str, certainty: float, prefix_len: int = 0,
                  name: tuple[str, float] | None = None) -> None:
    """Mark ``d`` variable if its value after the static part is readable text."""
    value = sample_value(d.source, d.source.raw[prefix_len:])
    joined = printed_bytes(d.source, d.source.raw[:prefix_len]) + printed_bytes(
        d.source, d.source.raw[prefix_len:])
    if value is None or not value.strip() or joined != printed_bytes(d.source, d.source.raw):
        return
    d.variable, d.prefix_len, d.value = True, prefix_len, value
    d.reason, d.certainty = reason, certainty
    if name is not None:
        d.name, d.name_certainty = name


def leading_spaces(d: Decision) -> int:
    """Leading spaces of the field's data: layout (a right-aligned ^FB column), not value."""
    return len(d.source.raw) - len(d.source.raw.lstrip(" "))


def rename_shaped_codes(decisions: list[Decision], guesses: Collection[str], name: str) -> None:
    """A barcode, and its printed form, that only its shape named one of ``guesses``
    takes ``name``."""
    for d in decisions:
        if d.variable and d.name in guesses and d.name_certainty < 0.85 \
                and d.reason in ("barcode data", "printed form of barcode data"):
            d.name, d.name_certainty = name, 0.6
