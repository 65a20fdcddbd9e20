/**
 * The shape of a `webhook-delivery` job, shared by every producer (fan-out, next attempts, the reconciler, recover)
 * and the worker. Each delivery row has exactly one job id, derived from the row, so a repeat of it is a no-op while
 * the job exists, as with every other queue's row-id job ids (DESIGN §1):
 * - **the first attempts of an event's fan-out** (attempt 1, not `manual`: one per subscribed endpoint and postback)
 *   share ONE job, whose id names the event (`e` + the event id's ULID body) and whose data lists the rows (their ids'
 *   ULID bodies), in the shard of the event. One job instead of one per destination is most of what a paid charge
 *   costs Redis (DESIGN §10 "Redis"): a BullMQ job's life is three Lua scripts, each dearer when it wakes an idle
 *   queue, as most do here (measured: a paid charge with 5 endpoints cost 1.8 to 2.1 ms of Redis CPU in 11 jobs, about
 *   1 ms in 3). The events one statement records together (a settlement's payments, in groups of
 *   `MAX_EVENTS_PER_FAN_OUT_JOB`) share their group's first event's job likewise: their rows name that event in
 *   `fan_out_event_id`, so the reconciler names the same job (`bench:delivery`'s open loop at 500 paid events a
 *   second, four runs each way: the first attempt's p99 from 189 to 481 ms down to 49 to 81 ms). Rows their endpoint
 *   paces keep their own event's job (`eventWrites` in packages/db says why). When the reconciler makes the job (its
 *   enqueue after commit was lost) from a page that holds only some of its rows, the others are offered again once
 *   that job is done;
 * - **any other attempt** (a retry, a ping, a resend, a recovery) has its own job, whose id is the delivery id's ULID
 *   body (the id without `whd_`), with no data, in the shard of its destination ({@link destinationKey}, the key the
 *   worker's isolation also counts attempts by, DESIGN §8 "Isolation"). Retries are what waits in Redis (thousands
 *   behind a slow endpoint), so these jobs store as little as BullMQ allows, which keeps a job's hash within a
 *   128-byte allocation (about 270 bytes of Redis per waiting delivery instead of 345, measured);
 * - **an ordered delivery's turn** (DESIGN §16: the head of a FIFO or resumed endpoint, given its turn when the one
 *   before it ends) has a job of its own beside the row's, whose id is `t` + the delivery id's ULID body and whose data
 *   lists the row, in its destination's shard: a turn never meets the row's other jobs (one still finishing would make
 *   the turn's enqueue a no-op), and two turns of one row are one job.
 */
import type { DeliveryRoute, Repositories } from "@lm/db";
import type { JobPayloads } from "@lm/queue";
import type { AfterCommitJob } from "./enqueue-after-commit";
import { ID_PREFIX } from "../ids";

const DELIVERY_PREFIX = `${ID_PREFIX.delivery}_`;
const EVENT_PREFIX = `${ID_PREFIX.event}_`;
/** What starts the id of a fan-out's job: lower case, which no ULID (Crockford base 32, upper case) starts with. */
const FAN_OUT_JOB_PREFIX = "e";
/** What starts the id of an ordered delivery's turn (lower case likewise). */
const TURN_JOB_PREFIX = "t";

/**
 * The job id of delivery `deliveryId` (`whd_01J…` → `01J…`).
 * @throws Error when `deliveryId` is not a delivery id (a producer bug)
 */
export function deliveryJobId(deliveryId: string): string {
  if (!deliveryId.startsWith(DELIVERY_PREFIX)) throw new Error(`not a delivery id: ${deliveryId}`);
  return deliveryId.slice(DELIVERY_PREFIX.length);
}

/**
 * The job id of the first attempts of event `eventId`'s fan-out (`evt_01J…` → `e01J…`).
 * @throws Error when `eventId` is not an event id (a producer bug)
 */
