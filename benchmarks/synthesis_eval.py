"""How well synthesis finds, names and rates variable data, against known truth.

    python benchmarks/synthesis_eval.py [--generated N] [--labels] [--misses] [--json OUT]

Three sets, each scored field by field (the hand-labelled ones also from labels written
for the evaluation, benchmarks/synthesis_labels):

- **dev** and **held-out**: real labels of the corpus, hand-labelled in
  ``synthesis_truth.json`` (every variable field and its meaning). The split is
  fixed by the label's name: a label is held out when the first byte of the
  SHA-256 of its name is odd. It was made before any rule was tuned; the held-out
  part is only ever scored, never read to change a rule.
- **generated**: N labels made from the development layouts with new data in
  many locales (``synthesis_generate.py``), truth known by construction.

Figures for each set: detection precision and recall; names right (strict: the
placeholder's name, less a ``_2``/``_part`` suffix, means exactly what the truth
says) among the fields found, and fields usable as they come (found and named
right) among all variable fields; merges (one placeholder for fields of
different meaning); a table by field kind; calibration (Pearson correlation of
the label's confidence with its accuracy, and how many labels with a wrong name
are flagged ``low_confidence``; how many wrongly named fields are listed for
review) and the p95 synthesis time.

Beside them, the names of independent annotators (``synthesis_agreement.json``: 180
development labels named again without the truth) judged the same way: how high a
careful annotator's names reach against this truth.

The legacy answer key (``synthesis_answers.json``, detection only, tuned on) and
the round trip (every carrier label's draft filled with its samples renders like
the input) are checked too.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from labelrender.synth.engine import (
    LOW_CONFIDENCE,
    SynthesisEngine,
    SynthesisRequest,
    SynthesisResult,
    make_engine,
)
from labelrender.synth.fill import fill_body
from labelrender.synth.source import printed_bytes, read_first_label, sample_value
from labelrender.zpl import render
from labelrender.zpl.lexer import Lexer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthesis_generate import generate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = Path(__file__).with_name("synthesis_answers.json")
TRUTH = Path(__file__).with_name("synthesis_truth.json")
# The same development labels named again by independent annotators who saw only the
# labels, the list of their variable fields and the naming convention (never the truth
# or synthesis): how often a careful person's name passes the judge below.
AGREEMENT = Path(__file__).with_name("synthesis_agreement.json")
# Labels written for the evaluation (``<name>.zpl``), each with its hand-made truth
# beside it (``<name>.truth.json``: ``{"about": ..., "fields": [...]}``); a truth file
# with a ``path`` labels a corpus label instead.
WRITTEN = Path(__file__).with_name("synthesis_labels")
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "labelary"
# Names that mean the same as a truth meaning, and British spellings of the words in
# names (both sides of a comparison are read through them).
ALIASES = {"postal_routing_code": "routing_code", "sort_code": "routing_code",
           "shipment_number": "tracking_number", "parcel_number": "tracking_number"}
SPELLINGS = {"centre": "center", "colour": "color", "ageing": "aging", "mould": "mold"}


def load_truth(corpus: Path, written_only: bool = False) -> dict[str, tuple[str, list[list[str]]]]:
    """Every hand-labelled label: name -> (its ZPL, its truth entries); with
    ``written_only``, only the labels written for the evaluation (no corpus needed)."""
    out: dict[str, tuple[str, list[list[str]]]] = {}
    corpus_labels = json.loads(TRUTH.read_text(encoding="utf-8"))["labels"]
    for name, entry in ({} if written_only else corpus_labels).items():
        out[name] = ((corpus / entry["path"]).read_text(encoding="utf-8"), entry["fields"])
    for path in sorted(WRITTEN.glob("*.truth.json")):
        entry = json.loads(path.read_text(encoding="utf-8"))
        name = path.name.removesuffix(".truth.json")
        if written_only and "path" in entry:
            continue
        zpl = (corpus / entry["path"] if "path" in entry else path.with_name(f"{name}.zpl"))
        out[name] = (zpl.read_text(encoding="utf-8"), entry["fields"])
    return out


# Labels written to be looked at while rules are tuned: always in the development part,
# so the held-out part stays the labels nobody tuned on.
PROBE_PREFIX = "dev_"


def held_out(name: str) -> bool:
    """The fixed split: held out when SHA-256(name)'s first byte is odd, except for
    the probe labels (named ``dev_*``), which are development labels by construction."""
    if name.startswith(PROBE_PREFIX):
        return False
    return hashlib.sha256(name.encode()).digest()[0] % 2 == 1


def meaning_of(name: str) -> str:
    """What a placeholder name says: ``ship_to_address_2`` -> ``ship_to_address``."""
    text = name.lower()
    while True:
        shorter = re.sub(r"_(?:\d+|part|text)$", "", text)
        if shorter == text:
            break
        text = shorter
    if text.endswith("_data") and text != "barcode_data":
        return "barcode_data"
    text = "_".join(SPELLINGS.get(word, word) for word in text.split("_"))
    return ALIASES.get(text, text)


def narrower(given: str, truth: str) -> bool:
    """One meaning is the other made more specific by words in front: ``ship_date``
    for ``date``, ``date`` for ``expiry_date`` (not ``expiry_date`` for
    ``manufacture_date``: they share a word, and neither holds the other)."""
    if not given or not truth or given == truth or given in ("text", "field"):
        return False
    return given.endswith("_" + truth) or truth.endswith("_" + given)


def kind_of(meaning: str) -> str:
    first = meaning.split("|")[0]
    return re.sub(r"^(?:ship_to|ship_from|mark_for)_", "party_", first)


def field_texts(zpl: str) -> list[tuple[str, int, int]]:
    """Each field of the first label: printed text, x and y."""
    label = read_first_label(zpl.encode("utf-8").decode("latin-1"))
    out = []
    for f in label.fields:
        value = sample_value(f, f.raw)
        out.append(((value if value is not None else printed_bytes(f, f.raw)).strip(), f.x, f.y))
    return out


def resolve(zpl: str, entries: list[list[str]]) -> dict[int, str]:
    """Truth entries -> {field position: meaning}."""
    fields = field_texts(zpl)
    truth: dict[int, str] = {}
    used: set[int] = set()
    last: dict[str, str] = {}
    for pos, (text, x, y) in enumerate(fields):
        if not text:
            continue
        match = None
        for i, entry in enumerate(entries):
            key = entry[0]
            same = text == key or (key.endswith("...") and text.startswith(key[:-3]))
            if not same or (len(entry) > 2 and entry[2] != f"{x},{y}"):
                continue
            if i not in used:
                match = i
                break
        if match is not None:
            used.add(match)
            truth[pos] = last[text] = entries[match][1]
        elif text in last:
            truth[pos] = last[text]  # a repeat (bold printed twice) shares its entry
    return truth


def placeholders(body: str) -> list[int | None]:
    """Each field of the draft body: its ^FN index or None."""
    out: list[int | None] = []
    data = printing = False
    index: int | None = None
    for command in Lexer(body.encode("utf-8")):
        if command.name in ("FD", "FV"):
            data = True
        elif command.name == "FN":
            digits = re.match(r"\d+", command.params)
            index = int(digits.group(0)) if digits else 0
        elif command.name in ("FS", "XA", "XZ"):
            if data or index is not None:
                out.append(index)
                printing = printing or command.name == "FS"
            data, index = False, None
            if command.name == "XZ" and printing:
                break
    return out


@dataclass
class LabelScore:
    name: str
    truth: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    right: int = 0
    wrong: int = 0
    near: int = 0  # wrong names that only say more or less than the truth
    merges: int = 0
    confidence: float = 0.0
    low: bool = False
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    wrong_reviewed: int = 0
    kinds: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    misses: list[str] = field(default_factory=list)
    error: str = ""
    points: list[tuple[float, bool]] = field(default_factory=list)  # field confidence, right

    @property
    def accuracy(self) -> float:
        return self.right / max(1, self.truth + self.fp)


def review_names(result: SynthesisResult) -> set[str]:
    """The placeholder names the result asks a person to review."""
    names: set[str] = set()
    for warning in result.warnings:
        if warning.startswith("names to review: "):
            names |= {n.strip() for n in warning.split(": ", 1)[1].split(",")}
    return names


def judged(given: str, truth: str) -> tuple[bool, bool]:
    """A name against a truth meaning: (right, only more or less specific)."""
    meanings = {meaning_of(m) for m in truth.split("|")}
    mine = meaning_of(given)
    right = mine in meanings
    return right, not right and any(narrower(mine, m) for m in meanings)


def score(engine: SynthesisEngine, name: str, zpl: str, truth: dict[int, str]) -> LabelScore:
    s = LabelScore(name)
    texts = field_texts(zpl)
    started, cpu = time.perf_counter(), time.process_time()
    try:
        result = engine.synthesize(SynthesisRequest(zpl))
    except ValueError as exc:
        s.error = str(exc)
        s.truth = s.fn = len(truth)
        return s
    s.seconds = time.perf_counter() - started
    s.cpu_seconds = time.process_time() - cpu
    s.confidence, s.low = result.confidence_score, result.low_confidence
    names = {i: n for n, i in result.draft.field_map.items()}
    review = review_names(result)
    body = placeholders(result.draft.body)
    if len(body) != len(texts):
        s.error = f"body has {len(body)} fields, input {len(texts)}"
    groups: dict[int, set[str]] = defaultdict(set)
    for pos, (text, _, _) in enumerate(texts):
        index = body[pos] if pos < len(body) else None
        meaning = truth.get(pos)
        if not text and meaning is None:
            continue
        if meaning is None:
            if index is not None:
                s.fp += 1
                s.misses.append(f"extra   {names.get(index)!s:24} {text[:50]!r}")
            continue
        kind = s.kinds[kind_of(meaning)]
        s.truth += 1
        kind[0] += 1
        if index is None:
            s.fn += 1
            s.misses.append(f"missed  {meaning:24} {text[:50]!r}")
            continue
        s.tp += 1
        kind[1] += 1
        groups[index].add(meaning)
        given = names.get(index, "")
        right, near = judged(given, meaning)
        confidence = getattr(result, "field_confidence", {}).get(given)
        if confidence is not None:
            s.points.append((confidence, right))
        if right:
            s.right += 1
            kind[2] += 1
        else:
            s.wrong += 1
            s.near += near
            s.wrong_reviewed += given in review
            s.misses.append(f"named   {given:24} is {meaning} {text[:40]!r}")
    # A merge: one placeholder for fields with no meaning in common ("tracking_number"
    # and "tracking_number|barcode_data" share one).
    s.merges = sum(1 for meanings in groups.values()
                   if not set.intersection(*(set(m.split("|")) for m in meanings)))
    return s


def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if sx == 0 or sy == 0:
        return float("nan")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (sx * sy)


def summary(scores: list[LabelScore]) -> dict[str, float]:
    tp, fp, fn = (sum(getattr(s, k) for s in scores) for k in ("tp", "fp", "fn"))
    right = sum(s.right for s in scores)
    wrong_labels = [s for s in scores if s.wrong]
    times = sorted(s.seconds for s in scores)
    cpu = sorted(s.cpu_seconds for s in scores)
    wrong = sum(s.wrong for s in scores)
    return {
        "labels": len(scores), "fields": tp + fn, "precision": tp / max(1, tp + fp),
        "recall": tp / max(1, tp + fn), "names_right": right / max(1, tp),
        "names_lenient": (right + sum(s.near for s in scores)) / max(1, tp),
        "usable": right / max(1, tp + fn), "merges": sum(s.merges for s in scores),
        "errors": sum(1 for s in scores if s.error),
        "confidence_correlation": pearson([s.confidence for s in scores],
                                          [s.accuracy for s in scores]),
        "labels_with_wrong_name": len(wrong_labels),
        "wrong_labels_flagged": sum(s.low for s in wrong_labels) / max(1, len(wrong_labels)),
        "wrong_names_for_review": sum(s.wrong_reviewed for s in scores) / max(1, wrong),
        "p95_ms": 1000 * times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0,
        "p95_cpu_ms": 1000 * cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))] if cpu else 0.0,
        "right_names_for_review": sum(1 for s in scores for c, ok in s.points
                                      if ok and c < LOW_CONFIDENCE)
        / max(1, sum(1 for s in scores for _, ok in s.points if ok)),
        "labels_low_confidence": sum(s.low for s in scores) / max(1, len(scores)),
    }


def print_set(title: str, scores: list[LabelScore], args: argparse.Namespace,
              misses: bool = True) -> dict[str, float]:
    """Print a set's figures; ``misses=False`` (the held-out part) never lists its fields."""
    figures = summary(scores)
    print(f"\n== {title}: {figures['labels']:.0f} labels, {figures['fields']:.0f} variable fields")
    if args.labels:
        print(f"  {'label':26} {'prec':>5} {'rec':>5} {'names':>5} {'acc':>5} {'conf':>5} merges")
        for s in scores:
            print(f"  {s.name[:26]:26} {s.tp / max(1, s.tp + s.fp):5.2f} "
                  f"{s.tp / max(1, s.truth):5.2f} {s.right / max(1, s.tp):5.2f} "
                  f"{s.accuracy:5.2f} {s.confidence:5.2f} {s.merges:3d}"
                  f"{'  ' + s.error if s.error else ''}")
            if args.misses and misses:
                for miss in s.misses:
                    print("      " + miss)
    print(f"  detection: precision {figures['precision']:.3f}, recall {figures['recall']:.3f}")
    print(f"  names right (strict) {figures['names_right']:.3f} (lenient "
          f"{figures['names_lenient']:.3f}: or only more or less specific); usable as they come "
          f"{figures['usable']:.3f}; merges of distinct fields {figures['merges']:.0f}; "
          f"refused {figures['errors']:.0f}")
    print(f"  calibration: corr(confidence, label accuracy) "
          f"{figures['confidence_correlation']:+.2f}; labels with a wrong name flagged "
          f"low_confidence {figures['wrong_labels_flagged']:.2f} "
          f"(of {figures['labels_with_wrong_name']:.0f}); wrong names listed for review "
          f"{figures['wrong_names_for_review']:.2f}")
    print(f"  right names listed for review {figures['right_names_for_review']:.2f}; "
          f"labels low_confidence {figures['labels_low_confidence']:.2f}")
    points = [p for s in scores for p in s.points]
    buckets = [(0.0, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 1.01)]
    print("  field confidence -> names right: " + "; ".join(
        f"[{lo:.2f},{min(hi, 1):.2f}) {sum(ok for c, ok in points if lo <= c < hi)}"
        f"/{sum(1 for c, _ in points if lo <= c < hi)}" for lo, hi in buckets))
    print(f"  synthesis p95 per label: {figures['p95_ms']:.1f} ms wall clock, "
          f"{figures['p95_cpu_ms']:.1f} ms of CPU")
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for s in scores:
        for kind, counts in s.kinds.items():
            kinds[kind] = [a + b for a, b in zip(kinds[kind], counts, strict=True)]
    print(f"  {'field kind':22} {'n':>5} {'recall':>6} {'names':>6}")
    for kind, (n, found, right) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
        print(f"  {kind:22} {n:5d} {found / max(1, n):6.2f} {right / max(1, found):6.2f}")
    return figures


