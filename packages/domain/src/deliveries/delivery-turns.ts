/**
 * The delivery controls of an endpoint as one attempt meets them (DESIGN §16): whether it may go now, and what its
 * end does for the deliveries behind it. An endpoint without controls costs nothing here: {@link takeTurn} answers
 * from the loaded row, with no statement and no Redis command.
 *
 * - **Pause:** an attempt of a paused endpoint is not sent: its row is marked `ordered` and waits (its job ends). On
 *   resume, the endpoint's head is given its turn ({@link wakeOrderedHead}); a row that waits 14 days ends `dead`
 *   with `paused_too_long` ({@link sweepOrderedDeliveries}).
 * - **Rate limit:** an attempt of an endpoint with a `rate_limit` starts only at a start slot it reserved in Redis
 *   (`DeliveryGates.reserveStart`: `n` slots a wall-clock second, evenly spaced, no burst), waiting for it here when it
 *   is near, else going back to the queue until about its time; nothing is dropped.
 * - **Order:** an ordered row (a FIFO endpoint's, or one a pause held) is sent only as the head of its endpoint's
 *   ordered rows (earliest event first) and with the endpoint's turn, a Redis lock that one attempt holds from its
 *   send to its record, so at most one attempt per endpoint is in flight whatever the number of workers. Its end
 *   gives the next head its turn job. A FIFO endpoint's retries stay ordered, so a failing head holds the rest through
 *   its schedule and, once `dead`, lets the next go; a resumed endpoint's backlog goes out one at a time in order, each
 *   event's retries then on their own.
 *
 * Rows that are not the head have no job: they wait in `webhook_deliveries_ordered_idx`, out of the reconciler's due
 * sweep, and each tick of {@link sweepOrderedDeliveries} offers every endpoint's head, so a lost turn (a worker that
 * died, Redis flushed) is given again within a tick.
 */
import { randomUUID } from "node:crypto";
import type { OrderedHead, WebhookEndpoint } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { idFloor } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { turnJob } from "../jobs/delivery-jobs";
import type { DeliveryDeps } from "./delivery-deps";
import type { LoadedDelivery } from "./delivery-rows";
import { noticeStoppedEndpoint } from "./stopped-chains";

/** How long an attempt holds its endpoint's turn at most, ms: its 10 s timeout, its record, and room to spare. */
export const TURN_LOCK_MS = 30_000;
/** When a head finds its endpoint's turn taken (by the run before it, finishing), it looks again after this, ms. */
export const TURN_TAKEN_RETRY_MS = 1_000;
/** How long a paused endpoint keeps a delivery (DESIGN §16 "Pause": 14 days), counted from its event, ms. */
export const PAUSE_KEEPS_MS = 14 * 24 * 60 * 60 * 1000;
/** Rows ended `paused_too_long` per statement. */
const EXPIRY_PAGE = 1_000;
/** Most endpoints' heads one sweep reads. */
const HEADS_PER_SWEEP = 10_000;

/** What an attempt may do now. */
export type Turn =
  /** Send; then call `end` once the outcome is recorded (or failed to be). */
  | { go: true; end(): Promise<void> }
  /** Do not send now: the row waits for its turn, or (`retryInMs`) its job looks again after that many ms. */
  | { go: false; retryInMs?: number };

const FREE: Turn = { go: true, end: async () => undefined };
const WAIT: Turn = { go: false };

/** Whether `delivery` to `endpoint` meets a control at all. */
function controlled(endpoint: WebhookEndpoint, delivery: LoadedDelivery): boolean {
  return delivery.ordered === true || endpoint.paused || endpoint.ordering === "fifo" || endpoint.rate_limit !== null;
}

/**
 * Whether the attempt would be sent at all: an endpoint deleted, of another mode, or disabled (but for a manual
 * chain) ends it as `endpoint_disabled` in `prepareAttempt`, whatever its controls.
 */
function deliverable(endpoint: WebhookEndpoint, delivery: LoadedDelivery): boolean {
  return endpoint.deleted_at === null && endpoint.mode === delivery.event.mode && (endpoint.enabled || delivery.manual);
}

/**
 * Decides whether `delivery` (loaded `pending`) may be sent now under its endpoint's controls, marking it `ordered`
 * when a pause holds it or its endpoint is FIFO, taking its endpoint's turn when it is ordered, and waiting for its
 * start slot when the endpoint has a rate limit.
 * @throws what the database or Redis throws (the job is retried; nothing was sent)
 */
export async function takeTurn(deps: DeliveryDeps, delivery: LoadedDelivery): Promise<Turn> {
  const endpoint = delivery.destination_type === "endpoint" ? delivery.endpoint : null;
  if (endpoint === null || !controlled(endpoint, delivery)) return FREE;
  if (!deliverable(endpoint, delivery)) {
    return delivery.ordered ? { go: true, end: () => wakeOrderedHead(deps, endpoint.id) } : FREE;
  }
  if (endpoint.paused) {
    if (delivery.ordered === null) await deps.repos.deliveries.markDeliveryOrdered(delivery.id);
    return WAIT;
  }
  let turn: Turn & { giveBack?: () => Promise<void> } = FREE;
  if (delivery.ordered === true || endpoint.ordering === "fifo") {
    turn = await takeOrderedTurn(deps, endpoint.id, delivery);
    if (!turn.go) return turn;
  }
  if (endpoint.rate_limit !== null) {
    const retryInMs = await startOnSlot(deps, endpoint.id, endpoint.rate_limit);
    if (retryInMs !== null) {
      // Its own turn is not handed on: this row is still the head, and its job comes back for it.
      await turn.giveBack?.();
      return { go: false, retryInMs };
    }
  }
  return turn;
}

