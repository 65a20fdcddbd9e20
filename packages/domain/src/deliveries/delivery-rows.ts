/**
 * The delivery rows as an attempt reads and writes them (DESIGN §4 "Delivery rows"): the port through which the
 * worker batches them across concurrent jobs (`loadPendingDeliveries` and `writeDeliveryAttempts` of `@lm/db`, each
 * over many rows at once). Every write is conditional on the row still being `pending`, so a job that runs twice
 * writes once.
 */
import type { DeliveryAttemptRow, LoadedDelivery } from "@lm/db";
import type { DeliveryError } from "../webhooks/retry-policy";

export type { LoadedDelivery } from "@lm/db";

/** The outcome of an attempt as written on its row, with one of the SPEC's error values. */
export interface AttemptRow extends DeliveryAttemptRow {
  error: DeliveryError | null;
}

/**
 * Access to delivery rows as the attempt needs it; the worker batches both across concurrent jobs (group commit).
 */
export interface DeliveryRows {
  /** The row `id` with its event, endpoint and postback secret; null when it is missing or no longer `pending`. */
  loadPending(id: string): Promise<LoadedDelivery | null>;
  /** Writes an attempt's outcome; resolves false when the row was no longer `pending` (another run wrote it). */
  write(row: AttemptRow): Promise<boolean>;
}
