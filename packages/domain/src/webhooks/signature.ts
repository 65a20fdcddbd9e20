/**
 * The signature schemes of webhook deliveries (DESIGN §4 "Signature", §12 "Signature schemes").
 *
 * - `stripe` (the default, and the scheme of every postback and of inbound acquirer notifications, DESIGN §5
 *   `X-Acquirer-Signature`): `X-Signature: t=<unix>,v1=<hex>`, `v1` = lower-case hex HMAC-SHA256, keyed with the secret
 *   string exactly as shown (`whsec_…`, UTF-8), over `<t>.<raw body>`. Stripe's libraries verify it unchanged.
 * - `standard_webhooks`: `webhook-signature: v1,<base64>` (space-separated entries), base64 HMAC-SHA256 keyed with the
 *   base64-decoded bytes after `whsec_`, over `<webhook-id>.<webhook-timestamp>.<raw body>` (Standard Webhooks
 *   specification 1.0, symmetric). The Standard Webhooks libraries verify it unchanged.
 * - `standard_webhooks_ed25519` (DESIGN §16 "Asymmetric signatures"): the same headers with `v1a,<base64>` entries,
 *   each an Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<raw body>` (Standard Webhooks' asymmetric
 *   form). The service keeps the private key (`whsk_` + base64 of its 32-byte seed); the receiver verifies with the
 *   public key the endpoint shows (`whpk_` + base64 of the raw 32-byte key), which cannot sign.
 *
 * This file imports only `node:crypto`: command-line tools import it on its own, without Prisma or Redis.
 */
import { createHmac, createPrivateKey, createPublicKey, sign as signWith, timingSafeEqual } from "node:crypto";

/** The signature schemes an endpoint may use (DESIGN §12, §16); `stripe` is the default. */
export const SIGNATURE_SCHEMES = ["stripe", "standard_webhooks", "standard_webhooks_ed25519"] as const;

/** One of {@link SIGNATURE_SCHEMES}. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** The schemes signed with a secret the receiver shares (`whsec_…`, HMAC-SHA256), the ones `lm listen` signs with. */
export const SECRET_SCHEMES = ["stripe", "standard_webhooks"] as const;

/** One of {@link SECRET_SCHEMES}. */
export type SecretScheme = (typeof SECRET_SCHEMES)[number];

/** The scheme of an endpoint created without one, and of every postback. */
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = "stripe";

/** Whether `value` names a signature scheme. */
export function isSignatureScheme(value: unknown): value is SignatureScheme {
  return typeof value === "string" && (SIGNATURE_SCHEMES as readonly string[]).includes(value);
}

/** Whether `value` names a scheme signed with a shared secret. */
export function isSecretScheme(value: unknown): value is SecretScheme {
  return typeof value === "string" && (SECRET_SCHEMES as readonly string[]).includes(value);
}

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
 * What both schemes need to sign: at least one secret, and a timestamp in whole non-negative Unix seconds.
 * @throws Error otherwise
 */
function assertSigningInput(secrets: string[], timestampSeconds: number): void {
  if (secrets.length === 0) throw new Error("at least one secret is needed to sign");
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error("the signature timestamp must be whole non-negative Unix seconds");
  }
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
  assertSigningInput(secrets, timestampSeconds);
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

/** The prefix of every signing secret; the Standard Webhooks libraries strip it and base64-decode the rest. */
const SECRET_PREFIX = "whsec_";

/**
 * The HMAC key of a Standard Webhooks secret: the base64 (standard alphabet, padding optional) after `whsec_`.
 * @throws Error when nothing decodes (an empty key would sign with no secret at all)
 */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("a Standard Webhooks secret must base64-decode to at least one byte");
  return key;
}

/**
 * Checks what every Standard Webhooks signature covers: a timestamp in whole non-negative seconds and a message id.
 * @throws Error when `secrets` is empty, the timestamp is not whole non-negative seconds, or the id is empty or holds
 *   a `.` (which would make the signed content ambiguous)
 */
function assertStandardInput(secrets: string[], messageId: string, timestampSeconds: number): void {
  assertSigningInput(secrets, timestampSeconds);
  if (messageId === "" || messageId.includes(".")) throw new Error("the webhook id must be non-empty, without '.'");
}

