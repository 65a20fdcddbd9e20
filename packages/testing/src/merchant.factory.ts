/**
 * Test data factory (STYLE example 5): a seller with KYC approved, its store, and one test and one live API key,
 * made through the real use cases so the rows are exactly what the service would write.
 */
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { createRepositories, type Db } from "@lm/db";
import { createApiKey, createSeller, setSellerKyc } from "@lm/domain";
import { TEST_ENCRYPTION_KEY } from "./test-config";

/** A merchant ready to call the merchant API. */
export interface TestMerchant {
  sellerId: string;
  storeId: string;
  /** `sk_test_…`, full key. */
  testKey: string;
  /** `sk_live_…`, full key. */
  liveKey: string;
}

/**
 * Creates a merchant with a random valid CPF (so every call makes a distinct seller).
 * @param options.name - legal name and store name (default `Loja de Teste`)
 * @param options.encryptionKey - key the seller's document is encrypted under (default: the test configuration's)
 */
export async function createTestMerchant(
  db: Db,
  options: { name?: string; encryptionKey?: Buffer } = {},
): Promise<TestMerchant> {
  const config = { encryptionKey: options.encryptionKey ?? TEST_ENCRYPTION_KEY };
  const repos = createRepositories(db);
  const { seller, store } = await createSeller(repos, config, {
    name: options.name ?? "Loja de Teste",
    document: generateCpf(),
  });
  await setSellerKyc(repos, seller.id, "approved");
  const now = new Date();
  const test = await createApiKey(repos, { storeId: store.id, name: "test", mode: "test", now });
  const live = await createApiKey(repos, { storeId: store.id, name: "live", mode: "live", now });
  return { sellerId: seller.id, storeId: store.id, testKey: test.key, liveKey: live.key };
}
