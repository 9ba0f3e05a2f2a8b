"""A dispatcher in its own process, for the crash test to kill with SIGKILL."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from labelrender.store import connect
from labelrender.store.objects import FilesystemStore
from labelrender.store.signing import UrlSigner
from labelrender.worker.dispatcher import WebhookDispatcher
from tests.api.conftest import SIGNING_SECRET
from tests.webhooks.conftest import DnsTable, dispatcher_config


def main(redis_url: str, objects_dir: str, ca_file: str, timeout_s: str, lease_s: str) -> None:
    store = FilesystemStore(Path(objects_dir), UrlSigner(SIGNING_SECRET))
    config = dispatcher_config("http://127.0.0.1:9/v1", Path(ca_file), DnsTable(),
                               timeout_s=float(timeout_s), lease_s=float(lease_s))
    dispatcher = WebhookDispatcher(connect(url=redis_url), store, config, consumer="doomed")
    dispatcher.run(threading.Event())  # until killed


if __name__ == "__main__":
    main(*sys.argv[1:])
