/**
 * The typed contract between producers (API, worker, ops) and consumers (worker): queue names and job payloads.
 * Jobs carry ids only, never payloads or secrets (DESIGN §1); the row in PostgreSQL is the truth.
 */

/** Every queue of the service and the payload of its jobs. */
export interface JobPayloads {
  /**
   * Send the attempts of `webhook_deliveries` rows in status `pending` (`deliveryJob` in
   * packages/domain/src/jobs/delivery-jobs.ts): one row, named by the job id, with no data (to keep Redis small
   * per waiting delivery); or the first attempts of an event's fan-out, their ids' ULID bodies in `deliveries`.
   */
  "webhook-delivery": { deliveries?: string[] };
  /**
   * Make the charges of one batch's pending items and complete it (DESIGN §13 "Batches"): a `transaction_batches` row,
   * run again from its pending items if it stops.
   */
  "transaction-batch": { batchId: string };
  /**
   * Run the recurrence engine for one test clock's recurrences up to the time it advances to, then make it `ready`
   * (DESIGN §14): a `test_clocks` row in status `advancing`, run again from where its recurrences stand if it stops.
   */
  "test-clock": { testClockId: string };
  /** Run one recovery of an endpoint (DESIGN §8) in pages, from its cursor: a `webhook_recoveries` row. */
  "webhook-recovery": { recoveryId: string };
  /**
   * Process stored inbound acquirer notifications: item `inboxItemId` (whose id is the job's), and the items in
   * `moreInboxItemIds` received with it (the receipt gives the items of a few milliseconds one job).
   */
  "inbox-processing": { inboxItemId: string; moreInboxItemIds?: string[] };
  /** Hand one refund (a `refunds` row not yet accepted by the acquirer) to the acquirer. */
  "refund-submission": { refundId: string };
  /** Hand one withdrawal (a `withdrawals` row not yet accepted by the acquirer) to the acquirer. */
  "withdrawal-submission": { withdrawalId: string };
  /** Repeatable sweep that expires the pending charges past their `expires_at`. */
  "charge-expiry": Record<string, never>;
  /**
   * Repeatable sweep of the recurrence engine (DESIGN §14) on real time: every recurrence whose `next_run_at` has
   * passed, through its partial index.
   */
  "recurrence-engine": Record<string, never>;
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

/**
 * The queues split into shards (DESIGN §10 "Redis"): `DELIVERY_QUEUE_SHARDS` BullMQ queues each, every one under a hash
 * tag of its own, so a Redis Cluster spreads the most numerous jobs over its masters. A paid charge runs one job of
 * each of its events' fan-outs (`webhook-delivery`) and its share of its notification's (`inbox-processing`): left in
 * one queue, the notifications alone would give their master a good part of the jobs.
 */
export type ShardedQueueName = "webhook-delivery" | "inbox-processing";

/** The hash tag each shard's name starts with, short to keep every job key short. */
const SHARD_TAG: Record<ShardedQueueName, string> = { "webhook-delivery": "wd", "inbox-processing": "ib" };

/** Whether queue `name` is split into shards ({@link ShardedQueueName}). */
export function isShardedQueue(name: QueueName): name is ShardedQueueName {
  return name in SHARD_TAG;
}

/**
 * What a job of queue `N` needs besides its payload and id to find its BullMQ queue: for the delivery queue, its
 * destination key (see `deliveryJob` in packages/domain: a fan-out's event id, an endpoint id, or `postback:<host>`),
 * so the jobs of one key land in the same shard; nothing for the others (an inbox job's shard is its id's).
 */
export type JobRoute<N extends QueueName> = N extends "webhook-delivery" ? { destination: string } : unknown;

/** Hash slots of a Redis Cluster. */
const CLUSTER_SLOTS = 16384;

/** The Redis Cluster hash slot of a hash tag: CRC16 (XMODEM) of its bytes, modulo 16384 (Redis Cluster spec). */
export function hashSlotOf(tag: string): number {
  let crc = 0;
  for (const byte of Buffer.from(tag)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % CLUSTER_SLOTS;
}

/**
 * The BullMQ queue names of `name`, each its own Redis Cluster hash tag (in braces), so all keys of one queue share a
 * slot (BullMQ's scripts need that) and different queues spread over the masters: `{reconciler}` for an unsharded
 * queue; for shard i of a sharded one, `{wd<i><suffix>}` (`ib` for the inbox), the shortest suffix (base 36, from none)
 * that puts its slot in the i-th of `shards` equal parts of the slot space. Masters own contiguous, equal slot ranges
 * (as `redis-cli --cluster create` and managed clusters lay them out), so the shards are spread evenly over them by
 * design rather than by chance; and the short name keeps a job's key within a smaller allocation.
 * @param shards - `DELIVERY_QUEUE_SHARDS`, 1 to 64
 */
export function bullQueueNames(name: QueueName, shards: number): string[] {
  if (!isShardedQueue(name)) return [`{${name}}`];
  return Array.from({ length: shards }, (_, shard) => {
    const inPlace = (tag: string) => Math.floor((hashSlotOf(tag) * shards) / CLUSTER_SLOTS) === shard;
    for (let k = 0; ; k++) {
      const tag = `${SHARD_TAG[name]}${shard}${k === 0 ? "" : (k - 1).toString(36)}`;
      if (inPlace(tag)) return `{${tag}}`;
    }
  });
}

/**
 * The shard (0 … `shards - 1`) of a sharded queue that holds the jobs of `destination`: FNV-1a (32 bits) of the key,
 * modulo `shards`. Stable across processes and restarts for one `shards`. Changing `DELIVERY_QUEUE_SHARDS` moves
 * jobs to other shards: change it with the workers stopped; the reconciler offers the pending rows again in their new
 * shards (jobs left in a shard past the new count are never run).
 * @param destination - a delivery's destination key (see {@link JobRoute}), or an inbox job's id
 */
export function shardOf(destination: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < destination.length; i++) {
    hash ^= destination.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** All queue names, in the order the worker starts them. */
export const QUEUE_NAMES = [
  "webhook-delivery",
  "webhook-recovery",
  "transaction-batch",
  "test-clock",
  "inbox-processing",
  "refund-submission",
  "withdrawal-submission",
  "charge-expiry",
  "recurrence-engine",
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

/**
 * How often the `recurrence-engine` job runs the recurrences due on real time, ms: cycles are sent and debited by the
 * day, so a tick every 10 s keeps every step well within its day.
 */
export const RECURRENCE_ENGINE_INTERVAL_MS = 10_000;

/** How often the `key-revocation` job records rotated keys past their `revoke_at` as revoked, ms. */
export const KEY_REVOCATION_INTERVAL_MS = 60_000;
