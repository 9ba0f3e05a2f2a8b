"""Links the filesystem object store makes reach the disk within a second.

A stored label is visible to every process as soon as it is linked into place;
``fsync`` only decides whether it survives a power cut or a kernel crash (a
process that crashes loses nothing: the kernel holds the file). The store syncs
a label's bytes before it links them, so a link that survives never names an
empty or torn file; the link itself (the directory holding it) is synced here,
by one thread once a second and at interpreter exit, rather than by every put:
the two syncs per put cost up to 8 ms a label on these shared machines, more
than the render. The filesystem store is the embedded mode's, whose Redis
writes its append-only file once a second (``appendfsync everysec``,
``store.redis_conn``): a label is as durable as its billing, and one lost in
the last second before a power cut is rendered again when next asked for.
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
    """Syncs the directories of the files handed to ``linked`` (their links), at
    most ``interval_s`` later, from one daemon thread started on first use."""

    def __init__(self, interval_s: float = FLUSH_INTERVAL_S) -> None:
        self._interval_s = interval_s
        self._lock = threading.Lock()
        self._folders: set[Path] = set()
        self._thread: threading.Thread | None = None

    def linked(self, path: Path) -> None:
        with self._lock:
            self._folders.add(path.parent)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="disk-flush",
                                                daemon=True)
                self._thread.start()
                atexit.register(self.flush)

    def flush(self) -> int:
        """Sync every link made so far, now; how many of their folders were still there."""
        with self._lock:
            folders, self._folders = self._folders, set()
        return sum(_sync(folder) for folder in folders)

    def _run(self) -> None:
        while True:
            time.sleep(self._interval_s)
            self.flush()


def _sync(path: Path) -> bool:
    """fsync one directory; one deleted meanwhile (retention) needs none."""
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
