/**
 * Reconciler sweeps of requests to the acquirer (DESIGN §1, §7): every refund or withdrawal still waiting for the
 * acquirer to accept it (no `end_to_end_id`, attempts left) and untouched for a minute is offered to its submission queue with
 * `jobId` = its id, after the queue's failed jobs are put back; that is both the cover for a lost job and the retry
 * of a failed request (bounded by the row's `submit_attempts`). Submission is idempotent, so an offer too many sends
 * nothing twice.
 */
import { listOutgoingRowsWaitingForAcquirer, type OutgoingTable } from "@lm/db";
import { ACQUIRER_MAX_ATTEMPTS } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** What these sweeps use of the worker's dependencies. */
type SweepDeps = Pick<WorkerDeps, "db" | "producer" | "now" | "metrics">;

/** Most rows offered per tick, oldest first. */
const BATCH_SIZE = 1000;
/** Rows younger than this are left to the job enqueued at creation, ms. */
const GRACE_MS = 60_000;

/** Ids of the rows of `table` that wait for the acquirer and were left alone for {@link GRACE_MS}, oldest first. */
function waitingForAcquirer(deps: SweepDeps, table: OutgoingTable): Promise<string[]> {
  return listOutgoingRowsWaitingForAcquirer(deps.db, table, {
    maxAttempts: ACQUIRER_MAX_ATTEMPTS,
    untouchedSince: new Date(deps.now().getTime() - GRACE_MS),
    limit: BATCH_SIZE,
  });
}

/**
 * Offers the refunds that wait for the acquirer to the `refund-submission` queue.
 * @returns how many were offered
 */
export async function enqueueStrandedRefunds(deps: SweepDeps): Promise<number> {
  await putFailedJobsBack(deps, "refund-submission");
  const stranded = await waitingForAcquirer(deps, "refunds");
  return offerRows(
    deps,
    "refund-submission",
    stranded.map((id) => ({ data: { refundId: id }, jobId: id })),
  );
}

/**
 * Offers the withdrawals that wait for the acquirer to the `withdrawal-submission` queue.
 * @returns how many were offered
 */
export async function enqueueStrandedWithdrawals(deps: SweepDeps): Promise<number> {
  await putFailedJobsBack(deps, "withdrawal-submission");
  const stranded = await waitingForAcquirer(deps, "withdrawals");
  return offerRows(
    deps,
    "withdrawal-submission",
    stranded.map((id) => ({ data: { withdrawalId: id }, jobId: id })),
  );
}
