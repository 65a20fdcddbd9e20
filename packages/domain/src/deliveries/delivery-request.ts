/**
 * The wire of one delivery attempt (SPEC "Delivery request", DESIGN §4 and §12 "Signature schemes"): its headers,
 * signed by the endpoint's scheme, and the port through which the worker's HTTP client sends it. The domain decides
 * what is sent; the worker only moves the bytes.
 *
 * This file imports only `node:crypto` (through ./signature) and types: command-line tools (`lm listen`) import it on
 * its own to sign exactly as the worker signs, without Prisma or Redis.
 */
import type { RetriedDeliveryError } from "../webhooks/retry-policy";
import {
  ed25519SignatureHeader,
  signatureHeader,
  standardWebhooksSignatureHeader,
  type SignatureScheme,
} from "../webhooks/signature";

/** `User-Agent` of every delivery (SPEC "Delivery request"). */
export const DELIVERY_USER_AGENT = "Service-Webhooks/1.0";

/** What identifies one attempt: the SPEC's headers besides the signature. */
export interface DeliveryHeaderFields {
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  /** The endpoint's custom headers (DESIGN §16), none of them a name set here; absent for a postback. */
  custom?: Record<string, string>;
}

/** Everything {@link signedDeliveryHeaders} needs to build and sign the headers of one attempt. */
export interface SignedDeliveryFields extends DeliveryHeaderFields {
  /** The endpoint's scheme; a postback is always `stripe`. */
  scheme: SignatureScheme;
  /** Current secret (or private key) first, then (during a rotation grace) the previous one; each signs. */
  secrets: string[];
  /** The exact bytes that are sent. */
  body: string | Buffer;
  /** Whole Unix seconds, fresh for every attempt. */
  timestampSeconds: number;
}

/**
 * The full header set of one delivery attempt: the endpoint's custom headers (names as the seller gave them), then
 * the SPEC's headers on every scheme (`content-type`, `user-agent`, `x-event-id`, `x-event-type`, `x-delivery-id`,
 * `x-attempt`, `idempotency-key`), plus the signature: `x-signature: t=…,v1=…[,v1=…]` for `stripe`; `webhook-id` (the
 * event id), `webhook-timestamp` and `webhook-signature: v1,<base64>[ v1,<base64>]` for `standard_webhooks`, or
 * `v1a,<base64>[ v1a,<base64>]` for `standard_webhooks_ed25519`.
 * @throws Error when `secrets` is empty or the timestamp is not whole non-negative seconds (see the signers)
 */
export function signedDeliveryHeaders(fields: SignedDeliveryFields): Record<string, string> {
  return deliveryHeaders(fields, {
    timestamp: String(fields.timestampSeconds),
    stripe: () => signatureHeader(fields.secrets, fields.timestampSeconds, fields.body),
    standardWebhooks: () =>
      standardWebhooksSignatureHeader(fields.secrets, fields.eventId, fields.timestampSeconds, fields.body),
    standardWebhooksEd25519: () =>
      ed25519SignatureHeader(fields.secrets, fields.eventId, fields.timestampSeconds, fields.body),
  });
}

/** The signature of one attempt as its scheme writes it: the timestamp and the signing of either scheme. */
export interface SignatureValues {
  /** Unix seconds, as written in the headers. */
  timestamp: string;
  /** The whole `X-Signature` value. */
  stripe: () => string;
  /** The whole `webhook-signature` value. */
  standardWebhooks: () => string;
  /** The whole `webhook-signature` value of the asymmetric form (`v1a`). */
  standardWebhooksEd25519: () => string;
}

/**
 * The header set of one attempt with the signature's values given (see {@link signedDeliveryHeaders}, which signs
 * them); the dashboard shows an attempt's headers with placeholders there, since signatures are not kept.
 */
export function deliveryHeaders(
  fields: DeliveryHeaderFields & { scheme: SignatureScheme },
  signature: SignatureValues,
): Record<string, string> {
  const standard = (sign: () => string) => ({
    "webhook-id": fields.eventId,
    "webhook-timestamp": signature.timestamp,
    "webhook-signature": sign(),
  });
  const signed: Record<string, string> =
    fields.scheme === "standard_webhooks"
      ? standard(signature.standardWebhooks)
      : fields.scheme === "standard_webhooks_ed25519"
        ? standard(signature.standardWebhooksEd25519)
        : { "x-signature": signature.stripe() };
  return {
    ...fields.custom,
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    ...signed,
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
