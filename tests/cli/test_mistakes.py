"""Every user mistake the ``labelrender`` command can meet ends in one line
that says what is wrong and what to do, and a documented exit code: never a
traceback. Each row is run as a user runs it, a subprocess in a fresh
directory (``{tmp}`` is that directory, ``{busy}`` a port another process holds,
``{free}`` one nothing listens on).

Exit codes (docs/engine/cli.md, docs/operators/admin.md): 0 done, 1 a file
could not be rendered or an admin command was refused, 2 bad usage or
configuration, 3 a tier it needs (Redis, the port, the data directory) is
unavailable."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_serve import free_port

ROOT = Path(__file__).resolve().parents[2]
HELLO = str(ROOT / "examples" / "hello.zpl")
LOGO = str(ROOT / "docs" / "images" / "shipping.png")

# (command line, environment, exit code, text the one line holds)
MISTAKES: list[tuple[list[str], dict[str, str], int, str]] = [
    # render: output paths
    (["render", HELLO, "-o", "{tmp}/nodir/x.png"], {}, 1, "create it first (mkdir -p"),
    (["render", HELLO, "-o", "/proc/x.png"], {}, 1, "choose a place you can write to"),
    (["render", HELLO, "-o", "{tmp}"], {}, 1, "it is a folder"),
    (["render", HELLO, "-o", "{tmp}/x.jpg"], {}, 2, "name the output x.png or x.pdf"),
    (["render", HELLO, "--out-dir", "/proc/x"], {}, 2, "choose a folder you can write to"),
    (["render", "{tmp}/missing.zpl", "-o", "{tmp}/x.png"], {}, 1, "No such file"),
    (["render", HELLO, HELLO, "-o", "{tmp}/x.png"], {}, 2, "use --out-dir for several"),
    (["render", HELLO, "-o", "{tmp}/x.png", "--width-dots", "100"], {}, 2, "together"),
    # render: values
    (["render", HELLO, "-o", "{tmp}/x.png", "--dpi", "0"], {}, 1, "dpi"),
    (["render", HELLO, "-o", "{tmp}/x.png", "--index", "7"], {}, 1, "index"),
    (["render", HELLO, "-o", "{tmp}/x.png", "--rotate", "45"], {}, 2, "invalid choice"),
    (["render", HELLO, "-o", "{tmp}/x.png", "--dpi", "high"], {}, 2, "invalid int value"),
    ([], {}, 2, "required: command"),
    # graphic
    (["graphic", "{tmp}/missing.png", "-o", "{tmp}/x.zpl"], {}, 1, "cannot read"),
    (["graphic", "{tmp}/file", "-o", "{tmp}/x.zpl"], {}, 1, "is not a PNG, JPEG, GIF, BMP or PDF"),
    (["graphic", LOGO, "-o", "{tmp}/nodir/x.zpl"], {}, 1, "cannot write"),
    # data directories
    (["serve"], {"LABELRENDER_DATA_DIR": "/proc/nope"}, 3, "point LABELRENDER_DATA_DIR at"),
    (["worker"], {"LABELRENDER_DATA_DIR": "/proc/nope", "LABELRENDER_EMBEDDED_REDIS": "true"}, 3,
     "point LABELRENDER_DATA_DIR at"),
    (["worker"], {}, 2, "no Redis to share: set REDIS_URL"),
    (["admin", "plan", "list"], {"LABELRENDER_DATA_DIR": "/proc/nope"}, 3,
     "point LABELRENDER_DATA_DIR at"),
    (["admin", "plan", "list"], {"LABELRENDER_DATA_DIR": "{tmp}/file"}, 3, "it is a file"),
    # ports
    (["serve", "--port", "70000"], {}, 2, "LABELRENDER_PORT (or --port)"),
    (["serve", "--port", "eighty"], {}, 2, "invalid int value"),
    (["serve"], {"LABELRENDER_PORT": "eighty"}, 2, "LABELRENDER_PORT (or --port)"),
    (["api", "--port", "{busy}"], {"REDIS_URL": "redis://127.0.0.1:{busy}"}, 3, "in use"),
    (["serve", "--port", "{busy}"], {}, 3, "choose another with --port"),
    (["worker"], {"LABELRENDER_HEALTH_PORT": "99999"}, 2, "LABELRENDER_HEALTH_PORT"),
    # environment values
    (["serve"], {"LABELRENDER_WORKERS": "0"}, 2, "LABELRENDER_WORKERS"),
    (["admin", "plan", "list"], {"LABELRENDER_LOG_LEVEL": "LOUD"}, 2, "LABELRENDER_LOG_LEVEL"),
    (["admin", "plan", "list"], {"REDIS_URL": "localhost:6379"}, 2, "REDIS_URL must start"),
    (["api"], {"REDIS_URL": "redis://127.0.0.1:{free}"}, 3, "Redis is not reachable"),
    (["serve"], {"LABELRENDER_URL_SECRET": "short"}, 2, "LABELRENDER_URL_SECRET"),
    (["serve"], {"S3_BUCKET": "b", "S3_ENDPOINT_URL": "minio:9000"}, 2, "S3_ENDPOINT_URL"),
    (["serve"], {"LABELRENDER_WEBHOOK_ALLOW_NETWORKS": "office"}, 2,
     "LABELRENDER_WEBHOOK_ALLOW_NETWORKS"),
    (["serve"], {"LABELRENDER_WEBHOOK_BACKOFF_S": "soon"}, 2, "LABELRENDER_WEBHOOK_BACKOFF_S"),
    (["operator"], {"KUBECONFIG": "{tmp}/missing", "LABELRENDER_EMBEDDED_REDIS": "true"}, 3,
     "no cluster to run against"),
    # admin names
    (["admin", "tenant", "create", "--name", "A", "--plan", "gold"], {}, 1,
     "`labelrender admin plan list` lists them"),
    (["admin", "tenant", "show", "tnt_nope"], {}, 1, "`labelrender admin tenant list` lists"),
    (["admin", "key", "list", "tnt_nope"], {}, 1, "`labelrender admin tenant list` lists"),
    (["admin", "key", "revoke", "tnt_nope", "0123abcd"], {}, 1, "admin tenant list"),
]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port a listening socket holds (and that answers nothing a client wants)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


@pytest.mark.parametrize(("argv", "env", "code", "says"), MISTAKES,
                         ids=[" ".join(row[0][:3]) + " " + " ".join(row[1]) for row in MISTAKES])
def test_a_mistake_is_one_line_and_an_exit_code(
        argv: list[str], env: dict[str, str], code: int, says: str,
        tmp_path: Path, busy_port: int) -> None:
    (tmp_path / "file").write_text("not a folder")

    def fill(text: str) -> str:
        return (text.replace("{tmp}", str(tmp_path)).replace("{busy}", str(busy_port))
                .replace("{free}", str(free_port())))

    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("LABELRENDER_", "REDIS_", "S3_", "KUBECONFIG"))}
    done = subprocess.run(
        [sys.executable, "-m", "labelrender.cli", *map(fill, argv)], cwd=tmp_path,
        env={**clean, "LABELRENDER_DATA_DIR": str(tmp_path / "data"),
             **{k: fill(v) for k, v in env.items()}},
        capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    assert (done.returncode, says in output) == (code, True), output
    problems = [line for line in done.stderr.splitlines() if "warning:" not in line
                and not line.startswith("rendered ") and not line.startswith("usage:")
                and not line.startswith("  ")]
    assert len(problems) == 1, done.stderr  # one line says it
