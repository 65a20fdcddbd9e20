/**
 * Handing a refund or a withdrawal to the acquirer (worker queues `refund-submission` and `withdrawal-submission`,
 * DESIGN §7): write-then-enqueue with the row id as job id, re-offered by the reconciler while the acquirer has not
 * accepted it, and bounded: after `ACQUIRER_MAX_ATTEMPTS` (acquirer-port.ts) failed requests the row fails
 * (`acquirer_unavailable`) and its amount comes back. Each attempt is claimed by a conditional update of
 * `submit_attempts`, so two workers never send at once, and the request is idempotent on the row id at the acquirer,
 * so a crash between sending and recording never moves the money twice.
 */
import { attemptAcquirerRequest } from "../acquirers";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { PAYOUT_SUBMISSIONS, reloadPayout, type PayoutKind, type PayoutRow } from "./payout-kind";
import { failPayout } from "./settle-payout";

/**
 * Claims the next request for `row` (counted, `processing`), recording `<noun>.processing` when the kind has it and
 * the row was `pending`.
 * @returns the deliveries to enqueue, or null when another worker claimed it or it changed since read
 */
async function claimRequest<Row extends PayoutRow>(
  deps: UseCaseDeps,
  kind: PayoutKind<Row>,
  row: Row & { status: "pending" | "processing" },
): Promise<string[] | null> {
  const now = deps.now();
  const { table } = PAYOUT_SUBMISSIONS[kind.noun];
  if (!kind.recordsProcessing) return (await deps.repos.payouts.claimOutgoingRowRequest(table, row, now)) ? [] : null;
  return deps.repos.transaction(async (tx) => {
    if (!(await tx.payouts.claimOutgoingRowRequest(table, row, now))) return null;
    return row.status === "pending" ? kind.record(tx, await reloadPayout(tx, kind, row.id), "processing", now) : [];
  });
}

/**
 * Sends row `id` of `kind` to its acquirer unless it was accepted or settled already.
 * @returns `sent`, `failed` (attempts exhausted, or the bank refused it) or `skipped`
 * @throws Error the acquirer's error while attempts remain (the job fails; the reconciler offers it again)
 */
export async function submitPayout<Row extends PayoutRow>(
  deps: UseCaseDeps,
  kind: PayoutKind<Row>,
  id: string,
): Promise<string> {
  const row = await kind.find(deps.repos, id);
  if (!row || row.end_to_end_id !== null || (row.status !== "pending" && row.status !== "processing")) {
    return "skipped";
  }
  const claimed = await claimRequest(deps, kind, { ...row, status: row.status });
  if (claimed === null) return "skipped";
  await enqueueDeliveries(deps, claimed);
  const { table } = PAYOUT_SUBMISSIONS[kind.noun];
  return attemptAcquirerRequest(deps, {
    kind: kind.noun,
    id: row.id,
    attempt: row.submit_attempts + 1,
    send: () => kind.send(deps, row),
    accepted: (endToEndId) => deps.repos.payouts.recordOutgoingRowAccepted(table, row.id, endToEndId),
    refused: (message) => deps.repos.payouts.recordOutgoingRowSubmitError(table, row.id, message),
    fail: (tx, reason) => failPayout(tx, kind, row, { reason }, deps.now()),
  });
}
