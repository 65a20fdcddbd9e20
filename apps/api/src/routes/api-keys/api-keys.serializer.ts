/**
 * Wire form of an API key (SPEC "API key"). The key itself appears only in the creation and rotation replies; its
 * hash never leaves.
 */
import type { ApiKey } from "@lm/db";
import type { Mode } from "@lm/domain";

/** An API key as the panel shows it. */
export interface ApiKeyView {
  id: string;
  object: "api_key";
  name: string;
  mode: Mode;
  /** The first 12 characters of the key (`sk_test_abcd`). */
  key_prefix: string;
  last_used_at: string | null;
  /** When a rotated key stops working; null for a key not rotated. */
  revoke_at: string | null;
  created_at: string;
  /** The full key: only in the creation and rotation replies. */
  key?: string;
  /** When the rotated key stops: only in the rotation reply. */
  old_key_revoke_at?: string;
}

/**
 * Serialises `apiKey`.
 * @param once.key - the full key, on creation and rotation only
 * @param once.oldKeyRevokeAt - the old key's end, on rotation only
 */
export function serializeApiKey(apiKey: ApiKey, once: { key?: string; oldKeyRevokeAt?: Date } = {}): ApiKeyView {
  return {
    id: apiKey.id,
    object: "api_key",
    name: apiKey.name,
    mode: apiKey.mode,
    key_prefix: apiKey.key_prefix,
    last_used_at: apiKey.last_used_at?.toISOString() ?? null,
    revoke_at: apiKey.revoke_at?.toISOString() ?? null,
    created_at: apiKey.created_at.toISOString(),
    ...(once.key === undefined ? {} : { key: once.key }),
    ...(once.oldKeyRevokeAt === undefined ? {} : { old_key_revoke_at: once.oldKeyRevokeAt.toISOString() }),
  };
}
