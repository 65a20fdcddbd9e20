/**
 * The OAuth2 side of the emulated bank (RFC 6749 §4.4, client credentials): one registered client authenticated by
 * HTTP Basic (§2.3.1), opaque bearer tokens (RFC 6750) with a lifetime, and a switch that invalidates every token
 * issued so far.
 */
import { timingSafeEqual } from "node:crypto";
import { newAccessToken } from "./ids";

/** The scopes every token carries: the standard's for the operations served, and Efí's for payouts. */
const SCOPE = "cob.write cob.read pix.write pix.read webhook.write webhook.read pix.send gn.pix.send.read";

/** The token reply (RFC 6749 §5.1). */
export interface TokenReply {
  access_token: string;
  token_type: "Bearer";
  /** Seconds. */
  expires_in: number;
  scope: string;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 6749 §2.3.1: each half of the Basic credentials is form-encoded before base64. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

/** Issues and checks the tokens of the one registered client. */
export class TokenStore {
  /** Token → expiry (ms since epoch). */
  private readonly live = new Map<string, number>();
  private issuedCount = 0;

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly ttlSeconds: number,
  ) {}

  /** Whether the `Authorization` header carries the registered client's id and secret (HTTP Basic). */
  authenticatesClient(authorization: string | undefined): boolean {
    const match = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
    if (!match) return false;
    const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    return sameText(id, this.clientId) && sameText(secret, this.clientSecret);
  }

  /** A new token valid for the configured lifetime from `now`. */
  issue(now: Date): TokenReply {
    const token = newAccessToken();
    this.live.set(token, now.getTime() + this.ttlSeconds * 1000);
    this.issuedCount += 1;
    return { access_token: token, token_type: "Bearer", expires_in: this.ttlSeconds, scope: SCOPE };
  }

  /** Whether the `Authorization` header carries a live bearer token at `now`. */
  authorizes(authorization: string | undefined, now: Date): boolean {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    const expiresAt = match ? this.live.get(match[1] as string) : undefined;
    return expiresAt !== undefined && now.getTime() < expiresAt;
  }

  /** Invalidates every token issued so far. */
  expireAll(): void {
    this.live.clear();
  }

  /** How many tokens were issued. */
  issued(): number {
    return this.issuedCount;
  }
}
