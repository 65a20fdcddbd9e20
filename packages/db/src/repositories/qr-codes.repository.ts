/**
 * Reusable QR codes (`qr_codes`, DESIGN §13): static BR Codes paid any number of times. A code is written once with
 * the request's idempotent reply; afterwards only its deactivation and its counters change, the counters inside the
 * statement that settles its payments (payments.repository.ts).
 */
import { onPrisma, onSql, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { QrCode } from "../generated/client";
import type { PageArgs } from "../page";
import { insertWrite, runWrites, type SqlClient } from "../sql";
import { idempotentReplyWrite, type IdempotentReply } from "./idempotency-keys.repository";

/** A code to insert: every column but those the table defaults (`active`, its counters). */
export type NewQrCode = Omit<QrCode, "active" | "payments_count" | "amount_received">;

/**
 * Inserts `code` and `reply` (the request's idempotent reply) in ONE statement.
 * @throws a unique violation on `external_id` or `txid` (see `isUniqueViolation`); `reply.takenOver()` when its claim
 *   was taken over (nothing written)
 */
export async function insertQrCode(client: SqlClient, code: NewQrCode, reply?: IdempotentReply): Promise<void> {
  await runWrites(client, [
    insertWrite("qr_codes", [{ ...code }], { mode: "mode" }),
    ...(reply ? [idempotentReplyWrite(reply)] : []),
  ]);
}

/** Code `id`, or null. By id alone: the caller checks the store and mode. */
export function findQrCodeById(db: DbClient, id: string): Promise<QrCode | null> {
  return db.qrCode.findUnique({ where: { id } });
}

/** The codes whose `txid` is one of `txids` (each txid is unique), in no particular order. */
export function findQrCodesByTxids(db: DbClient, txids: string[]): Promise<QrCode[]> {
  if (txids.length === 0) return Promise.resolve([]);
  return db.qrCode.findMany({ where: { txid: { in: [...new Set(txids)] } } });
}

/** One page of a store's codes of `mode`, in the page's order. */
export function listQrCodesPage(
  db: DbClient,
  scope: { storeId: string; mode: QrCode["mode"] },
  page: PageArgs,
): Promise<QrCode[]> {
  return db.qrCode.findMany({
    where: { store_id: scope.storeId, mode: scope.mode, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/**
 * Deactivates code `id` at `at` unless it is inactive already. The update takes the row's lock, so it waits for a
 * settlement of a payment to the code that holds it, and a settlement after it finds the code inactive.
 * @returns the code as it is now (deactivated by this call or before), or null when it is unknown
 */
export async function deactivateQrCode(db: DbClient, id: string, at: Date): Promise<QrCode | null> {
  await db.qrCode.updateMany({
    where: { id, active: true },
    data: { active: false, deactivated_at: at, updated_at: at },
  });
  return db.qrCode.findUnique({ where: { id } });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function qrCodesRepository(c: Connection) {
  return {
    ...onSql(c, { insertQrCode }),
    ...onPrisma(c, { findQrCodeById, findQrCodesByTxids, listQrCodesPage, deactivateQrCode }),
  };
}
