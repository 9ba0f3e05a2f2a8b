#!/usr/bin/env python3
"""Render speed: one process renders corpus sets and prints ms per label and PNG bytes.

    python benchmarks/render_corpus.py [--sets carriers|all|a,b] [--rounds 3] [--compare-js]
        [--out DIR] [--same-pixels DIR]

For each set: mean, p50, p95 and max milliseconds per label, PNG bytes per
label, and at the end this process's peak RSS. Every label is rendered at its
index.tsv size and dots per mm, once to warm up (fonts, caches), then
--rounds times for the figures.

--compare-js also times zpl-renderer-js 3.4.0 (zebrash as WASM, from npm;
installed on first use into benchmarks/.node/) over the same files at the same
sizes in the same run, and prints the speed-up (its mean over ours, on the
labels both render) against the targets: 30x on carriers, 10x on every set.
The targets are judged on wall time; the CPU-time ratio (its whole node
process, JIT and GC threads included, against this one) is printed beside it,
as it moves less with the load of a shared machine.

--out DIR writes each label's PNG to DIR/<set>/<name>.png. --same-pixels DIR
decodes each PNG of this run and the one of the same name under DIR (written
by an earlier --out, say by another checkout) and counts the labels whose
pixels differ: a change to encoding or painting that must keep the picture.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from labelrender.zpl import RenderOptions, render

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "labelary"
JS_PACKAGE = "zpl-renderer-js@3.4.0"
SETS = ("carriers", "labelize-units", "zplkit", "zplab")
TARGETS = {"carriers": 30.0}  # speed-up over zpl-renderer-js; other sets: DEFAULT_TARGET
DEFAULT_TARGET = 10.0
DPI_BY_DPMM = {6: 152, 8: 203, 12: 300, 24: 600}  # as benchmarks/labelary_fidelity.py


@dataclass
class Label:
    name: str
    path: Path
    dpmm: int
    width_dots: int
    height_dots: int
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    png: bytes = b""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def labels(corpus: Path, name: str) -> list[Label]:
    with (corpus / "index.tsv").open() as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if r["set"] == name]
    return [Label(r["name"], corpus / name / f"{r['name']}.zpl", int(r["dpmm"]),
                  int(r["width_dots"]), int(r["height_dots"])) for r in rows]


def time_ours(items: list[Label], rounds: int) -> None:
    """Fills each label's ``ms`` and ``cpu_ms`` (wall and CPU time, one figure a
    round) and ``png`` (the last render)."""
    jobs = []
    for item in items:
        options = RenderOptions(dpi=DPI_BY_DPMM.get(item.dpmm, round(item.dpmm * 25.4)),
                                width_dots=item.width_dots, height_dots=item.height_dots)
        jobs.append((item, item.path.read_bytes(), options))
    for item, data, options in jobs:
        item.png = render(data, options).png  # warm-up: fonts and caches
    for _ in range(rounds):
        for item, data, options in jobs:
            cpu, start = time.process_time(), time.perf_counter()
            render(data, options)
            item.ms.append(1000 * (time.perf_counter() - start))
            item.cpu_ms.append(1000 * (time.process_time() - cpu))


def ensure_js() -> Path:
    target = HERE / ".node"
    if not (target / "node_modules" / "zpl-renderer-js").exists():
        target.mkdir(exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(target), "--no-audit", "--no-fund",
                        JS_PACKAGE], check=True, stdout=subprocess.DEVNULL)
    return target / "node_modules"


@dataclass
class JsTimes:
    """zpl-renderer-js's milliseconds per round for each label it renders (by
    name): wall time, and CPU time of its whole process."""

    ms: dict[str, list[float]]
    cpu_ms: dict[str, list[float]]


def time_js(items: list[Label], rounds: int) -> JsTimes:
    modules = ensure_js()
    manifest = {"rounds": rounds, "labels": [
        {"file": str(item.path), "width_mm": item.width_dots / item.dpmm,
         "height_mm": item.height_dots / item.dpmm, "dpmm": item.dpmm} for item in items]}
    env = {**os.environ, "ZPL_JS_DIR": str(modules)}
    out = subprocess.run(["node", str(HERE / "zpl_renderer_js.mjs")], input=json.dumps(manifest),
                         check=True, capture_output=True, text=True, env=env).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return JsTimes(
        {item.name: ms for item, ms in zip(items, result["ms"], strict=True) if ms},
        {item.name: ms for item, ms in zip(items, result["cpu_ms"], strict=True) if ms})


def line(name: str, times: list[float], extra: str = "") -> str:
    return (f"  {name:16s} mean {statistics.fmean(times):7.2f}  p50 {percentile(times, 0.5):7.2f}"
            f"  p95 {percentile(times, 0.95):7.2f}  max {max(times):7.2f} ms/label{extra}")


def report_set(name: str, items: list[Label], js_times: JsTimes | None) -> bool:
    """Prints the set's figures; False if it misses its speed-up target."""
    ours = [ms for item in items for ms in item.ms]
    png_kb = statistics.fmean(len(item.png) for item in items) / 1000
    print(f"{name}: {len(items)} labels, {len(ours)} renders")
    print(line("labelrender", ours, f"  PNG {png_kb:.1f} KB/label"))
    if js_times is None:
        return True
    js = js_times.ms
    theirs = [ms for times in js.values() for ms in times]
    both = [ms for item in items if item.name in js for ms in item.ms]
    failed = len(items) - len(js)
    if not theirs:
        print(f"  zpl-renderer-js  rendered none of the {len(items)} labels")
        return True
    print(line("zpl-renderer-js", theirs, f"  ({failed} labels failed)" if failed else ""))
    speedup = statistics.fmean(theirs) / statistics.fmean(both)
    target = TARGETS.get(name, DEFAULT_TARGET)
    met = speedup >= target
    print(f"  speed-up         {speedup:.1f}x on the mean, p50 "
          f"{percentile(theirs, 0.5) / percentile(both, 0.5):.1f}x, p95 "
          f"{percentile(theirs, 0.95) / percentile(both, 0.95):.1f}x (target {target:g}x on "
          f"the mean: {'met' if met else 'NOT met'})")
    # CPU time moves less than wall time with what else the shared cores run.
    their_cpu = [ms for times in js_times.cpu_ms.values() for ms in times]
    our_cpu = [ms for item in items if item.name in js for ms in item.cpu_ms]
    print(f"  CPU time         ours mean {statistics.fmean(our_cpu):.2f} ms, theirs "
          f"{statistics.fmean(their_cpu):.2f} ms: "
          f"{statistics.fmean(their_cpu) / statistics.fmean(our_cpu):.1f}x on the mean")
    return met


