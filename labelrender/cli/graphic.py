"""``labelrender graphic``: an image or a PDF page into ZPL (``^GF``), no service
needed; the options and limits of ``POST /v1/graphics``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from labelrender.graphics import COMPRESSIONS, GraphicOptions, Refusal, convert_graphic
from labelrender.graphics.convert import MAX_PDF_DPI, MIN_PDF_DPI


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("graphic", help="turn an image or a PDF page into a ZPL graphic",
                       description="Turn a PNG, JPEG, GIF, BMP or a PDF page into a ZPL "
                                   "^GF graphic field, or a whole label of it.")
    p.add_argument("input", type=Path, metavar="IMAGE")
    p.add_argument("-o", "--output", type=Path, metavar="OUT.zpl",
                   help="write the ZPL here (default: standard output)")
    p.add_argument("--width", type=int, default=0,
                   help="graphic width in dots (default: the source's; alone, the aspect "
                        "ratio is kept)")
    p.add_argument("--height", type=int, default=0,
                   help="graphic height in dots (default: the source's)")
    p.add_argument("--threshold", type=int, default=128,
                   help="grey levels up to this one print black (0-255, default 128)")
    p.add_argument("--dither", action="store_true",
                   help="Floyd-Steinberg dithering instead of the threshold (photos)")
    p.add_argument("--invert", action="store_true", help="swap black and white")
    p.add_argument("--compression", choices=tuple(COMPRESSIONS), default="A",
                   help="A hex (default), ACS Zebra-compressed hex, B64, or Z64 (smallest)")
    p.add_argument("--field", dest="output_kind", action="store_const", const="field",
                   default="label", help="print the ^GFA...^FS field alone, not a label")
    p.add_argument("--page", type=int, default=1, help="PDF: the page, from 1 (default 1)")
    p.add_argument("--dpi", type=int, default=203,
                   help=f"PDF: draw the page at this resolution ({MIN_PDF_DPI}-{MAX_PDF_DPI}, "
                        f"default 203)")
    p.set_defaults(run=graphic_command)


def graphic_command(args: argparse.Namespace) -> int:
    try:
        options = GraphicOptions(width=args.width, height=args.height, dither=args.dither,
                                 threshold=args.threshold, invert=args.invert,
                                 compression=args.compression, output=args.output_kind,
                                 page=args.page, dpi=args.dpi)
    except ValueError as exc:
        print(f"labelrender graphic: {exc}", file=sys.stderr)
        return 2
    try:
        data = args.input.read_bytes()
    except OSError as exc:
        print(f"labelrender graphic: cannot read {args.input}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    result = convert_graphic(data, options)
    if isinstance(result, Refusal):
        print(f"{args.input}: {result.message}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(result.zpl)
    else:
        try:
            args.output.write_text(result.zpl, encoding="ascii")
        except OSError as exc:
            print(f"labelrender graphic: cannot write {args.output}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    print(f"{args.input}: {result.width} x {result.height} dots, {result.total_bytes} bytes "
          f"of graphic, {len(result.zpl)} characters of ZPL", file=sys.stderr)
    return 0
