/**
 * The OAuth2 access token of one client (RFC 6749 §4.4, client credentials), cached and shared: a token is used until
 * shortly before `expires_in` runs out, and callers that need a new one while another caller is already getting it
 * wait for that same request (single flight) instead of asking the bank again.
 */

/** A token as the token endpoint issued it (RFC 6749 §5.1). */
export interface IssuedToken {
  accessToken: string;
  /** `expires_in`, seconds; null when the bank did not say (then it is used until the bank refuses it). */
  expiresInSeconds: number | null;
}

/** Asks the token endpoint for a new token; throws what the endpoint's failure is. */
export type TokenFetcher = () => Promise<IssuedToken>;

/** The cached token of one client. */
export interface TokenCache {
  /**
   * A token to send: the cached one while it is fresh, else the result of one refresh shared by every concurrent
   * caller.
   * @throws whatever the fetcher threw (nothing is cached then, and the next call tries again)
   */
  get(): Promise<string>;
  /** Forgets `token` when it is the cached one (the bank answered 401 to it); a newer cached token is kept. */
  invalidate(token: string): void;
}

/** The longest margin before expiry at which a token is refreshed, ms. */
export const MAX_REFRESH_MARGIN_MS = 60_000;

/**
 * How long before its expiry a token stops being used: 60 s, or a tenth of its lifetime when that is shorter (a
 * 5-minute token is refreshed 30 s early, not after a fifth of its life).
 * @param expiresInSeconds - the token's `expires_in`
 * @returns milliseconds
 */
export function refreshMarginMs(expiresInSeconds: number): number {
  return Math.min(MAX_REFRESH_MARGIN_MS, expiresInSeconds * 100);
}

/**
 * Creates an empty cache.
 * @param fetchToken - gets a new token from the bank
 * @param now - the clock, ms since the epoch (tests pass their own)
 */
export function createTokenCache(fetchToken: TokenFetcher, now: () => number = Date.now): TokenCache {
  let cached: { token: string; refreshAt: number } | null = null;
  let refresh: Promise<string> | null = null;

  const load = async (): Promise<string> => {
    const requestedAt = now();
    const issued = await fetchToken();
    // Counted from the request, not the reply: the token's life started no later than that.
    const refreshAt =
      issued.expiresInSeconds === null
        ? Number.POSITIVE_INFINITY
        : requestedAt + issued.expiresInSeconds * 1000 - refreshMarginMs(issued.expiresInSeconds);
    cached = { token: issued.accessToken, refreshAt };
    return issued.accessToken;
  };

  return {
    get() {
      if (cached !== null && now() < cached.refreshAt) return Promise.resolve(cached.token);
      // The reset runs as a promise reaction, so always after `refresh` was assigned.
      refresh ??= load().finally(() => {
        refresh = null;
      });
      return refresh;
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
  };
}
