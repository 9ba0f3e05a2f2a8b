#!/usr/bin/env python3
"""Engine fuzz: mutated corpus labels at random dpi, each batch in a child process under
an address-space limit. Every render must give a PNG or a ZplError.

    python benchmarks/engine_fuzz.py [--cases 20000] [--seed 1] [--batch 100]
        [--workers 2] [--memory-mb 2048] [--out out/engine_fuzz] [--corpus ../shared/corpus]

Mutations: numbers blown up, negated, made huge, float or empty; commands duplicated;
^TB/^FB/^A/^GB/^GF/^BQ/^B? parameters stretched; truncation; byte flips; known hostile
fields spliced in. Case N is built from seed + N alone, so ``--only N`` replays it.

Prints cases, crashes (any exception that is not a ZplError, or a child that died; each
reproducer saved under --out), LimitExceeded by limit name, the slowest cases and the
peak RSS of the render processes (resource.getrusage of the children).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import resource
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from labelrender.zpl import LimitExceeded, RenderOptions, ZplError, render

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DPIS = (72, 100, 152, 203, 300, 600, 1200)
SOURCE_DPIS = (None, None, 152, 203, 300, 600)
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
COMMAND = re.compile(rb"[\^~][A-Za-z@0-9]{1,2}[^\^~]*")
STRETCHED = re.compile(rb"\^(?:TB|FB|A[0-9A-Z@]|GB|GF|GC|GE|GD|BQ|B[0-9A-Z]|BY|CF|FO|FT|PW|LL)")
BIG_NUMBERS = (b"0", b"-1", b"-32000", b"32000", b"65535", b"99999", b"2147483648",
               b"9999999999994", b"1e9", b"3.5", b"-0.5", b"", b"00000000000000000007",
               b"9" * 60)
HOSTILE = (
    b"^FO0,0^TBN,32000,32000^FDx^FS",
    b"^FO0,0^TBN,2147483648,9999999999994^FDx^FS",
    b"^FO10,10^A1N,0,65535^FDx^FS",
    b"^FO0,0^TBN,32000,32000^A0N,20^FD" + b"w " * 4000 + b"^FS",
    b"^FO0,0^A0N,20^FB1,9999,0^FD" + b"W" * 3000 + b"^FS",
    b"^FO0,0^GB32000,32000,100,B,8^FR^FS",
    b"^FO0,0^GE4095,4095,1^FS",
    b"^FO0,0^GSN,32000,32000^FDABCDE^FS",
    b"^FO0,0^BY10^BQN,2,10^FDQA," + b"x" * 2000 + b"^FS",
    b"^FO0,0^BY10,3,32000^BCN,32000,Y,Y^FD12345^FR^FS",
    b"^FO0,0^AGN,32000,32000^FDW^FS",
    b"^FO0,0^A@N,5000,5000,E:X.TTF^FDW^FS",
    b"^CWZ,E:X.TTF^FO0,0^AZN,9000^FDW^FS",
    b"^FO0,0^GFA,4,4,1,FFFFFFFF^FS^FO0,0^XGR:X.GRF,10,10^FS",
    b"^DFR:A.ZPL^FS^FO0,0^FN1^FDx^FS^XZ^XA^XFR:A.ZPL^FS^FN1^FD" + b"y" * 500 + b"^FS",
)


def corpus_inputs(corpus: Path) -> list[bytes]:
    files = sorted(corpus.glob("labelary/*/*.zpl")) + sorted(corpus.glob("zebrash/*.zpl"))
    return [f.read_bytes() for f in files]


def _numbers(rng: random.Random, data: bytes) -> bytes:
    spans = [m.span() for m in NUMBER.finditer(data)]
    chosen = rng.sample(spans, min(len(spans), rng.randint(1, 6)))
    for start, end in sorted(chosen, reverse=True):  # from the end: offsets stay true
        data = data[:start] + rng.choice(BIG_NUMBERS) + data[end:]
    return data


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    commands = [m.span() for m in COMMAND.finditer(data)]
    if not commands:
        return data
    start, end = rng.choice(commands)
    return data[:end] + data[start:end] * rng.choice((2, 5, 50, 500)) + data[end:]


def _stretch(rng: random.Random, data: bytes) -> bytes:
    found = [m for m in STRETCHED.finditer(data)]
    if not found:
        return data
    match = rng.choice(found)
    params = b",".join(rng.choice(BIG_NUMBERS + (b"N", b"R", b"B", b"Y")) for _ in range(
        rng.randint(1, 6)))
    tail = data[match.end():]
    stop = min([i for i in (tail.find(b"^"), tail.find(b"~")) if i >= 0] or [len(tail)])
    return data[:match.end()] + params + tail[stop:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randint(0, len(data))]


def _flip(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 20)):
        if out:
            out[rng.randrange(len(out))] = rng.choice(b"^~,0123456789-.:ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                      b"\x00\xff ")
    return bytes(out)


def _splice(rng: random.Random, data: bytes) -> bytes:
    at = data.rfind(b"^XZ")
    at = at if at >= 0 else len(data)
    return data[:at] + rng.choice(HOSTILE) * rng.choice((1, 1, 3, 8)) + data[at:]


MUTATIONS = (_numbers, _numbers, _duplicate, _stretch, _stretch, _truncate, _flip, _splice)


def make_case(inputs: list[bytes], seed: int, index: int) -> tuple[bytes, dict[str, int | None]]:
    rng = random.Random(seed * 1_000_003 + index)
    data = rng.choice(inputs)
    for _ in range(rng.choice((1, 1, 2, 3, 4))):
        data = rng.choice(MUTATIONS)(rng, data)
    options: dict[str, int | None] = {"dpi": rng.choice(DPIS),
                                      "source_dpi": rng.choice(SOURCE_DPIS)}
    if rng.random() < 0.5:
        options["width_dots"] = rng.choice((100, 400, 812, 1200, 2400))
        options["height_dots"] = rng.choice((100, 600, 1218, 1800, 3000))
    return data, options


def _limit_memory(memory_mb: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_batch(corpus: str, seed: int, indices: list[int]) -> dict[str, object]:
    """Render cases in this (child) process; outcomes, times and this process's peak RSS."""
    inputs = corpus_inputs(Path(corpus))
    outcomes: list[tuple[int, str, float]] = []
    crashes: list[dict[str, object]] = []
    for index in indices:
        data, options = make_case(inputs, seed, index)
        start = time.perf_counter()
        try:
            render(data, RenderOptions(**options))  # type: ignore[arg-type]
            outcome = "ok"
        except LimitExceeded as exc:
            outcome = "limit:" + exc.limit
        except ZplError:
            outcome = "zpl_error"
        except Exception as exc:  # the crashes this run looks for
            outcome = "crash"
            crashes.append({"index": index, "options": options,
                            "error": f"{type(exc).__name__}: {exc}",
                            "traceback": traceback.format_exc()})
        outcomes.append((index, outcome, time.perf_counter() - start))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"outcomes": outcomes, "crashes": crashes, "peak_mb": peak_mb}


