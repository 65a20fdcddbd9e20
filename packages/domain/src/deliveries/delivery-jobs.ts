/**
 * The shape of a `webhook-delivery` job, shared by every producer (fan-out, next attempts, the reconciler, recover)
 * and the worker. It is the most numerous job by far (one per destination per event, thousands waiting behind a slow
 * endpoint), so it stores as little as BullMQ allows: no data, and as its id the delivery id's ULID body (the id
 * without `whd_`). Its Redis hash then fits a 128-byte allocation instead of 192, about 270 bytes of Redis per
 * waiting delivery instead of 345 (measured). The job id still names exactly one row, so a repeat of the same
 * delivery is a no-op, as with every other queue's row-id job ids (DESIGN §1).
 */
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
 * The job that runs delivery `deliveryId`.
 * @param delayMs - run no earlier than this many ms from now (a retry's wait); 0 or absent runs at once
 */
export function deliveryJob(deliveryId: string, delayMs?: number): AfterCommitJob<"webhook-delivery"> {
  return { data: {}, jobId: deliveryJobId(deliveryId), ...(delayMs === undefined ? {} : { delayMs }) };
}
