"""How fast, and in how much memory, ``labelrender.graphics`` refuses image bombs
and converts ordinary logos.

    PYTHONPATH=. python benchmarks/graphics_limits.py

Each input is made in one process and converted in a fresh one (so the peak
resident memory is the conversion's own), which prints: the answer (the
refusal's kind, or the graphic's size), the median time of ``--repeat`` calls,
and the process's peak RSS above what it had before the first call (the
libraries and the input already loaded).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "100000x100000 PNG header": "png_declaring(100_000, 100_000)",
    "20000x20000 PNG bomb (400 MB decoded)": "png_bomb(20_000)",
    "8000x5001 PNG header (just over 40 Mpx)": "png_declaring(8000, 5001)",
    "4500x4000 RGB PNG (72 MB decoded)": "encoded(Image.new('RGB', (4500, 4000)), 'PNG')",
    "101-page PDF": "pdf_of(Image.new('1', (8, 8), 1), pages=101)",
    "PDF page of 400 MB of blanks (Flate)": "pdf_bomb(400)",
    "logo 203x101 PNG, A": "encoded(logo(), 'PNG')",
    "logo 812x404 PNG, Z64": "encoded(logo((812, 404)), 'PNG')",
    "logo page 300x200 pt PDF at 203 dpi": "pdf_of(logo((300, 200)))",
}

MAKE = """
import sys
from PIL import Image
from tests.fixtures.images import encoded, logo, pdf_bomb, pdf_of, png_bomb, png_declaring
open(sys.argv[1], "wb").write({expression})
"""

CHILD = """
import json, resource, statistics, sys, time
from labelrender.graphics import GraphicOptions, Refusal, convert_graphic
data = open(sys.argv[1], "rb").read()
options = GraphicOptions(compression="Z64" if "Z64" in {name!r} else "A")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = []
for _ in range({repeat}):
    start = time.perf_counter()
    answer = convert_graphic(data, options)
    times.append(time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
shown = (answer.kind if isinstance(answer, Refusal)
         else f"{{answer.width}}x{{answer.height}} dots")
print(json.dumps({{"answer": shown, "ms": 1000 * statistics.median(times),
                  "input_kb": len(data) / 1024, "peak_mb": (peak - before) / 1024}}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'case':42} {'answer':22} {'input':>9} {'median':>9} {'peak +RSS':>10}")
    with tempfile.TemporaryDirectory() as scratch:
        for name, expression in CASES.items():
            case(name, expression, Path(scratch) / "input", args.repeat)
    return 0


def case(name: str, expression: str, path: Path, repeat: int) -> None:
    """Make the input in one process, convert it in a fresh one."""
    env = {"PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", MAKE.format(expression=expression), str(path)],
                   cwd=ROOT, env=env, check=True)
    code = CHILD.format(name=name, repeat=repeat)
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, cwd=ROOT, env=env, check=False)
    if run.returncode != 0:
        print(f"{name:42} failed: {run.stderr.strip().splitlines()[-1:]}")
        return
    figures = json.loads(run.stdout)
    print(f"{name:42} {figures['answer']:22} {figures['input_kb']:7.0f}KB "
          f"{figures['ms']:7.2f}ms {figures['peak_mb']:8.1f}MB")


if __name__ == "__main__":
    raise SystemExit(main())
