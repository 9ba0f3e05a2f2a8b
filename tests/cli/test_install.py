"""A plain install serves: the package built as a wheel holds what serve needs (its
fonts included), and serve renders a label with every test extra made unimportable."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from pathlib import Path

from tests.cli.test_serve import free_port, wait_for_http

ROOT = Path(__file__).resolve().parents[2]
# Top-level modules of the test extra's packages (pyproject.toml [project.optional-dependencies]).
TEST_MODULES = ("pytest", "pytest_aiohttp", "hypothesis", "zxingcpp", "moto", "mypy", "ruff",
                "trustme", "kmock", "helm_sdk", "kubernetes_validate", "jsonschema")
BLOCKER = f"""
import importlib.abc, sys
BLOCKED = {TEST_MODULES!r}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is a test extra: a plain install does not have it")
        return None
sys.meta_path.insert(0, Blocker())
"""


def test_the_test_extra_is_only_for_tests() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = " ".join(project["dependencies"]).lower()
    extras = project["optional-dependencies"]["test"]
    assert extras and not any(re.split(r"[<>=\[ ]", extra)[0].lower() in runtime
                              for extra in extras)


def test_the_wheel_holds_what_serve_needs(tmp_path: Path) -> None:
    # Built from a copy: setuptools leaves build/ behind, and reuses what it finds there.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", ".labelrender", "__pycache__", ".*_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(source)], check=True, timeout=300, capture_output=True)
    (wheel,) = tmp_path.glob("labelrender-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "labelrender/zpl/fonts/IBMPlexSansCondensed-Bold.ttf" in names
    assert "labelrender/cli/serve.py" in names and "labelrender/api/labelary.py" in names
    assert any(name.endswith("entry_points.txt") for name in names)
    assert not any(name.startswith("tests/") for name in names)


def test_serve_runs_without_the_test_extras(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(BLOCKER)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
    env.update(PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(ROOT)]),
               LABELRENDER_DATA_DIR=str(tmp_path / "data"), LABELRENDER_WORKERS="1",
               LABELRENDER_RENDER_PROCESSES="1", LABELRENDER_PORT=str(port))
    probe = subprocess.run([sys.executable, "-c", "import pytest"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert "test extra" in probe.stderr  # the blocker is in force
    process = subprocess.Popen([sys.executable, "-m", "labelrender.cli", "serve"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        key = None
        for line in process.stdout:
            found = re.search(r"svc_live_[0-9a-f]{64}", line)
            key = found.group(0) if found else key
            if line.startswith("API at"):
                break
        assert key, "no demo key"
        wait_for_http(port)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/labels", headers={
                "Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            data=json.dumps({"zpl": "^XA^FO50,50^A0N,50^FDplain^FS^XZ"}).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert json.load(answer)["status"] == "ok"
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=60)
    assert "test extra" not in errors
