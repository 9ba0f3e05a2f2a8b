"""The labelrender command itself: --version and the help a new user reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import labelrender


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labelrender.cli", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    done = run(flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"labelrender {labelrender.__version__}"


@pytest.mark.parametrize(("args", "must_name"), [
    (["admin", "--help"], ["tenant", "key", "plan", "template", "dlq", "global templates",
                           "webhook dead letters"]),
    (["--help"], ["render", "serve", "api", "worker", "operator", "admin", "--version"]),
    (["render", "--help"], ["--format", "pdf", "--fit-content"]),
    (["api", "--help"], ["Run the HTTP API alone", "REDIS_URL", "Exit codes"]),
    (["worker", "--help"], ["Run one render worker", "REDIS_URL", "Exit codes"]),
    (["serve", "--help"], ["Run the service on one machine", "LABELRENDER_DATA_DIR"]),
])
def test_help_is_plain_text_and_names_every_command(args: list[str],
                                                    must_name: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    for name in must_name:
        assert name in done.stdout
    assert "``" not in done.stdout and ":class:" not in done.stdout  # no reStructuredText


def test_output_cut_short_is_no_traceback(tmp_path: Path) -> None:
    """`labelrender admin plan list | head -n 1`: the pipe closes early, quietly."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "S3_BUCKET")}
    env["LABELRENDER_DATA_DIR"] = str(tmp_path / "data")
    done = subprocess.run(
        f"{sys.executable} -m labelrender.cli admin plan list | head -n 1",
        shell=True, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout == "{\n"
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
