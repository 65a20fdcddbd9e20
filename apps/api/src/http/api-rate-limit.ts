/**
 * Per-key rate limit of the merchant API (DESIGN §3): 100 requests per second per API key, counted in Redis with
 * rate-limiter-flexible so every API process shares the count. Over the limit: 429 `rate_limited` with `Retry-After`.
 * Keys are `<QUEUE_PREFIX>:rl:api-key:<API key id>`: this module adds no hash tag, so in a Redis Cluster each key
 * hashes on its own. When Redis cannot answer, requests are let through: the limit protects the service, and refusing
 * every merchant because Redis is down would be the larger outage.
 *
 * A process takes a key's requests from Redis in leases of up to {@link API_KEY_MAX_LEASE} instead of one at a time
 * (a round trip per request cost about a sixth of a charge read's throughput in `bench:api`), sized by its own demand
 * so that the limit holds in sum whatever the number of API processes (DESIGN §10 "Rate limits across processes"):
 * see {@link LeasedRateLimit}.
 */
import type { NextFunction, Request, Response } from "express";
import { RateLimiterRes, type RateLimiterRedis } from "rate-limiter-flexible";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";
import { createRateLimiter, rateLimited } from "./rate-limit";

/** Requests each API key may make per second. */
export const API_KEY_REQUESTS_PER_SECOND = 100;
/** The most requests a process takes at once from a key's count in Redis: a tenth of the limit. */
export const API_KEY_MAX_LEASE = 10;
/** Keys kept before the stale ones are dropped (each is a few dozen bytes; a key's state matters for two windows). */
const MAX_KEYS = 10_000;

/** This process's state of one key in the limiter's window it last took a lease in. */
interface KeyState {
  /** Requests of the current lease not yet admitted. */
  left: number;
  /** End of the window, epoch ms: the lease is void from then. */
  until: number;
  /** Whether Redis had nothing left once this lease was taken: when `left` is 0, refuse until `until`. */
  last: boolean;
  /** What Redis had left in the window after the last lease: the next one in the window takes no more. */
  remaining: number;
  /** Points this process asked of the window's count, granted or not. */
  taken: number;
  /** Requests this process admitted in the window. */
  admitted: number;
  /** Requests it admitted in the window just before (0 when it had none, or that window was not the one before). */
  admittedBefore: number;
  /** Whether, at a lease that was not its first in a window, the window's whole count was this process's own. */
  alone: boolean;
}

/** A lease being taken, and how many requests of the key wait for it. */
interface Renewal {
  done: Promise<void>;
  waiting: number;
}

/**
 * A limit counted in Redis by a rate-limiter-flexible limiter (fixed windows of its `duration`, `points` per window
 * and key), which this process takes several points at a time and hands out one per request. Concurrent requests of
 * a key wait on one Redis call. The count in Redis is never exceeded: a lease that would pass it gives this process
 * what was left before it, so one process alone admits exactly `points` per window.
 *
 * A lease is sized so that many processes sharing a key do not strand its points in leases they will not use
 * (a process refuses a key once Redis has nothing left, while others may still hold unused points):
 * - at least the requests waiting for it (they use it at once);
 * - a process alone on the key takes up to what it admitted in its last window, so one process keeps leases of
 *   `maxLease` from `maxLease` requests a window up (as `bench:api`, one API process, needs). Alone means: at a lease that was
 *   not its first in a window, the window's whole count in Redis was its own, and no lease since showed otherwise;
 * - a process sharing the key takes `maxLease × demand ÷ points`, rounded up, where `demand` is what it admitted in its
 *   last window (or this one, if more): with processes of about steady demand, their unused points total less than
 *   `maxLease` whatever their number, and a process seeing a request a second takes one point at a time (exact);
 * - never more than `maxLease`, nor more than the window had left at its last lease.
 * So a key is refused only past about `points − maxLease` requests in a window, however many processes share it. The
 * price is Redis calls where a key's requests are spread thin: a process seeing a few a second asks for each, so a key
 * shared by many processes costs Redis about a command per request (at most `points` a window, plus one a process
 * once the window is used up), where one busy process costs one per `maxLease`.
 */
export class LeasedRateLimit {
  private readonly keys = new Map<string, KeyState>();
  private readonly renewals = new Map<string, Renewal>();
  private readonly windowMs: number;

