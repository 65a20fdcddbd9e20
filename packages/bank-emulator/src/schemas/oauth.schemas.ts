/**
 * JSON Schema of the token request (RFC 6749 §4.4.2: the client credentials grant). The client authenticates with
 * HTTP Basic (§2.3.1), so the body carries the grant type and, optionally, a scope.
 */

/** Body of `POST /oauth/token`, form-encoded or (Efí) JSON. */
export const tokenRequestSchema = {
  type: "object",
  required: ["grant_type"],
  properties: { grant_type: { const: "client_credentials" }, scope: { type: "string" } },
  additionalProperties: false,
} as const;
