/**
 * Use case: create an API key for a seller's store (DESIGN §3; used by the ops command line and the panel).
 */
import type { ApiKey, Repositories } from "@lm/db";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { generateApiKey, MAX_ACTIVE_API_KEYS_PER_MODE, type Mode } from "./api-key";

/** The stored key and, once, its secret. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The full key; never stored, never shown again. */
  key: string;
}

/**
 * Creates a key named `name` of `mode` on `storeId`.
 * Run it inside a transaction to make the limit hold under concurrent creations: it locks the store's row first, so
 * creations for one store count one after another.
 * @param input.now - creation time; keys whose `revoke_at` is past it do not count as active
 * @throws ApiError `resource_not_found` when the store does not exist; `kyc_required` for a live key of a seller
 *   whose KYC is not approved; `invalid_state` when the store already has 10 active keys of that mode
 */
export async function createApiKey(
  repos: Repositories,
  input: { storeId: string; name: string; mode: Mode; now: Date },
): Promise<CreatedApiKey> {
  await repos.sellers.lockStoreForUpdate(input.storeId);
  const store = await repos.sellers.findStoreWithSeller(input.storeId);
  if (!store) throw notFound("store");
  if (input.mode === "live" && store.seller.kyc_status !== "approved") {
    throw new ApiError("kyc_required", "Live keys need the seller's KYC to be approved.");
  }
  // A rotated key in its grace window is still active and still counts.
  const active = await repos.apiKeys.countActiveApiKeysOfStore(store.id, input.mode, input.now);
  if (active >= MAX_ACTIVE_API_KEYS_PER_MODE) {
    throw new ApiError(
      "invalid_state",
      `A store may have at most ${MAX_ACTIVE_API_KEYS_PER_MODE} active ${input.mode} keys; revoke one first.`,
    );
  }
  const generated = generateApiKey(input.mode);
  const apiKey = await repos.apiKeys.insertApiKey({
    id: newId("apiKey"),
    store_id: store.id,
    name: input.name,
    mode: input.mode,
    key_hash: generated.hash,
    key_prefix: generated.prefix,
  });
  return { apiKey, key: generated.key };
}
