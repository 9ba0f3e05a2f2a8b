"""The labelrender command, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LABEL = b"^XA^FO20,20^A0N,40,40^FDHELLO^FS^FO20,80^BCN,60^FD12345^FS^XZ"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labelrender.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_render_one_file(tmp_path: Path) -> None:
    source = tmp_path / "label.zpl"
    source.write_bytes(LABEL)
    out = tmp_path / "label.png"
    done = run("render", str(source), "-o", str(out), "--dpi", "300", "--source-dpi", "203",
               "--width-dots", "400", "--height-dots", "200")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "rendered 1 label(s), 0 failed" in done.stderr
    assert "ms/label" in done.stderr


def test_render_directory_with_warnings_and_failures(tmp_path: Path) -> None:
    (tmp_path / "good.zpl").write_bytes(LABEL)
    (tmp_path / "odd.zpl").write_bytes(b"^XA^QQ^FO1,1^GB5,5,5^FS^XZ")
    (tmp_path / "bad.zpl").write_bytes(b"no labels here")
    out = tmp_path / "png"
    done = run("render", *(str(tmp_path / n) for n in ("good.zpl", "odd.zpl", "bad.zpl")),
               "--out-dir", str(out), "--threshold", "--rotate", "90")
    assert done.returncode == 1
    assert sorted(p.name for p in out.iterdir()) == ["good.png", "odd.png"]
    assert "odd.zpl: warning: offset 3: ^QQ: unknown command" in done.stderr
    assert "bad.zpl: error:" in done.stderr
    assert "rendered 2 label(s), 1 failed" in done.stderr


def test_usage_errors(tmp_path: Path) -> None:
    assert run("render", "a.zpl", "b.zpl", "-o", "x.png").returncode == 2
    assert run("render", "a.zpl", "-o", "x.png", "--width-dots", "10").returncode == 2
    assert run("render", "a.zpl").returncode == 2  # argparse: -o or --out-dir required


def test_render_pdf_every_label(tmp_path: Path) -> None:
    source = tmp_path / "two.zpl"
    source.write_bytes(LABEL + LABEL.replace(b"HELLO", b"AGAIN"))
    out = tmp_path / "two.pdf"
    done = run("render", str(source), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF-")
    assert "rendered 2 label(s), 0 failed" in done.stderr
    one = tmp_path / "one"
    done = run("render", str(source), "--out-dir", str(one), "--format", "pdf", "--index", "1")
    assert done.returncode == 0, done.stderr
    assert (one / "two.pdf").read_bytes().startswith(b"%PDF-")
    assert "rendered 1 label(s), 0 failed" in done.stderr


HELLO = Path(__file__).resolve().parents[2] / "examples" / "hello.zpl"


def test_an_overflow_names_the_fix_and_fit_content_makes_room(tmp_path: Path) -> None:
    from PIL import Image

    short = run("render", str(HELLO), "-o", str(tmp_path / "short.png"), "--width-dots", "812",
                "--height-dots", "200")
    assert short.returncode == 0
    assert "a label of ^LL303 fits it" in short.stderr  # the ^GB reaches 103 dots past
    assert "--fit-content" in short.stderr and "--height-dots" in short.stderr
    assert Image.open(tmp_path / "short.png").size == (812, 200)

    fitted = run("render", str(HELLO), "-o", str(tmp_path / "fit.png"), "--width-dots", "812",
                 "--height-dots", "200", "--fit-content")
    assert fitted.returncode == 0 and "overflows" not in fitted.stderr
    assert Image.open(tmp_path / "fit.png").size == (812, 303)


def test_fit_content_is_off_by_default_and_never_shrinks(tmp_path: Path) -> None:
    """Labelary parity: the default canvas is the label's, whatever the content."""
    from PIL import Image

    for extra in ([], ["--fit-content"]):
        done = run("render", str(HELLO), "-o", str(tmp_path / "hello.png"), *extra)
        assert done.returncode == 0
        assert Image.open(tmp_path / "hello.png").size == (812, 1218)
