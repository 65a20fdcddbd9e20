/**
 * Reconciler sweeps of requests to the acquirer (DESIGN §1, §7): every refund or withdrawal still waiting for the
 * acquirer to accept it (no `end_to_end_id`, attempts left) and untouched for a minute is offered to its submission queue with
 * `jobId` = its id, after the queue's failed jobs are put back; that is both the cover for a lost job and the retry
 * of a failed request (bounded by the row's `submit_attempts`). Submission is idempotent, so an offer too many sends
 * nothing twice.
 */
import { ACQUIRER_MAX_ATTEMPTS } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** What these sweeps use of the worker's dependencies. */
type SweepDeps = Pick<WorkerDeps, "db" | "producer" | "now" | "metrics">;

/** Most rows offered per tick, oldest first. */
const BATCH_SIZE = 1000;
/** Rows younger than this are left to the job enqueued at creation, ms. */
const GRACE_MS = 60_000;

/** The rows of either table that wait for the acquirer and were left alone for {@link GRACE_MS}. */
function waitingForAcquirer(deps: SweepDeps) {
  return {
    where: {
      status: { in: ["pending" as const, "processing" as const] },
      end_to_end_id: null,
      submit_attempts: { lt: ACQUIRER_MAX_ATTEMPTS },
      updated_at: { lte: new Date(deps.now().getTime() - GRACE_MS) },
    },
    select: { id: true },
    orderBy: { updated_at: "asc" as const },
    take: BATCH_SIZE,
  };
}

/**
 * Offers the refunds that wait for the acquirer to the `refund-submission` queue.
 * @returns how many were offered
 */
export async function enqueueStrandedRefunds(deps: SweepDeps): Promise<number> {
  await putFailedJobsBack(deps, "refund-submission");
  const stranded = await deps.db.refund.findMany(waitingForAcquirer(deps));
  return offerRows(
    deps,
    "refund-submission",
    stranded.map(({ id }) => ({ data: { refundId: id }, jobId: id })),
  );
}

/**
 * Offers the withdrawals that wait for the acquirer to the `withdrawal-submission` queue.
 * @returns how many were offered
 */
export async function enqueueStrandedWithdrawals(deps: SweepDeps): Promise<number> {
  await putFailedJobsBack(deps, "withdrawal-submission");
  const stranded = await deps.db.withdrawal.findMany(waitingForAcquirer(deps));
  return offerRows(
    deps,
    "withdrawal-submission",
    stranded.map(({ id }) => ({ data: { withdrawalId: id }, jobId: id })),
  );
}
