/**
 * Creating a refund or a withdrawal (DESIGN §7): in one database transaction, the kind's checks and its row, the
 * amount moved from `available` to `reserved` (the kind's reserve balance transaction, refused with
 * `insufficient_funds` when `available` is short: no write can make it negative), `<noun>.created`, and the idempotent
 * reply. After commit the worker is asked to hand the row to the acquirer (job id = row id; the reconciler covers a
 * lost job).
 */
import type { IdempotentReply, Repositories } from "@lm/db";
import { appendBalanceTransaction } from "../balance/ledger";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { PAYOUT_SUBMISSIONS, type PayoutKind, type PayoutKindName, type PayoutRow } from "./payout-kind";

/**
 * Enqueues the submission jobs of the `kind` rows `ids` (job id = row id) with {@link enqueueAfterCommit}: never
 * throws.
 */
export async function enqueuePayoutSubmissions(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  kind: PayoutKindName,
  ids: string[],
): Promise<void> {
  const { queue, job } = PAYOUT_SUBMISSIONS[kind];
  await enqueueAfterCommit(
    deps,
    queue,
    ids.map((id) => ({ data: job(id), jobId: id })),
  );
}

/**
 * Creates a row of `kind` with its reserve.
 * @param insert - the kind's checks and the row's insert, inside the transaction; returns the row as its events show
 *   it, and throws the kind's refusals (nothing is written then)
 * @param reply - the idempotent reply to store in the row's transaction, given the row (when its claim was taken
 *   over, nothing is written and its error is thrown)
 * @returns the row, `pending`
 * @throws what `insert` throws; ApiError `insufficient_funds` when `available` is short; `reply`'s error
 */
export async function createPayout<Row extends PayoutRow>(
  deps: UseCaseDeps,
  kind: PayoutKind<Row>,
  now: Date,
  insert: (tx: Repositories) => Promise<Row>,
  reply?: (row: Row) => IdempotentReply | undefined,
): Promise<Row> {
  const { row, deliveryIds } = await deps.repos.transaction(async (tx) => {
    const created = await insert(tx);
    await appendBalanceTransaction(tx, {
      sellerId: created.seller_id,
      mode: created.mode,
      type: kind.noun,
      amount: -created.amount,
      sourceId: created.id,
      reservedDelta: created.amount,
      now,
    });
    const recorded = await kind.record(tx, created, "created", now);
    await tx.idempotencyKeys.storeIdempotentReply(reply?.(created));
    return { row: created, deliveryIds: recorded };
  });
  await enqueueDeliveries(deps, deliveryIds);
  await enqueuePayoutSubmissions(deps, kind.noun, [row.id]);
  return row;
}
