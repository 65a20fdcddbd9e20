/**
 * The `t=<unix>,v1=<hex>` signature scheme of webhook deliveries (SPEC "Authentication" 8, DESIGN §4 "Signature") and
 * of inbound acquirer notifications (DESIGN §5, `X-Acquirer-Signature`). It is Stripe's scheme, so Stripe's libraries
 * verify our deliveries unchanged: `v1` = lower-case hex HMAC-SHA256, keyed with the secret string exactly as shown
 * (`whsec_…`, UTF-8), over `<t>.<raw body>`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The one signature scheme we produce and accept. */
const SCHEME = "v1";
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/** Lower-case hex HMAC-SHA256 of `<timestampSeconds>.<rawBody>` under `secret`. */
function sign(secret: string, timestampSeconds: number, rawBody: string | Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${timestampSeconds}.`, "utf8")
    .update(rawBody)
    .digest("hex");
}

/**
 * Builds the signature header of one delivery attempt.
 * @param secrets - current secret first, then (during an endpoint's 24 h rotation grace) the previous one
 * @param timestampSeconds - whole Unix seconds; a fresh value for every attempt
 * @param rawBody - the exact bytes that are sent
 * @returns e.g. `t=1700000000,v1=5257a8…,v1=9a1c0e…` (no spaces)
 * @throws Error when `secrets` is empty or the timestamp is not a non-negative integer
 */
export function signatureHeader(secrets: string[], timestampSeconds: number, rawBody: string | Buffer): string {
  if (secrets.length === 0) throw new Error("at least one secret is needed to sign");
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error("the signature timestamp must be whole non-negative Unix seconds");
  }
  const entries = secrets.map((secret) => `${SCHEME}=${sign(secret, timestampSeconds, rawBody)}`);
  return [`t=${timestampSeconds}`, ...entries].join(",");
}

/** Outcome of {@link verifySignatureHeader}; `reason` is for logs and operators, never for the sender. */
export type SignatureVerification =
  | { ok: true; timestampSeconds: number }
  | { ok: false; reason: "malformed_header" | "timestamp_outside_tolerance" | "no_matching_signature" };

/**
 * Verifies a `t=…,v1=…` header against the raw body: valid when the timestamp is within `toleranceSeconds` of `now`
 * (either side, against replay) and any `v1` entry equals the HMAC under any of `secrets` (compared in constant time).
 * Entries of other schemes are ignored, as Stripe's verifier does, so a future scheme can be added beside `v1`.
 * @param header - the header value as received; a missing header (`undefined`) is malformed
 * @param secrets - every secret currently accepted (e.g. the current one and, during a grace window, the previous)
 * @param rawBody - the body bytes exactly as received, before any parsing
 * @param options.toleranceSeconds - largest accepted distance between `t` and `now`
 * @param options.now - the verifier's current time
 */
export function verifySignatureHeader(
  header: string | undefined,
  secrets: string[],
  rawBody: string | Buffer,
  options: { toleranceSeconds: number; now: Date },
): SignatureVerification {
  const parsed = header === undefined ? null : parseSignatureHeader(header);
  if (parsed === null) return { ok: false, reason: "malformed_header" };
  const { timestampSeconds, signatures } = parsed;
  if (Math.abs(options.now.getTime() / 1000 - timestampSeconds) > options.toleranceSeconds) {
    return { ok: false, reason: "timestamp_outside_tolerance" };
  }
  const received = signatures.map((hex) => Buffer.from(hex, "hex"));
  const matches = secrets.some((secret) => {
    const expected = Buffer.from(sign(secret, timestampSeconds, rawBody), "hex");
    return received.some((candidate) => timingSafeEqual(candidate, expected));
  });
  return matches ? { ok: true, timestampSeconds } : { ok: false, reason: "no_matching_signature" };
}

/** Splits a header into its one timestamp and its `v1` signatures; null when it is not well formed. */
function parseSignatureHeader(header: string): { timestampSeconds: number; signatures: string[] } | null {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const item of header.split(",")) {
    const separator = item.indexOf("=");
    if (separator <= 0) return null;
    const key = item.slice(0, separator);
    const value = item.slice(separator + 1);
    if (key === "t") {
      if (timestamp !== undefined || !UNIX_SECONDS.test(value)) return null;
      timestamp = value;
    } else if (key === SCHEME) {
      if (!HEX_SHA256.test(value)) return null;
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestampSeconds: Number(timestamp), signatures };
}
