/**
 * Decides whether a loaded delivery can be sent at all (SPEC "Delivery error values", not retried:
 * `endpoint_disabled`, `missing_secret`), and if so where, with which secrets and body (DESIGN §4 "Signature").
 */
import { withChargeFields } from "@lm/wire";
import { buildEventEnvelope } from "../events/envelope";
import { decryptSecret } from "../secret-box";
import { decryptCustomHeaders, type CustomHeaders } from "../webhooks/custom-headers";
import type { FinalDeliveryError } from "../webhooks/retry-policy";
import type { SignatureScheme } from "../webhooks/signature";
import type { LoadedDelivery } from "./delivery-rows";

/**
 * Ready to send: the URL, the exact body, the scheme and the secrets that sign it (current first), and an endpoint's
 * custom headers; or the final error that stops it. `detail` says why for the log when the row's error alone would
 * mislead (a secret that does not decrypt).
 */
export type PreparedAttempt =
  | { send: true; url: string; body: string; scheme: SignatureScheme; secrets: string[]; headers: CustomHeaders }
  | { send: false; error: FinalDeliveryError; detail?: string };

/**
 * An account endpoint must still exist, not be deleted, be of the event's mode and be enabled, unless the seller
 * asked for this chain (`manual`: a ping or a resend, which may test a disabled endpoint); it is sent to the
 * endpoint's CURRENT URL, so a seller who fixes a broken URL gets the pending retries there too. A postback goes to
 * the charge's URL of its row and needs the store's postback secret. The endpoint's previous secret signs too while
 * its grace window lasts, and its custom headers go with it (DESIGN §16). The body is {@link deliveryBody}.
 *
 * A stored secret (or custom header set) that does not decrypt under `encryptionKey` (a wrong `ENCRYPTION_KEY`, a
 * damaged row) can never sign this attempt, however often it is retried: it stops the chain as `missing_secret` with
 * a `detail` for the log (a job that can never succeed stops and says why on its row). A previous secret that does not
 * decrypt is left out; the current one still signs.
 * @param encryptionKey - `config.encryptionKey`; secrets are decrypted with their row id as associated data
 */
export function prepareAttempt(delivery: LoadedDelivery, encryptionKey: Buffer, now: Date): PreparedAttempt {
  const secrets: string[] = [];
  let headers: CustomHeaders = {};
  let url = delivery.url;
  // An endpoint signs with its own scheme; a postback always with `stripe` (DESIGN §12).
  let scheme: SignatureScheme = "stripe";
  if (delivery.destination_type === "endpoint") {
    const endpoint = delivery.endpoint;
    if (!endpoint || endpoint.deleted_at !== null || endpoint.mode !== delivery.event.mode) {
      return { send: false, error: "endpoint_disabled" };
    }
    if (!endpoint.enabled && !delivery.manual) return { send: false, error: "endpoint_disabled" };
    url = endpoint.url;
    scheme = endpoint.signature_scheme;
    const current = tryDecrypt(encryptionKey, endpoint.secret_ciphertext, endpoint.id);
    if (current === null) return { send: false, error: "missing_secret", detail: "endpoint secret does not decrypt" };
    secrets.push(current);
    const graceEnds = endpoint.previous_secret_expires_at;
    if (endpoint.previous_secret_ciphertext && graceEnds && graceEnds > now) {
      const previous = tryDecrypt(encryptionKey, endpoint.previous_secret_ciphertext, endpoint.id);
      if (previous !== null) secrets.push(previous);
    }
    try {
      headers = decryptCustomHeaders(encryptionKey, endpoint.headers_ciphertext, endpoint.id);
    } catch {
      // Sending without them could hand the receiver an unauthenticated request it then refuses, or worse accepts.
      return { send: false, error: "missing_secret", detail: "endpoint custom headers do not decrypt" };
    }
  } else {
    if (delivery.postbackSecretCiphertext === null) return { send: false, error: "missing_secret" };
    const secret = tryDecrypt(encryptionKey, delivery.postbackSecretCiphertext, delivery.store_id);
    if (secret === null) return { send: false, error: "missing_secret", detail: "postback secret does not decrypt" };
    secrets.push(secret);
  }
  return { send: true, url, body: deliveryBody(delivery), scheme, secrets, headers };
}

/**
 * The body an attempt of `delivery` sends: its event's envelope, with a charge's QR image put back from the charge
 * (DESIGN §10 "No copies"), serialised once so that the signed bytes are the bytes sent.
 */
export function deliveryBody(delivery: LoadedDelivery): string {
  const event = { ...delivery.event, data: withChargeFields(delivery.event.data as object, delivery.charge) };
  return JSON.stringify(buildEventEnvelope(event));
}

/** The secret, or null when its envelope does not decrypt for `rowId` under `key`. */
function tryDecrypt(key: Buffer, envelope: string, rowId: string): string | null {
  try {
    return decryptSecret(key, envelope, rowId);
  } catch {
    return null;
  }
}
