/**
 * `charge-expiry` jobs: expire one charge at its `expires_at` (DESIGN §5). The job carries the charge id only; the
 * use case re-reads the row and changes nothing unless the charge is still pending and due.
 */
import { expireTransaction } from "@lm/domain";
import type { Processor } from ".";

/** Expires `transactionId` when due. */
export const chargeExpiryProcessor: Processor<"charge-expiry"> = async (deps, data) => {
  await expireTransaction(deps, data.transactionId);
};
