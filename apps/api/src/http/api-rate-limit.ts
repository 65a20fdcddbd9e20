/**
 * Per-key rate limit of the merchant API (DESIGN §3): 100 requests per second per API key, counted in Redis with
 * rate-limiter-flexible so every API process shares the count. Over the limit: 429 `rate_limited` with `Retry-After`.
 * Keys live under `QUEUE_PREFIX`. When Redis cannot answer, requests are let through: the limit protects the
 * service, and refusing every merchant because Redis is down would be the larger outage.
 */
import type { NextFunction, Request, Response } from "express";
import { RateLimiterRes } from "rate-limiter-flexible";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";
import { createRateLimiter, rateLimited } from "./rate-limit";

/** Requests each API key may make per second. */
export const API_KEY_REQUESTS_PER_SECOND = 100;

/** Middleware limiting each authenticated key; mount it after `requireApiKey`. */
export function apiKeyRateLimit(deps: Pick<AppDeps, "redis" | "config" | "logger">) {
  const limiter = createRateLimiter(deps.redis, deps.config.queuePrefix, "api-key", API_KEY_REQUESTS_PER_SECOND, 1);
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await limiter.consume(merchantOf(res).apiKeyId);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw rateLimited(rejection.msBeforeNext);
      deps.logger.warn("rate limiter unavailable; request let through", { err: rejection });
    }
    next();
  };
}
