/**
 * Group settlement of inbound payments (events must be recorded at 1,000 a second): the `inbox-processing` jobs running
 * at the same time hand their items to one batcher, which settles the plain payments of each batch in one statement
 * (`settlePayments`, domain).
 */
import { createBatcher, settlePayments, type UseCaseDeps } from "@lm/domain";

/**
 * Settles one inbox item as part of the next batch.
 * @returns `paid` when the batch settled it; null when the job must process it one by one (`processInboxItem`): it
 *   was not a plain payment, or the batch failed (logged once; one by one, each item records its own failure)
 */
export type PaymentSettlement = (inboxItemId: string) => Promise<"paid" | null>;

/** Creates the batcher of one worker process; `deps` is read at each batch (tests replace `now`). */
export function createPaymentSettlement(deps: () => UseCaseDeps): PaymentSettlement {
  return createBatcher(async (inboxItemIds: string[]) => {
    try {
      return await settlePayments(deps(), inboxItemIds);
    } catch (err) {
      deps().logger.warn("batched payment settlement failed; settling its items one by one", {
        inbox_items: inboxItemIds.length,
        err,
      });
      return inboxItemIds.map(() => null);
    }
  });
}
