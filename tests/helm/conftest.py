"""Fixtures of the chart tests: a memo of kubernetes-validate's schema files."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import kubernetes_validate.utils
import pytest


@pytest.fixture(scope="session", autouse=True)
def cached_kubernetes_schemas() -> Iterator[None]:
    """kubernetes-validate reads its JSON schema files on every call (megabytes
    each); the files never change, so read each once per session."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kubernetes_validate.utils, "schema_contents",
                      functools.cache(kubernetes_validate.utils.schema_contents))
        yield
