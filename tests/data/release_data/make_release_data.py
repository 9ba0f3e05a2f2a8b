"""Make the data directory of a release before tenant groups (key names
``lr:tenant:<tid>...``, one render stream), for the migration test.

Run from the repository root of THAT release, with its package importable:

    PYTHONPATH=. python3 tests/data/release_data/make_release_data.py

It drives the release's own code: ``labelrender admin`` for tenants, keys and a
global template, ``labelrender serve`` and ``labelrender api`` (embedded Redis
in a temporary data directory) for templates, renders, an idempotent request,
usage and webhooks, and the store's ``put_plan`` (what the operator calls) for
a plan override. It leaves behind, on purpose:

- a dead letter (a subscription whose receiver never answers, retried fast);
- a delivery scheduled for a retry an hour away (the same, retried slowly);
- an event no dispatcher has read yet, and a synthesis job no worker has run
  (``labelrender api`` alone, no worker).

It writes next to itself ``appendonly.aof`` (the embedded server's log, plain
text), ``objects/templates/`` (the committed template bodies, ZPL text, from
the data directory's object store; rendered PNGs are left out) and
``manifest.json`` (ids and secrets the test checks).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
TEMPLATE_ZPL = "^XA^PW400^LL200^FO20,20^A0N,40,40^FN1^FS^FO20,80^A0N,30,30^FN2^FS^XZ"
RAW_ZPL = "^XA^PW400^LL200^FO20,20^A0N,40,40^FDRelease data^FS^XZ"
GLOBAL_TEMPLATE = """\
apiVersion: labelrender.io/v1
kind: LabelTemplate
metadata:
  name: release-global
