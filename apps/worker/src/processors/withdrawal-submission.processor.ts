/**
 * `withdrawal-submission` jobs: hand one withdrawal to the acquirer (DESIGN §7). The job carries the withdrawal id
 * only; the use case re-reads the row and sends nothing for a withdrawal already accepted or settled.
 */
import { submitWithdrawal } from "@lm/domain";
import type { Processor } from ".";

/** Submits `withdrawalId`; throws while the acquirer fails and attempts remain (the reconciler offers it again). */
export const withdrawalSubmissionProcessor: Processor<"withdrawal-submission"> = async (deps, data) => {
  await submitWithdrawal(deps, data.withdrawalId);
};