def write_pngs(out: Path, name: str, items: list[Label]) -> None:
    (out / name).mkdir(parents=True, exist_ok=True)
    for item in items:
        (out / name / f"{item.name}.png").write_bytes(item.png)


def differing(reference: Path, name: str, items: list[Label]) -> list[str]:
    """Labels whose decoded pixels differ from reference/<set>/<name>.png (or lack one)."""
    differ = []
    for item in items:
        path = reference / name / f"{item.name}.png"
        if not path.exists():
            differ.append(item.name)
            continue
        with Image.open(path) as old, Image.open(io.BytesIO(item.png)) as new:
            if old.size != new.size or not np.array_equal(
                    np.asarray(old.convert("L")), np.asarray(new.convert("L"))):
                differ.append(item.name)
    return differ


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--sets", "--set", default="carriers",
                    help="comma-separated corpus sets, or 'all'")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--compare-js", action="store_true")
    ap.add_argument("--out", type=Path, help="write each label's PNG under this folder")
    ap.add_argument("--same-pixels", type=Path,
                    help="compare decoded pixels with the PNGs of an earlier --out")
    args = ap.parse_args(argv)
    names = SETS if args.sets == "all" else tuple(args.sets.split(","))
    with open("/proc/loadavg") as fh:
        print(f"load average at start: {' '.join(fh.read().split()[:3])}; "
              f"{os.cpu_count()} cores")
    all_met, changed = True, 0
    for name in names:
        items = labels(args.corpus, name)
        time_ours(items, args.rounds)
        js = time_js(items, args.rounds) if args.compare_js else None
        all_met &= report_set(name, items, js)
        if args.out is not None:
            write_pngs(args.out, name, items)
        if args.same_pixels is not None:
            differ = differing(args.same_pixels, name, items)
            changed += len(differ)
            print(f"  pixels           {len(items) - len(differ)}/{len(items)} labels the same"
                  f" as {args.same_pixels}" + (f"; differ: {', '.join(differ[:10])}"
                                                if differ else ""))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak_mb:.0f} MB")
    if args.compare_js:
        print(f"speed-up targets: {'all met' if all_met else 'NOT all met'}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
