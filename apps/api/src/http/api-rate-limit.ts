/**
 * Per-key rate limit of the merchant API (DESIGN §3): 100 requests per second per API key, counted in Redis with
 * rate-limiter-flexible so every API process shares the count. Over the limit: 429 `rate_limited` with `Retry-After`.
 * Keys live under `QUEUE_PREFIX`. When Redis cannot answer, requests are let through: the limit protects the
 * service, and refusing every merchant because Redis is down would be the larger outage.
 */
import type { NextFunction, Request, Response } from "express";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@lm/domain";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";

/** Requests each API key may make per second. */
export const API_KEY_REQUESTS_PER_SECOND = 100;

/** Middleware limiting each authenticated key; mount it after `requireApiKey`. */
export function apiKeyRateLimit(deps: Pick<AppDeps, "redis" | "config" | "logger">) {
  const limiter = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.queuePrefix}:rl:api-key`,
    points: API_KEY_REQUESTS_PER_SECOND,
    duration: 1,
    rejectIfRedisNotReady: true,
  });
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await limiter.consume(merchantOf(res).apiKeyId);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        throw new ApiError("rate_limited", "Too many requests for this API key; retry later.", {
          headers: { "Retry-After": retryAfter },
        });
      }
      deps.logger.warn("rate limiter unavailable; request let through", { err: rejection });
    }
    next();
  };
}
