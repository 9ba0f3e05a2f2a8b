#!/usr/bin/env python3
"""Fidelity against Labelary: render every corpus label as its index.tsv says, then score.

Renders each set of ``corpus/labelary`` at the label's dots per mm and canvas
size into OUT/<set>/, runs the corpus's own ``tools/compare.py`` on each set, and
prints the per-set mean F1 and the worst labels overall.

    python benchmarks/labelary_fidelity.py [--shared ../shared] [--out out/fidelity]
        [--sets carriers,zplab] [--worst 10]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from pathlib import Path

from labelrender.zpl import RenderOptions, ZplError, render

DEFAULT_SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DPI_BY_DPMM = {6: 152, 8: 203, 12: 300, 24: 600}


def load_index(corpus: Path) -> list[dict[str, str]]:
    with (corpus / "index.tsv").open() as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def render_set(corpus: Path, rows: list[dict[str, str]], out: Path) -> tuple[int, float]:
    out.mkdir(parents=True, exist_ok=True)
    failures, spent = 0, 0.0
    for row in rows:
        dpi = DPI_BY_DPMM.get(int(row["dpmm"]), round(int(row["dpmm"]) * 25.4))
        options = RenderOptions(dpi=dpi, width_dots=int(row["width_dots"]),
                                height_dots=int(row["height_dots"]))
        zpl = (corpus / row["set"] / f"{row['name']}.zpl").read_bytes()
        start = time.perf_counter()
        try:
            result = render(zpl, options)
        except ZplError as exc:
            print(f"  {row['set']}/{row['name']}: {exc}", file=sys.stderr)
            failures += 1
            continue
        spent += time.perf_counter() - start
        (out / f"{row['name']}.png").write_bytes(result.png)
    return failures, spent


def score_set(shared: Path, corpus: Path, name: str, out: Path) -> list[dict[str, object]]:
    report = out / "compare.json"
    subprocess.run([sys.executable, str(shared / "tools" / "compare.py"), str(corpus / name),
                    str(out), "--quiet", "--json", str(report)], check=True)
    rows: list[dict[str, object]] = json.loads(report.read_text())
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--out", type=Path, default=Path("out/fidelity"))
    ap.add_argument("--sets", default="carriers,labelize-units,zplkit,zplab")
    ap.add_argument("--worst", type=int, default=10)
    args = ap.parse_args(argv)
    corpus = args.shared / "corpus" / "labelary"
    index = load_index(corpus)
    worst: list[tuple[float, str]] = []
    for name in args.sets.split(","):
        rows = [r for r in index if r["set"] == name]
        out = args.out / name
        failures, spent = render_set(corpus, rows, out)
        scores = score_set(args.shared, corpus, name, out)
        mean = sum(float(str(s["f1"])) for s in scores) / max(1, len(scores))
        print(f"{name:16s} mean f1 {mean:.3f} over {len(scores)} labels; failed {failures}; "
              f"{1000 * spent / max(1, len(rows)):.1f} ms/label")
        worst += [(float(str(s["f1"])), f"{name}/{s['name']}") for s in scores]
    worst.sort()
    print(f"worst {args.worst}:")
    for f1, label in worst[: args.worst]:
        print(f"  {f1:.3f} {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
