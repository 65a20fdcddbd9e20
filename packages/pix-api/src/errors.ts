/**
 * The one error our client of the API Pix throws for a failure of the bank, and how a reply's body becomes its reason.
 * Nothing here ever holds a request: a request carries the bearer token and the agent carries the private key, so an
 * error logged whole (with its properties) still shows no secret.
 */

/** Longest reason kept from a bank's reply, characters. */
export const MAX_REASON_LENGTH = 200;

/** `unavailable`: the bank could not be reached, timed out, answered 5xx or refused our TLS handshake.
 *  `rejected`: the bank answered and refused (a 4xx other than a 401 that a token refresh cured). */
export type PixApiErrorKind = "unavailable" | "rejected";

/**
 * A failure of the bank. A read of something the bank does not know (404) is not one: reads return null.
 * `reason` is the bank's problem `title`/`detail` (RFC 7807), its OAuth2 `error` (RFC 6749 §5.2), or a short
 * description of what the network did, cut to {@link MAX_REASON_LENGTH} characters; never a secret.
 */
export class PixApiError extends Error {
  override readonly name = "PixApiError";
  readonly reason: string;

  /**
   * @param kind - see {@link PixApiErrorKind}
   * @param status - the bank's HTTP status, or null when no reply arrived (or the operation was refused before sending)
   * @param reason - the bank's reason or a short description; cut to {@link MAX_REASON_LENGTH}
   */
  constructor(
    readonly kind: PixApiErrorKind,
    readonly status: number | null,
    reason: string,
  ) {
    const cut = reason.slice(0, MAX_REASON_LENGTH);
    super(`bank ${kind}${status === null ? "" : ` (HTTP ${status})`}: ${cut}`);
    this.reason = cut;
  }
}

/**
 * The reason a reply's body gives, whatever dialect it speaks: the standard's problem JSON (`title`, `detail`, the
 * first violation's property and reason), OAuth2's error (`error`, `error_description`), or Efí's own
 * (`nome`, `mensagem`). Falls back to `HTTP <status>`.
 * @param body - the parsed body, or undefined when it was not JSON
 */
export function reasonFromReply(status: number, body: unknown): string {
  if (typeof body !== "object" || body === null) return `HTTP ${status}`;
  const fields = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);
  const firstViolation = Array.isArray(fields.violacoes) ? (fields.violacoes[0] as unknown) : undefined;
  const violation =
    typeof firstViolation === "object" && firstViolation !== null
      ? [
          text((firstViolation as Record<string, unknown>).propriedade),
          text((firstViolation as Record<string, unknown>).razao),
        ]
          .filter((part) => part !== null)
          .join(": ")
      : "";
  const parts = [
    text(fields.title) ?? text(fields.error) ?? text(fields.nome),
    text(fields.detail) ?? text(fields.error_description) ?? text(fields.mensagem),
    violation === "" ? null : violation,
  ].filter((part) => part !== null);
  return parts.length === 0 ? `HTTP ${status}` : parts.join(": ");
}
