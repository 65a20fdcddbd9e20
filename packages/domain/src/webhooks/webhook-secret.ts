/**
 * The form of every signing secret the service issues (DESIGN §4 "Secrets", §12 "Signature schemes"): `whsec_` + 43
 * characters encoding 32 random bytes. The `stripe` scheme's secrets (the default; also the store postback secret and
 * acquirer notification secrets) use base64url, and are used as the UTF-8 string itself. A `standard_webhooks`
 * endpoint's secret uses unpadded standard base64 (may contain `+` and `/`), which the Standard Webhooks libraries
 * decode into the 32-byte HMAC key.
 *
 * This file imports only `node:crypto` (and types): command-line tools import it on its own.
 */
import { randomBytes } from "node:crypto";
import type { SignatureScheme } from "./signature";

/** Random bytes behind every secret. */
const SECRET_BYTES = 32;

/** A fresh `whsec_…` secret in the form of `scheme` (default `stripe`). */
export function generateWebhookSecret(scheme: SignatureScheme = "stripe"): string {
  return webhookSecretOf(randomBytes(SECRET_BYTES), scheme);
}

/**
 * The `whsec_…` secret that encodes `bytes` in the form of `scheme`: base64url for `stripe`, unpadded standard base64
 * for `standard_webhooks`. For secrets derived rather than drawn (the `lm listen` session's).
 * @param bytes - 32 bytes, for the 43 characters every secret has
 */
export function webhookSecretOf(bytes: Buffer, scheme: SignatureScheme): string {
  const body =
    scheme === "standard_webhooks" ? bytes.toString("base64").replace(/=+$/, "") : bytes.toString("base64url");
  return `whsec_${body}`;
}

/** The part of a secret shown after it was issued: the 6 characters after `whsec_` (DESIGN §4 `secret_prefix`). */
export function webhookSecretPrefix(secret: string): string {
  return secret.slice("whsec_".length, "whsec_".length + 6);
}