def agreement(truth: dict[str, tuple[str, list[list[str]]]]) -> dict[str, dict[str, float]]:
    """Each independent annotator's names judged like synthesis's (strict and lenient),
    and each pair of annotators who named the same labels judged against each other."""
    annotators: dict[str, dict[str, list[list[str]]]] = json.loads(
        AGREEMENT.read_text(encoding="utf-8"))["annotators"]
    figures: dict[str, dict[str, float]] = {}
    pooled: list[tuple[bool, bool]] = []

    def rates(labels: int, verdicts: list[tuple[bool, bool]]) -> dict[str, float]:
        return {"labels": labels, "fields": len(verdicts),
                "names_right": sum(r for r, _ in verdicts) / max(1, len(verdicts)),
                "names_lenient": sum(r or n for r, n in verdicts) / max(1, len(verdicts))}

    for who, labels in annotators.items():
        verdicts = [judged(mine[1], entry[1]) for name, named in labels.items()
                    for mine, entry in zip(named, truth[name][1], strict=True)]
        pooled += verdicts
        figures[who] = rates(len(labels), verdicts)
    figures["all"] = rates(len({n for labels in annotators.values() for n in labels}), pooled)
    for first, second in itertools.combinations(annotators, 2):
        shared = sorted(set(annotators[first]) & set(annotators[second]))
        same = [meaning_of(a[1]) == meaning_of(b[1]) for name in shared
                for a, b in zip(annotators[first][name], annotators[second][name], strict=True)]
        if same:
            figures[f"{first}~{second}"] = {"labels": len(shared), "fields": len(same),
                                            "names_right": sum(same) / len(same)}
    return figures


