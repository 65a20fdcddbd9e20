/**
 * Helpers shared by the delivery end-to-end files (apps/api/test/e2e): enqueue a first attempt as the API's fan-out
 * does, list a sharded queue's jobs, read a chain's rows, wait for a chain to end, and verify a signature with the
 * test's OWN HMAC code (never the project's signer).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db, WebhookDelivery } from "@lm/db";
import { deliveryJob } from "@lm/domain";
import { parkJobs, type JobPayloads, type Producer, type RedisClient, type ShardedQueueName } from "@lm/queue";
import type { Job, JobType } from "bullmq";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";
import { waitUntil } from "./wait-until";

/** Registers `beforeAll`/`afterAll` that start and close a receiver; read `.current` inside tests. */
export function useWebhookReceiver(): { current: WebhookReceiver } {
  const holder = {} as { current: WebhookReceiver };
  beforeAll(async () => {
    holder.current = await startWebhookReceiver();
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/**
 * Enqueues the job of a freshly written first delivery row ({@link deliveryJob}), as the API does after commit, with
 * the producer of the worker's or the API's dependencies.
 */
export async function enqueueDelivery(worker: { producer: Producer }, delivery: WebhookDelivery): Promise<void> {
  await worker.producer.enqueueBulk("webhook-delivery", [deliveryJob(delivery)]);
}

/**
 * Makes every parked delivery job (a retry that waits long, see packages/queue `parking.ts`) due now, so that a test
 * need not wait for it: the worker moves it into its queue within a second.
 */
export async function makeParkedDueNow(worker: { producer: Producer; producerRedis: RedisClient }): Promise<void> {
  for (const queue of worker.producer.shards("webhook-delivery")) {
    const ids = await worker.producerRedis.zrange(queue.toKey("parked"), 0, -1);
    await parkJobs(
      worker.producerRedis,
      queue,
      ids.map((jobId) => ({ jobId, dueAt: Date.now() })),
    );
  }
}

/** The `webhook-delivery` jobs in `states`, over every shard of the queue. */
export async function deliveryJobsIn(producer: Pick<Producer, "shards">, states: JobType[]): Promise<Job[]> {
  return jobsIn(producer, "webhook-delivery", states);
}

/** The jobs of every shard of the `inbox-processing` queue in `states`. */
export async function inboxJobsIn(
  producer: Pick<Producer, "shards">,
  states: JobType[],
): Promise<Array<Job<JobPayloads["inbox-processing"]>>> {
  return jobsIn(producer, "inbox-processing", states);
}

/** The jobs of every shard of queue `name` in `states`. */
async function jobsIn<N extends ShardedQueueName>(
  producer: Pick<Producer, "shards">,
  name: N,
  states: JobType[],
): Promise<Array<Job<JobPayloads[N]>>> {
  const perShard = await Promise.all(producer.shards(name).map((queue) => queue.getJobs(states)));
  return perShard.flat();
}

/** Every row of a chain, by attempt. */
export function chainRows(db: Db, chainId: string): Promise<WebhookDelivery[]> {
  return db.webhookDelivery.findMany({ where: { chain_id: chainId }, orderBy: { attempt: "asc" } });
}

/** Whether a row ends its chain: succeeded, dead, or failed with nothing scheduled after it. */
function endsChain(row: WebhookDelivery): boolean {
  return (
    row.status === "succeeded" || row.status === "dead" || (row.status === "failed" && row.next_attempt_at === null)
  );
}

/** Waits until the chain of `chainId` has ended and returns its rows. */
export function waitForChainEnd(db: Db, chainId: string, timeoutMs = 30_000): Promise<WebhookDelivery[]> {
  return waitUntil(
    `chain ${chainId} to end`,
    async () => {
      const rows = await chainRows(db, chainId);
      const last = rows[rows.length - 1];
      return last !== undefined && endsChain(last) ? rows : null;
    },
    { timeoutMs },
  );
}

/**
 * Checks `t=<unix>,v1=<hex>[,v1=<hex>]` independently: returns the timestamp and, per entry, whether it is the
 * HMAC-SHA256 of `<t>.<raw body>` under `secret` (key = the secret string as UTF-8).
 */
export function checkSignature(header: string, raw: Buffer, secret: string): { t: number; matches: boolean[] } {
  const [tPart, ...entries] = header.split(",");
  const t = Number(tPart?.replace(/^t=/, ""));
  const expected = createHmac("sha256", secret).update(`${t}.`).update(raw).digest();
  const matches = entries.map((entry) => {
    const hex = entry.replace(/^v1=/, "");
    const received = Buffer.from(hex, "hex");
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
  return { t, matches };
}
