/**
 * Expiry of charges (DESIGN §5): a pending charge becomes `expired` at `expires_at`. Each charge gets a delayed
 * `charge-expiry` job at creation (`jobId` = the charge id); the reconciler re-enqueues overdue pending charges whose
 * job was lost (apps/worker/src/sweepers/overdue-charges.ts). Reads already show `expired` in between (see
 * `serializeTransaction`).
 */
import { inTransaction, type Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { transitionTransaction } from "./transaction-events";

/**
 * Enqueues the delayed expiry job of a freshly committed charge with {@link enqueueAfterCommit}: never throws, the
 * reconciler's sweep finds the charge once it is overdue.
 */
export async function enqueueExpiry(
  deps: Pick<UseCaseDeps, "producer" | "logger" | "now">,
  transaction: Transaction,
): Promise<void> {
  const delayMs = transaction.expires_at.getTime() - deps.now().getTime();
  await enqueueAfterCommit(deps, "charge-expiry", [
    { data: { transactionId: transaction.id }, jobId: transaction.id, delayMs },
  ]);
}

/**
 * Expires charge `transactionId` if it is still pending and its `expires_at` has passed, writing
 * `transaction.expired` and its fan-out in the same database transaction. Anything else (unknown, paid, canceled,
 * already expired, not yet due) changes nothing, so a repeated or early job is harmless.
 * @returns whether the charge was expired by this call
 */
export async function expireTransaction(deps: UseCaseDeps, transactionId: string): Promise<boolean> {
  const now = deps.now();
  const found = await deps.db.transaction.findUnique({ where: { id: transactionId } });
  if (!found || found.status !== "pending" || found.expires_at > now) return false;
  const expired = await inTransaction(deps.db, (tx) =>
    transitionTransaction(tx, {
      id: transactionId,
      guard: { expires_at: { lte: now } },
      data: { status: "expired", expired_at: found.expires_at },
      type: "transaction.expired",
      now,
    }),
  );
  if (!expired) return false;
  await enqueueDeliveries(deps, expired.deliveryIds);
  return true;
}
