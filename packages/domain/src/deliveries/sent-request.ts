/**
 * What one delivery attempt sent, as the dashboard shows it to the receiver's developer (DESIGN §15): the URL, the
 * headers and the exact body, beside the answer its row keeps. The body and headers are rebuilt from the event the
 * way an attempt builds them (the body byte for byte; DESIGN §10 "No copies": nothing of the request is stored);
 * the signature's values are not kept, so they read as placeholders.
 */
import type { WebhookDelivery } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import { historyKeptSince } from "../retention/retention-window";
import { deliveryHeaders } from "./delivery-request";
import { deliveryBody } from "./prepare-attempt";

/** Where a signature's value would be: signatures are computed per attempt and never stored. */
export const SIGNATURE_NOT_KEPT = "…";

/** The request of one attempt. */
export interface SentRequest {
  /** Where it went: the endpoint's URL (an endpoint's attempts follow its current URL), or the charge's postback URL. */
  url: string;
  /** Lower-case header names, as sent; the signature's values are {@link SIGNATURE_NOT_KEPT}. */
  headers: Record<string, string>;
  /** The exact body. */
  body: string;
}

/**
 * Delivery `id` of seller `sellerId` with the request its attempt sent (or will send, while `pending`).
 * @throws ApiError `resource_not_found` when it is malformed, unknown, another seller's, or older than retention
 */
export async function findSentRequest(
  deps: Pick<UseCaseDeps, "repos" | "config" | "now">,
  sellerId: string,
  id: string,
): Promise<{ delivery: WebhookDelivery; request: SentRequest }> {
  const keptSince = historyKeptSince(deps.config.retentionDays, deps.now());
  const loaded = isId("delivery", id) ? await deps.repos.deliveries.loadSellerDelivery(sellerId, id, keptSince) : null;
  if (loaded === null) throw notFound("webhook delivery");
  const { event, endpoint, charge: _charge, postbackSecretCiphertext: _secret, ...delivery } = loaded;
  const scheme = loaded.destination_type === "endpoint" && endpoint !== null ? endpoint.signature_scheme : "stripe";
  const headers = deliveryHeaders(
    { eventId: event.id, eventType: event.type, deliveryId: loaded.id, attempt: loaded.attempt, scheme },
    {
      timestamp: SIGNATURE_NOT_KEPT,
      stripe: () => `t=${SIGNATURE_NOT_KEPT},v1=${SIGNATURE_NOT_KEPT}`,
      standardWebhooks: () => `v1,${SIGNATURE_NOT_KEPT}`,
      standardWebhooksEd25519: () => `v1a,${SIGNATURE_NOT_KEPT}`,
    },
  );
  const url = loaded.destination_type === "endpoint" && endpoint !== null ? endpoint.url : loaded.url;
  return { delivery, request: { url, headers, body: deliveryBody(loaded) } };
}
