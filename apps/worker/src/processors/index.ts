/**
 * The processor of each queue the worker consumes. A processor is a thin function of the job's ids: it loads rows,
 * calls domain rules and writes rows; BullMQ only decides when it runs.
 */
import { reconcileServingBankAcquirers } from "@lm/domain";
import type { JobPayloads, QueueName } from "@lm/queue";
import type { WorkerDeps } from "../deps";
import { reconcile } from "../sweepers/reconciler";
import { reconcileLiveRecurrencesOfBanks } from "../sweepers/live-recurrences";
import { processWebhookDelivery } from "./webhook-delivery.processor";
import { processWebhookRecovery } from "./webhook-recovery.processor";
import { processTransactionBatch } from "./transaction-batch.processor";
import { processTestClock } from "./test-clock.processor";
import { recurrenceEngineProcessor } from "./recurrence-engine.processor";
import { chargeExpiryProcessor } from "./charge-expiry.processor";
import { inboxProcessingProcessor } from "./inbox-processing.processor";
import { keyRevocationProcessor } from "./key-revocation.processor";
import { payoutSubmissionProcessor } from "./payout-submission.processor";
import { retentionProcessor } from "./retention.processor";

/** The job a processor runs, beyond its payload: its id, and what it may do besides finishing or throwing. */
export interface JobControl {
  /** The job's id (a row id; for `webhook-delivery`, see `deliveryIdsOfJob`). */
  id: string;
  /** Puts the job back in the queue to run again in `delayMs`, without counting a failed try; ends the run. */
  defer(delayMs: number): Promise<never>;
}

/**
 * Handles one job's payload. Throwing makes BullMQ retry the job with a short backoff, then record it as failed;
 * `UnrecoverableError` fails it at once.
 */
export type Processor<N extends QueueName> = (deps: WorkerDeps, data: JobPayloads[N], job: JobControl) => Promise<void>;

/** The queues this worker consumes and their processors. */
export const PROCESSORS: { [N in QueueName]?: Processor<N> } = {
  reconciler: async (deps) => {
    await reconcile(deps);
  },
  "webhook-delivery": processWebhookDelivery,
  "webhook-recovery": processWebhookRecovery,
  "transaction-batch": processTransactionBatch,
  "test-clock": processTestClock,
  "charge-expiry": chargeExpiryProcessor,
  "recurrence-engine": recurrenceEngineProcessor,
  "inbox-processing": inboxProcessingProcessor,
  "key-revocation": keyRevocationProcessor,
  "refund-submission": payoutSubmissionProcessor,
  "withdrawal-submission": payoutSubmissionProcessor,
  "acquirer-reconciliation": async (deps) => {
    await reconcileServingBankAcquirers(deps);
    await reconcileLiveRecurrencesOfBanks(deps);
  },
  retention: retentionProcessor,
};
