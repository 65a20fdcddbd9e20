/**
 * `refund-submission` jobs: hand one refund to the acquirer (DESIGN §7). The job carries the refund id only; the use
 * case re-reads the row and sends nothing for a refund already accepted or settled.
 */
import { submitRefund } from "@lm/domain";
import type { Processor } from ".";

/** Submits `refundId`; throws while the acquirer fails and attempts remain (the reconciler offers it again). */
export const refundSubmissionProcessor: Processor<"refund-submission"> = async (deps, data) => {
  await submitRefund(deps, data.refundId);
};
