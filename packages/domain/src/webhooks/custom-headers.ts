/**
 * An endpoint's custom headers (DESIGN §16 "Custom headers"): `{name: value}` the seller sets, sent with every attempt
 * to the endpoint beside the service's own headers. At most {@link MAX_CUSTOM_HEADERS}; a name is 1 to 64 letters,
 * digits and hyphens, never one the service sets on any scheme nor a hop-by-hop or framing header, and `Authorization`
 * only on an https URL (a bearer token must not cross the network in clear); a value is at most 1,024 printable ASCII
 * characters. The whole set is stored as one JSON object encrypted like the secret ({@link encryptCustomHeaders}), and
 * replies show the names with masked values ({@link maskCustomHeaders}).
 */
import { validationFailed } from "../errors";
import { decryptSecret, encryptSecret } from "../secret-box";

/** Most custom headers of one endpoint. */
export const MAX_CUSTOM_HEADERS = 10;
/** What a custom header's name may be. */
export const CUSTOM_HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** Longest custom header value, characters. */
export const MAX_CUSTOM_HEADER_VALUE = 1024;
/** What a custom header's value may hold: printable ASCII, spaces included. */
export const CUSTOM_HEADER_VALUE = /^[\x20-\x7E]*$/;

/** Custom headers by name, as the seller gave them. */
export type CustomHeaders = Record<string, string>;

/** Names the service sets on some scheme, or that frame the request: never custom (compared in lower case). */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "content-type",
  "user-agent",
  "idempotency-key",
  "x-signature",
  "x-delivery-id",
  "x-attempt",
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
]);
/** Prefixes of the service's header families: `X-Event-Id`, `X-Event-Type`; `webhook-id`, `webhook-signature`, … */
const RESERVED_PREFIXES = ["x-event-", "webhook-"];

/** Why `name` cannot be a custom header, or null when it can. */
function reservedReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (RESERVED_NAMES.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
    return `${name} is set by the service and cannot be a custom header.`;
  }
  return null;
}

/**
 * Checks the full set an endpoint at `url` would have (after a creation or a change): names and values as above, no
 * two names differing only in case, `Authorization` only on https.
 * @throws ApiError `validation_failed` with `param` `headers.<name>` naming the first header refused
 */
export function assertCustomHeaders(headers: CustomHeaders, url: string): void {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) {
    const extra = names[MAX_CUSTOM_HEADERS] as string;
    throw validationFailed(`An endpoint has at most ${MAX_CUSTOM_HEADERS} custom headers.`, `headers.${extra}`);
  }
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const param = `headers.${name}`;
    if (!CUSTOM_HEADER_NAME.test(name)) {
      throw validationFailed(`${name} is not a header name: 1 to 64 letters, digits and hyphens.`, param);
    }
    const reserved = reservedReason(name);
    if (reserved !== null) throw validationFailed(reserved, param);
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw validationFailed(`${name} is given twice (header names ignore case).`, param);
    seen.add(lower);
    if (value.length > MAX_CUSTOM_HEADER_VALUE || !CUSTOM_HEADER_VALUE.test(value)) {
      throw validationFailed(
        `The value of ${name} must be at most ${MAX_CUSTOM_HEADER_VALUE} printable ASCII characters.`,
        param,
      );
    }
    if (lower === "authorization" && !url.startsWith("https:")) {
      throw validationFailed(`${name} is sent only to an https url; this endpoint's url is not https.`, param);
    }
  }
}

/**
 * The set after a PATCH of `changes` (JSON merge patch, RFC 7396): a string sets that header (replacing one whose name
 * differs only in case), null removes it, names not given stay.
 */
export function mergeCustomHeaders(current: CustomHeaders, changes: Record<string, string | null>): CustomHeaders {
  const merged: CustomHeaders = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    for (const held of Object.keys(merged)) if (held.toLowerCase() === name.toLowerCase()) delete merged[held];
    if (value !== null) merged[name] = value;
  }
  return merged;
}

/** The associated data of endpoint `endpointId`'s headers: bound to the row and the column. */
function headersRowId(endpointId: string): string {
  return `${endpointId}/headers`;
}

/**
 * `headers_ciphertext` of endpoint `endpointId` holding `headers`, or null for none.
 * @param key - `config.encryptionKey`
 */
export function encryptCustomHeaders(key: Buffer, headers: CustomHeaders, endpointId: string): string | null {
  if (Object.keys(headers).length === 0) return null;
  return encryptSecret(key, JSON.stringify(headers), headersRowId(endpointId));
}

/**
 * The headers of `headers_ciphertext` (empty when null).
 * @throws Error when the envelope does not decrypt for this endpoint under `key`
 */
export function decryptCustomHeaders(key: Buffer, ciphertext: string | null, endpointId: string): CustomHeaders {
  if (ciphertext === null) return {};
  return JSON.parse(decryptSecret(key, ciphertext, headersRowId(endpointId))) as CustomHeaders;
}

/** Characters a masked value keeps at its end, when it is long enough to spare them. */
const MASK_KEEPS = 4;
/** Shortest value whose last characters are shown. */
const MASK_SHOWS_FROM = 16;

/**
 * The set as replies show it: each name with its value masked, `****` followed by the value's last 4 characters when
 * it has at least 16 (enough to tell two tokens apart), else `****` alone.
 */
export function maskCustomHeaders(headers: CustomHeaders): CustomHeaders {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      value.length >= MASK_SHOWS_FROM ? `****${value.slice(-MASK_KEEPS)}` : "****",
    ]),
  );
}
