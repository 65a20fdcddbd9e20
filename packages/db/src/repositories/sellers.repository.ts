/**
 * Sellers and their stores: registration, the profile and KYC status, the step-up toggles, the withdrawal lock, the
 * seller's document (encrypted at rest, with a keyed lookup hash), the store's postback secret, and the one-off
 * encryption of documents written before encryption at rest.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { KycStatus, Prisma, Seller, Store, Transaction } from "../generated/client";
import { sql, sqlQuery, type SqlClient } from "../sql";

// ---------------------------------------------------------------------------------------------------------------
// Sellers

/**
 * Inserts a seller and returns the stored row.
 * @throws Prisma P2002 (`isUniqueViolation`) when a seller has the same document hash
 */
export function insertSeller(db: DbClient, data: Prisma.SellerUncheckedCreateInput): Promise<Seller> {
  return db.seller.create({ data });
}

/** Seller `sellerId`, or null. */
export function findSellerById(db: DbClient, sellerId: string): Promise<Seller | null> {
  return db.seller.findUnique({ where: { id: sellerId } });
}

/**
 * Seller `sellerId`, for a caller that holds a reference to it (a signed-in owner's).
 * @throws Prisma P2025 (`isRecordNotFound`) when it does not exist
 */
export function getSellerById(db: DbClient, sellerId: string): Promise<Seller> {
  return db.seller.findUniqueOrThrow({ where: { id: sellerId } });
}

/** Up to `limit` sellers whose legal name is `legalName`, compared case-insensitively, in no particular order. */
export function findSellersByLegalName(db: DbClient, legalName: string, limit: number): Promise<Seller[]> {
  return db.seller.findMany({ where: { legal_name: { equals: legalName, mode: "insensitive" } }, take: limit });
}

/**
 * Sets the seller's KYC status, `updated_at` = `now`.
 * @returns the seller after the change
 * @throws Prisma P2025 when it does not exist
 */
export function updateSellerKycStatus(db: DbClient, sellerId: string, status: KycStatus, now: Date): Promise<Seller> {
  return db.seller.update({ where: { id: sellerId }, data: { kyc_status: status, updated_at: now } });
}

/** The profile fields a seller may change themselves. */
export type SellerProfileUpdate = Pick<Prisma.SellerUpdateInput, "trade_name" | "email">;

/**
 * Applies an owner's profile changes (fields absent from `changes` stay), `updated_at` = `now`.
 * @returns the seller after the change
 * @throws Prisma P2025 when it does not exist
 */
export function updateSellerProfileFields(
  db: DbClient,
  sellerId: string,
  changes: SellerProfileUpdate,
  now: Date,
): Promise<Seller> {
  return db.seller.update({ where: { id: sellerId }, data: { ...changes, updated_at: now } });
}

/**
 * Blocks the seller's withdrawals until `until` (after a lost-2FA recovery), `updated_at` = `now`.
 * @returns the seller after the change
 * @throws Prisma P2025 when it does not exist
 */
export function lockSellerWithdrawals(db: DbClient, sellerId: string, until: Date, now: Date): Promise<Seller> {
  return db.seller.update({ where: { id: sellerId }, data: { withdrawals_locked_until: until, updated_at: now } });
}

/**
 * Sets the seller's step-up toggles given (an `undefined` one stays).
 * @returns the seller after the change
 * @throws Prisma P2025 when it does not exist
 */
export function updateSellerStepUpPrefs(
  db: DbClient,
  sellerId: string,
  changes: { webhook?: boolean | undefined; account?: boolean | undefined },
): Promise<Seller> {
  return db.seller.update({
    where: { id: sellerId },
    data: { step_up_webhook: changes.webhook, step_up_account: changes.account },
  });
}

/**
 * The stored document of seller `sellerId` (an envelope, or clear digits before `documents:encrypt`) and its lookup
 * hash; null when the seller is unknown.
 */
export function findSellerDocument(
  db: DbClient,
  sellerId: string,
): Promise<Pick<Seller, "id" | "document" | "document_hash"> | null> {
  return db.seller.findUnique({ where: { id: sellerId }, select: { id: true, document: true, document_hash: true } });
}

/**
 * The stored document of seller `sellerId` (an envelope, or clear digits before `documents:encrypt`).
 * @throws Prisma P2025 when the seller does not exist
 */
export function getSellerDocument(db: DbClient, sellerId: string): Promise<Pick<Seller, "id" | "document">> {
  return db.seller.findUniqueOrThrow({ where: { id: sellerId }, select: { id: true, document: true } });
}

// ---------------------------------------------------------------------------------------------------------------
// Stores

/** Inserts a store and returns the stored row. */
export function insertStore(db: DbClient, data: Prisma.StoreUncheckedCreateInput): Promise<Store> {
  return db.store.create({ data });
}

/**
 * Locks store `storeId`'s row until the transaction ends (nothing when it does not exist), so that changes counted
 * or derived from the store's current state (its active keys, its postback secret) happen one after another.
 * Meaningful only inside a transaction.
 */
