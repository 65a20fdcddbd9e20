"""A webhook receiver that verifies LM Pix deliveries (signature scheme `stripe`), with Python's standard library
alone: http.server, hmac and hashlib, no framework, no dependency.

    WEBHOOK_SECRET=whsec_... PORT=4000 python3 receiver.py

Every POST is checked, then answered at once; the work an event triggers belongs after the answer (a queue, a job).
"""

import hashlib
import hmac
import json
import os
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = os.environ.get("WEBHOOK_SECRET", "")
PORT = int(os.environ.get("PORT", "4000"))
TOLERANCE_SECONDS = 300  # refuse a signature older (or newer) than 5 minutes: a replayed request is stale
MAX_BODY_BYTES = 1024 * 1024

if not SECRET:
    sys.exit("set WEBHOOK_SECRET to the endpoint's whsec_... secret")

# Event ids already handled. Retries of an event carry the same id: handle it once, answer 2xx every time.
# A real receiver keeps these in its database (a unique key on the event id), not in memory.
seen = set()


def verify(header, raw_body):
    """Checks `X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` against the raw body.

    The HMAC-SHA256 key is the whole secret string, `whsec_` included, as UTF-8 bytes (it is not base64-decoded);
    the signed message is `<t>.<raw body>`. During a secret rotation the header carries two `v1`: either may match.
    Returns None when the request is genuine, else the reason it is not.
    """
    if not header:
        return "no X-Signature header"
    timestamp = None
    signatures = []
    for item in header.split(","):
        key, _, value = item.partition("=")
        if key == "t":
            timestamp = value
        elif key == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(value)
    if not timestamp or not timestamp.isdigit() or not signatures:
        return "malformed X-Signature header"
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return "timestamp outside the tolerance"
    expected = hmac.new(SECRET.encode("utf-8"), timestamp.encode("ascii") + b"." + raw_body, hashlib.sha256).hexdigest()
    if any(hmac.compare_digest(signature, expected) for signature in signatures):
        return None
    return "signature mismatch"


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            return self.answer(413, {"error": "body too large"})
        # The raw bytes, exactly as received: parse JSON only after the signature is verified over them.
        raw_body = self.rfile.read(length)
        reason = verify(self.headers.get("X-Signature"), raw_body)
        if reason:
            print(f"rejected: {reason}", flush=True)
            return self.answer(401, {"error": reason})
        event = json.loads(raw_body)
        if event["id"] in seen:
            print(f"duplicate {event['type']} {event['id']}", flush=True)
            return self.answer(200, {"received": True})
        seen.add(event["id"])
        print(f"verified {event['type']} {event['id']}", flush=True)
        self.answer(200, {"received": True})
        # Now act on the event (event["data"]["object"] is the resource as it was), e.g. hand it to a queue.
        # Unknown event types are answered 2xx too: new types may appear at any time.

    def answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # one line per event is printed above; no access log


server = ThreadingHTTPServer(("", PORT), Receiver)
print(f"listening on http://localhost:{PORT}", flush=True)
server.serve_forever()