def legacy(engine: SynthesisEngine, corpus: Path) -> tuple[int, int, int, int]:
    """Detection on the legacy answer key and the round trip on every carrier label."""
    answers = json.loads(ANSWERS.read_text(encoding="utf-8"))
    key = {**answers["labels"], **answers.get("held_out", {})}
    tp = fp = fn = identical = 0
    paths = sorted((corpus / "carriers").glob("*.zpl"))
    for path in paths:
        zpl = path.read_text(encoding="utf-8")
        result = engine.synthesize(SynthesisRequest(zpl))
        draft = result.draft
        filled = fill_body(draft.body, draft.field_map, draft.values)
        identical += render(filled).png == render(zpl).png
        if path.stem not in key:
            continue
        entries = key[path.stem]
        for (text, _, _), index in zip(field_texts(zpl), placeholders(draft.body), strict=False):
            text = text.strip()
            if not text:
                continue
            truth = any(text == e or (e.endswith("...") and text.startswith(e[:-3]))
                        for e in entries)
            tp += truth and index is not None
            fp += index is not None and not truth
            fn += truth and index is None
    return tp, fp, fn, identical * 1000 + len(paths)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--generated", type=int, default=240,
                        help="generated labels to score (0: none)")
    parser.add_argument("--labels", action="store_true", help="a line per label")
    parser.add_argument("--misses", action="store_true",
                        help="list wrong fields (never for the held-out part)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--no-legacy", action="store_true",
                        help="skip the legacy key and the round trip")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    engine = make_engine("heuristic")
    truth = load_truth(args.corpus)
    parts: dict[str, list[LabelScore]] = {"dev": [], "held_out": []}
    templates = []
    for name, (zpl, entries) in sorted(truth.items()):
        by_position = resolve(zpl, entries)
        parts["held_out" if held_out(name) else "dev"].append(
            score(engine, name, zpl, by_position))
        if not held_out(name):
            templates.append((name, zpl, by_position))
    generated = [score(engine, g.name, g.zpl, g.truth)
                 for g in generate(templates, args.generated)]
    figures = {"dev": print_set("development part (real labels, tuned on)", parts["dev"], args),
               "held_out": print_set("HELD-OUT part (real labels, only scored)",
                                     parts["held_out"], args, misses=False)}
    # The held-out part by where its labels come from: the corpus's real carrier
    # labels (the first held-out set) and the labels written for the evaluation.
    corpus = set(json.loads(TRUTH.read_text(encoding="utf-8"))["labels"])
    for title, part in (("corpus labels", [s for s in parts["held_out"] if s.name in corpus]),
                        ("written and zplkit goods labels",
                         [s for s in parts["held_out"] if s.name not in corpus])):
        f = summary(part)
        print(f"  held-out {title}: {f['labels']:.0f} labels, {f['fields']:.0f} fields; "
              f"precision {f['precision']:.3f}, recall {f['recall']:.3f}, names right "
              f"{f['names_right']:.3f}, corr {f['confidence_correlation']:+.2f}")
    if AGREEMENT.is_file():
        print("\n== independent annotators (development labels; the truth and synthesis unseen):"
              " the judge's ceiling")
        for who, f in agreement(truth).items():
            if "~" in who:
                print(f"  {who.replace('~', ' and ')} on the same {f['labels']:.0f} labels: the "
                      f"same name for {f['names_right']:.3f} of {f['fields']:.0f} fields")
            else:
                print(f"  {'annotators together' if who == 'all' else 'annotator ' + who}: "
                      f"{f['labels']:.0f} labels, {f['fields']:.0f} fields; names right (strict) "
                      f"{f['names_right']:.3f}, lenient {f['names_lenient']:.3f}")
            figures[f"annotator {who}"] = f
        print(f"  (synthesis on the held-out part: strict {figures['held_out']['names_right']:.3f},"
              f" lenient {figures['held_out']['names_lenient']:.3f})")
    if generated:
        figures["generated"] = print_set("generated labels (development layouts, "
                                         "new data in 16 locales)", generated, args)
    status = 0
    if not args.no_legacy:
        tp, fp, fn, trips = legacy(engine, args.corpus)
        identical, total = divmod(trips, 1000)
        print(f"\nlegacy answer key (detection only, tuned on): precision "
              f"{tp / max(1, tp + fp):.3f}, recall {tp / max(1, tp + fn):.3f}")
        print(f"round trip: {identical}/{total} carrier labels render identically")
        status = 0 if identical == total else 1
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
