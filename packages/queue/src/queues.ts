/**
 * The typed contract between producers (API, worker, ops) and consumers (worker): queue names and job payloads.
 * Jobs carry ids only, never payloads or secrets (DESIGN §1); the row in PostgreSQL is the truth.
 */

/** Every queue of the service and the payload of its jobs. */
export interface JobPayloads {
  /**
   * Send one delivery attempt (a `webhook_deliveries` row in status `pending`). No data: the job id is the delivery
   * id's ULID body (`deliveryJob` in packages/domain/src/deliveries/delivery-jobs.ts), to keep Redis small per waiting
   * delivery.
   */
  "webhook-delivery": Record<string, never>;
  /** Run one recovery of an endpoint (DESIGN §8) in pages, from its cursor: a `webhook_recoveries` row. */
  "webhook-recovery": { recoveryId: string };
  /** Process one stored inbound acquirer notification. */
  "inbox-processing": { inboxItemId: string };
  /** Hand one refund (a `refunds` row not yet accepted by the acquirer) to the acquirer. */
  "refund-submission": { refundId: string };
  /** Hand one withdrawal (a `withdrawals` row not yet accepted by the acquirer) to the acquirer. */
  "withdrawal-submission": { withdrawalId: string };
  /** Repeatable sweep that expires the pending charges past their `expires_at`. */
  "charge-expiry": Record<string, never>;
  /** Mark API keys whose `revoke_at` has passed as revoked. */
  "key-revocation": Record<string, never>;
  /** Repeatable sweep that enqueues due rows that have no job (DESIGN §1). */
  reconciler: Record<string, never>;
  /**
   * Repeatable sweep that reconciles every bank that has served a mode with its own records (DESIGN §9 "Reconciliation"):
   * payments no notification reported, refunds and payouts still in flight.
   */
  "acquirer-reconciliation": Record<string, never>;
  /** Repeatable job that applies retention (DESIGN §10 "Retention"): weeks made ahead, old weeks and rows removed. */
  retention: Record<string, never>;
}

/** Name of a queue. */
export type QueueName = keyof JobPayloads;

/** All queue names, in the order the worker starts them. */
export const QUEUE_NAMES = [
  "webhook-delivery",
  "webhook-recovery",
  "inbox-processing",
  "refund-submission",
  "withdrawal-submission",
  "charge-expiry",
  "key-revocation",
  "reconciler",
  "acquirer-reconciliation",
  "retention",
] as const satisfies readonly QueueName[];

/** How often the `retention` job applies retention, ms (DESIGN §10 "Retention": hourly). */
export const RETENTION_INTERVAL_MS = 60 * 60_000;

/** How often the reconciler sweeps, ms (DESIGN §1: every 30 s). */
export const RECONCILER_INTERVAL_MS = 30_000;

/** How often the `acquirer-reconciliation` job reconciles the active banks, ms (DESIGN §9: every 5 minutes). */
export const ACQUIRER_RECONCILIATION_INTERVAL_MS = 5 * 60_000;

/** How often the `charge-expiry` job expires the pending charges past their `expires_at`, ms. */
export const CHARGE_EXPIRY_INTERVAL_MS = 1_000;

/** How often the `key-revocation` job records rotated keys past their `revoke_at` as revoked, ms. */
export const KEY_REVOCATION_INTERVAL_MS = 60_000;
