/**
 * Loads what one delivery attempt needs and decides whether it can be sent at all (SPEC "Delivery error values", not
 * retried: `endpoint_disabled`, `missing_secret`), and if so with which secrets and body (DESIGN §4 "Signature").
 */
import type { Event, WebhookDelivery, WebhookEndpoint } from "@lm/db";
import { buildEventEnvelope, decryptSecret, type FinalDeliveryError } from "@lm/domain";
import type { WorkerDeps } from "../deps";

/** A pending delivery row with its event and, for an account endpoint, the endpoint. */
export type LoadedDelivery = WebhookDelivery & { event: Event; endpoint: WebhookEndpoint | null };

/** Ready to send: the exact body and the secrets that sign it (current first), or the final error that stops it. */
export type PreparedAttempt = { send: true; body: string; secrets: string[] } | { send: false; error: FinalDeliveryError };

/**
 * Loads the delivery `deliveryId` with its event and endpoint.
 * @returns null when the row does not exist or is no longer `pending` (already attempted: nothing to do)
 */
export async function loadPendingDelivery(deps: WorkerDeps, deliveryId: string): Promise<LoadedDelivery | null> {
  const delivery = await deps.db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    include: { event: true, endpoint: true },
  });
  return delivery?.status === "pending" ? delivery : null;
}

/**
 * Decides what the attempt sends. An account endpoint must still exist, be enabled and be of the event's mode; a
 * postback needs the store's postback secret. The body is the event envelope, serialised once so that the signed
 * bytes are the bytes sent.
 * @throws Error when a stored secret does not decrypt (a wrong `ENCRYPTION_KEY`): the job fails and is retried
 */
export async function prepareAttempt(deps: WorkerDeps, delivery: LoadedDelivery): Promise<PreparedAttempt> {
  const key = deps.config.encryptionKey;
  let secrets: string[];
  if (delivery.destination_type === "endpoint") {
    const endpoint = delivery.endpoint;
    if (!endpoint || endpoint.deleted_at !== null || !endpoint.enabled || endpoint.mode !== delivery.event.mode) {
      return { send: false, error: "endpoint_disabled" };
    }
    secrets = [decryptSecret(key, endpoint.secret_ciphertext, endpoint.id)];
    const graceEnds = endpoint.previous_secret_expires_at;
    if (endpoint.previous_secret_ciphertext && graceEnds && graceEnds > deps.now()) {
      secrets.push(decryptSecret(key, endpoint.previous_secret_ciphertext, endpoint.id));
    }
  } else {
    const store = await deps.db.store.findUnique({
      where: { id: delivery.store_id },
      select: { id: true, postback_secret_ciphertext: true },
    });
    if (!store?.postback_secret_ciphertext) return { send: false, error: "missing_secret" };
    secrets = [decryptSecret(key, store.postback_secret_ciphertext, store.id)];
  }
  return { send: true, body: JSON.stringify(buildEventEnvelope(delivery.event)), secrets };
}
