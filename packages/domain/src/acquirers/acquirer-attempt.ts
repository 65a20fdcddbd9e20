/**
 * One request to the acquirer for a refund or a withdrawal (DESIGN §7), the part both flows share: send it, record
 * the end-to-end id it was accepted under, or record the error and either let the job fail (the reconciler offers the
 * row again) or, on the last allowed attempt, fail the row with `acquirer_unavailable` and put its amount back. A
 * request the bank refuses (`acquirer_rejected`) is not asked again: the row fails at once with
 * `rejected_by_acquirer`.
 */
import type { Repositories } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { ApiError } from "../errors";
import { ACQUIRER_MAX_ATTEMPTS, ACQUIRER_REJECTED, ACQUIRER_UNAVAILABLE } from "./acquirer-port";

/** What differs between a refund's attempt and a withdrawal's. */
export interface AcquirerAttempt {
  /** For logs: `refund` or `withdrawal`, and the row id. */
  kind: "refund" | "withdrawal";
  id: string;
  /** This attempt's number, 1-based (already counted on the row). */
  attempt: number;
  /** Makes the request; resolves with the end-to-end id the acquirer accepted it under. */
  send: () => Promise<string>;
  /** Records the accepted id (unless the outcome already did) and clears the last error. */
  accepted: (endToEndId: string) => Promise<void>;
  /** Records the last request's error on the row. */
  refused: (message: string) => Promise<void>;
  /** Fails the row with `reason` inside `tx`; returns the deliveries to enqueue, or null when already settled. */
  fail: (tx: Repositories, reason: string) => Promise<string[] | null>;
}

/**
 * Runs `request`.
 * @returns `sent`, or `failed` when this was the last allowed attempt or the bank refused it
 * @throws Error the acquirer's error while attempts remain
 */
export async function attemptAcquirerRequest(deps: UseCaseDeps, request: AcquirerAttempt): Promise<"sent" | "failed"> {
  try {
    await request.accepted(await request.send());
    return "sent";
  } catch (err) {
    await request.refused(err instanceof Error ? err.message.slice(0, 500) : "unknown error");
    const rejected = err instanceof ApiError && err.code === "acquirer_rejected";
    if (!rejected && request.attempt < ACQUIRER_MAX_ATTEMPTS) throw err;
    const reason = rejected ? ACQUIRER_REJECTED : ACQUIRER_UNAVAILABLE;
    const deliveryIds = await deps.repos.transaction((tx) => request.fail(tx, reason));
    deps.logger.warn(`${request.kind} failed: the acquirer ${rejected ? "refused" : "never accepted"} it`, {
      [`${request.kind}_id`]: request.id,
      attempts: request.attempt,
    });
    await enqueueDeliveries(deps, deliveryIds ?? []);
    return "failed";
  }
}
