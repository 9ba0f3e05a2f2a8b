"""Files written by the filesystem object store reach the disk within a second.

A stored label is visible to every process as soon as it is linked into place;
``fsync`` only decides whether it survives a power cut. Waiting for it on every
put cost 8 ms a label on these machines (the file, then its directory), more
than the render. The filesystem store is the embedded mode's, whose Redis
writes its append-only file once a second (``appendfsync everysec``,
``store.redis_conn``): the labels it bills are now as durable as the billing,
synced by one thread once a second, and at interpreter exit.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)

FLUSH_INTERVAL_S = 1.0


class DiskFlusher:
    """Syncs the files (and the directories holding them) handed to ``written``,
    at most ``interval_s`` later, from one daemon thread started on first use."""

    def __init__(self, interval_s: float = FLUSH_INTERVAL_S) -> None:
        self._interval_s = interval_s
        self._lock = threading.Lock()
        self._files: set[Path] = set()
        self._thread: threading.Thread | None = None

    def written(self, path: Path) -> None:
        with self._lock:
            self._files.add(path)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="disk-flush",
                                                daemon=True)
                self._thread.start()
                atexit.register(self.flush)

    def flush(self) -> int:
        """Sync everything written so far, now; how many of those files were still there."""
        with self._lock:
            files, self._files = self._files, set()
        synced = sum(_sync(path) for path in files)
        for directory in {path.parent for path in files}:
            _sync(directory)  # the links themselves
        return synced

    def _run(self) -> None:
        while True:
            time.sleep(self._interval_s)
            self.flush()


def _sync(path: Path) -> bool:
    """fsync one file or directory; one deleted meanwhile (retention) needs none."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        os.fsync(fd)
    except OSError as exc:  # the disk failing: nothing to retry here, say so
        log.warning("could not sync %s to disk: %s", path, exc)
    finally:
        os.close(fd)
    return True


FLUSHER = DiskFlusher()