export function fanOutJobId(eventId: string): string {
  if (!eventId.startsWith(EVENT_PREFIX)) throw new Error(`not an event id: ${eventId}`);
  return `${FAN_OUT_JOB_PREFIX}${eventId.slice(EVENT_PREFIX.length)}`;
}

/**
 * The delivery rows job `jobId` of the `webhook-delivery` queue, with payload `data`, attempts: the one its id names
 * ({@link deliveryJobId}), or those its data lists, for a fan-out's job ({@link fanOutJobId}) or a turn's.
 */
export function deliveryIdsOfJob(jobId: string, data: JobPayloads["webhook-delivery"]): string[] {
  if (!jobId.startsWith(FAN_OUT_JOB_PREFIX) && !jobId.startsWith(TURN_JOB_PREFIX)) return [deliveryIdOf(jobId)];
  return (data.deliveries ?? []).map(deliveryIdOf);
}

/** The job of an ordered delivery's turn (see above), due at once. */
export function turnJob(
  delivery: Pick<DeliveryRoute, "id" | "endpoint_id" | "url">,
): AfterCommitJob<"webhook-delivery"> {
  const body = deliveryJobId(delivery.id);
  return { data: { deliveries: [body] }, jobId: `${TURN_JOB_PREFIX}${body}`, destination: destinationKey(delivery) };
}

/** The delivery id of a job id's or a fan-out job's entry: the inverse of {@link deliveryJobId}. */
function deliveryIdOf(body: string): string {
  return `${DELIVERY_PREFIX}${body}`;
}

/** Whether `delivery` is the first attempt of its event's fan-out, which shares the event's job (see above). */
export function isFanOutFirstAttempt(delivery: Pick<DeliveryRoute, "attempt" | "manual">): boolean {
  return delivery.attempt === 1 && !delivery.manual;
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
 * The job that runs `delivery` (see above): its fan-out's job (its event's, or the event its `fan_out_event_id` names)
 * in that event's shard, or its own in its destination's shard.
 * @param delayMs - run no earlier than this many ms from now (a retry's wait); 0 or absent runs at once
 */
export function deliveryJob(delivery: DeliveryRoute, delayMs?: number): AfterCommitJob<"webhook-delivery"> {
  const fanOut = isFanOutFirstAttempt(delivery);
  const fanOutEventId = delivery.fan_out_event_id ?? delivery.event_id;
  return {
    data: fanOut ? { deliveries: [deliveryJobId(delivery.id)] } : {},
    jobId: fanOut ? fanOutJobId(fanOutEventId) : deliveryJobId(delivery.id),
    destination: fanOut ? fanOutEventId : destinationKey(delivery),
    ...(delayMs === undefined ? {} : { delayMs }),
  };
}

/** The jobs of `deliveries`, due at once, each once: the first attempts of one fan-out share a job that lists them. */
export function deliveryJobs(deliveries: DeliveryRoute[]): Array<AfterCommitJob<"webhook-delivery">> {
  const jobs = new Map<string, AfterCommitJob<"webhook-delivery">>();
  for (const delivery of deliveries) {
    const job = deliveryJob(delivery);
    const same = jobs.get(job.jobId);
    if (same?.data.deliveries && job.data.deliveries) same.data.deliveries.push(...job.data.deliveries);
    else jobs.set(job.jobId, job);
  }
  return [...jobs.values()];
}

/**
 * The jobs of deliveries known by id only (a fan-out's rows, whose endpoints its statement chose), due at once
 * ({@link deliveryJobs}): their routes are read in one query by primary key. Ids without a row are left out.
 */
export async function deliveryJobsOf(
  repos: Repositories,
  deliveryIds: string[],
): Promise<Array<AfterCommitJob<"webhook-delivery">>> {
  if (deliveryIds.length === 0) return [];
  return deliveryJobs(await repos.deliveries.findDeliveryRoutes(deliveryIds));
}