def save_crash(out: Path, inputs: list[bytes], seed: int, crash: dict[str, object]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    index = int(crash["index"])  # type: ignore[call-overload]
    data, _ = make_case(inputs, seed, index)
    (out / f"crash_{index}.zpl").write_bytes(data)
    (out / f"crash_{index}.json").write_text(json.dumps(crash, indent=1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-mb", type=int, default=2048)
    ap.add_argument("--out", type=Path, default=Path("out/engine_fuzz"))
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--only", type=int, default=None, help="replay one case in this process")
    args = ap.parse_args()
    inputs = corpus_inputs(args.corpus)
    if args.only is not None:
        data, options = make_case(inputs, args.seed, args.only)
        print(options, len(data), "bytes")
        print(run_batch(str(args.corpus), args.seed, [args.only]))
        return 0
    batches = [list(range(i, min(i + args.batch, args.cases)))
               for i in range(0, args.cases, args.batch)]
    counts: collections.Counter[str] = collections.Counter()
    slowest: list[tuple[float, int]] = []
    crashes = 0
    peak_mb = 0.0
    started = time.monotonic()
    with ProcessPoolExecutor(args.workers, max_tasks_per_child=1,
                             initializer=_limit_memory, initargs=(args.memory_mb,)) as pool:
        futures = [(batch, pool.submit(run_batch, str(args.corpus), args.seed, batch))
                   for batch in batches]
        for batch, future in futures:
            try:
                result = future.result()
            except BrokenProcessPool:
                print(f"a render process died in cases {batch[0]}-{batch[-1]}", file=sys.stderr)
                counts["crash"] += len(batch)
                crashes += len(batch)
                break
            for index, outcome, seconds in result["outcomes"]:  # type: ignore[attr-defined]
                counts[outcome] += 1
                slowest.append((seconds, index))
            for crash in result["crashes"]:  # type: ignore[attr-defined]
                crashes += 1
                save_crash(args.out, inputs, args.seed, crash)
                print(f"crash: case {crash['index']}: {crash['error']}", file=sys.stderr)
            peak_mb = max(peak_mb, float(result["peak_mb"]))  # type: ignore[arg-type]
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    slowest.sort(reverse=True)
    total = sum(counts.values())
    print(f"cases {total} (seed {args.seed}) in {time.monotonic() - started:.0f} s, "
          f"{args.workers} processes of {args.memory_mb} MB address space")
    print(f"crashes {crashes}" + (f" (reproducers in {args.out})" if crashes else ""))
    print(f"rendered {counts['ok']}; ZplError {counts['zpl_error']}; LimitExceeded "
          f"{sum(v for k, v in counts.items() if k.startswith('limit:'))}")
    for name, count in sorted((k[6:], v) for k, v in counts.items() if k.startswith("limit:")):
        print(f"  {name:14s} {count}")
    print("slowest: " + ", ".join(f"case {i} {s:.2f} s" for s, i in slowest[:5]))
    print(f"cases over 1 s: {sum(1 for s, _ in slowest if s > 1)}; over 2 s: "
          f"{sum(1 for s, _ in slowest if s > 2)}")
    print(f"peak RSS of a render process: {max(peak_mb, children_mb):.0f} MB")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
