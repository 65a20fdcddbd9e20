/**
 * Rate limits of the panel in Redis with rate-limiter-flexible (DESIGN §3 "Rate limits"), under `QUEUE_PREFIX` so
 * that processes sharing a prefix share the counts and test files never collide. A refused request is 429
 * `rate_limited` with `Retry-After` in seconds. Limits count attempts, not only failures; the sign-in lock counts
 * consecutive failures. When Redis cannot answer, panel limits fail closed (500): they guard credentials, and
 * letting guesses through unlimited is worse than a refused sign-in. (The merchant API's per-key limit, in
 * api-rate-limit.ts, fails open instead: it protects capacity, not secrets.)
 */
import { createHash } from "node:crypto";
import type { RedisClient } from "@lm/queue";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError, normalizeEmail, warnOfWrongSecondFactors } from "@lm/domain";
import { whenSettled } from "@lm/queue";

const MINUTE_S = 60;

/** Failed sign-ins in a row (within a day) after which an address is locked. */
export const SIGN_IN_LOCK_FAILURES = 20;
/** How long the lock lasts, seconds. */
export const SIGN_IN_LOCK_SECONDS = 15 * MINUTE_S;

/** Failed second-factor attempts an account may make per minute, across challenges, enrolment, step-up and disable. */
export const SECOND_FACTOR_ATTEMPTS_PER_MINUTE = 5;
/** Wrong second-factor codes in a row (within a day) at which the owner is mailed, once per run. */
export const SECOND_FACTOR_WARNING_RUN = 5;

/** Pings and manual resends a seller may start per minute. */
export const MANUAL_DELIVERIES_PER_MINUTE = 30;

/** Every limiter of the panel, by what it counts. */
export interface PanelRateLimits {
  redis: RedisClient;
  /** Sign-in attempts per normalised email: 5 a minute. */
  signInPerEmail: RateLimiterRedis;
  /** Sign-in attempts per client IP: 5 a minute. */
  signInPerIp: RateLimiterRedis;
  /** Consecutive failed sign-ins per normalised email; the 20th locks the address for 15 minutes. */
  signInFailures: RateLimiterRedis;
  /** Invite look-ups per client IP: 5 a minute. */
  inviteLookupPerIp: RateLimiterRedis;
  /** Password reset mails per normalised email: 3 an hour (further requests still answer 200, without a mail). */
  resetMailPerEmail: RateLimiterRedis;
  /**
   * Failed second-factor attempts per account (DESIGN §3 "5/min per user"), one budget for the sign-in challenges
   * (whatever their number or the client's address), enrolment's `verify-totp`, step-up and `disable`: 5 a minute.
   */
  secondFactorPerUser: RateLimiterRedis;
  /** Wrong second-factor codes in a row per account; only a right code ends the run, never a right password. */
  secondFactorFailures: RateLimiterRedis;
  /** 2FA enrolment and changes per signed-in user (enable, verify-totp, disable, new backup codes): 5 a minute. */
  twoFactorPerUser: RateLimiterRedis;
  /** Second-factor attempts at sign-in per client IP: 5 a minute (each challenge also allows only 5 tries). */
  twoFactorChallengePerIp: RateLimiterRedis;
  /** Lost-2FA recovery requests per client IP and per normalised email: 5 a minute each. */
  recoveryPerIp: RateLimiterRedis;
  recoveryPerEmail: RateLimiterRedis;
  /** Pings and manual resends per seller (each writes an event or delivery rows and an HTTP request): 30 a minute. */
  manualDeliveriesPerSeller: RateLimiterRedis;
}

/**
 * Creates the limiters over `redis` (the API's producer connection).
 * @param queuePrefix - `config.queuePrefix`; every key is `<prefix>:rl:<limiter>:<key>`
 */
export function createPanelRateLimits(redis: RedisClient, queuePrefix: string): PanelRateLimits {
  const limiter = (name: string, points: number, duration: number) =>
    createRateLimiter(redis, queuePrefix, name, points, duration);
  return {
    redis,
    signInPerEmail: limiter("sign-in-email", 5, MINUTE_S),
    signInPerIp: limiter("sign-in-ip", 5, MINUTE_S),
    signInFailures: limiter("sign-in-failures", SIGN_IN_LOCK_FAILURES, 24 * 60 * MINUTE_S),
    inviteLookupPerIp: limiter("invite-lookup-ip", 5, MINUTE_S),
    resetMailPerEmail: limiter("reset-mail-email", 3, 60 * MINUTE_S),
    secondFactorPerUser: limiter("second-factor-user", SECOND_FACTOR_ATTEMPTS_PER_MINUTE, MINUTE_S),
    // Counts a run; the points only bound the count kept (a run never blocks by itself).
    secondFactorFailures: limiter("second-factor-failures", 1_000_000, 24 * 60 * MINUTE_S),
    twoFactorPerUser: limiter("two-factor-user", 5, MINUTE_S),
    twoFactorChallengePerIp: limiter("two-factor-ip", 5, MINUTE_S),
    recoveryPerIp: limiter("recovery-ip", 5, MINUTE_S),
    recoveryPerEmail: limiter("recovery-email", 5, MINUTE_S),
    manualDeliveriesPerSeller: limiter("manual-deliveries-seller", MANUAL_DELIVERIES_PER_MINUTE, MINUTE_S),
  };
}

/**
 * One Redis-backed limiter: `points` attempts per `durationSeconds` for each key, stored as
 * `<queuePrefix>:rl:<name>:<key>`.
 */
