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
