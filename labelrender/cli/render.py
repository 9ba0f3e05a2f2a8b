"""``labelrender render``: ZPL files to PNG or PDF with the engine, no service needed.

Exit codes: 0 every file rendered, 1 some file could not be read, rendered or
written (each says why on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

from labelrender.zpl import (
    FONT_PROFILES,
    RenderOptions,
    RenderResult,
    Warning,
    ZplError,
    render,
    render_pdf,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="render ZPL files to PNG or PDF",
                       description="Render ZPL files to PNG or PDF with the labelrender engine.")
    p.add_argument("inputs", nargs="+", type=Path, metavar="IN.zpl")
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", type=Path, metavar="OUT.png",
                     help="output file (one input only); a name ending in .pdf means --format pdf")
    out.add_argument("--out-dir", type=Path, metavar="DIR",
                     help="write each NAME.zpl to DIR/NAME.png (or NAME.pdf)")
    p.add_argument("--format", choices=("png", "pdf"), default=None,
                   help="png (default), or pdf: one page per label at its physical size")
    p.add_argument("--dpi", type=int, default=203, help="output resolution (default 203)")
    p.add_argument("--source-dpi", type=int, default=None,
                   help="resolution the ZPL was written for (default: --dpi)")
    p.add_argument("--width-dots", type=int, default=None, help="canvas width in source dots")
    p.add_argument("--height-dots", type=int, default=None, help="canvas height in source dots")
    p.add_argument("--index", type=int, default=None,
                   help="which label of the stream (from 0; default the first, or every "
                        "label in a PDF)")
    p.add_argument("--threshold", action="store_true", help="pure black and white output")
    p.add_argument("--font-profile", choices=FONT_PROFILES, default=None,
                   help="font family for font 0 (default: closest to Zebra's)")
    p.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), default=0,
                   help="rotate the output image clockwise")
    p.add_argument("--fit-content", action="store_true",
                   help="grow the canvas until every field's ink fits (off by default: "
                        "printers and Labelary cut what runs past the label's edge)")
    p.set_defaults(run=render_command)


EXIT_FAILED = 1
EXIT_USAGE = 2
# Image formats people ask for by name that we do not write: refused rather than
# PNG bytes under a misleading name.
OTHER_IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff",
                                  ".webp", ".svg", ".eps", ".zpl"})


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line, and what to do, or None."""
    if args.output is not None and len(args.inputs) > 1:
        return "-o takes one input; use --out-dir for several"
    if (args.width_dots is None) != (args.height_dots is None):
        return "give --width-dots and --height-dots together"
    if args.output is not None and args.output.suffix.lower() in OTHER_IMAGE_SUFFIXES:
        return (f"-o {args.output}: only PNG and PDF are written; name the output "
                f"{args.output.stem}.png or {args.output.stem}.pdf")
    return None


def render_command(args: argparse.Namespace) -> int:
    problem = usage_problem(args)
    if problem is not None:
        print(f"labelrender render: {problem}", file=sys.stderr)
        return EXIT_USAGE
    pdf = args.format == "pdf" or (args.format is None and args.output is not None
                                   and args.output.suffix.lower() == ".pdf")
    options = RenderOptions(
        dpi=args.dpi, source_dpi=args.source_dpi, width_dots=args.width_dots,
        height_dots=args.height_dots, index=args.index or 0, threshold=args.threshold,
        font_profile=args.font_profile, rotation=args.rotate,
    )
    if args.out_dir is not None:
        try:
            args.out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"labelrender render: cannot create --out-dir {args.out_dir}: "
                  f"{exc.strerror or exc}; choose a folder you can write to", file=sys.stderr)
            return EXIT_USAGE
    failures, timings, labels = 0, [], 0
    for path in args.inputs:
        target = args.output or args.out_dir / (path.stem + (".pdf" if pdf else ".png"))
        try:
            data = path.read_bytes()
            start = time.perf_counter()
            fitted = _fit_content(data, options) if args.fit_content else options
            output, warnings, count = _render_one(data, fitted, pdf, every=args.index is None)
            timings.append(time.perf_counter() - start)
        except (OSError, ValueError) as exc:  # ZplError is a ValueError
            kind = "error" if isinstance(exc, ZplError) else "cannot render"
            print(f"{path}: {kind}: {exc}", file=sys.stderr)
            failures += 1
            continue
        for warning in warnings:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        if any(OVERFLOW in w.message for w in warnings):
            print(f"{path}: hint: {OVERFLOW_HINT}", file=sys.stderr)
        problem = _write(target, output)
        if problem is not None:
            print(f"{path}: cannot write {target}: {problem}", file=sys.stderr)
            failures += 1
            continue
        labels += count
    mean = 1000 * sum(timings) / labels if labels else 0.0
    print(f"rendered {labels} label(s), {failures} failed, mean {mean:.1f} ms/label",
          file=sys.stderr)
    return EXIT_FAILED if failures else 0


OVERFLOW = "overflows the label"
OVERFLOW_HINT = ("to print what runs off, give a larger canvas (--width-dots W --height-dots "
                 "H, or ^PW/^LL in the ZPL), or --fit-content to size it to the content")


def _fit_content(data: bytes, options: RenderOptions) -> RenderOptions:
    """The options with a canvas grown (never shrunk) until every field's ink
    reaches no further right or down than its edges, in source dots."""
    measured = render(data, replace(options, rotation=0))
    scale = options.dpi / (options.source_dpi or options.dpi)
    right = max([measured.width, *(f.x + f.width for f in measured.fields)])
    bottom = max([measured.height, *(f.y + f.height for f in measured.fields)])
    if (right, bottom) == (measured.width, measured.height):
        return options
    return replace(options, width_dots=math.ceil(right / scale),
                   height_dots=math.ceil(bottom / scale))


def _write(target: Path, output: bytes) -> str | None:
    """Write the output file; what went wrong and what to do, or None."""
    try:
        target.write_bytes(output)
    except FileNotFoundError:
        if target.parent.is_dir():  # /proc, say: the folder takes no new files
            return f"{target.parent} does not take new files; choose a place you can write to"
        return f"there is no folder {target.parent}; create it first (mkdir -p {target.parent})"
    except IsADirectoryError:
        return "it is a folder; name a file, or use --out-dir"
    except OSError as exc:
        return f"{exc.strerror or exc}; choose a place you can write to"
    return None


def _render_one(data: bytes, options: RenderOptions, pdf: bool, every: bool
                ) -> tuple[bytes, tuple[Warning, ...], int]:
    """The output file's bytes, the engine's warnings and how many labels it holds."""
    if not pdf:
        result: RenderResult = render(data, options)
        return result.png, result.warnings, 1
    document = render_pdf(data, options, every_label=every)
    return document.pdf, document.warnings, len(document.labels)