/** Slots reserved, at most, for one start: each one missed (the process was busy past it) is given up. */
const SLOT_TRIES = 3;

/**
 * Waits for a start slot of `endpointId`'s rate limit of `perSecond` (DESIGN §16), reserved in Redis. The attempt
 * starts within a quarter of a slot after its time or not at all (a process busy past that takes the next slot),
 * so a start never drifts into another second's slots, nor its arrival, late by less than that, into another second.
 * @returns null once started, else the ms after which the job should look again
 */
async function startOnSlot(deps: DeliveryDeps, endpointId: string, perSecond: number): Promise<number | null> {
  const slack = 250 / perSecond;
  for (let tries = 0; tries < SLOT_TRIES; tries++) {
    const slot = await deps.gates.reserveStart(endpointId, perSecond);
    if (!slot.reserved) return slot.retryInMs;
    const early = slot.at - deps.now().getTime();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(early)));
    if (deps.now().getTime() - slot.at <= slack) return null;
  }
  return 1000 / perSecond;
}

/**
 * Takes the turn of `delivery`, ordered (marking it so when its FIFO endpoint's row is not yet), when it is its
 * endpoint's head and no other attempt holds the turn.
 * @returns the turn, whose `end` gives it back and hands it to the next head, and `giveBack` only gives it back
 */
async function takeOrderedTurn(
  deps: DeliveryDeps,
  endpointId: string,
  delivery: LoadedDelivery,
): Promise<Turn & { giveBack?: () => Promise<void> }> {
  if (delivery.ordered === null) await deps.repos.deliveries.markDeliveryOrdered(delivery.id);
  const head = await deps.repos.deliveries.findOrderedHead(endpointId);
  if (head?.id !== delivery.id) return WAIT;
  const holder = `${delivery.id}.${randomUUID()}`;
  if (!(await deps.gates.takeTurn(endpointId, holder, TURN_LOCK_MS))) {
    return { go: false, retryInMs: TURN_TAKEN_RETRY_MS };
  }
  const giveBack = () => deps.gates.giveTurnBack(endpointId, holder);
  // Another run of this row may have sent and recorded it between the look and the lock.
  const stillHead = await deps.repos.deliveries.findOrderedHead(endpointId);
  if (stillHead?.id !== delivery.id) {
    await giveBack();
    return WAIT;
  }
  return {
    go: true,
    giveBack,
    async end() {
      await giveBack();
      await wakeOrderedHead(deps, endpointId);
    },
  };
}

/**
 * Gives endpoint `endpointId`'s head its turn job ({@link turnJob}), unless the endpoint is paused, has no ordered
 * rows waiting, or its head waits for its time (a retry, whose own job runs it then). Never throws for the queue
 * (`enqueueAfterCommit`); the sweep covers a lost enqueue.
 * @throws what the database throws
 */
export async function wakeOrderedHead(
  deps: Pick<UseCaseDeps, "repos" | "producer" | "logger" | "now">,
  endpointId: string,
): Promise<void> {
  const head = await deps.repos.deliveries.findOrderedHead(endpointId);
  if (head !== null) await offerTurn(deps, head);
}

/** Enqueues `head`'s turn when it may go now. */
async function offerTurn(deps: Pick<UseCaseDeps, "producer" | "logger" | "now">, head: OrderedHead): Promise<boolean> {
  if (head.paused || head.scheduled_at > deps.now()) return false;
  return enqueueAfterCommit(deps, "webhook-delivery", [turnJob(head)]);
}

/**
 * The reconciler's sweep of ordered deliveries (DESIGN §10 "Sweeps", §16): reads the head of every endpoint that has
 * ordered rows waiting (a loose index scan: its cost follows the number of such endpoints, not of their rows); a
 * paused endpoint's rows whose event is older than {@link PAUSE_KEEPS_MS} end `dead` with `paused_too_long` (oldest
 * first, a page per statement, logged, and told to the owners once a day), and every other head that is due is
 * offered its turn (a turn job that exists already is left as it is).
 * @returns how many heads were offered and rows ended
 */
export async function sweepOrderedDeliveries(
  deps: Pick<UseCaseDeps, "repos" | "producer" | "logger" | "now">,
): Promise<number> {
  const heads = await deps.repos.deliveries.listOrderedHeads(HEADS_PER_SWEEP);
  let swept = 0;
  for (const head of heads) {
    if (!head.paused) {
      if (await offerTurn(deps, head)) swept += 1;
      continue;
    }
    swept += await expirePausedEndpoint(deps, head);
  }
  return swept;
}

/**
 * Ends the rows of `head`'s paused endpoint that waited {@link PAUSE_KEEPS_MS}, when its head (the oldest) has.
 * @returns how many rows ended
 */
async function expirePausedEndpoint(
  deps: Pick<UseCaseDeps, "repos" | "logger" | "now">,
  head: OrderedHead,
): Promise<number> {
  const now = deps.now();
  const eventsBefore = idFloor("event", now.getTime() - PAUSE_KEEPS_MS);
  const endpointId = head.endpoint_id as string;
  if (head.event_id >= eventsBefore) return 0;
  let ended = 0;
  for (;;) {
    const page = await deps.repos.deliveries.expirePausedDeliveries({
      endpointId,
      eventsBefore,
      now,
      limit: EXPIRY_PAGE,
    });
    ended += page.length;
    if (page.length < EXPIRY_PAGE) break;
  }
  if (ended > 0) {
    deps.logger.warn("deliveries ended without retry", {
      destination: "endpoint",
      endpoint_id: endpointId,
      reason: "paused_too_long",
      deliveries: ended,
    });
    await noticeStoppedEndpoint(deps, endpointId, "paused_too_long");
  }
  return ended;
}
