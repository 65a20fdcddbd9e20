/**
 * Handing a refund to the acquirer (worker queue `refund-submission`, DESIGN §7): write-then-enqueue with the refund
 * id as job id, re-offered by the reconciler while the acquirer has not accepted it, and bounded: after
 * {@link ACQUIRER_MAX_ATTEMPTS} failed requests the refund fails (`acquirer_unavailable`) and its amount comes back.
 * Each attempt is claimed by a conditional update of `submit_attempts`, so two workers never send at once, and the
 * request is idempotent on the refund id at the acquirer, so a crash between sending and recording never refunds twice.
 */
import {
  claimOutgoingRowRequest,
  findRefundWithCharge,
  recordOutgoingRowAccepted,
  recordOutgoingRowSubmitError,
} from "@lm/db";
import { acquirerOfRow, attemptAcquirerRequest } from "../acquirers";
import type { UseCaseDeps } from "../deps";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { failRefund } from "./settle-refund";

/** Enqueues `refund-submission` jobs (job id = refund id) with {@link enqueueAfterCommit}: never throws. */
export async function enqueueRefundSubmissions(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  refundIds: string[],
): Promise<void> {
  await enqueueAfterCommit(
    deps,
    "refund-submission",
    refundIds.map((refundId) => ({ data: { refundId }, jobId: refundId })),
  );
}

/**
 * Sends refund `refundId` to its mode's acquirer unless it was accepted or settled already.
 * @returns `sent`, `failed` (attempts exhausted) or `skipped`
 * @throws Error the acquirer's error while attempts remain (the job fails; the reconciler offers it again)
 */
export async function submitRefund(deps: UseCaseDeps, refundId: string): Promise<string> {
  const refund = await findRefundWithCharge(deps.db, refundId);
  if (!refund || refund.end_to_end_id !== null || (refund.status !== "pending" && refund.status !== "processing")) {
    return "skipped";
  }
  if (!(await claimOutgoingRowRequest(deps.db, "refunds", { ...refund, status: refund.status }, deps.now()))) {
    return "skipped";
  }
  const charge = refund.transaction;
  return attemptAcquirerRequest(deps, {
    kind: "refund",
    id: refund.id,
    attempt: refund.submit_attempts + 1,
    async send() {
      const acquirer = await acquirerOfRow(deps, charge.acquirer_id, refund.mode);
      if (!acquirer || charge.payment_end_to_end_id === null)
        throw new Error(`no acquirer can refund this ${refund.mode} charge`);
      const { returnId } = await acquirer.refundPix({
        refundId: refund.id,
        paymentEndToEndId: charge.payment_end_to_end_id,
        txid: charge.txid,
        paymentAmount: charge.payment_amount ?? charge.amount,
        amount: refund.amount,
        reason: refund.reason,
        createdAt: refund.created_at,
      });
      return returnId;
    },
    accepted: (returnId) => recordOutgoingRowAccepted(deps.db, "refunds", refund.id, returnId),
    refused: (message) => recordOutgoingRowSubmitError(deps.db, "refunds", refund.id, message),
    fail: (tx, reason) => failRefund(tx, refund, { reason }, deps.now()),
  });
}
