/**
 * The form of every signing secret the service issues (DESIGN §4 "Secrets"): `whsec_` + 32 random bytes in base64url
 * (43 characters). Webhook endpoint secrets, the store postback secret and acquirer notification secrets share it.
 */
import { randomBytes } from "node:crypto";

/** A fresh `whsec_…` secret. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
