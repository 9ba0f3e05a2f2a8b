"""``python -m labelrender.api.openapi [PATH]``: write the OpenAPI document to
PATH (the repo keeps it in ``docs/openapi.json``), or print it."""

from __future__ import annotations

import sys
from pathlib import Path

from labelrender.api.openapi import document_bytes


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: python -m labelrender.api.openapi [PATH]", file=sys.stderr)
        return 2
    if argv:
        Path(argv[0]).write_bytes(document_bytes())
    else:
        sys.stdout.buffer.write(document_bytes())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