export async function lockStoreForUpdate(db: DbClient, storeId: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM stores WHERE id = ${storeId} FOR UPDATE`;
}

/**
 * Whether store `storeId` has a postback secret (false when there is no such store): asked on every charge creation
 * with a `postback_url`, so one prepared statement on the pool rather than a Prisma read of the whole store (measured
 * in `bench:api`: Prisma's query cost about 3 ms of the API's CPU per creation).
 */
export async function storeHasPostbackSecret(client: SqlClient, storeId: string): Promise<boolean> {
  const [row] = await sqlQuery<{ has: boolean }>(
    client,
    sql`SELECT postback_secret_ciphertext IS NOT NULL AS has FROM stores WHERE id = ${storeId}`,
  );
  return row?.has ?? false;
}

/**
 * Store `storeId`.
 * @throws Prisma P2025 when it does not exist
 */
export function getStoreById(db: DbClient, storeId: string): Promise<Store> {
  return db.store.findUniqueOrThrow({ where: { id: storeId } });
}

/**
 * The seller of store `storeId`: whose balance the store's charges credit and its refunds debit.
 * @throws Prisma P2025 when the store does not exist
 */
export async function findSellerIdOfStore(db: DbClient, storeId: string): Promise<string> {
  const store = await db.store.findUniqueOrThrow({ where: { id: storeId }, select: { seller_id: true } });
  return store.seller_id;
}

/** Store `storeId` with its seller, or null. */
export function findStoreWithSeller(db: DbClient, storeId: string): Promise<(Store & { seller: Seller }) | null> {
  return db.store.findUnique({ where: { id: storeId }, include: { seller: true } });
}

/**
 * Store `storeId` with its seller.
 * @throws Prisma P2025 when it does not exist
 */
export function getStoreWithSeller(db: DbClient, storeId: string): Promise<Store & { seller: Seller }> {
  return db.store.findUniqueOrThrow({ where: { id: storeId }, include: { seller: true } });
}

/** The seller's oldest store, or null when it has none (or does not exist). */
export function findOldestStoreOfSeller(db: DbClient, sellerId: string): Promise<Store | null> {
  return db.store.findFirst({ where: { seller_id: sellerId }, orderBy: { created_at: "asc" } });
}

/** The ids of every store of the seller. */
export function listStoreIdsOfSeller(db: DbClient, sellerId: string): Promise<Array<Pick<Store, "id">>> {
  return db.store.findMany({ where: { seller_id: sellerId }, select: { id: true } });
}

/**
 * Replaces the store's postback secret.
 * @param secret.ciphertext - the new secret, encrypted with the store id as associated data
 * @param secret.previousValidUntil - when the previous secret stopped, null when there was none
 * @returns the store after the change
 * @throws Prisma P2025 when it does not exist
 */
export function updateStorePostbackSecret(
  db: DbClient,
  storeId: string,
  secret: { ciphertext: string; prefix: string; rotatedAt: Date; previousValidUntil: Date | null },
): Promise<Store> {
  return db.store.update({
    where: { id: storeId },
    data: {
      postback_secret_ciphertext: secret.ciphertext,
      postback_secret_prefix: secret.prefix,
      postback_secret_rotated_at: secret.rotatedAt,
      postback_previous_valid_until: secret.previousValidUntil,
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Encryption of documents stored in clear (`documents:encrypt`). The charges' statements are here, beside the
// sellers', because they serve this one flow only, run once after a deploy: the charge statements of the API's
// paths are the charges module's.

/** Up to `limit` sellers whose document is still clear digits (no lookup hash yet). */
export function listSellersWithClearDocument(db: DbClient, limit: number): Promise<Seller[]> {
  return db.seller.findMany({ where: { document_hash: null }, take: limit });
}

/**
 * Replaces seller `sellerId`'s clear document with its envelope and lookup hash.
 * @throws Prisma P2025 when it does not exist
 */
export async function setSellerEncryptedDocument(
  db: DbClient,
  sellerId: string,
  input: { document: string; documentHash: string },
): Promise<void> {
  await db.seller.update({
    where: { id: sellerId },
    data: { document: input.document, document_hash: input.documentHash },
  });
}

/** A charge's document column that may hold clear digits from before encryption at rest. */
export type ChargeDocumentColumn = "customer_document" | "payer_document";

/** Up to `limit` charges whose `column` holds clear digits. */
export function listChargesWithClearDocument(
  db: DbClient,
  column: ChargeDocumentColumn,
  limit: number,
): Promise<Transaction[]> {
  // An envelope starts with its key version (`v1.`); clear digits never do.
  const clear = { AND: [{ [column]: { not: null } }, { NOT: { [column]: { startsWith: "v1." } } }] };
  return db.transaction.findMany({ where: clear, take: limit });
}

/**
 * Replaces charge `chargeId`'s clear `column` with its stored form and `<column>_masked` with its mask.
 * @throws Prisma P2025 when it does not exist
 */
export async function setChargeEncryptedDocument(
  db: DbClient,
  chargeId: string,
  column: ChargeDocumentColumn,
  input: { stored: string | null; masked: string | null },
): Promise<void> {
  await db.transaction.update({
    where: { id: chargeId },
    data: { [column]: input.stored, [`${column}_masked`]: input.masked },
  });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function sellersRepository(c: Connection) {
  return {
    ...onSql(c, { storeHasPostbackSecret }),
    ...onPrisma(c, {
      insertSeller,
      findSellerById,
      getSellerById,
      findSellersByLegalName,
      updateSellerKycStatus,
      updateSellerProfileFields,
      lockSellerWithdrawals,
      updateSellerStepUpPrefs,
      findSellerDocument,
      getSellerDocument,
      insertStore,
      lockStoreForUpdate,
      getStoreById,
      findSellerIdOfStore,
      findStoreWithSeller,
      getStoreWithSeller,
      findOldestStoreOfSeller,
      listStoreIdsOfSeller,
      updateStorePostbackSecret,
      listSellersWithClearDocument,
      setSellerEncryptedDocument,
      listChargesWithClearDocument,
      setChargeEncryptedDocument,
    }),
  };
}
