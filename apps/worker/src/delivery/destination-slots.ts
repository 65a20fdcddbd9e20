/**
 * Isolation of destinations (DESIGN §8 "Isolation"): a destination that is slow or failing never holds more than a
 * bounded share of this worker's delivery slots, so it waits its own turn and never anyone else's.
 *
 * Each destination (an endpoint, or a postback URL's host) may run up to `fastLimit` attempts at once while it answers
 * quickly, and only `slowLimit` once it is slow: its recent attempts average over {@link SLOW_AFTER_MS}, or one of its
 * running attempts is already older than that (so a destination that starts hanging is recognised within a second,
 * not after its first 10 s timeout). A job over the limit does not wait in a slot: it goes back to the queue, delayed
 * until the destination's running attempts are expected to have made room: about one attempt's duration for a quick
 * destination, and for a slow one in waves of `slowLimit` jobs, so a hanging endpoint's backlog comes back at the pace
 * the endpoint can take instead of spinning.
 *
 * The limits are per worker process; with N workers a destination holds at most N × limit attempts at once.
 */

/** An attempt slower than this marks its destination as slow, ms. */
export const SLOW_AFTER_MS = 1_000;
/** Weight of the newest attempt in a destination's average duration. */
const AVERAGE_WEIGHT = 0.2;
/** Delay of a job sent back by a quick destination, ms: at least this, at most {@link FAST_MAX_DEFER_MS}. */
const FAST_MIN_DEFER_MS = 20;
const FAST_MAX_DEFER_MS = 500;
/** Longest delay of a job sent back to the queue, ms: a backlog never waits longer than this between looks. */
const MAX_DEFER_MS = 5 * 60_000;
/** A destination idle this long is forgotten, ms. */
const FORGET_AFTER_MS = 10 * 60_000;

/** A held slot; release it once, when the attempt has ended. */
export interface DestinationSlot {
  release(): void;
}

/** Per-destination attempt limits of one worker process. */
export interface DestinationSlots {
  /** A slot for an attempt to `destination`, or null when the destination is at its limit. */
  tryAcquire(destination: string): DestinationSlot | null;
  /** How long a job refused by {@link tryAcquire} should wait before it is tried again, ms. */
  deferralMs(destination: string): number;
  /** Attempts running now, per destination (for tests and metrics). */
  running(destination: string): number;
}

interface DestinationState {
  /** Start times (ms) of the attempts running now. */
  started: Set<number>;
  /** Moving average of attempt durations, ms. */
  averageMs: number;
  /** Jobs sent back and not yet due. */
  deferred: number;
  lastUsed: number;
}

/**
 * Creates the limits.
 * @param options.fastLimit - attempts at once to a destination that answers quickly (e.g. half the concurrency)
 * @param options.slowLimit - attempts at once to a slow destination (e.g. 2% of the concurrency, at least 1)
 */
export function createDestinationSlots(options: {
  fastLimit: number;
  slowLimit: number;
  now?: () => number;
}): DestinationSlots {
  const now = options.now ?? Date.now;
  const states = new Map<string, DestinationState>();
  let lastSweep = now();

  const stateOf = (destination: string): DestinationState => {
    const t = now();
    if (t - lastSweep > FORGET_AFTER_MS) {
      lastSweep = t;
      for (const [key, state] of states) {
        if (state.started.size === 0 && state.deferred === 0 && t - state.lastUsed > FORGET_AFTER_MS)
          states.delete(key);
      }
    }
    let state = states.get(destination);
    if (!state) {
      state = { started: new Set(), averageMs: 0, deferred: 0, lastUsed: t };
      states.set(destination, state);
    }
    state.lastUsed = t;
    return state;
  };
  const isSlow = (state: DestinationState, t: number) => {
    if (state.averageMs >= SLOW_AFTER_MS) return true;
    for (const startedAt of state.started) if (t - startedAt >= SLOW_AFTER_MS) return true;
    return false;
  };
  const limitOf = (state: DestinationState, t: number) => (isSlow(state, t) ? options.slowLimit : options.fastLimit);

  return {
    tryAcquire(destination) {
      const state = stateOf(destination);
      const t = now();
      if (state.started.size >= limitOf(state, t)) return null;
      // Two attempts started in the same millisecond still need two entries.
      let startedAt = t;
      while (state.started.has(startedAt)) startedAt += 0.001;
      state.started.add(startedAt);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          state.started.delete(startedAt);
          const duration = now() - startedAt;
          state.averageMs =
            state.averageMs === 0 ? duration : state.averageMs * (1 - AVERAGE_WEIGHT) + duration * AVERAGE_WEIGHT;
        },
      };
    },
    deferralMs(destination) {
      const state = stateOf(destination);
      const t = now();
      const jitter = 0.8 + Math.random() * 0.4;
      if (!isSlow(state, t)) {
        // A quick destination frees a slot within one of its attempts: look again then, oldest jobs first by chance.
        return Math.round(Math.min(FAST_MAX_DEFER_MS, Math.max(FAST_MIN_DEFER_MS, state.averageMs)) * jitter);
      }
      // A slow one frees its next wave after about one attempt's duration; jobs already sent back come first.
      const perWaveMs = Math.max(SLOW_AFTER_MS, state.averageMs);
      const wave = Math.floor(state.deferred / options.slowLimit) + 1;
      const delayMs = Math.min(MAX_DEFER_MS, Math.round(perWaveMs * wave * jitter));
      state.deferred += 1;
      setTimeout(() => {
        state.deferred -= 1;
      }, delayMs).unref();
      return delayMs;
    },
    running(destination) {
      return states.get(destination)?.started.size ?? 0;
    },
  };
}
