/**
 * A store's postback secret, written as its owner's `POST /v1/me/postback-secret/rotate` writes it (encrypted with the
 * store id as associated data). A charge may name a `postback_url` only once its store has one (DESIGN §12 "Safer
 * defaults"), so tests and benchmarks that create such charges through the API give their store one first.
 */
import { updateStorePostbackSecret, type Db } from "@lm/db";
import { encryptSecret, generateWebhookSecret, webhookSecretPrefix } from "@lm/domain";
import { TEST_ENCRYPTION_KEY } from "./test-config";

/**
 * Gives store `storeId` a new postback secret (replacing any).
 * @param encryptionKey - the key the API decrypts it with (default: the test configuration's)
 * @returns the secret, `whsec_…`, to verify the postbacks' signatures with
 */
export async function givePostbackSecret(
  db: Db,
  storeId: string,
  encryptionKey: Buffer = TEST_ENCRYPTION_KEY,
): Promise<string> {
  const secret = generateWebhookSecret();
  await updateStorePostbackSecret(db, storeId, {
    ciphertext: encryptSecret(encryptionKey, secret, storeId),
    prefix: webhookSecretPrefix(secret),
    rotatedAt: new Date(),
    previousValidUntil: null,
  });
  return secret;
}
