"""The README and the docs site, tried as a new user would: the shell blocks
they mark ``<!-- runnable -->`` run as written, in order (the README's quick
start, then each page in the site's navigation order), in one shell session,
against a live ``labelrender serve`` started (and restarted) as their
``<!-- runnable: serve -->`` blocks say, in a fresh directory holding only the
repository's ``examples/``.

Only the ports change: 8080 (serve) and 9443 (the webhook receiver) become free
ports, so the test never meets another server on the machine."""

from __future__ import annotations

import io
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pikepdf
import pytest
import yaml
from PIL import Image

from tests.cli.test_serve import free_port, wait_for_http

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCK = re.compile(r"<!-- runnable(?P<serve>: serve)? -->\n```bash\n(?P<body>.*?)```\n", re.S)
DONE = "__README_BLOCK_DONE__"
BLOCK_TIMEOUT_S = 240
README_MAX_LINES = 200


def site_pages() -> list[str]:
    """The docs pages (paths under docs/) in the site's navigation order."""
    def walk(entries: list[Any]) -> Iterator[str]:
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            yield from walk(value) if isinstance(value, list) else [value]
    return list(walk(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]))


def documents() -> list[tuple[str, str]]:
    """(name, text) of the README and then every page, in reading order."""
    return [("README.md", README)] + [
        (f"docs/{page}", (ROOT / "docs" / page).read_text()) for page in site_pages()]


def runnable_blocks() -> list[tuple[bool, str]]:
    """(is a serve block, its text), in reading order."""
    return [(bool(m.group("serve")), m.group("body"))
            for _, text in documents() for m in BLOCK.finditer(text)]


def section_of(text: str, offset: int) -> str:
    prose = re.sub(r"^```.*?^```", "", text[:offset], flags=re.S | re.M)  # no shell comments
    return re.findall(r"^#+ (.*)$", prose, re.M)[-1]


def test_the_walk_a_new_user_takes_is_marked_runnable() -> None:
    """Dropping a marker would silently drop a block from the test below."""
    sections = {(name, section_of(text, m.start()))
                for name, text in documents() for m in BLOCK.finditer(text)}
    assert {("README.md", "Quick start: one render with curl"),
            ("docs/integrators/api.md", "The API"),
            ("docs/integrators/labelary.md", "Coming from Labelary"),
            ("docs/integrators/synthesis.md", "Template synthesis"),
            ("docs/integrators/templates.md",
             "The walk: draft, commit, render, new version, delete"),
            ("docs/integrators/webhooks.md", "A local receiver"),
            ("docs/engine/cli.md", "The render CLI")} <= sections
    blocks = runnable_blocks()
    assert blocks[0] == (True, "labelrender serve     # http://127.0.0.1:8080; Ctrl-C stops "
                               "it, state stays in ./.labelrender\n")
    # Every variable a runnable block uses is made by an earlier runnable block.
    made: set[str] = set()
    for serve, body in blocks:
        if serve:
            continue
        used = set(re.findall(r"\$\{?([A-Z_]+)", body)) - {"PWD"}
        made |= set(re.findall(r"(?:^|[;\s])([A-Z_]+)=", body, re.M))
        assert used <= made, f"{sorted(used - made)} come from nowhere"


def test_the_blocks_write_only_under_ignored_folders() -> None:
    """A reader runs the blocks in the repository: what they write goes to out/
    (ignored by git), never beside the tracked files."""
    written = re.compile(r"(?:\s-o|\s-out|\s-keyout|\s-D|(?<![-=>])>|\btee)\s+([\w./-]+)")
    for _, body in runnable_blocks():
        commands = re.sub(r"^\s*#.*$", "", body, flags=re.M)
        for path in written.findall(commands):
            assert path.startswith("out/") or path == "/dev/null", (path, body)


class Shell:
    """One bash session, as the reader's second terminal: each block is sourced
    into it; ``set -eu`` ends the session at the first failing command."""

    def __init__(self, work: Path, env: dict[str, str]) -> None:
        self.work = work
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], cwd=work, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send("set -eu\n")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def run(self, number: int, body: str) -> str:
        script = self.work / f".readme-block-{number}.sh"
        script.write_text(body)
        self._send(f". {script} < /dev/null\necho {DONE}\n")
        output: list[str] = []
        deadline = time.monotonic() + BLOCK_TIMEOUT_S
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"block {number} still running after {BLOCK_TIMEOUT_S} s:\n"
                            f"{body}\n--- output:\n{''.join(output)}")
            if line is None:
                pytest.fail(f"block {number} failed (exit {self.process.wait()}):\n{body}\n"
                            f"--- output:\n{''.join(output)}")
            if line.rstrip("\n").endswith(DONE):  # after output with no newline too
                return "".join(output) + line.rstrip("\n")[:-len(DONE)]
            output.append(line)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


