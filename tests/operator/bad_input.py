"""The bad-input table: each spec change, what the CRD schema says of it, and the
status the operator gives it (the API server refuses what the schema refuses;
the operator checks the same rules again, so each row also gets a condition).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import yaml

from tests.operator.crds import EXAMPLES_DIR

NOT_ZPL = "Dear carrier, please print ^FN1, ^FN2, ^FN3 and ^FN4 on a shipping label."


@dataclass(frozen=True)
class BadInput:
    """``change`` is merged into the example's spec (None removes a field)."""

    id: str
    kind: str
    change: dict[str, Any]
    schema_refuses: str | None  # the path the schema names, None: the schema lets it in
    reason: str  # the Ready condition's reason
    message: str  # a part of the condition's message

    def object(self, name: str) -> dict[str, Any]:
        """The example of this kind named ``name``, with the bad change."""
        obj = example(self.kind)
        obj["metadata"]["name"] = name
        for key, value in self.change.items():
            if value is None:
                obj["spec"].pop(key, None)
            else:
                obj["spec"][key] = value
        return obj


def example(kind: str) -> dict[str, Any]:
    path = {"LabelTemplate": "label-template.yaml", "Plan": "plan.yaml"}[kind]
    doc: dict[str, Any] = yaml.safe_load((EXAMPLES_DIR / path).read_text())
    return copy.deepcopy(doc)


def _field_map(**extra: Any) -> dict[str, Any]:
    return {**example("LabelTemplate")["spec"]["fieldMap"], **extra}


def _huge_font() -> str:
    """The example with a font height over the engine's cap (an error with its
    command and byte offset)."""
    body: str = example("LabelTemplate")["spec"]["body"]
    return body.replace("^A0N,50,50", "^A0N,9999,9999")


ROWS = [
    BadInput("missing-body", "LabelTemplate", {"body": None}, "spec",
             "InvalidSpec", "spec.body is required"),
    BadInput("dpi-zero", "LabelTemplate", {"sourceDpi": 0}, "spec.sourceDpi",
             "InvalidSpec", "spec.sourceDpi: Input should be greater than or equal to 1"),
    BadInput("dpi-5000", "LabelTemplate", {"sourceDpi": 5000}, "spec.sourceDpi",
             "InvalidSpec", "spec.sourceDpi: Input should be less than or equal to 1200"),
    BadInput("field-map-not-integer", "LabelTemplate",
             {"fieldMap": _field_map(reference="three")}, "spec.fieldMap.reference",
             "InvalidSpec", "spec.fieldMap.reference: Input should be a valid integer"),
    BadInput("unknown-field", "LabelTemplate", {"colour": "red"}, "spec",
             "InvalidSpec", "spec.colour is not a field of this resource"),
    BadInput("body-over-cap", "LabelTemplate",
             {"body": "^XA^FO30,60^A0N,50,50^FN1^FS^FX" + "x" * 1024 * 1024 + "^XZ"},
             "spec.body", "InvalidSpec", "spec.body: String should have at most 1048576"),
    BadInput("not-zpl", "LabelTemplate", {"body": NOT_ZPL}, None,
             "InvalidTemplate", "spec.body: the body does not render: no label format"),
    BadInput("field-map-names-missing-fn", "LabelTemplate",
             {"fieldMap": _field_map(weight=5)}, None,
             "InvalidTemplate", "spec.fieldMap: field_map does not match the body: ^FN5 is not"),
    BadInput("zpl-over-engine-limit", "LabelTemplate", {"body": _huge_font()}, None,
             "InvalidTemplate", "does not render: ^A at byte "),
    BadInput("plan-negative-rate", "Plan", {"requestsPerMinute": -5}, "spec.requestsPerMinute",
             "InvalidSpec", "spec.requestsPerMinute: Input should be greater than or equal to 1"),
    BadInput("plan-negative-labels", "Plan", {"labelsPerMonth": -1}, "spec.labelsPerMonth",
             "InvalidSpec", "spec.labelsPerMonth: Input should be greater than or equal to 0"),
    BadInput("plan-negative-price", "Plan", {"monthlyPrice": "-49"}, "spec.monthlyPrice",
             "InvalidSpec", "spec.monthlyPrice: String should match pattern"),
    BadInput("plan-missing-limit", "Plan", {"activeKeys": None}, "spec",
             "InvalidSpec", "spec.activeKeys is required"),
]