export function createRateLimiter(
  redis: RedisClient,
  queuePrefix: string,
  name: string,
  points: number,
  durationSeconds: number,
): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${queuePrefix}:rl:${name}`,
    points,
    duration: durationSeconds,
  });
}

/** The key of an address: SHA-256 of its normalised form, so Redis holds no email addresses. */
export function emailKey(email: string): string {
  return createHash("sha256").update(normalizeEmail(email), "utf8").digest("hex");
}

/** 429 `rate_limited` with `Retry-After` in whole seconds (at least 1) for a refusal `msBeforeNext` ms from its end. */
export function rateLimited(msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError("rate_limited", `Too many requests; try again in ${seconds} s.`, {
    headers: { "Retry-After": String(seconds) },
  });
}

/**
 * Counts one attempt on each `[limiter, key]` pair; refuses when any is over its limit.
 * @throws ApiError `rate_limited` with the longest `Retry-After` of the refusals; a Redis failure is rethrown (500)
 */
export async function consumeOrReject(
  limits: PanelRateLimits,
  ...buckets: [RateLimiterRedis, string][]
): Promise<void> {
  await whenSettled(limits.redis);
  const outcomes = await Promise.allSettled(buckets.map(([limiter, key]) => limiter.consume(key)));
  let wait = 0;
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") continue;
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    wait = Math.max(wait, outcome.reason.msBeforeNext);
  }
  if (wait > 0) throw rateLimited(wait);
}

/** Counts one attempt; whether it was within the limit (for limits that must not change the reply). */
export async function tryConsume(limits: PanelRateLimits, limiter: RateLimiterRedis, key: string): Promise<boolean> {
  await whenSettled(limits.redis);
  try {
    await limiter.consume(key);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}

/**
 * Runs a sign-in `attempt` under the sign-in limits (DESIGN §3): 5 a minute per IP and per normalised email, and
 * the lock after 20 failures in a row. A failure (`invalid_credentials`) extends the run; a completed sign-in ends
 * it. A right password that only opens a 2FA challenge does not: the run ends when the challenge is passed
 * ({@link endSignInFailureRun}), so knowing the password alone never clears the lock.
 * Unknown addresses count and lock alike, so neither the limits nor the lock reveal whether an account exists.
 * @param completes - whether a result is a completed sign-in (default: every result)
 * @throws ApiError `rate_limited` (429, `Retry-After`) when over a limit or locked; whatever `attempt` throws
 */
export async function limitSignIn<T>(
  limits: PanelRateLimits,
  input: { ip: string; email: string },
  attempt: () => Promise<T>,
  completes: (result: T) => boolean = () => true,
): Promise<T> {
  await consumeOrReject(limits, [limits.signInPerIp, input.ip], [limits.signInPerEmail, emailKey(input.email)]);
  await assertSignInNotLocked(limits, input.email);
  try {
    const result = await attempt();
    if (completes(result)) await endSignInFailureRun(limits, input.email);
    return result;
  } catch (err) {
    if (err instanceof ApiError && err.code === "invalid_credentials") await recordSignInFailure(limits, input.email);
    throw err;
  }
}

/** Ends the run of failed sign-ins of `email` (a sign-in completed, with its second factor when 2FA is on). */
export async function endSignInFailureRun(limits: PanelRateLimits, email: string): Promise<void> {
  await limits.signInFailures.delete(emailKey(email));
}

/**
 * Runs a second-factor `attempt` of account `userId` under its limit: 5 failed attempts a minute across challenges,
 * enrolment, step-up and disable (DESIGN §3); an attempt that succeeds is not counted. A wrong code (`invalid_mfa_code`) extends the account's run of wrong codes, and
 * when the run reaches {@link SECOND_FACTOR_WARNING_RUN} the owner is mailed, once per run; a success ends the run.
 * Nothing else (a right password, a new challenge, another address) touches either count.
 * @throws ApiError `rate_limited` (429, `Retry-After`) when over the limit; whatever `attempt` throws
 */
export async function limitSecondFactor<T>(
  limits: PanelRateLimits,
  deps: Parameters<typeof warnOfWrongSecondFactors>[0],
  userId: string,
  attempt: () => Promise<T>,
): Promise<T> {
  // Reserved before the check, so concurrent guesses cannot pass the limit together; a right code gives it back.
  await consumeOrReject(limits, [limits.secondFactorPerUser, userId]);
  try {
    const result = await attempt();
    await Promise.all([limits.secondFactorPerUser.reward(userId, 1), limits.secondFactorFailures.delete(userId)]);
    return result;
  } catch (err) {
    if (err instanceof ApiError && err.code === "invalid_mfa_code") {
      const run = await limits.secondFactorFailures.penalty(userId, 1);
      if (run.consumedPoints === SECOND_FACTOR_WARNING_RUN)
        await warnOfWrongSecondFactors(deps, userId, run.consumedPoints);
    }
    throw err;
  }
}

async function assertSignInNotLocked(limits: PanelRateLimits, email: string): Promise<void> {
  const state = await limits.signInFailures.get(emailKey(email));
  if (state && state.consumedPoints >= SIGN_IN_LOCK_FAILURES) throw rateLimited(state.msBeforeNext);
}

async function recordSignInFailure(limits: PanelRateLimits, email: string): Promise<void> {
  const key = emailKey(email);
  const state = await limits.signInFailures.penalty(key, 1);
  if (state.consumedPoints >= SIGN_IN_LOCK_FAILURES) await limits.signInFailures.block(key, SIGN_IN_LOCK_SECONDS);
}
