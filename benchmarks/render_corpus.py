#!/usr/bin/env python3
"""Render speed: one process renders a corpus set and prints mean and p95 ms per label.

    python benchmarks/render_corpus.py [--set carriers] [--rounds 3] [--compare-js]

With --compare-js it also times zpl-renderer-js 3.4.0 (zebrash as WASM, from
npm; installed on first use into benchmarks/.node/) over the same files in the
same run, and prints the ratio. Each engine renders every label once to warm
up (fonts, WASM), then --rounds times for the figures.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from labelrender.zpl import RenderOptions, render

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "labelary"
JS_PACKAGE = "zpl-renderer-js@3.4.0"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def labels(corpus: Path, name: str) -> list[tuple[Path, dict[str, str]]]:
    with (corpus / "index.tsv").open() as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if r["set"] == name]
    return [(corpus / name / f"{r['name']}.zpl", r) for r in rows]


def time_ours(items: list[tuple[Path, dict[str, str]]], rounds: int) -> list[float]:
    jobs = []
    for path, row in items:
        options = RenderOptions(dpi=round(int(row["dpmm"]) * 25.4),
                                width_dots=int(row["width_dots"]),
                                height_dots=int(row["height_dots"]))
        jobs.append((path.read_bytes(), options))
    for data, options in jobs:
        render(data, options)  # warm-up: fonts and caches
    times = []
    for _ in range(rounds):
        for data, options in jobs:
            start = time.perf_counter()
            render(data, options)
            times.append(1000 * (time.perf_counter() - start))
    return times


def ensure_js() -> Path:
    target = HERE / ".node"
    if not (target / "node_modules" / "zpl-renderer-js").exists():
        target.mkdir(exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(target), "--no-audit", "--no-fund",
                        JS_PACKAGE], check=True, stdout=subprocess.DEVNULL)
    return target / "node_modules"


def time_js(items: list[tuple[Path, dict[str, str]]], rounds: int) -> list[float]:
    modules = ensure_js()
    row = items[0][1]
    dpmm = int(row["dpmm"])
    size = [str(int(row["width_dots"]) / dpmm), str(int(row["height_dots"]) / dpmm), str(dpmm)]
    files = [str(p) for p, _ in items]
    env = {**os.environ, "ZPL_JS_DIR": str(modules)}
    cmd = ["node", str(HERE / "zpl_renderer_js.mjs"), *size, *files * (rounds + 1)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    ms: list[float] = json.loads(out.strip().splitlines()[-1])["ms"]
    return ms[len(files):]  # first pass is the warm-up


def report(name: str, times: list[float]) -> None:
    print(f"{name:18s} mean {statistics.fmean(times):7.1f} ms/label  "
          f"p95 {percentile(times, 0.95):7.1f} ms  ({len(times)} renders)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--set", default="carriers")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--compare-js", action="store_true")
    args = ap.parse_args(argv)
    items = labels(args.corpus, args.set)
    ours = time_ours(items, args.rounds)
    print(f"{args.set}: {len(items)} labels")
    report("labelrender", ours)
    if args.compare_js:
        theirs = time_js(items, args.rounds)
        report("zpl-renderer-js", theirs)
        print(f"ratio: labelrender takes {statistics.fmean(ours) / statistics.fmean(theirs):.3f} "
              "of zpl-renderer-js's mean time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
