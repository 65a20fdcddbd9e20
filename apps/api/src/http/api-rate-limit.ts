/**
 * Per-key rate limit of the merchant API (DESIGN §3): 100 requests per second per API key, counted in Redis with
 * rate-limiter-flexible so every API process shares the count. Over the limit: 429 `rate_limited` with `Retry-After`.
 * Keys live under `QUEUE_PREFIX`. When Redis cannot answer, requests are let through: the limit protects the
 * service, and refusing every merchant because Redis is down would be the larger outage.
 *
 * A process takes a key's requests from Redis in leases of {@link API_KEY_LEASE} instead of one at a time (a
 * round trip per request cost about a sixth of a charge read's throughput in `bench:api`). Redis still counts
 * every request any process admits, so a key never gets more than its limit in a second. With several API processes
 * it may get a little less: a process refuses a key once Redis has nothing left for it, while another process may
 * still hold unused requests of its lease, at most `API_KEY_LEASE - 1` per process and second.
 */
import type { NextFunction, Request, Response } from "express";
import { RateLimiterRes, type RateLimiterRedis } from "rate-limiter-flexible";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";
import { createRateLimiter, rateLimited } from "./rate-limit";

/** Requests each API key may make per second. */
export const API_KEY_REQUESTS_PER_SECOND = 100;
/** Requests a process takes at once from a key's count in Redis: a tenth of the limit. */
export const API_KEY_LEASE = 10;
/** Leases kept before the expired ones are dropped (each is a few dozen bytes; leases last a second at most). */
const MAX_LEASES = 10_000;

/** What this process may still admit for one key in the limiter's current window, without asking Redis. */
interface Lease {
  /** Requests left to admit. */
  left: number;
  /** End of the window, epoch ms: the lease is void from then. */
  until: number;
  /** Whether Redis had nothing left once this lease was taken: when `left` is 0, refuse until `until`. */
  last: boolean;
}

/**
 * A limit counted in Redis by a rate-limiter-flexible limiter (fixed windows of its `duration`, `points` per window
 * and key), which this process takes `lease` points at a time and hands out one per request. Concurrent requests of
 * a key wait on one Redis call. A lease that would pass the limit gives this process what was left before it, so the
 * count in Redis is never exceeded and, with one process, exactly `points` requests are admitted per window.
 */
export class LeasedRateLimit {
  private readonly leases = new Map<string, Lease>();
  private readonly renewals = new Map<string, Promise<void>>();

  /**
   * @param limiter - the shared count; its `points` is the limit per window
   * @param lease - points taken from it at once (1 to `points`)
   */
  constructor(
    private readonly limiter: RateLimiterRedis,
    private readonly lease: number,
  ) {}

  /**
   * Admits one request of `key`, or refuses it.
   * @returns null when admitted; when refused, the milliseconds before the window ends (for `Retry-After`)
   * @throws the limiter's store error when Redis cannot answer (the caller decides what that means)
   */
  async admit(key: string): Promise<number | null> {
    for (;;) {
      const lease = this.leases.get(key);
      const now = Date.now();
      if (lease !== undefined && lease.until > now) {
        if (lease.left > 0) {
          lease.left--;
          return null;
        }
        if (lease.last) return lease.until - now;
      }
      await this.renew(key);
    }
  }

  /** Takes a new lease of `key` from Redis, or waits for the one being taken. */
  private renew(key: string): Promise<void> {
    let renewal = this.renewals.get(key);
    if (renewal === undefined) {
      renewal = this.take(key)
        .then((lease) => this.keep(key, lease))
        .finally(() => this.renewals.delete(key));
      this.renewals.set(key, renewal);
    }
    return renewal;
  }

  private async take(key: string): Promise<Lease> {
    try {
      const taken = await this.limiter.consume(key, this.lease);
      return { left: this.lease, until: Date.now() + taken.msBeforeNext, last: taken.remainingPoints === 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // The count, this lease included, passed the limit: what was left before the lease is this process's.
      const leftBefore = this.limiter.points - (rejection.consumedPoints - this.lease);
      return {
        left: Math.min(this.lease, Math.max(0, leftBefore)),
        until: Date.now() + rejection.msBeforeNext,
        last: true,
      };
    }
  }

  private keep(key: string, lease: Lease): void {
    if (this.leases.size >= MAX_LEASES) {
      const now = Date.now();
      for (const [held, { until }] of this.leases) if (until <= now) this.leases.delete(held);
    }
    this.leases.set(key, lease);
  }
}

/** Middleware limiting each authenticated key; mount it after `requireApiKey`. */
export function apiKeyRateLimit(deps: Pick<AppDeps, "redis" | "config" | "logger">) {
  const limiter = createRateLimiter(deps.redis, deps.config.queuePrefix, "api-key", API_KEY_REQUESTS_PER_SECOND, 1);
  const limit = new LeasedRateLimit(limiter, API_KEY_LEASE);
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    let refusedFor: number | null = null;
    try {
      refusedFor = await limit.admit(merchantOf(res).apiKeyId);
    } catch (err) {
      deps.logger.warn("rate limiter unavailable; request let through", { err });
    }
    if (refusedFor !== null) throw rateLimited(refusedFor);
    next();
  };
}
