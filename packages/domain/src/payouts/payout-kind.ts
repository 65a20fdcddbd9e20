/**
 * Money going out (DESIGN §7 "Refunds", "Withdrawals", "The acquirer does the moving"): a refund and a withdrawal
 * live one lifecycle, reserve on creation, a request to the acquirer, then an outcome that releases the reserve or
 * reverses it. A {@link PayoutKind} says what differs between the two; the lifecycle (create-payout.ts,
 * submit-payout.ts, settle-payout.ts) is written once against it.
 */
import type { OutgoingTable, Repositories } from "@lm/db";
import type { JobPayloads } from "@lm/queue";
import type { UseCaseDeps } from "../deps";

/** The queues that hand a refund or a withdrawal to the acquirer; their jobs carry the row's id only. */
export type PayoutSubmissionQueue = "refund-submission" | "withdrawal-submission";

/** The payload of a `refund-submission` or `withdrawal-submission` job. */
export type PayoutSubmissionJob = JobPayloads[PayoutSubmissionQueue];

/** Where a kind's rows are and how its submission jobs are queued: what the reconciler's sweep needs of it. */
export interface PayoutSubmission {
  /** The kind's table. */
  table: OutgoingTable;
  /** The kind's submission queue (job id = the row's id). */
  queue: PayoutSubmissionQueue;
  /** The job payload that names row `id`. */
  job(id: string): PayoutSubmissionJob;
}

/** Each kind's {@link PayoutSubmission}, by name. */
export const PAYOUT_SUBMISSIONS = {
  refund: { table: "refunds", queue: "refund-submission", job: (refundId) => ({ refundId }) },
  withdrawal: { table: "withdrawals", queue: "withdrawal-submission", job: (withdrawalId) => ({ withdrawalId }) },
} as const satisfies Record<string, PayoutSubmission>;

/** `refund` or `withdrawal`. */
export type PayoutKindName = keyof typeof PAYOUT_SUBMISSIONS;

/** The columns of a refund or withdrawal row the lifecycle reads. */
export interface PayoutRow {
  id: string;
  seller_id: string;
  mode: "live" | "test";
  /** Integer centavos. */
  amount: number;
  status: "pending" | "processing" | "succeeded" | "completed" | "failed";
  end_to_end_id: string | null;
  /** Requests made to the acquirer so far. */
  submit_attempts: number;
}

/** A step of the lifecycle that records the kind's event: `<noun>.created`, `.processing`, `.succeeded`, `.failed`. */
export type PayoutStep = "created" | "processing" | "succeeded" | "failed";

/**
 * What differs between a refund and a withdrawal, for the lifecycle written once.
 * @typeParam Row - the row as its request, its settlement and its events read it (a refund with its charge, a
 *   withdrawal with its payout key)
 */
export interface PayoutKind<Row extends PayoutRow> {
  /**
   * `refund` or `withdrawal`: the logs' and the anomalies' word (`mode_mismatch: test refund`), the key of its
   * {@link PAYOUT_SUBMISSIONS}, and the balance transaction types of its reserve (`refund`) and of the reserve's
   * reversal (`refund_reversal`).
   */
  noun: PayoutKindName;
  /** The status a success reaches, which is also the inbox item's result then: `succeeded` or `completed`. */
  succeeded: "succeeded" | "completed";
  /** Whether a claimed first request records `<noun>.processing` (withdrawals do; refunds have no such event). */
  recordsProcessing: boolean;
  /** Row `id`, or null when there is none. */
  find(repos: Repositories, id: string): Promise<Row | null>;
  /** The acquirer that holds `row`'s money (null: registered at no bank, the sandbox's). */
  acquirerIdOf(row: Row): string | null;
  /**
   * Records the event of `step` for `row` as it reads now, inside `tx`, and what that step means beyond the row (a
   * refund that completes its charge's refunds also records `transaction.refunded`).
   * @returns the deliveries to enqueue after commit
   */
  record(tx: Repositories, row: Row, step: PayoutStep, now: Date): Promise<string[]>;
  /**
   * Asks the acquirer to move `row`'s money, idempotent on the row's id at the acquirer.
   * @returns the end-to-end id it accepted the request under
   * @throws whatever the acquirer throws (`ApiError` `acquirer_rejected` when it refuses), or Error when no acquirer
   *   can serve the row
   */
  send(deps: UseCaseDeps, row: Row): Promise<string>;
  /** Locks, inside `tx` and before the row settles, what its settlement changes besides the row and the balance. */
  lockBeforeSettling?(tx: Repositories, row: Row): Promise<void>;
  /** Gives back, inside `tx`, what the row's creation took besides the balance, once it failed. */
  restoreOnFailure?(tx: Repositories, row: Row, now: Date): Promise<void>;
}

/**
 * Row `id` of `kind`, read again inside a transaction that just changed it.
 * @throws Error when it is gone (it cannot be: the caller's transaction holds it)
 */
export async function reloadPayout<Row extends PayoutRow>(
  tx: Repositories,
  kind: PayoutKind<Row>,
  id: string,
): Promise<Row> {
  const row = await kind.find(tx, id);
  if (row === null) throw new Error(`${kind.noun} ${id} vanished inside its own transaction`);
  return row;
}