  /**
   * @param limiter - the shared count; its `points` is the limit per window of `duration` seconds
   * @param maxLease - the most points taken from it at once (1 to `points`)
   */
  constructor(
    private readonly limiter: RateLimiterRedis,
    private readonly maxLease: number,
  ) {
    this.windowMs = limiter.duration * 1000;
  }

  /**
   * Admits one request of `key`, or refuses it.
   * @returns null when admitted; when refused, the milliseconds before the window ends (for `Retry-After`)
   * @throws the limiter's store error when Redis cannot answer (the caller decides what that means)
   */
  async admit(key: string): Promise<number | null> {
    for (;;) {
      const state = this.keys.get(key);
      const now = Date.now();
      if (state !== undefined && state.until > now) {
        if (state.left > 0) {
          state.left--;
          state.admitted++;
          return null;
        }
        if (state.last) return state.until - now;
      }
      await this.renew(key);
    }
  }

  /** Takes a new lease of `key` from Redis, or waits for the one being taken. */
  private renew(key: string): Promise<void> {
    const pending = this.renewals.get(key);
    if (pending !== undefined) {
      pending.waiting++;
      return pending.done;
    }
    const renewal: Renewal = { done: Promise.resolve(), waiting: 1 };
    renewal.done = (async () => {
      // Sized a microtask later, once the requests of the key started in the same tick wait for it too.
      await Promise.resolve();
      const state = this.keys.get(key);
      const points = this.size(state, renewal.waiting);
      const lease = await this.take(key, points);
      this.keep(key, this.next(state, points, lease));
    })().finally(() => this.renewals.delete(key));
    this.renewals.set(key, renewal);
    return renewal.done;
  }

  /** Points to ask for `key` (see the class), with `waiting` requests waiting for them. */
  private size(state: KeyState | undefined, waiting: number): number {
    const now = Date.now();
    let demand = 0;
    if (state !== undefined && now < state.until) demand = Math.max(state.admitted, state.admittedBefore);
    else if (state !== undefined && now < state.until + this.windowMs) demand = state.admitted;
    const byDemand = state?.alone ? demand : Math.ceil((this.maxLease * demand) / this.limiter.points);
    let points = Math.min(this.maxLease, Math.max(1, waiting, byDemand));
    if (state !== undefined && now < state.until) points = Math.min(points, Math.max(1, state.remaining));
    return points;
  }

  /** Asks Redis for `points` of `key`: what it granted, and the window's count and end. */
  private async take(key: string, points: number): Promise<{ granted: number; count: RateLimiterRes }> {
    try {
      return { granted: points, count: await this.limiter.consume(key, points) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // The count, this lease included, passed the limit: what was left before the lease is this process's.
      const leftBefore = this.limiter.points - (rejection.consumedPoints - points);
      return { granted: Math.min(points, Math.max(0, leftBefore)), count: rejection };
    }
  }

  /** The state of a key after asking `asked` points of it from `state` and getting `lease`. */
  private next(
    state: KeyState | undefined,
    asked: number,
    { granted, count }: { granted: number; count: RateLimiterRes },
  ): KeyState {
    const until = Date.now() + count.msBeforeNext;
    // Windows follow one another at least `windowMs` apart; replies within one window differ by latency only.
    const sameWindow = state !== undefined && until < state.until + this.windowMs / 2;
    const windowBefore = state !== undefined && !sameWindow && until < state.until + (this.windowMs * 3) / 2;
    const taken = (sameWindow ? state.taken : 0) + asked;
    const others = count.consumedPoints > taken;
    return {
      left: granted,
      until,
      last: count.remainingPoints === 0,
      remaining: count.remainingPoints,
      taken,
      admitted: sameWindow ? state.admitted : 0,
      admittedBefore: sameWindow ? state.admittedBefore : windowBefore ? state.admitted : 0,
      alone: !others && (sameWindow || (state?.alone ?? false)),
    };
  }

  private keep(key: string, state: KeyState): void {
    if (this.keys.size >= MAX_KEYS) {
      const stale = Date.now() - this.windowMs;
      for (const [held, { until }] of this.keys) if (until <= stale) this.keys.delete(held);
    }
    this.keys.set(key, state);
  }
}

/** Middleware limiting each authenticated key; mount it after `requireApiKey`. */
export function apiKeyRateLimit(deps: Pick<AppDeps, "redis" | "config" | "logger">) {
  const limiter = createRateLimiter(deps.redis, deps.config.queuePrefix, "api-key", API_KEY_REQUESTS_PER_SECOND, 1);
  const limit = new LeasedRateLimit(limiter, API_KEY_MAX_LEASE);
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
