/**
 * What one delivery attempt needs beyond a use case's usual dependencies: the rows (batched by the worker), the HTTP
 * port, the mailer for endpoint warnings, and an optional observer for metrics.
 */
import type { Mailer } from "@lm/mail";
import type { UseCaseDeps } from "../deps";
import type { DeliveryRows } from "./delivery-rows";
import type { SendAttempt } from "./delivery-request";

/** One attempt as recorded, for metrics (counters by status and error, event → first attempt latency). */
export interface RecordedAttempt {
  deliveryId: string;
  /** 1..6. */
  attempt: number;
  destinationType: "endpoint" | "postback";
  status: "succeeded" | "failed" | "dead";
  error: string | null;
  /** Wall time of the POST, ms; null when nothing was sent. */
  durationMs: number | null;
  /** A ping, resend or recovery chain (its event is old by design, so it tells nothing of latency). */
  manual: boolean;
  /** When the event was recorded; with `attemptedAt`, the event → attempt latency. */
  eventCreatedAt: Date;
  attemptedAt: Date;
}

/** Watches attempts as they are recorded (e.g. prom-client counters); must not throw. */
export interface DeliveryObserver {
  /** Called once per attempt this process recorded (never for a repeat that wrote nothing). */
  attemptRecorded(attempt: RecordedAttempt): void;
}

/**
 * A start slot of an endpoint's rate limit: reserved (start at `at`, ms since the epoch), or none near enough (look
 * again after `retryInMs`).
 */
export type StartSlot = { reserved: true; at: number } | { reserved: false; retryInMs: number };

/**
 * What the delivery controls keep in Redis (DESIGN §16), shared by every worker process: an endpoint's turn (at most
 * one attempt of an ordered endpoint in flight) and the start slots of its rate limit.
 */
export interface DeliveryGates {
  /**
   * Reserves the next start slot of endpoint `endpointId` under a limit of `perSecond` attempts per wall-clock second,
   * evenly spaced, with no burst; a slot too far ahead is not reserved.
   */
  reserveStart(endpointId: string, perSecond: number): Promise<StartSlot>;
  /**
   * Takes endpoint `endpointId`'s turn for `holder` (a token of this attempt), for at most `ttlMs`.
   * @returns false when another attempt holds it
   */
  takeTurn(endpointId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the turn back if `holder` still holds it (one that expired and was taken since is left alone). */
  giveTurnBack(endpointId: string, holder: string): Promise<void>;
}

/** Dependencies of {@link deliverAttempt}; the worker's dependencies satisfy it. */
export interface DeliveryDeps extends UseCaseDeps {
  /** Reads and writes of delivery rows (the worker batches them across concurrent jobs). */
  deliveryRows: DeliveryRows;
  /** Sends the POST, with the destination check at send time. */
  sendAttempt: SendAttempt;
  /** The Redis side of the delivery controls. */
  gates: DeliveryGates;
  /** Sends the owners' mails an attempt causes (early warning, auto-disable). */
  mailer: Mailer;
  /** Optional metrics hook. */
  observer?: DeliveryObserver;
}
