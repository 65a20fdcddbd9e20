/**
 * Reconciler sweeps of requests to the acquirer (DESIGN §1, §7): every refund or withdrawal still waiting for the
 * acquirer to accept it (no `end_to_end_id`, attempts left) and untouched for a minute is offered to its submission queue with
 * `jobId` = its id, after the queue's failed jobs are put back; that is both the cover for a lost job and the retry
 * of a failed request (bounded by the row's `submit_attempts`). Submission is idempotent, so an offer too many sends
 * nothing twice.
 */
import { ACQUIRER_MAX_ATTEMPTS, PAYOUT_SUBMISSIONS, type PayoutKindName } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** What these sweeps use of the worker's dependencies. */
type SweepDeps = Pick<WorkerDeps, "repos" | "producer" | "now" | "metrics">;

/** Most rows offered per tick, oldest first. */
const BATCH_SIZE = 1000;
/** Rows younger than this are left to the job enqueued at creation, ms. */
const GRACE_MS = 60_000;

/**
 * Offers the refunds (`kind` `refund`) or withdrawals that wait for the acquirer and were left alone for
 * {@link GRACE_MS}, oldest first, to their submission queue.
 * @returns how many were offered
 */
export async function enqueueStrandedPayouts(deps: SweepDeps, kind: PayoutKindName): Promise<number> {
  const { table, queue, job } = PAYOUT_SUBMISSIONS[kind];
  await putFailedJobsBack(deps, queue);
  const stranded = await deps.repos.payouts.listOutgoingRowsWaitingForAcquirer(table, {
    maxAttempts: ACQUIRER_MAX_ATTEMPTS,
    untouchedSince: new Date(deps.now().getTime() - GRACE_MS),
    limit: BATCH_SIZE,
  });
  return offerRows(
    deps,
    queue,
    stranded.map((id) => ({ data: job(id), jobId: id })),
  );
}
