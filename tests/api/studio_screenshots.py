"""Refresh the studio's screenshots in docs/studio/: run the studio's browser
tests with their screenshots pointed at that folder (the suite itself writes
them to a temporary folder only).

    python -m tests.api.studio_screenshots
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.api.test_studio import SHOTS_FOLDER

ROOT = Path(__file__).resolve().parents[2]
TAKES_SCREENSHOTS = ("test_typing_zpl_changes_the_preview or "
                     "test_synthesize_review_rename_commit_and_render or "
                     "test_every_section_fits_the_window")


def main() -> int:
    os.environ[SHOTS_FOLDER] = str(ROOT / "docs" / "studio")
    return int(pytest.main([str(ROOT / "tests" / "api" / "test_studio.py"), "-q",
                            "-k", TAKES_SCREENSHOTS]))


if __name__ == "__main__":
    sys.exit(main())
