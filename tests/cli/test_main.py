"""The labelrender command itself: --version and the help a new user reads."""

from __future__ import annotations

import subprocess
import sys

import pytest

import labelrender


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labelrender.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"labelrender {labelrender.__version__}"


@pytest.mark.parametrize(("args", "must_name"), [
    (["admin", "--help"], ["tenant", "key", "plan", "template", "dlq", "global templates",
                           "webhook dead letters"]),
    (["--help"], ["render", "serve", "api", "worker", "operator", "admin", "--version"]),
    (["render", "--help"], ["--format", "pdf"]),
])
def test_help_is_plain_text_and_names_every_command(args: list[str],
                                                    must_name: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    for name in must_name:
        assert name in done.stdout
    assert "``" not in done.stdout and ":class:" not in done.stdout  # no reStructuredText
