/**
 * Use cases of the panel's API keys (SPEC "API keys" and the API key state table, DESIGN §3): list the store's
 * active keys, create, rotate (the old key keeps working for 24 h), delete (revoked at once), and the worker's sweep
 * that marks rotated keys revoked once their `revoke_at` has passed. Each change is audited.
 */
import type { ApiKey, Repositories } from "@lm/db";
import { audited, type CredentialDeps, type PanelActor, type SecurityAction } from "../audit/security-audit";
import { ApiError, notFound } from "../errors";
import { isId } from "../ids";
import type { Mode } from "./api-key";
import { createApiKey, type CreatedApiKey } from "./create-api-key";

/** Life of the old key after a rotation, ms (SPEC "Limits": 24 h). */
export const ROTATED_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

/** A rotation's new key (shown once) and when the old one stops. */
export interface RotatedApiKey extends CreatedApiKey {
  oldKeyRevokeAt: Date;
}

/** The store's active keys at `now` (rotated ones still in their grace window included), newest first. */
export async function listActiveApiKeys(repos: Repositories, storeId: string, now: Date): Promise<ApiKey[]> {
  return repos.apiKeys.listActiveApiKeysOfStore(storeId, now);
}

/**
 * Creates a key on the actor's store (see {@link createApiKey} for the KYC and limit rules).
 * @throws ApiError `kyc_required`, `invalid_state`
 */
export async function createStoreApiKey(
  deps: CredentialDeps,
  actor: PanelActor,
  input: { name: string; mode: Mode },
): Promise<CreatedApiKey> {
  return audited(deps, actor, async (tx) => {
    const created = await createApiKey(tx, {
      storeId: actor.storeId,
      name: input.name,
      mode: input.mode,
      now: deps.now(),
    });
    const action: SecurityAction = {
      event: "api_key.created",
      details: { key_id: created.apiKey.id, mode: created.apiKey.mode },
      title: "API key created",
      message: `A ${created.apiKey.mode} API key named "${created.apiKey.name}" was created.`,
    };
    return { result: created, action };
  });
}

/**
 * Rotates key `keyId` of the actor's store, in one transaction: a new key of the same name and mode (it counts
 * against the limit while the old one lives) and `revoke_at` = now + 24 h on the old one. Authentication refuses the
 * old key from that instant; the revocation sweep records it later.
 * @throws ApiError `resource_not_found` for an unknown, foreign or inactive key; `invalid_state` when the key was
 *   already rotated or the mode's limit is reached; `kyc_required` for a live key of a seller no longer approved
 */
export async function rotateApiKey(deps: CredentialDeps, actor: PanelActor, keyId: string): Promise<RotatedApiKey> {
  const now = deps.now();
  const oldKeyRevokeAt = new Date(now.getTime() + ROTATED_KEY_GRACE_MS);
  return audited(deps, actor, async (tx) => {
    const old = await findActiveApiKey(tx, actor.storeId, keyId, now);
    if (old.revoke_at !== null) throw alreadyRotated();
    const created = await createApiKey(tx, { storeId: actor.storeId, name: old.name, mode: old.mode, now });
    // Conditional, so that of two concurrent rotations of one key only one succeeds.
    if ((await tx.apiKeys.scheduleApiKeyRevocation(old.id, oldKeyRevokeAt)) === 0) throw alreadyRotated();
    const action: SecurityAction = {
      event: "api_key.rotated",
      details: {
        key_id: old.id,
        new_key_id: created.apiKey.id,
        mode: old.mode,
        revoke_at: oldKeyRevokeAt.toISOString(),
      },
      title: "API key rotated",
      message: `The ${old.mode} API key named "${old.name}" was rotated; the old key stops working at ${oldKeyRevokeAt.toISOString()}.`,
    };
    return { result: { ...created, oldKeyRevokeAt }, action };
  });
}

/**
 * Revokes key `keyId` of the actor's store at once (also a rotated key still in its grace window).
 * @throws ApiError `resource_not_found` for an unknown, foreign or inactive key
 */
export async function deleteApiKey(deps: CredentialDeps, actor: PanelActor, keyId: string): Promise<void> {
  const now = deps.now();
  await audited(deps, actor, async (tx) => {
    const key = await findActiveApiKey(tx, actor.storeId, keyId, now);
    if ((await tx.apiKeys.revokeActiveApiKey(key.id, now)) === 0) throw notFound("API key");
    const action: SecurityAction = {
      event: "api_key.deleted",
      details: { key_id: key.id, mode: key.mode },
      title: "API key deleted",
      message: `The ${key.mode} API key named "${key.name}" was deleted; it no longer works.`,
    };
    return { result: undefined, action };
  });
}

/**
 * Marks every key whose `revoke_at` has passed by `now` as revoked, with `revoked_at` = its `revoke_at` (the instant
 * authentication stopped accepting it). Idempotent; run by the worker's `key-revocation` job.
 * @returns how many keys were marked
 */
export async function revokeDueApiKeys(repos: Repositories, now: Date): Promise<number> {
  return repos.apiKeys.markDueApiKeysRevoked(now);
}

/**
 * The active key `keyId` of `storeId`. An id of another kind, another store's key, and a revoked one are all the
 * same 404, so a caller learns nothing about keys that are not theirs.
 */
async function findActiveApiKey(repos: Repositories, storeId: string, keyId: string, now: Date): Promise<ApiKey> {
  const key = isId("apiKey", keyId) ? await repos.apiKeys.findActiveApiKeyOfStore(storeId, keyId, now) : null;
  if (!key) throw notFound("API key");
  return key;
}

function alreadyRotated(): ApiError {
  return new ApiError("invalid_state", "This key was already rotated; rotate or delete its replacement instead.");
}
