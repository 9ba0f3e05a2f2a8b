"""Point the chart's crds/ at the CustomResourceDefinitions of the root crds/.

The root crds/ is the one source of truth for LabelTemplate and Plan (the
operator and its tests read it). The chart ships the very same files through
relative symlinks, which Helm follows when it loads or packages the chart, so
the two cannot drift. Run this after adding, renaming or removing a CRD file:

    python helm/sync_crds.py          # make the links
    python helm/sync_crds.py --check  # only report drift (exit status 1)

Only top-level files holding CustomResourceDefinitions are linked: Helm
installs everything in a chart's crds/ before the release, and examples are
objects, not definitions.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
ROOT_CRDS = REPO / "crds"
CHART_CRDS = REPO / "helm" / "labelrender" / "crds"
SUFFIXES = (".yaml", ".yml")


def definition_files(root_crds: Path) -> list[Path]:
    """The root's files whose every document is a CustomResourceDefinition."""
    if not root_crds.is_dir():
        return []
    files = []
    for path in sorted(p for p in root_crds.iterdir() if p.suffix in SUFFIXES and p.is_file()):
        documents = [d for d in yaml.safe_load_all(path.read_text()) if d]
        if documents and all(d.get("kind") == "CustomResourceDefinition" for d in documents):
            files.append(path)
    return files


def wanted_links(root_crds: Path, chart_crds: Path) -> dict[str, str]:
    """Link name in the chart's crds/ -> its relative target."""
    return {path.name: os.path.relpath(path, chart_crds) for path in definition_files(root_crds)}


def drift(root_crds: Path = ROOT_CRDS, chart_crds: Path = CHART_CRDS) -> list[str]:
    """What differs between the chart's crds/ and the root's definitions."""
    wanted = wanted_links(root_crds, chart_crds)
    present = {p.name: p for p in chart_crds.iterdir()} if chart_crds.is_dir() else {}
    problems = [f"{name}: missing from the chart" for name in sorted(set(wanted) - set(present))]
    for name, path in sorted(present.items()):
        if name not in wanted:
            problems.append(f"{name}: in the chart but not a definition in {root_crds}")
        elif not path.is_symlink() or os.readlink(path) != wanted[name]:
            problems.append(f"{name}: not a link to {wanted[name]}")
    return problems


def sync(root_crds: Path = ROOT_CRDS, chart_crds: Path = CHART_CRDS) -> None:
    """Make the chart's crds/ exactly the links to the root's definitions."""
    wanted = wanted_links(root_crds, chart_crds)
    chart_crds.mkdir(parents=True, exist_ok=True)
    for path in chart_crds.iterdir():
        if path.name not in wanted or not path.is_symlink() or (
                os.readlink(path) != wanted[path.name]):
            path.unlink()
    for name, target in wanted.items():
        link = chart_crds / name
        if not link.is_symlink():
            link.symlink_to(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report drift, change nothing")
    args = parser.parse_args(argv)
    if not args.check:
        sync()
    problems = drift()
    for problem in problems:
        print(f"helm/labelrender/crds/{problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