/**
 * Builds the `webhook-signature` header of one delivery attempt (Standard Webhooks, symmetric `v1`).
 * @param secrets - current secret first, then (during an endpoint's 24 h rotation grace) the previous one
 * @param messageId - the `webhook-id` header: the event id, the same on every attempt
 * @param timestampSeconds - the `webhook-timestamp` header: whole Unix seconds, fresh for every attempt
 * @param rawBody - the exact bytes that are sent
 * @returns e.g. `v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= v1,K5oZ…` (entries separated by one space)
 * @throws Error when `secrets` is empty, a secret decodes to nothing, the timestamp is not whole non-negative
 *   seconds, or the id is empty or holds a `.` (which would make the signed content ambiguous)
 */
export function standardWebhooksSignatureHeader(
  secrets: string[],
  messageId: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  assertStandardInput(secrets, messageId, timestampSeconds);
  return secrets
    .map((secret) => {
      const digest = createHmac("sha256", standardWebhooksKey(secret))
        .update(`${messageId}.${timestampSeconds}.`, "utf8")
        .update(rawBody)
        .digest("base64");
      return `v1,${digest}`;
    })
    .join(" ");
}

/** The prefix of a Standard Webhooks private (signing) key. */
export const ED25519_PRIVATE_KEY_PREFIX = "whsk_";
/** The prefix of a Standard Webhooks public (verifying) key. */
export const ED25519_PUBLIC_KEY_PREFIX = "whpk_";
/** The DER (PKCS #8) header of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_HEADER = Buffer.from("302e020100300506032b657004220420", "hex");
/** Bytes of an Ed25519 seed and of a raw public key. */
const ED25519_KEY_BYTES = 32;

/**
 * The private key of `privateKey` (`whsk_` + base64 of a 32-byte seed).
 * @throws Error when it does not hold 32 bytes
 */
function ed25519PrivateKey(privateKey: string) {
  const encoded = privateKey.startsWith(ED25519_PRIVATE_KEY_PREFIX)
    ? privateKey.slice(ED25519_PRIVATE_KEY_PREFIX.length)
    : privateKey;
  const seed = Buffer.from(encoded, "base64");
  if (seed.length !== ED25519_KEY_BYTES) throw new Error("an Ed25519 private key is 32 bytes of base64 after whsk_");
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_HEADER, seed]), format: "der", type: "pkcs8" });
}

/**
 * The public key of `privateKey`, as endpoints show it: `whpk_` + base64 (standard, padded) of the raw 32-byte key.
 * @throws Error when `privateKey` is not `whsk_` + base64 of 32 bytes
 */
export function ed25519PublicKey(privateKey: string): string {
  const jwk = createPublicKey(ed25519PrivateKey(privateKey)).export({ format: "jwk" });
  return `${ED25519_PUBLIC_KEY_PREFIX}${Buffer.from(jwk.x as string, "base64url").toString("base64")}`;
}

/**
 * Builds the `webhook-signature` header of one delivery attempt (Standard Webhooks, asymmetric `v1a`).
 * @param privateKeys - current key first, then (during an endpoint's 24 h rotation grace) the previous one
 * @param messageId - the `webhook-id` header: the event id, the same on every attempt
 * @param timestampSeconds - the `webhook-timestamp` header: whole Unix seconds, fresh for every attempt
 * @param rawBody - the exact bytes that are sent
 * @returns e.g. `v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg==`
 *   (entries separated by one space)
 * @throws Error as the symmetric signer does, or when a key is not `whsk_` + base64 of 32 bytes
 */
export function ed25519SignatureHeader(
  privateKeys: string[],
  messageId: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  assertStandardInput(privateKeys, messageId, timestampSeconds);
  const content = Buffer.concat([
    Buffer.from(`${messageId}.${timestampSeconds}.`, "utf8"),
    typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody,
  ]);
  return privateKeys
    .map((key) => `v1a,${signWith(null, content, ed25519PrivateKey(key)).toString("base64")}`)
    .join(" ");
}
