// A webhook receiver that verifies LM Pix deliveries (signature scheme `stripe`), with Node.js alone: node:http and
// node:crypto, no framework, no dependency.
//
//   WEBHOOK_SECRET=whsec_... PORT=4000 node receiver.mjs
//
// Every POST is checked, then answered at once; the work an event triggers belongs after the answer (a queue, a job).
/* global process, console, Buffer */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const SECRET = process.env.WEBHOOK_SECRET;
const PORT = Number(process.env.PORT ?? 4000);
const TOLERANCE_SECONDS = 300; // refuse a signature older (or newer) than 5 minutes: a replayed request is stale
const MAX_BODY_BYTES = 1024 * 1024;

if (!SECRET) {
  console.error("set WEBHOOK_SECRET to the endpoint's whsec_... secret");
  process.exit(1);
}

// Event ids already handled. Retries of an event carry the same id: handle it once, answer 2xx every time.
// A real receiver keeps these in its database (a unique key on the event id), not in memory.
const seen = new Set();

/**
 * Checks `X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` against the raw body.
 * The HMAC-SHA256 key is the whole secret string, `whsec_` included, as UTF-8 bytes (it is not base64-decoded);
 * the signed message is `<t>.<raw body>`. During a secret rotation the header carries two `v1`: either may match.
 * Returns null when the request is genuine, else the reason it is not.
 */
function verify(header, rawBody) {
  if (!header) return "no X-Signature header";
  let timestamp = null;
  const signatures = [];
  for (const item of header.split(",")) {
    const separator = item.indexOf("=");
    const key = item.slice(0, separator);
    const value = item.slice(separator + 1);
    if (key === "t") timestamp = value;
    if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, "hex"));
  }
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) return "malformed X-Signature header";
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return "timestamp outside the tolerance";
  const expected = createHmac("sha256", Buffer.from(SECRET, "utf8"))
    .update(`${timestamp}.`, "utf8")
    .update(rawBody)
    .digest();
  return signatures.some((signature) => timingSafeEqual(signature, expected)) ? null : "signature mismatch";
}

function answer(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  if (req.method !== "POST") return answer(res, 405, { error: "POST only" });
  const chunks = [];
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) req.destroy();
    else chunks.push(chunk);
  });
  req.on("end", () => {
    // The raw bytes, exactly as received: parse JSON only after the signature is verified over them.
    const rawBody = Buffer.concat(chunks);
    const reason = verify(req.headers["x-signature"], rawBody);
    if (reason) {
      console.log(`rejected: ${reason}`);
      return answer(res, 401, { error: reason });
    }
    const event = JSON.parse(rawBody.toString("utf8"));
    if (seen.has(event.id)) {
      console.log(`duplicate ${event.type} ${event.id}`);
      return answer(res, 200, { received: true });
    }
    seen.add(event.id);
    console.log(`verified ${event.type} ${event.id}`);
    answer(res, 200, { received: true });
    // Now act on the event (event.data.object is the resource as it was), e.g. hand it to a queue.
    // Unknown event types are answered 2xx too: new types may appear at any time.
  });
});

server.listen(PORT, () => console.log(`listening on http://localhost:${PORT}`));
