/**
 * `charge-expiry` job (repeatable, every second, DESIGN §5): expires the pending charges whose `expires_at` has
 * passed. Sweeps that overlap (several workers, a sweep slower than its period) expire each charge once (see
 * `expireDueTransactions`).
 */
import { expireDueTransactions } from "@lm/domain";
import type { Processor } from ".";

/** Expires due charges and logs how many. */
export const chargeExpiryProcessor: Processor<"charge-expiry"> = async (deps) => {
  const expired = await expireDueTransactions(deps);
  if (expired > 0) deps.logger.info("charges expired", { count: expired });
};
