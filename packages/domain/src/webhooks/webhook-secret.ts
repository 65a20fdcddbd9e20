/**
 * The form of every signing secret the service issues (DESIGN §4 "Secrets", §12 "Signature schemes"): `whsec_` + 43
 * characters encoding 32 random bytes (an Ed25519 endpoint's key pair is the exception: {@link generateSigningKey}).
 * The `stripe` scheme's secrets (the default; also the store postback secret and acquirer notification secrets) use
 * base64url, and are used as the UTF-8 string itself. A `standard_webhooks` endpoint's secret uses unpadded standard
 * base64 (may contain `+` and `/`), which the Standard Webhooks libraries decode into the 32-byte HMAC key.
 *
 * This file imports only `node:crypto` (and types): command-line tools import it on its own.
 */
import { randomBytes } from "node:crypto";
import {
  ED25519_PRIVATE_KEY_PREFIX,
  ED25519_PUBLIC_KEY_PREFIX,
  ed25519PublicKey,
  type SecretScheme,
  type SignatureScheme,
} from "./signature";

/** Random bytes behind every secret and private key. */
const SECRET_BYTES = 32;

/** A fresh `whsec_…` secret in the form of `scheme` (default `stripe`). */
export function generateWebhookSecret(scheme: SecretScheme = "stripe"): string {
  return webhookSecretOf(randomBytes(SECRET_BYTES), scheme);
}

/** What an endpoint is issued for its scheme, at creation and at each rotation. */
export interface SigningKey {
  /** What signs, stored encrypted: the `whsec_…` secret, or the `whsk_…` private key of an Ed25519 endpoint. */
  secret: string;
  /** What the seller is shown once: the secret; null for an Ed25519 endpoint, whose private key is never shown. */
  shown: string | null;
  /** The endpoint's `secret_prefix`: 6 characters after `whsec_`, or after `whpk_` of the public key. */
  prefix: string;
  /** `whpk_…` of an Ed25519 endpoint (shown on every read); null for the shared-secret schemes. */
  publicKey: string | null;
}

/** A fresh signing key of `scheme` (DESIGN §4 "Secrets", §16 "Asymmetric signatures"). */
export function generateSigningKey(scheme: SignatureScheme): SigningKey {
  if (scheme !== "standard_webhooks_ed25519") {
    const secret = generateWebhookSecret(scheme);
    return { secret, shown: secret, prefix: webhookSecretPrefix(secret), publicKey: null };
  }
  const secret = `${ED25519_PRIVATE_KEY_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
  const publicKey = ed25519PublicKey(secret);
  const prefix = publicKey.slice(ED25519_PUBLIC_KEY_PREFIX.length, ED25519_PUBLIC_KEY_PREFIX.length + 6);
  return { secret, shown: null, prefix, publicKey };
}

/**
 * The `whsec_…` secret that encodes `bytes` in the form of `scheme`: base64url for `stripe`, unpadded standard base64
 * for `standard_webhooks`. For secrets derived rather than drawn (the `lm listen` session's).
 * @param bytes - 32 bytes, for the 43 characters every secret has
 */
export function webhookSecretOf(bytes: Buffer, scheme: SecretScheme): string {
  const body =
    scheme === "standard_webhooks" ? bytes.toString("base64").replace(/=+$/, "") : bytes.toString("base64url");
  return `whsec_${body}`;
}

/** The part of a secret shown after it was issued: the 6 characters after `whsec_` (DESIGN §4 `secret_prefix`). */
export function webhookSecretPrefix(secret: string): string {
  return secret.slice("whsec_".length, "whsec_".length + 6);
}
