"""render() from many threads and processes gives the same bytes as one at a time."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from labelrender.zpl import RenderOptions, render

GOLDEN = Path(__file__).with_name("golden")
LABELS = [p.read_bytes() for p in sorted(GOLDEN.glob("*.zpl"))]
OPTIONS = [RenderOptions(dpi=dpi, source_dpi=203, font_profile=profile)
           for dpi in (203, 300) for profile in (None, "roboto")]


def _job(args: tuple[int, int]) -> bytes:
    label, option = args
    return render(LABELS[label], OPTIONS[option]).png


def test_threads_and_processes_agree_with_serial() -> None:
    jobs = [(i, j) for i in range(len(LABELS)) for j in range(len(OPTIONS))]
    serial = [_job(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(_job, jobs * 2)) == serial * 2
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(_job, jobs)) == serial
