"""The ``labelrender`` command: one module per subcommand.

``render`` runs the engine alone; ``graphic`` turns an image into ZPL; ``serve``
runs every tier on one machine; ``api`` and ``worker`` run one tier each against
shared Redis and object storage; ``operator`` runs the Kubernetes operator;
``admin`` holds the operators' commands.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import labelrender
from labelrender.cli import admin, api, graphic, operator, render, serve, worker


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="labelrender",
                                     description="ZPL label rendering engine and service.")
    parser.add_argument("-V", "--version", action="version", version=f"labelrender {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (render, graphic, serve, api, worker, operator, admin):
        command.add_parser(sub)
    return parser


def version() -> str:
    """The installed distribution's version (the source tree's when not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("labelrender")
    except PackageNotFoundError:
        return labelrender.__version__


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader of our output left (`labelrender admin plan list | head`): not an
        # error worth a traceback. Python's own advice: point stdout at /dev/null so the
        # flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code
