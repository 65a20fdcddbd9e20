/**
 * The shape of a `webhook-delivery` job, shared by every producer (fan-out, next attempts, the reconciler, recover)
 * and the worker. It is the most numerous job by far (one per destination per event, thousands waiting behind a slow
 * endpoint), so it stores as little as BullMQ allows: no data, and as its id the delivery id's ULID body (the id
 * without `whd_`). Its Redis hash then fits a 128-byte allocation instead of 192, about 270 bytes of Redis per
 * waiting delivery instead of 345 (measured). The job id still names exactly one row, so a repeat of the same
 * delivery is a no-op, as with every other queue's row-id job ids (DESIGN §1).
 *
 * The job goes to the shard of its destination (DESIGN §10 "Redis"): {@link destinationKey}, the key the worker's
 * isolation also counts attempts by (DESIGN §8 "Isolation"), so every job of one destination is in one shard.
 */
import { findDeliveryRoutes, type DeliveryRoute, type SqlClient } from "@lm/db";
import type { AfterCommitJob } from "../jobs/enqueue-after-commit";
import { ID_PREFIX } from "../ids";

const DELIVERY_PREFIX = `${ID_PREFIX.delivery}_`;

/**
 * The job id of delivery `deliveryId` (`whd_01J…` → `01J…`).
 * @throws Error when `deliveryId` is not a delivery id (a producer bug)
 */
export function deliveryJobId(deliveryId: string): string {
  if (!deliveryId.startsWith(DELIVERY_PREFIX)) throw new Error(`not a delivery id: ${deliveryId}`);
  return deliveryId.slice(DELIVERY_PREFIX.length);
}

/** The delivery id a `webhook-delivery` job stands for: the inverse of {@link deliveryJobId}. */
export function deliveryIdOfJob(jobId: string): string {
  return `${DELIVERY_PREFIX}${jobId}`;
}

/**
 * Where a delivery goes, as isolation and the queue's shards count it: its endpoint's id, or `postback:<host>` of a
 * charge's postback URL (`postback:<url>` for a URL that does not parse).
 */
export function destinationKey(delivery: Pick<DeliveryRoute, "endpoint_id" | "url">): string {
  if (delivery.endpoint_id !== null) return delivery.endpoint_id;
  try {
    return `postback:${new URL(delivery.url).host}`;
  } catch {
    return `postback:${delivery.url}`;
  }
}

/**
 * The job that runs `delivery`, in its destination's shard.
 * @param delayMs - run no earlier than this many ms from now (a retry's wait); 0 or absent runs at once
 */
export function deliveryJob(delivery: DeliveryRoute, delayMs?: number): AfterCommitJob<"webhook-delivery"> {
  return {
    data: {},
    jobId: deliveryJobId(delivery.id),
    destination: destinationKey(delivery),
    ...(delayMs === undefined ? {} : { delayMs }),
  };
}

/**
 * The jobs of deliveries known by id only (a fan-out's rows, whose endpoints its statement chose; a sweep's page),
 * due at once: their destinations are read in one query by primary key. Ids without a row are left out.
 */
export async function deliveryJobsOf(
  client: SqlClient,
  deliveryIds: string[],
): Promise<Array<AfterCommitJob<"webhook-delivery">>> {
  if (deliveryIds.length === 0) return [];
  return (await findDeliveryRoutes(client, deliveryIds)).map((route) => deliveryJob(route));
}