spec:
  description: a global template stored by the release
  sourceDpi: 203
  widthDots: 400
  heightDots: 200
  body: "^XA^PW400^LL200^FO20,20^A0N,40,40^FN1^FS^XZ"
  fieldMap:
    name: 1
  sampleValues:
    name: Global
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def admin(env: dict[str, str], *args: str) -> Any:
    done = subprocess.run([sys.executable, "-m", "labelrender.cli", "admin", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"admin {' '.join(args)}: {done.stderr.strip()}")
    return json.loads(done.stdout) if done.stdout.strip() else None


def call(base: str, method: str, path: str, secret: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": f"Bearer {secret}", "Content-Type": "application/json",
        **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def expect(answer: tuple[int, Any], *statuses: int) -> Any:
    status, body = answer
    if status not in statuses:
        raise SystemExit(f"unexpected answer {status}: {body}")
    return body


class Service:
    """``labelrender serve`` (or ``api``) on a free port, stopped by ``close``."""

    def __init__(self, env: dict[str, str], *command: str) -> None:
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "labelrender.cli", *command, "--port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=5):
                    return
            except (OSError, urllib.error.HTTPError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"{command[0]} did not become ready") from None
                time.sleep(0.3)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(60)


def wait_for(check: Any, what: str, timeout_s: float = 60) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.3)
    raise SystemExit(f"timed out waiting for {what}")


def make_tenants(env: dict[str, str], manifest: dict[str, Any]) -> None:
    first = admin(env, "tenant", "create", "--name", "Release One", "--plan", "pro")
    second = admin(env, "tenant", "create", "--name", "Release Two", "--plan", "warehouse")
    spare = admin(env, "key", "create", first["tenant_id"], "--label", "spare")
    revoked = admin(env, "key", "create", first["tenant_id"], "--label", "old")
    admin(env, "key", "revoke", first["tenant_id"], revoked["key_prefix"])
    manifest["tenants"] = {
        "one": {"tenant_id": first["tenant_id"], "secret": first["api_key"],
                "spare_secret": spare["api_key"], "revoked_secret": revoked["api_key"]},
        "two": {"tenant_id": second["tenant_id"], "secret": second["api_key"]}}
    template_file = Path(env["LABELRENDER_DATA_DIR"]).parent / "global.yaml"
    template_file.write_text(GLOBAL_TEMPLATE)
    admin(env, "template", "apply", "-f", str(template_file))


def override_plan(data_dir: Path) -> None:
    """A Plan resource's override, stored as the operator stores it."""
    sys.path.insert(0, str(ROOT))
    from labelrender.store.owners import Owner
    from labelrender.store.plans import get_plan, plan_from_dict, put_plan
    from labelrender.store.redis_conn import connect

    client = connect(data_dir=data_dir)
    base = get_plan(client, "warehouse")
    put_plan(client, plan_from_dict({"labels_per_month": 777}, base),
             Owner("warehouse", "0f3c2a5e-release-data"))
    client.close()


def renders(base: str, manifest: dict[str, Any]) -> None:
    one, two = manifest["tenants"]["one"], manifest["tenants"]["two"]
    for tenant in (one, two):
        expect(call(base, "POST", "/v1/templates/shipping", tenant["secret"], {
            "body": TEMPLATE_ZPL, "field_map": {"name": 1, "city": 2}}), 201)
    fields = {"name": "Ada Lovelace", "city": "London"}
    rendered = expect(call(base, "POST", "/v1/labels/from-data", one["secret"],
                           {"template_id": "shipping", "fields": fields}), 200)
    expect(call(base, "POST", "/v1/labels", one["secret"], {"zpl": RAW_ZPL},
                {"Idempotency-Key": "release-order-1"}), 200)
    expect(call(base, "POST", "/v1/labels/from-data", one["secret"],
                {"template_id": "release-global", "fields": {"name": "Grace"}}), 200)
    manifest["rendered"] = {"fields": fields, "content_hash": rendered["content_hash"]}


def dead_letter(base: str, manifest: dict[str, Any]) -> None:
    """Tenant two's subscription to a port nothing listens on, with retries
    50 ms apart: its event ends as a dead letter."""
    two = manifest["tenants"]["two"]
    url = f"https://127.0.0.1:{free_port()}/hooks"
    expect(call(base, "POST", "/v1/webhooks/dead-end", two["secret"], {"url": url}), 201, 200)
    expect(call(base, "POST", "/v1/labels/from-data", two["secret"], {
        "template_id": "shipping", "fields": {"name": "Dead", "city": "Letter"}}), 200)
    wait_for(lambda: len(call(base, "GET", "/v1/webhooks/dead-end/deliveries",
                              two["secret"])[1]["deliveries"]) >= 3, "the dead letter")


def scheduled_retry(base: str, manifest: dict[str, Any]) -> None:
    """Tenant one's subscription, retried an hour after its first failure."""
    one = manifest["tenants"]["one"]
    url = f"https://127.0.0.1:{free_port()}/hooks"
    hook = expect(call(base, "POST", "/v1/webhooks/hourly", one["secret"], {"url": url}),
                  201, 200)
    manifest["tenants"]["one"]["signing_secret"] = hook["signing_secret"]
    expect(call(base, "POST", "/v1/labels/from-data", one["secret"], {
        "template_id": "shipping", "fields": manifest["rendered"]["fields"]}), 200)
    wait_for(lambda: call(base, "GET", "/v1/webhooks/hourly/deliveries",
                          one["secret"])[1]["deliveries"], "the first failed attempt")


def unread_work(base: str, manifest: dict[str, Any]) -> None:
    """With no worker running: a cached render's event and a synthesis job."""
    one = manifest["tenants"]["one"]
    expect(call(base, "POST", "/v1/labels/from-data", one["secret"], {
        "template_id": "shipping", "fields": manifest["rendered"]["fields"],
        "external_ref": "unread-event"}), 200)
    job = expect(call(base, "POST", "/v1/templates/synthesize/jobs", one["secret"],
                      {"input_zpl": RAW_ZPL}), 202)
    manifest["synthesis_job"] = job["job_id"]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="release-data-"))
    data_dir = work / "data"
    env = {**os.environ, "LABELRENDER_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT),
           "LABELRENDER_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8", "LABELRENDER_WORKERS": "1",
           "LABELRENDER_API_PROCESSES": "1", "LABELRENDER_WEBHOOK_JITTER": "0"}
    env.pop("REDIS_URL", None)
    manifest: dict[str, Any] = {}
    try:
        make_tenants(env, manifest)
        override_plan(data_dir)
        fast = Service({**env, "LABELRENDER_WEBHOOK_BACKOFF_S": "0.05,0.05"}, "serve")
        try:
            renders(fast.base, manifest)
            dead_letter(fast.base, manifest)
        finally:
            fast.close()
        slow = Service({**env, "LABELRENDER_WEBHOOK_BACKOFF_S": "3600"}, "serve")
        try:
            scheduled_retry(slow.base, manifest)
        finally:
            slow.close()
        api = Service({**env, "LABELRENDER_EMBEDDED_REDIS": "true"}, "api")
        try:
            unread_work(api.base, manifest)
        finally:
            api.close()
        shutil.copyfile(data_dir / "appendonly.aof", HERE / "appendonly.aof")
        shutil.rmtree(HERE / "objects", ignore_errors=True)
        shutil.copytree(data_dir / "objects" / "templates", HERE / "objects" / "templates")
        (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {HERE / 'appendonly.aof'} and manifest.json")


if __name__ == "__main__":
    main()
