/**
 * `charge-expiry` job (repeatable, every second, DESIGN §5, §10 "Sweeps"): expires every pending charge whose
 * `expires_at` had passed when the tick started, in batches, with no cap per tick. Ticks never overlap, across every
 * worker (`sweep-schedule.ts`); a sweep run by hand meanwhile expires each charge once (see `expireDueTransactions`).
 */
import { expireDueTransactions } from "@lm/domain";
import type { Processor } from ".";

/** Expires due charges and logs how many. */
export const chargeExpiryProcessor: Processor<"charge-expiry"> = async (deps) => {
  const expired = await expireDueTransactions(deps);
  if (expired > 0) deps.logger.info("charges expired", { count: expired });
};
