"""``labelrender admin template``: global templates from LabelTemplate YAML."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from labelrender.cli import main
from labelrender.store import socket_url, templates
from tests.cli.test_admin import admin, admin_json

EXAMPLE = Path(__file__).parents[2] / "examples" / "label-template.yaml"
GOOD = EXAMPLE.read_text()


@pytest.fixture
def env(redis_db: redis.Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
        ) -> dict[str, str]:
    url = socket_url(redis_db) or os.environ["REDIS_URL"]
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("LABELRENDER_DATA_DIR", str(tmp_path))
    return {**os.environ, "REDIS_URL": url, "LABELRENDER_DATA_DIR": str(tmp_path)}


def test_apply_is_idempotent_and_versions_changes(env: dict[str, str], redis_db: redis.Redis,
                                                  tmp_path: Path) -> None:
    first = admin_json(env, "template", "apply", "-f", str(EXAMPLE))
    assert first == {"scope": "global", "applied": [
        {"template_id": "carrier-std", "version": 1, "status": "created"}]}
    changed = tmp_path / "changed.yaml"
    changed.write_text(GOOD.replace("40,40", "50,50"))
    assert main(["admin", "template", "apply", "-f", str(EXAMPLE)]) == 0  # unchanged
    assert main(["admin", "template", "apply", "-f", str(changed)]) == 0
    found = templates.resolve(redis_db, "tnt_" + "a" * 26, "carrier-std")
    assert found is not None and found.version == 2 and found.scope == "global"
    assert found.field_names == ["ship_to_city", "ship_to_name", "tracking_number"]
    assert (found.width_dots, found.height_dots, found.source_dpi) == (812, 406, 203)
    assert main(["admin", "template", "delete", "carrier-std"]) == 0
    assert templates.resolve(redis_db, "tnt_" + "a" * 26, "carrier-std") is None
    assert admin(env, "template", "delete", "carrier-std").returncode == 1


@pytest.mark.parametrize(("text", "message"), [
    (GOOD.replace("kind: LabelTemplate", "kind: Plan"), "LabelTemplate"),
    (GOOD.replace("labelrender.io/v1", "example.com/v9"), "apiVersion"),
    (GOOD.replace("tracking_number: 3", "tracking_number: 4"), "does not match"),
    (GOOD.replace("  sourceDpi: 203", "  sourceDpi: 203\n  colour: red"), "colour"),
    (GOOD.replace("name: carrier-std", "name: ../etc"), "template id"),
    (GOOD.replace("    ^XA\n", ""), "does not render"),
    ("{{ not yaml", "cannot read"),
], ids=["kind", "api-version", "field-map", "unknown-spec", "bad-name", "no-render", "yaml"])
def test_apply_refuses_bad_resources(env: dict[str, str], redis_db: redis.Redis,
                                     tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["admin", "template", "apply", "-f", str(path)]) == 1
    assert message in capsys.readouterr().err
    assert templates.list_templates(redis_db, None) == []
