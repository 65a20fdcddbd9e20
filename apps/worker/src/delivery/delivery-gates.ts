/**
 * The Redis side of the delivery controls (DESIGN §16, the domain's `DeliveryGates`), shared by every worker process
 * on the same `QUEUE_PREFIX`: an endpoint's turn, a lock that the one attempt in flight of an ordered endpoint holds,
 * and its rate limit's schedule of start slots. Each key is one endpoint's and hashes on its own (no hash tag), so a
 * Redis Cluster spreads them, and every command or script touches that one key (DESIGN §10 "Redis"). Only endpoints
 * with controls ever reach these keys, so an endpoint without them costs Redis nothing more.
 *
 * **Rate limit: a schedule of start slots.** With a limit of `n` per second, wall-clock time is cut into slots of
 * `1000 / n` ms, numbered from the epoch, and slot `i` starts at `(i + ½) × 1000 / n` ms: each second holds exactly `n`
 * slots, evenly spaced, the first and last half a slot from its edges. An attempt reserves the next free slot (one
 * script, on Redis's own clock, so every worker agrees on the slots) and starts at its time, or not at all when it
 * would start too late (the domain's `takeTurn`); so no second ever sees more than `n` starts (no burst: an idle
 * endpoint's unused slots are gone), and an arrival a little late still lands in its own second, which a receiver
 * counting arrivals per second sees. A slot more than
 * {@link RESERVE_HORIZON_MS} ahead is not reserved: the job goes back to the queue until about its time, each such
 * job told a later time than the one before (a second cursor), so a backlog of thousands comes back `n` a second
 * instead of all at once. Excess attempts wait; none fails. The key names the limit, so a changed limit starts a new
 * schedule.
 */
import type { DeliveryGates } from "@lm/domain";
import type { RedisClient } from "@lm/queue";

/** How far ahead a start slot is reserved (the attempt waits for it in the process), ms. */
export const RESERVE_HORIZON_MS = 1_000;

/** Deletes KEYS[1] if it still holds ARGV[1]: a turn given back only by its holder. */
const GIVE_BACK = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0`;

/**
 * Reserves a start slot of KEYS[1] (a hash: `next`, the next free slot; `spread`, where the jobs sent back queue) for a
 * limit of ARGV[1] per second, within ARGV[2] ms: returns {1, the slot's time in µs since the epoch} when reserved,
 * else {0, ms until the job should look again}. TIME before a write is allowed: scripts replicate by their effects
 * (Redis 5 and later).
 */
const RESERVE_START = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = 1000 / tonumber(ARGV[1])
local horizon = tonumber(ARGV[2])
local state = redis.call("HMGET", KEYS[1], "next", "spread")
local slot = math.max(tonumber(state[1]) or 0, math.ceil(now / interval - 0.5))
local spread = tonumber(state[2]) or 0
local wait = (slot + 0.5) * interval - now
local reply
if wait <= horizon then
  redis.call("HSET", KEYS[1], "next", string.format("%.0f", slot + 1))
  reply = {1, math.floor((slot + 0.5) * interval * 1000)}
else
  spread = math.max(spread, slot) + 1
  redis.call("HSET", KEYS[1], "spread", string.format("%.0f", spread))
  reply = {0, math.ceil((spread - 0.5) * interval - now - horizon / 2)}
end
redis.call("PEXPIRE", KEYS[1], math.ceil(math.max(slot + 1, spread) * interval - now) + 2000)
return reply`;

/**
 * Creates the gates over `redis` (the worker's non-blocking connection).
 * @param prefix - `QUEUE_PREFIX`: processes sharing it share the gates, and test files never collide
 */
export function createDeliveryGates(redis: RedisClient, prefix: string): DeliveryGates {
  const turnKey = (endpointId: string) => `${prefix}:turn:${endpointId}`;
  const rateKey = (endpointId: string, perSecond: number) => `${prefix}:rate:${endpointId}:${perSecond}`;
  return {
    async reserveStart(endpointId, perSecond) {
      const [reserved, value] = (await redis.eval(
        RESERVE_START,
        1,
        rateKey(endpointId, perSecond),
        perSecond,
        RESERVE_HORIZON_MS,
      )) as [number, number];
      return reserved === 1 ? { reserved: true, at: value / 1000 } : { reserved: false, retryInMs: value };
    },
    async takeTurn(endpointId, holder, ttlMs) {
      return (await redis.set(turnKey(endpointId), holder, "PX", ttlMs, "NX")) === "OK";
    },
    async giveTurnBack(endpointId, holder) {
      await redis.eval(GIVE_BACK, 1, turnKey(endpointId), holder);
    },
  };
}
