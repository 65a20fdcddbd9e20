/**
 * `refund-submission` and `withdrawal-submission` jobs: hand one refund or withdrawal to the acquirer (DESIGN §7). The
 * job carries the row's id only; the use case re-reads the row and sends nothing for one already accepted or settled.
 */
import { submitRefund, submitWithdrawal, type PayoutSubmissionQueue } from "@lm/domain";
import type { Processor } from ".";

/** Submits the job's row; throws while the acquirer fails and attempts remain (the reconciler offers it again). */
export const payoutSubmissionProcessor: Processor<PayoutSubmissionQueue> = async (deps, data) => {
  await ("refundId" in data ? submitRefund(deps, data.refundId) : submitWithdrawal(deps, data.withdrawalId));
};
