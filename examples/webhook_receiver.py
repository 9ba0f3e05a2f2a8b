"""A webhook receiver to try deliveries on one machine, with no DNS and no public
address: HTTPS on 127.0.0.1 with a self-signed certificate, each delivery's
signature checked with the README's code, each verified event printed as one JSON
line. Python's standard library only.

    python3 examples/webhook_receiver.py --cert hook.pem --key hook.key \\
        --secret whsec_... [--port 9443] [--count 1]

It answers 204 to a delivery whose signature verifies and 401 to any other, and
exits after --count verified deliveries (run for ever without it).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_S = 300  # refuse signatures older (or newer) than 5 minutes


def verify_signature(secret: str, header: str, raw_body: bytes,
                     now: float | None = None) -> bool:
    """True when X-Service-Signature `header` signs `raw_body` with `secret`."""
    try:
        fields = dict(part.strip().split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
        received = fields["v1"]
    except (KeyError, ValueError):
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > TOLERANCE_S:
        return False
    signed = f"{timestamp}.".encode() + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, received)


class Receiver(HTTPServer):
    def __init__(self, port: int, secret: str) -> None:
        super().__init__(("127.0.0.1", port), Delivery)
        self.secret = secret
        self.verified = 0


class Delivery(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        signature = self.headers.get("X-Service-Signature", "")
        if not verify_signature(self.server.secret, signature, raw):
            self.send_response(401)
            self.end_headers()
            print("refused: bad signature", file=sys.stderr, flush=True)
            return
        # A repeat (same event_id) would be answered 2xx again without acting twice.
        self.send_response(204)
        self.end_headers()
        print(json.dumps(json.loads(raw)), flush=True)
        self.server.verified += 1

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass  # one line per verified event on stdout is the whole output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cert", required=True, help="PEM certificate for 127.0.0.1")
    parser.add_argument("--key", required=True, help="its PEM private key")
    parser.add_argument("--secret", required=True, help="the webhook's signing_secret")
    parser.add_argument("--port", type=int, default=9443)
    parser.add_argument("--count", type=int, default=0, help="exit after this many")
    args = parser.parse_args()
    receiver = Receiver(args.port, args.secret)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(args.cert, args.key)
    receiver.socket = tls.wrap_socket(receiver.socket, server_side=True)
    print(f"receiving on https://127.0.0.1:{args.port}/", file=sys.stderr, flush=True)
    while not args.count or receiver.verified < args.count:
        receiver.handle_request()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
