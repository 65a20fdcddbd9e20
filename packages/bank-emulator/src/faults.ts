/**
 * The switches a test flips to make the bank misbehave: the next requests fail with a status or never answer, and
 * every reply comes late.
 */

/** What to do with the next request. */
export type FaultAction = { kind: "hang" } | { kind: "fail"; status: number } | null;

/** Scripted failures and the reply delay. */
export class Faults {
  /** Delay before every reply, ms. */
  latencyMs: number;
  private fail: { remaining: number; status: number; includeToken: boolean; path?: string } = {
    remaining: 0,
    status: 503,
    includeToken: false,
  };
  private hang = { remaining: 0, includeToken: false };

  constructor(latencyMs: number) {
    this.latencyMs = latencyMs;
  }

  /**
   * The next `count` requests (token requests only with `includeToken`; only those whose path, query excluded,
   * starts with `path` when given) answer `status`.
   */
  failNext(count: number, status: number, includeToken: boolean, path?: string): void {
    this.fail = { remaining: count, status, includeToken, ...(path === undefined ? {} : { path }) };
  }

  /** The next `count` requests (token requests only with `includeToken`) are never answered. */
  hangNext(count: number, includeToken: boolean): void {
    this.hang = { remaining: count, includeToken };
  }

  /**
   * Takes the fault, if any, that applies to a request for `path` (query excluded) arriving now; a hang is served
   * before a failure.
   */
  take(isTokenRequest: boolean, path = ""): FaultAction {
    if (this.hang.remaining > 0 && (!isTokenRequest || this.hang.includeToken)) {
      this.hang.remaining -= 1;
      return { kind: "hang" };
    }
    const onPath = this.fail.path === undefined || path.startsWith(this.fail.path);
    if (this.fail.remaining > 0 && (!isTokenRequest || this.fail.includeToken) && onPath) {
      this.fail.remaining -= 1;
      return { kind: "fail", status: this.fail.status };
    }
    return null;
  }
}
