/**
 * The form of every signing secret the service issues (DESIGN §4 "Secrets"): `whsec_` + 32 random bytes in base64url
 * (43 characters). Webhook endpoint secrets, the store postback secret and acquirer notification secrets share it.
 */
import { randomBytes } from "node:crypto";

/** A fresh `whsec_…` secret. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The part of a secret shown after it was issued: the 6 characters after `whsec_` (DESIGN §4 `secret_prefix`). */
export function webhookSecretPrefix(secret: string): string {
  return secret.slice("whsec_".length, "whsec_".length + 6);
}
