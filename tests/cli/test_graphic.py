"""labelrender graphic, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from tests.fixtures.images import encoded, logo, pdf_of, png_declaring, printed, thresholded


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labelrender.cli", "graphic", *args],
                          capture_output=True, text=True, timeout=120)


def test_a_logo_into_a_label_file(tmp_path: Path) -> None:
    image = logo()
    source = tmp_path / "logo.png"
    source.write_bytes(encoded(image, "PNG"))
    out = tmp_path / "logo.zpl"
    done = run(str(source), "-o", str(out), "--compression", "Z64", "--threshold", "100")
    assert done.returncode == 0, done.stderr
    assert "203 x 101 dots" in done.stderr
    zpl = out.read_text()
    assert ":Z64:" in zpl
    assert np.array_equal(printed(zpl, 203, 101), thresholded(image, 100))


def test_the_field_alone_on_standard_output(tmp_path: Path) -> None:
    source = tmp_path / "logo.pdf"
    source.write_bytes(pdf_of(logo(mode="L"), pages=2))
    done = run(str(source), "--field", "--page", "2", "--width", "100", "--invert")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("^GFA,650,650,13,") and done.stdout.endswith("^FS")


def test_mistakes_are_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_declaring(100_000, 100_000))
    done = run(str(bomb))
    assert done.returncode == 1 and "over the limit" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = run(str(tmp_path / "missing.png"))
    assert done.returncode == 1 and "cannot read" in done.stderr
    done = run(str(bomb), "--threshold", "300")
    assert done.returncode == 2 and "threshold must be from 0 to 255" in done.stderr
    done = run(str(bomb), "--compression", "ZIP")
    assert done.returncode == 2  # argparse's own message
