/**
 * The wire of one delivery attempt (SPEC "Delivery request"): its headers, and the port through which the worker's
 * HTTP client sends it. The domain decides what is sent; the worker only moves the bytes.
 */
import type { RetriedDeliveryError } from "../webhooks/retry-policy";

/** `User-Agent` of every delivery (SPEC "Delivery request"). */
export const DELIVERY_USER_AGENT = "Service-Webhooks/1.0";

/** What identifies and authenticates one attempt, turned into the SPEC's headers by {@link deliveryHeaders}. */
export interface DeliveryHeaderFields {
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  /** `t=…,v1=…` over the exact body sent. */
  signature: string;
}

/** The headers of SPEC "Delivery request", exactly (lower-case names). */
export function deliveryHeaders(fields: DeliveryHeaderFields): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    "x-signature": fields.signature,
    "x-event-id": fields.eventId,
    "x-event-type": fields.eventType,
    "x-delivery-id": fields.deliveryId,
    "x-attempt": String(fields.attempt),
    "idempotency-key": fields.eventId,
  };
}

/** The outcome of one POST. `error` null means a 2xx reply. */
export interface PostOutcome {
  error: RetriedDeliveryError | "blocked_destination" | null;
  /** HTTP status when a reply arrived. */
  responseStatus: number | null;
  /** First 1 KB of the reply body as text (NUL characters replaced, as PostgreSQL text cannot hold them). */
  responseBodyExcerpt: string | null;
  /** Wall time of the attempt, ms. */
  durationMs: number;
}

/**
 * Sends one signed attempt to `url` with the destination check at send time (DESIGN §4 "Attempt"). Never throws for
 * anything the receiver or the network does: every failure is an outcome.
 * @param body - the exact bytes that were signed
 */
export type SendAttempt = (url: string, body: string, headers: Record<string, string>) => Promise<PostOutcome>;