class Serve:
    """The reader's first terminal: a serve block run in its own process group,
    stopped as Ctrl-C stops it."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, command: str, work: Path, env: dict[str, str], port: int) -> None:
        self.stop()
        log = (work / ".serve.log").open("ab")
        self.process = subprocess.Popen(["bash", "-c", command], cwd=work, env=env,
                                        stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        wait_for_http(port)

    def stop(self) -> None:
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
        try:
            self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            raise
        finally:
            self.process = None


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str], Shell, Serve]]:
    for command in ("curl", "openssl", "jq"):
        if shutil.which(command) is None:
            pytest.skip(f"the README's blocks need {command}")
    work = tmp_path / "checkout"
    shutil.copytree(ROOT / "examples", work / "examples")
    # The machine's settings stay; those naming another Redis or store would not be
    # on a new user's machine.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LABELRENDER_", "REDIS_", "S3_", "AWS_"))}
    env.update(LABELRENDER_WORKERS="1", LABELRENDER_RENDER_PROCESSES="2")
    shell, serve = Shell(work, env), Serve()
    try:
        yield work, env, shell, serve
    finally:
        shell.close()
        serve.stop()


def test_the_runnable_blocks_run_as_written(
        reader: tuple[Path, dict[str, str], Shell, Serve]) -> None:
    work, env, shell, serve = reader
    port, hook_port = free_port(), free_port()
    outputs = []
    for number, (is_serve, body) in enumerate(runnable_blocks()):
        body = body.replace("127.0.0.1:8080", f"127.0.0.1:{port}").replace(
            "9443", str(hook_port))
        if is_serve:
            serve.start(body, work, {**env, "LABELRENDER_PORT": str(port)}, port)
            continue
        output = shell.run(number, body)
        if not re.search(r'^#.*"error": \{', body, re.M):  # unless it shows an error
            assert '"error": {' not in output, f"block {number} got an error:\n{body}\n{output}"
        outputs.append(output)
    # What the walk leaves behind is what the README says it is.
    out = work / "out"
    assert Image.open(out / "label.png").size == (812, 1218)
    assert Image.open(out / "hello.png").size == (812, 1218)
    assert Image.open(out / "order.png").size == (1624, 812)  # 812 x 1624 turned 90
    for name, pages in (("hello.pdf", [(288.0, 432.0)]), ("labels.pdf", [(432.0, 288.0)])):
        with pikepdf.open(out / name) as pdf:
            assert [tuple(map(float, page.mediabox[2:])) for page in pdf.pages] == pages
    assert Image.open(io.BytesIO((out / "hello-300.png").read_bytes())).size == (1200, 1800)
    assert json.loads((out / "job.json").read_text())["state"] == "succeeded"
    assert Image.open(out / "label-v1.png").size == (812, 1218)
    (event,) = [json.loads(line) for line in (out / "deliveries.jsonl").read_text().splitlines()]
    assert event["event"] == "label.rendered" and event["data"]["test"] is True
    assert any("X-Total-Count: 1" in output for output in outputs)


FIRST_SCREEN = 60  # lines a reader sees before scrolling (the picture takes one)


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= README_MAX_LINES


@pytest.mark.parametrize(("what", "needle"), [
    ("the Python version", "Python 3.11 or newer"),
    ("a virtual environment", "python3 -m venv .venv && . .venv/bin/activate"),
    ("the development install", 'pip install -e ".[test]"'),
    ("the serve command", "labelrender serve"),
    ("the test command", "python -m pytest"),
    ("a picture of a rendered label", '<img src="docs/images/shipping.png"'),
])
def test_the_first_screen_says(what: str, needle: str) -> None:
    assert needle in "\n".join(README.splitlines()[:FIRST_SCREEN]), f"no {what} on it"


@pytest.mark.parametrize("needle", [
    "## Coming from Labelary", "(docs/integrators/labelary.md)", "## Where to go next"])
def test_the_readme_points_on(needle: str) -> None:
    assert needle in README


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_stays_in_the_repository() -> None:
    """The README's links (mkdocs build --strict checks the site's own)."""
    anchors = {slug(h) for h in re.findall(r"^#+ (.*)$", README, re.M)}
    targets = re.findall(r"\]\(([^)\s]+)\)", README)
    assert targets
    for target in targets:
        if target.startswith("#"):
            assert target[1:] in anchors, f"no heading for {target}"
        else:
            assert "://" not in target and not target.startswith(".."), target
            path, _, anchor = target.partition("#")
            assert (ROOT / path).exists(), f"{target} is not in the repository"
            if anchor:
                headings = re.findall(r"^#+ (.*)$", (ROOT / path).read_text(), re.M)
                assert anchor in {slug(h) for h in headings}, f"no heading for {target}"


def test_every_page_is_in_the_site() -> None:
    """A page left out of the navigation would be missed by readers and by the
    runnable walk."""
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages == set(site_pages())


def test_the_example_receiver_verifies_with_the_readmes_code() -> None:
    """examples/webhook_receiver.py holds the docs' integrator code, word for word."""
    webhooks = (ROOT / "docs" / "integrators" / "webhooks.md").read_text()
    block = re.search(r"<!-- webhook-verify:start -->\n```python\n(.*?)```", webhooks, re.S)
    assert block is not None
    function = block.group(1)[block.group(1).index("TOLERANCE_S = "):]
    assert function in (ROOT / "examples" / "webhook_receiver.py").read_text()
