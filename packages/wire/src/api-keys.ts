import { Type, type Static } from "@sinclair/typebox";
import type { ApiKey as ApiKeyRow } from "@lm/db";
import { listOf, Nullable, wireObject, Timestamp, iso } from "./schema";
import { Mode } from "./common";
import { WebhookSecret } from "./webhook-endpoints";

/** SPEC "API key". The key itself is shown only in the creation and rotation replies. */
export const ApiKey = wireObject(
  "ApiKey",
  Type.Object(
    {
      id: Type.String({ pattern: "^key_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("api_key"),
      name: Type.String({ minLength: 1, maxLength: 64 }),
      mode: Mode,
      key_prefix: Type.String({
        description: "The key's first 12 characters, e.g. `sk_test_AbCd`.",
        minLength: 12,
        maxLength: 12,
      }),
      last_used_at: Nullable(Timestamp, { description: "Written at most once a minute." }),
      revoke_at: Nullable(Timestamp, { description: "When a rotated key stops working; null for a key not rotated." }),
      created_at: Timestamp,
    },
    { description: 'SPEC "API key". The key itself is shown only in the creation and rotation replies.' },
  ),
);
/** ApiKey as sent. */
export type ApiKey = Static<typeof ApiKey>;

/** A page of ApiKey objects. */
export const ApiKeyList = listOf("ApiKeyList", ApiKey);
/** ApiKeyList as sent. */
export type ApiKeyList = Static<typeof ApiKeyList>;

/** CreatedApiKey */
export const CreatedApiKey = wireObject(
  "CreatedApiKey",
  Type.Composite([
    ApiKey,
    Type.Object({
      key: Type.String({
        description: "The full key: shown in this reply only.",
        pattern: "^sk_(live|test)_[0-9A-Za-z]{32}$",
      }),
    }),
  ]),
);
/** CreatedApiKey as sent. */
export type CreatedApiKey = Static<typeof CreatedApiKey>;

/** RotatedApiKey */
export const RotatedApiKey = wireObject(
  "RotatedApiKey",
  Type.Composite([
    CreatedApiKey,
    Type.Object({
      old_key_revoke_at: Type.String({
        description: "When the rotated key stops working (24 h ahead).",
        format: "date-time",
      }),
    }),
  ]),
);
/** RotatedApiKey as sent. */
export type RotatedApiKey = Static<typeof RotatedApiKey>;

/** SPEC "Postback secret info": never the secret. */
export const PostbackSecretInfo = wireObject(
  "PostbackSecretInfo",
  Type.Object(
    {
      prefix: Nullable(Type.String({ minLength: 6, maxLength: 6 }), {
        description: "The 6 characters after `whsec_`; null before a secret was generated.",
      }),
      rotated_at: Nullable(Timestamp),
      previous_valid_until: Nullable(Timestamp, {
        description: "The rotation time: the previous secret stops at once.",
      }),
    },
    { description: 'SPEC "Postback secret info": never the secret.' },
  ),
);
/** PostbackSecretInfo as sent. */
export type PostbackSecretInfo = Static<typeof PostbackSecretInfo>;

/** RotatedPostbackSecret */
export const RotatedPostbackSecret = wireObject(
  "RotatedPostbackSecret",
  Type.Composite([
    PostbackSecretInfo,
    Type.Object({
      secret: WebhookSecret,
    }),
  ]),
);
/** RotatedPostbackSecret as sent. */
export type RotatedPostbackSecret = Static<typeof RotatedPostbackSecret>;

/** Serializes `apiKey` as lists show it: never the key, never its hash. */
export function serializeApiKey(apiKey: ApiKeyRow): ApiKey {
  return {
    id: apiKey.id,
    object: "api_key",
    name: apiKey.name,
    mode: apiKey.mode,
    key_prefix: apiKey.key_prefix,
    last_used_at: iso(apiKey.last_used_at),
    revoke_at: iso(apiKey.revoke_at),
    created_at: apiKey.created_at.toISOString(),
  };
}

/** The creation reply: `apiKey` with its full `key`, shown this once. */
export function serializeCreatedApiKey(apiKey: ApiKeyRow, key: string): CreatedApiKey {
  return { ...serializeApiKey(apiKey), key };
}

/** The rotation reply: the new key, shown this once, and when the old one stops. */
export function serializeRotatedApiKey(apiKey: ApiKeyRow, key: string, oldKeyRevokeAt: Date): RotatedApiKey {
  return { ...serializeCreatedApiKey(apiKey, key), old_key_revoke_at: oldKeyRevokeAt.toISOString() };
}

/**
 * Serializes the store's postback secret information (never the secret).
 * @param info - the domain's view: `prefix` (6 characters after `whsec_`, null before the first secret), when it was
 *   rotated, and until when the previous one was valid
 */
export function serializePostbackSecretInfo(info: {
  prefix: string | null;
  rotatedAt: Date | null;
  previousValidUntil: Date | null;
}): PostbackSecretInfo {
  return { prefix: info.prefix, rotated_at: iso(info.rotatedAt), previous_valid_until: iso(info.previousValidUntil) };
}
