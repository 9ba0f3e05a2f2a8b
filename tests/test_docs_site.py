"""The documentation site builds with ``mkdocs build --strict``: every page in
the navigation, every link and anchor between pages resolved. It builds into a
temporary folder, never into the tree."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        if os.environ.get("CI"):
            pytest.fail('mkdocs and mkdocs-material are test extras: pip install -e ".[test]"')
        pytest.skip("mkdocs or mkdocs-material is not installed")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "integrators" / "errors" / "index.html").exists()
    assert not (ROOT / "site").exists()


def test_the_development_page_lists_what_ci_installs() -> None:
    """The Debian packages a contributor needs are the ones .ci/run installs."""
    import re

    ci = (ROOT / ".ci" / "run").read_text()
    installed = re.search(r"apt-get install -y -qq (.*?) >/dev/null", ci, re.S)
    assert installed is not None
    packages = installed.group(1).replace("\\", " ").split()
    page = (ROOT / "docs" / "development.md").read_text()
    listed = re.search(r"`apt-get install ([^`]*)`", page)
    assert listed is not None and sorted(listed.group(1).split()) == sorted(packages)


def test_the_errors_page_lists_every_kind_the_api_documents() -> None:
    import json
    import re

    document = (ROOT / "docs" / "openapi.json").read_text()
    kinds = set()
    for path in json.loads(document)["paths"].values():
        for operation in path.values():
            for answer in operation.get("responses", {}).values():
                described = re.match(r"`\w+`: (.*)", answer.get("description", ""))
                if described:
                    kinds |= set(re.findall(r"`(\w+)`", described.group(1)))
    page = (ROOT / "docs" / "integrators" / "errors.md").read_text()
    assert kinds and {kind for kind in kinds if f"`{kind}`" not in page} == set()
