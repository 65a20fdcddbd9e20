/**
 * Decides whether a loaded delivery can be sent at all (SPEC "Delivery error values", not retried:
 * `endpoint_disabled`, `missing_secret`), and if so where, with which secrets and body (DESIGN §4 "Signature").
 */
import { buildEventEnvelope, decryptSecret, type FinalDeliveryError } from "@lm/domain";
import type { LoadedDelivery } from "./delivery-rows";

/**
 * Ready to send: the URL, the exact body and the secrets that sign it (current first); or the final error that stops
 * it.
 */
export type PreparedAttempt =
  | { send: true; url: string; body: string; secrets: string[] }
  | { send: false; error: FinalDeliveryError };

/**
 * An account endpoint must still exist, not be deleted, be of the event's mode and be enabled, unless the seller
 * asked for this chain (`manual`: a ping or a resend, which may test a disabled endpoint); it is sent to the
 * endpoint's CURRENT URL, so a seller who fixes a broken URL gets the pending retries there too. A postback goes to
 * the charge's URL of its row and needs the store's postback secret. The endpoint's previous secret signs too while
 * its grace window lasts. The body is the event envelope, serialised once so that the signed bytes are the bytes sent.
 * @param encryptionKey - `config.encryptionKey`; secrets are decrypted with their row id as associated data
 * @throws Error when a stored secret does not decrypt (a wrong `ENCRYPTION_KEY`): the job fails and is retried
 */
export function prepareAttempt(delivery: LoadedDelivery, encryptionKey: Buffer, now: Date): PreparedAttempt {
  let secrets: string[];
  let url = delivery.url;
  if (delivery.destination_type === "endpoint") {
    const endpoint = delivery.endpoint;
    if (!endpoint || endpoint.deleted_at !== null || endpoint.mode !== delivery.event.mode) {
      return { send: false, error: "endpoint_disabled" };
    }
    if (!endpoint.enabled && !delivery.manual) return { send: false, error: "endpoint_disabled" };
    url = endpoint.url;
    secrets = [decryptSecret(encryptionKey, endpoint.secret_ciphertext, endpoint.id)];
    const graceEnds = endpoint.previous_secret_expires_at;
    if (endpoint.previous_secret_ciphertext && graceEnds && graceEnds > now) {
      secrets.push(decryptSecret(encryptionKey, endpoint.previous_secret_ciphertext, endpoint.id));
    }
  } else {
    if (delivery.postbackSecretCiphertext === null) return { send: false, error: "missing_secret" };
    secrets = [decryptSecret(encryptionKey, delivery.postbackSecretCiphertext, delivery.store_id)];
  }
  return { send: true, url, body: JSON.stringify(buildEventEnvelope(delivery.event)), secrets };
}
