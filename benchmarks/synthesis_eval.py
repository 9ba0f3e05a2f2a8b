"""How well synthesis finds variable data, against a hand-labelled answer key.

    python benchmarks/synthesis_eval.py [--corpus DIR] [--misses]

For every label in ``benchmarks/synthesis_answers.json`` it synthesizes a draft
and compares, field by field, what got a ``^FN`` placeholder with the key:
precision and recall of variable-field detection. For every carrier label in the
corpus it also checks the round trip: the body filled with the draft's sample
values must render pixel for pixel like the input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from labelrender.synth.engine import SynthesisRequest, SynthesisResult, make_engine
from labelrender.synth.fill import fill_body
from labelrender.zpl import render
from labelrender.zpl.lexer import Lexer

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = Path(__file__).with_name("synthesis_answers.json")
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "labelary" / "carriers"


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.tp, self.fp = self.tp + other.tp, self.fp + other.fp
        self.fn, self.tn = self.fn + other.fn, self.tn + other.tn

    @property
    def precision(self) -> float:
        return self.tp / max(1, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return self.tp / max(1, self.tp + self.fn)


def _field_data(zpl: str) -> list[tuple[str | None, bool]]:
    """Each field of the first printing label: its ^FD data (None if none) and
    whether it has a ^FN placeholder, in order."""
    fields: list[tuple[str | None, bool]] = []
    data: str | None = None
    placeholder = printing = False
    for command in Lexer(zpl.encode("utf-8")):
        if command.name in ("FD", "FV"):
            data = command.params
        elif command.name == "FN":
            placeholder = True
        elif command.name == "FS":
            fields.append((data, placeholder))
            data, placeholder, printing = None, False, True
        elif command.name == "XZ" and printing:
            break
    return fields


def _printed(data: str | None) -> str:
    """Field data as the key spells it: ^FH escapes of the corpus resolved."""
    if data is None:
        return ""
    text = data
    for code in ("_1E", "_1D", "_04", "_1C", "_C2_AE"):
        text = text.replace(code, {"_C2_AE": "\u00ae"}.get(code, chr(int(code[1:], 16))))
    return text.replace("_AE", "\u00ae").strip()


def _is_variable(text: str, key: list[str]) -> bool:
    return any(text == entry or (entry.endswith("...") and text.startswith(entry[:-3]))
               for entry in key)


def score_label(zpl: str, result: SynthesisResult, key: list[str]) -> Score:
    score = Score()
    source, body = _field_data(zpl), _field_data(result.draft.body)
    if len(source) != len(body):
        raise SystemExit(f"body has {len(body)} fields, input {len(source)}")
    for (data, _), (_, placeholder) in zip(source, body, strict=True):
        text = _printed(data)
        if not text:
            continue
        truth = _is_variable(text, key)
        score.tp += truth and placeholder
        score.fp += placeholder and not truth
        score.fn += truth and not placeholder
        score.tn += not truth and not placeholder
        if truth != placeholder:
            score.misses.append(("missed " if truth else "extra  ") + repr(text[:60]))
    return score


def round_trips(zpl: str, result: SynthesisResult) -> bool:
    draft = result.draft
    filled = fill_body(draft.body, draft.field_map, draft.values)
    return render(filled).png == render(zpl).png


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--misses", action="store_true", help="list wrong fields")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    answers = json.loads(ANSWERS.read_text(encoding="utf-8"))
    key, held_out = answers["labels"], answers.get("held_out", {})
    engine = make_engine("heuristic")
    total, identical, labels, started = Score(), 0, sorted(args.corpus.glob("*.zpl")), time.time()
    fresh = Score()
    scores: list[float] = []
    print(f"{'label':22} {'prec':>5} {'rec':>5} {'fields':>6} {'score':>5} round-trip")
    for path in labels:
        zpl = path.read_text(encoding="utf-8")
        result = engine.synthesize(SynthesisRequest(zpl))
        same = round_trips(zpl, result)
        identical += same
        scores.append(result.confidence_score)
        if path.stem not in key and path.stem not in held_out:
            continue
        score = score_label(zpl, result, key.get(path.stem) or held_out[path.stem])
        (total if path.stem in key else fresh).add(score)
        marker = "" if path.stem in key else " (held out)"
        print(f"{path.stem + marker:22} {score.precision:5.2f} {score.recall:5.2f} "
              f"{len(result.draft.field_map):6d} {result.confidence_score:5.2f} "
              f"{'identical' if same else 'DIFFERENT'}")
        if args.misses:
            for miss in score.misses:
                print("    " + miss)
    print(f"\nanswer key: {len(key)} labels, {total.tp + total.fn} variable and "
          f"{total.fp + total.tn} static fields")
    print(f"variable-field detection: precision {total.precision:.3f}, "
          f"recall {total.recall:.3f} (tp {total.tp}, fp {total.fp}, fn {total.fn})")
    if held_out:
        print(f"held-out labels ({len(held_out)}, never used to change the rules): "
              f"precision {fresh.precision:.3f}, recall {fresh.recall:.3f} "
              f"(tp {fresh.tp}, fp {fresh.fp}, fn {fresh.fn})")
    print(f"round trip: {identical}/{len(labels)} carrier labels render identically")
    print(f"mean confidence {sum(scores) / max(1, len(scores)):.3f}; "
          f"{time.time() - started:.1f} s for {len(labels)} labels")
    return 0 if identical == len(labels) else 1


if __name__ == "__main__":
    sys.exit(main())
