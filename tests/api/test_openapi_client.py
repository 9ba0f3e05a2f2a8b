"""Clients can be generated from the document: ``openapi-python-client`` (the
generator the README shows) accepts it offline, with no warning, and the
client it writes talks to a live server."""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import Api, Caller

ROOT = Path(__file__).resolve().parents[2]
# The module, not the script: pip may put scripts off the PATH.
GENERATOR = ([sys.executable, "-m", "openapi_python_client"]
             if importlib.util.find_spec("openapi_python_client") else None)
# The generator writes no binary response but application/octet-stream's.
CONFIG = 'content_type_overrides:\n  image/png: application/octet-stream\n'
PACKAGE = "labelrender_client"

pytestmark = pytest.mark.skipif(GENERATOR is None and not os.environ.get("CI"),
                                reason="needs openapi-python-client (the test extra)")


def generator_env() -> dict[str, str]:
    """The generator formats its output with ruff (its dependency), found on PATH."""
    scripts = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    where = tmp_path_factory.mktemp("client")
    (where / "config.yaml").write_text(CONFIG)
    assert GENERATOR is not None, "openapi-python-client is not installed"
    run = subprocess.run(
        [*GENERATOR, "generate", "--path", str(ROOT / "docs" / "openapi.json"),
         "--output-path", str(where / PACKAGE), "--meta", "none",
         "--config", str(where / "config.yaml")],
        capture_output=True, text=True, timeout=300, cwd=where, env=generator_env())
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_the_generator_writes_a_function_for_every_operation(generated: Any) -> None:
    import json

    document = json.loads((ROOT / "docs" / "openapi.json").read_text())
    for item in document["paths"].values():
        for operation in item.values():
            tag = operation["tags"][0].lower()
            name = "".join("_" + c.lower() if c.isupper() else c
                           for c in operation["operationId"])
            module = importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")
            assert callable(module.asyncio_detailed), operation["operationId"]


async def test_the_generated_client_talks_to_the_server(
        generated: Any, api: Api, make_caller: Callable[..., Caller]) -> None:
    from labelrender_client.api.account import get_whoami  # type: ignore[import-not-found]
    from labelrender_client.models import Whoami  # type: ignore[import-not-found]

    caller = make_caller("pro")
    client = generated.AuthenticatedClient(base_url=api.base, token=caller.secret)
    async with client as session:
        whoami = await get_whoami.asyncio(client=session)
        wrong = await get_whoami.asyncio_detailed(
            client=generated.AuthenticatedClient(base_url=api.base, token="svc_live_00"))
    assert isinstance(whoami, Whoami)
    assert (whoami.tenant_id, whoami.plan.name) == (caller.tenant_id, "pro")
    assert wrong.status_code == 401
    assert wrong.parsed.error.kind == "Unauthorized"
